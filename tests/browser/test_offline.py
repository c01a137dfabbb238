"""Issue 20: the pad at a table with no signal. The service worker keeps the pads and the history
this phone opened, for as long as the session they were opened in lasts, and shows them when the
network cannot be reached or is slow to answer, marked as copies, with the pages' own security
headers; a copy gives way to the live page as soon as the server answers. What is typed waits in
the outbox (localStorage), which outlasts the page, and is sent once the network is back, exactly
once."""

from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from scoring.models import Change, Seat
from scoring.selectors import history as history_selectors
from scoring.views import games as game_views
from tests.browser.conftest import DEFAULT_TIMEOUT_MS
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    LAID_OUT_BEFORE_ITS_SCRIPTS,
    axe_violations,
    every_field_shown,
    expect_saved,
    field,
    host,
    make_game,
    sign_in,
    status,
    wait_until_all_saved,
)
from tests.support.factories import save_value

pytestmark = pytest.mark.browser

OFFLINE_COPY = re.compile(
    r"^Offline: showing the game as of \d\d:\d\d; what you type is kept and sent when you are back\.$"
)
HISTORY_COPY = re.compile(r"^Offline: showing your games as of \d\d:\d\d\.$")
# The headers by which a page protects itself (apiary_site/settings.py): its copy carries them too.
SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


def controlled(page: Page) -> None:
    """Waits until the service worker controls the page (it claims the pages of its first visit)."""
    page.evaluate("""() => navigator.serviceWorker.controller || new Promise((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }))""")


def lose_the_network(page: Page, browser_watch) -> None:
    """The phone loses the network: pages come from the service worker's copies, and whatever it
    asks the network for fails (Chromium logs each). Unlike ``pad_helpers.go_offline``, no save
    need fail: the history's journey types nothing."""
    browser_watch.allow_console_error(r"net::ERR_INTERNET_DISCONNECTED")
    browser_watch.allow_console_error(r"^htmx:(afterRequest|sendError),")
    page.context.set_offline(True)


def kept(page: Page, url: str) -> None:
    """The phone opens ``url`` and the service worker keeps it (it controls the page from the
    first visit on, and keeps a page as the network gives it)."""
    page.goto(url)
    controlled(page)
    page.reload()


def has_a_copy(page: Page, url: str) -> None:
    """The service worker holds a copy of ``url`` (in its caches: it keeps a page as the network
    gives it, a moment after): what a test that a copy is not shown must know first."""
    found = page.evaluate(
        """async ([url, tries]) => {
            for (let tried = 0; tried < tries; tried++) {
                for (const name of await caches.keys()) {
                    if (await (await caches.open(name)).match(url)) return true;
                }
                await new Promise((again) => setTimeout(again, 100));
            }
            return false;
        }""",
        [url, DEFAULT_TIMEOUT_MS // 100],
    )
    assert found, f"no copy of {url} was kept"


def not_shown(page: Page, url: str) -> None:
    """Offline, ``url`` does not open: the browser shows its own page saying so (the service worker
    had nothing to show in its place), nothing of the app."""
    with pytest.raises(PlaywrightError, match=r"net::ERR_(INTERNET_DISCONNECTED|FAILED)"):
        page.goto(url)
    expect(page.locator("#main")).to_have_count(0)


class SlowServer:
    """The server slow to answer one request: once ``arm``-ed, the next history page it is asked
    for is answered only when the test lets it (``let_it_answer``, or at its end); those after it
    at once."""

    def __init__(self, monkeypatch):
        self.held = threading.Event()  # a request is held
        self.answer = threading.Event()  # the test lets it go on
        self.answered = threading.Event()  # it is answered
        self.armed = False
        history_page = history_selectors.history_page

        def slow_history_page(*args, **kwargs):
            if self.armed:
                self.armed = False
                self.held.set()
                self.answer.wait(timeout=60)
            try:
                return history_page(*args, **kwargs)
            finally:
                if self.held.is_set():
                    self.answered.set()

        monkeypatch.setattr(game_views, "history_page", slow_history_page)

    def arm(self) -> None:
        self.armed = True

    def let_it_answer(self) -> None:
        self.answer.set()

    def close(self) -> None:
        """The held request ends before the test's database is emptied."""
        self.answer.set()
        if self.held.is_set():
            self.answered.wait(timeout=30)


@pytest.fixture
def slow_server(monkeypatch):
    server = SlowServer(monkeypatch)
    yield server
    server.close()


def session_storage(page: Page) -> list[str]:
    """What the phone keeps for its sessions in localStorage (static/scoring/store.js): the keys."""
    return [key for key in page.evaluate("Object.keys(localStorage)") if key.startswith("apiary:")]


def shown_pages(page: Page) -> None:
    """Each document the page shows from now on notes whether it was a copy, in the tab's
    sessionStorage (kept across reloads): ``shown(page)`` reads them, in order."""
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        const shown = JSON.parse(sessionStorage.getItem("shown") || "[]");
        shown.push(document.body.hasAttribute("data-offline-copy") ? "copy" : "live");
        sessionStorage.setItem("shown", JSON.stringify(shown));
    });""")


def shown(page: Page) -> list[str]:
    return page.evaluate("""JSON.parse(sessionStorage.getItem("shown") || "[]")""")


def test_a_pad_opened_before_opens_offline_and_what_is_typed_there_is_sent_once_when_back(
    page: Page, context, browser, phone, live_server, browser_watch
):
    """The phone opened the pad; the network goes; a reload shows the pad from the phone's copy,
    with its values and the offline sentence. Alice types two values, closes the page, and opens
    the pad again, still offline: both are there, waiting. The network comes back: both are
    stored, each exactly once, and another phone sees them."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    url = f"{live_server.url}/games/{game_id}/"
    page.goto(url)
    field(page, "recruits", "Bruno").fill("6")
    expect_saved(page, "s2-recruits")
    controlled(page)  # from its first visit on, the service worker controls the pad
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{live_server.url}/sw.js"
    page.reload()  # (the service worker now keeps the pad as the network gives it)
    expect(field(page, "recruits", "Bruno")).to_have_value("6")

    lose_the_network(page, browser_watch)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(OFFLINE_COPY)
    expect(field(page, "recruits", "Bruno")).to_have_value("6")

    field(page, "farm_income", "Alice").fill("12")
    field(page, "developments", "Alice").fill("4+5")
    expect(status(page, "s1-farm_income")).to_contain_text("retrying")  # (tried, and failed: no network)
    expect(status(page, "s1-developments")).to_contain_text("retrying")
    page.close()

    again = context.new_page()
    again.goto(url)
    expect(again.locator("#offline-copy")).to_be_visible()
    expect(field(again, "farm_income", "Alice")).to_have_value("12")
    expect(field(again, "developments", "Alice")).to_have_value("4+5")
    expect(status(again, "s1-farm_income")).to_contain_text("Not saved")
    expect(status(again, "s1-developments")).to_contain_text("Not saved")
    expect(again.locator("#ranking")).to_contain_text("Waiting for the network")
    assert not axe_violations(again, "the pad's offline copy, values waiting")
    # (Whether a save reached the server meanwhile is not asked: Chromium's offline emulation, and a
    # route's abort, let some of a service-worker-controlled page's requests through, reported as
    # failed. The page's word is what a player goes by, and "exactly once" is checked below.)

    # (the copy gives way to the live page as the server answers: its word is the live page's)
    context.set_offline(False)
    expect(again.locator("#offline-copy")).to_be_hidden()
    wait_until_all_saved(again)
    expect(field(again, "farm_income", "Alice")).to_have_value("12")
    expect(field(again, "developments", "Alice")).to_have_value("4+5")
    alice = Seat.objects.get(game__public_id=game_id, number=1)
    assert (alice.farm_income, alice.developments) == (12, 9)
    assert Change.objects.filter(seat=alice, field="farm_income").count() == 1
    assert Change.objects.filter(seat=alice, field="developments").count() == 1

    other = browser.new_context(**phone)
    sign_in(other, live_server.url)
    other_page = other.new_page()
    other_page.goto(url)
    expect(field(other_page, "farm_income", "Alice")).to_have_value("12", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(other_page, "developments", "Alice")).to_have_value("4+5")


def test_the_copy_opened_offline_shows_every_value_saved_or_received_before_the_network_went(
    page: Page, open_phone, live_server, browser_watch
):
    """The copy is the pad as the phone first loaded it; since then Alice saved her farm income,
    Bruno's phone his recruits, and the comb moved. Offline, the reopened pad shows all of it, its
    figures as the server last worked them out, and says of when."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    url = f"{live_server.url}/games/{game_id}/"
    page.add_init_script(LAID_OUT_BEFORE_ITS_SCRIPTS)  # (the copy is shown on a slow phone)
    kept(page, url)  # (the copy: before anything was entered)
    bruno = open_phone()
    bruno.goto(url)

    field(page, "farm_income", "Alice").fill("12")
    expect_saved(page, "s1-farm_income")
    field(bruno, "recruits", "Bruno").fill("6")
    page.get_by_role("textbox", name="Tokens in sector 1, Bruno", exact=True).fill("2")
    expect_saved(page, "s2-t0")
    expect(field(page, "recruits", "Bruno")).to_have_value("6", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(page.get_by_label("Total, Bruno", exact=True)).to_have_text("17")  # 2 + 6 + 9 for the sector

    lose_the_network(page, browser_watch)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(OFFLINE_COPY)
    expect(field(page, "farm_income", "Alice")).to_have_value("12")
    expect(field(page, "recruits", "Bruno")).to_have_value("6")
    expect(page.get_by_role("textbox", name="Tokens in sector 1, Bruno", exact=True)).to_have_value("2")
    expect(page.get_by_label("Total, Alice", exact=True)).to_have_text("13")
    expect(page.get_by_label("Total, Bruno", exact=True)).to_have_text("17")
    expect(page.locator("#pad .unsaved")).to_have_count(0)  # (nothing waits: all of it was saved)
    every_field_shown(page)


def test_the_history_this_phone_last_saw_opens_offline(page: Page, live_server, browser_watch):
    """The history page, opened once online, opens offline from the phone's copy, saying so."""
    make_game(["Alice", "Bruno"])
    kept(page, f"{live_server.url}/")
    lose_the_network(page, browser_watch)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(HISTORY_COPY)
    expect(page.get_by_text("Alice")).not_to_have_count(0)


def test_online_a_page_always_comes_from_the_network(page: Page, live_server):
    """Online, the copy is never shown: a value saved elsewhere is on the pad as soon as it is
    reloaded, and no offline sentence shows."""
    game_id = make_game(["Alice", "Bruno"])
    url = f"{live_server.url}/games/{game_id}/"
    kept(page, url)
    seat = Seat.objects.get(game__public_id=game_id, number=2)
    save_value(seat=seat, key="recruits", value=7)
    page.reload()
    expect(field(page, "recruits", "Bruno")).to_have_value("7")
    expect(page.locator("#offline-copy")).to_be_hidden()


def test_signing_out_forgets_the_copies(page: Page, live_server, browser_watch):
    """A phone signed out keeps no copy of the account's pads: offline, the pad cannot open."""
    game_id = make_game(["Alice", "Bruno"])
    url = f"{live_server.url}/games/{game_id}/"
    kept(page, url)
    has_a_copy(page, url)
    page.locator(".nav-account summary").click()  # the account's menu
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/accounts/logout/|/$|/accounts/login/"))
    lose_the_network(page, browser_watch)
    not_shown(page, url)


def test_a_new_version_takes_over_on_the_next_visit_and_says_so(page: Page, live_server, monkeypatch):
    """The app is deployed again (its service worker's version changes): the next page the phone
    opens brings the new version in, which takes over and says so."""
    from scoring.views import offline

    page.goto(f"{live_server.url}/")
    controlled(page)
    first = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    expect(page.locator("#app-updated")).to_be_hidden()
    monkeypatch.setattr(offline, "_version", lambda: "a-new-version")
    page.reload()
    expect(page.locator("#app-updated")).to_have_text(
        "The scorepad has been updated: the pages you open from now on are its new version."
    )
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == first


def test_a_session_ended_elsewhere_leaves_nothing_of_it_to_the_next_person(page: Page, live_server, browser_watch):
    """The phone keeps a pad and the history, and has a value of the pad waiting to be sent. The
    account's password is changed on another device, which ends the phone's session at its next
    request: the phone opens a page online, signed out now, and nothing of that session is left
    on it. Offline, neither the pad nor the history opens, and its waiting value is gone."""
    game_id = make_game(["Alice", "Bruno"])
    pad_url = f"{live_server.url}/games/{game_id}/"
    kept(page, pad_url)
    kept(page, f"{live_server.url}/")
    page.evaluate(
        """async (game) => {
        const { Outbox } = await import(new URL("store.js", document.querySelector("script[src$='/offline.js']").src));
        new Outbox(localStorage, document.body.dataset.sessionTag, game).put("s1-recruits", { value: "4", base: 0 });
    }""",
        game_id,
    )  # (as the pad keeps a value typed offline)
    assert session_storage(page)

    user = host()
    user.set_password("a-new-pass-phrase-chosen-on-another-device")
    user.save()
    page.goto(f"{live_server.url}/games/new/")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    assert session_storage(page) == []

    lose_the_network(page, browser_watch)
    not_shown(page, pad_url)
    not_shown(page, f"{live_server.url}/")


def test_a_copy_is_never_shown_past_its_sessions_expiry(page: Page, live_server, browser_watch, settings):
    """A page is kept until its session expires (X-Keep-Until): past it, offline, its copy does
    not open. (A session of no age: the history is past its expiry as soon as it is kept.)"""
    page.goto(f"{live_server.url}/")
    controlled(page)
    settings.SESSION_COOKIE_AGE = 0
    page.reload()
    has_a_copy(page, f"{live_server.url}/")  # (kept, its expiry already past)
    lose_the_network(page, browser_watch)
    not_shown(page, f"{live_server.url}/")


def test_a_copy_is_served_with_the_security_headers_of_the_page_it_copies(page: Page, live_server, browser_watch):
    """The history's copy carries the Content Security Policy, X-Frame-Options, nosniff and
    Referrer-Policy of the page as the server sent it."""
    page.goto(f"{live_server.url}/")
    controlled(page)
    online = page.reload()
    lose_the_network(page, browser_watch)
    copy = page.reload()
    expect(page.locator("#offline-copy")).to_have_text(HISTORY_COPY)

    assert copy.from_service_worker
    sent, served = online.all_headers(), copy.all_headers()
    for name in SECURITY_HEADERS:
        assert served.get(name) == sent[name], name


def test_a_copy_shown_because_the_server_is_slow_gives_way_when_its_answer_comes(
    page: Page, live_server, settings, slow_server
):
    """The server takes longer than PAD_NETWORK_WAIT_MS to answer: the phone shows the history's
    copy, saying so, and keeps waiting. A player is in the copy's Player field when the answer
    comes: the copy stays while the field has the focus, and gives way to the live page (with the
    game started meanwhile) once the player leaves it."""
    settings.PAD_NETWORK_WAIT_MS = 500
    settings.PAD_POLL_MS = 600_000  # (the copy does not ask the server itself here: the worker tells it)
    make_game(["Alice", "Bruno"])
    kept(page, f"{live_server.url}/")
    make_game(["Carla", "Dario"])  # (on another phone, meanwhile)

    slow_server.arm()
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(HISTORY_COPY)
    expect(page.get_by_text("Carla")).to_have_count(0)
    page.get_by_text("Find games").click()
    page.get_by_label("Player", exact=True).focus()
    page.evaluate("""() => navigator.serviceWorker.addEventListener("message", (event) => {
        window.toldByTheWorker = event.data; })""")  # (heard after offline.js, which listens first)
    slow_server.let_it_answer()
    page.wait_for_function("() => window.toldByTheWorker")
    assert not page.evaluate("""async () => (await import(document.querySelector("script[src$='/offline.js']").src))
        .givingWay()""")
    expect(page.locator("#offline-copy")).to_be_visible()

    page.get_by_label("Player", exact=True).blur()
    expect(page.get_by_text("Carla")).not_to_have_count(0)
    expect(page.locator("#offline-copy")).to_be_hidden()
    expect(page.locator("body[data-offline-copy]")).to_have_count(0)


def test_a_copy_asks_the_server_and_gives_way_as_soon_as_it_answers(page: Page, live_server, settings):
    """The server cannot be reached for a moment, the phone still online: the phone shows the
    history's copy, which asks the server itself (every PAD_POLL_MS) and, the server answering
    again, gives way to the live page, with the game started meanwhile."""
    settings.PAD_POLL_MS = 200
    make_game(["Alice", "Bruno"])
    kept(page, f"{live_server.url}/")
    make_game(["Carla", "Dario"])  # (on another phone, meanwhile)
    shown_pages(page)

    # (the service worker's request for the page fails once, as if the server were out of reach)
    page.context.route(f"{live_server.url}/", lambda route: route.abort("addressunreachable"), times=1)
    page.reload()
    expect(page.get_by_text("Carla")).not_to_have_count(0)
    expect(page.locator("#offline-copy")).to_be_hidden()
    assert shown(page) == ["copy", "live"]


def test_the_history_copy_gives_way_once_the_server_answers_again(page: Page, live_server, browser_watch):
    """The history's copy, shown offline, says so; the phone is back online and the server
    answers: the live page takes its place, and the offline sentence goes. (The copy asks the
    server every PAD_POLL_MS: whether the browser also says it is back online is its own affair,
    proved below.)"""
    kept(page, f"{live_server.url}/")
    lose_the_network(page, browser_watch)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(HISTORY_COPY)

    page.context.set_offline(False)
    expect(page.locator("#offline-copy")).to_be_hidden()
    expect(page.locator("body[data-offline-copy]")).to_have_count(0)


# What the browser says when the server may answer again, as a phone's does: each makes a copy ask
# at once. (Dispatched here: an emulated network's coming back fires "online" in some versions of
# Chromium only, and a headless page is never hidden nor shown again.)
BACK_ONLINE = "window.dispatchEvent(new Event('online'))"
SHOWN_AGAIN = "document.dispatchEvent(new Event('visibilitychange'))"
FROM_THE_BACK_FORWARD_CACHE = "window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))"


@pytest.mark.parametrize(
    "told", [BACK_ONLINE, SHOWN_AGAIN, FROM_THE_BACK_FORWARD_CACHE], ids=["online", "shown-again", "back-forward"]
)
def test_a_copy_asks_the_server_as_soon_as_the_browser_says_it_may_answer(page: Page, live_server, settings, told: str):
    """The server could not be reached, so the phone shows the history's copy; the server is
    reachable again, and the browser says something that may mean so (back online, the page shown
    again, the page back from the back/forward cache): the copy asks at once, and gives way to the
    live page with the game started meanwhile. Its interval is ten minutes away: only the event
    makes it ask."""
    settings.PAD_POLL_MS = 600_000
    make_game(["Alice", "Bruno"])
    kept(page, f"{live_server.url}/")
    make_game(["Carla", "Dario"])  # (on another phone, meanwhile)
    shown_pages(page)
    page.context.route(f"{live_server.url}/", lambda route: route.abort("addressunreachable"), times=1)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(HISTORY_COPY)

    page.evaluate(told)
    expect(page.get_by_text("Carla")).not_to_have_count(0)
    expect(page.locator("#offline-copy")).to_be_hidden()
    assert shown(page) == ["copy", "live"]

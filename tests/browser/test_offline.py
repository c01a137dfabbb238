"""Issue 20: the pad at a table with no signal. The service worker keeps the pads and the history
this phone opened, and shows them when the network cannot be reached, marked as copies; what is
typed waits in the outbox (localStorage), which outlasts the page, and is sent once the network
is back, exactly once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from scoring.models import Change, Seat
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    axe_violations,
    expect_saved,
    field,
    make_game,
    sign_in,
    status,
)
from tests.factories import save_value

pytestmark = pytest.mark.browser

OFFLINE_COPY = re.compile(r"^Offline: showing the game as of \d\d:\d\d; what you type is kept and sent when you are back\.$")


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


def test_a_pad_opened_before_opens_offline_and_what_is_typed_there_is_sent_once_when_back(
        page: Page, context, browser, phone, live_server, browser_watch):
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

    context.set_offline(False)
    expect_saved(again, "s1-farm_income")
    expect_saved(again, "s1-developments")
    expect(again.locator("#offline-copy")).to_be_hidden()
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


def test_the_history_this_phone_last_saw_opens_offline(page: Page, live_server, browser_watch):
    """The history page, opened once online, opens offline from the phone's copy, saying so."""
    make_game(["Alice", "Bruno"])
    page.goto(f"{live_server.url}/")
    controlled(page)
    page.reload()
    lose_the_network(page, browser_watch)
    page.reload()
    expect(page.locator("#offline-copy")).to_have_text(re.compile(r"^Offline: showing your games as of \d\d:\d\d\.$"))
    expect(page.get_by_text("Alice")).not_to_have_count(0)


def test_online_a_page_always_comes_from_the_network(page: Page, live_server):
    """Online, the copy is never shown: a value saved elsewhere is on the pad as soon as it is
    reloaded, and no offline sentence shows."""
    game_id = make_game(["Alice", "Bruno"])
    url = f"{live_server.url}/games/{game_id}/"
    page.goto(url)
    controlled(page)
    page.reload()
    seat = Seat.objects.get(game__public_id=game_id, number=2)
    save_value(seat=seat, key="recruits", value=7)
    page.reload()
    expect(field(page, "recruits", "Bruno")).to_have_value("7")
    expect(page.locator("#offline-copy")).to_be_hidden()


def test_signing_out_forgets_the_copies(page: Page, live_server, browser_watch):
    """A phone signed out keeps no copy of the account's pads: offline, the pad cannot open."""
    game_id = make_game(["Alice", "Bruno"])
    url = f"{live_server.url}/games/{game_id}/"
    page.goto(url)
    controlled(page)
    page.reload()
    page.locator(".nav-account summary").click()  # the account's menu
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/accounts/logout/|/$|/accounts/login/"))
    lose_the_network(page, browser_watch)
    with pytest.raises(PlaywrightError):
        page.goto(url)


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
        "The scorepad has been updated: the pages you open from now on are its new version.")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == first

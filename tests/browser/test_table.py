"""The pad's promises, as a table of players breaks them: several phones on one game, taps at
the same moment, a stale page, a game deleted or a session expired under a phone, a reload in
the middle of typing, Back and Forward, a phone without JavaScript, a lost connection.

Each test is one situation at the table, told in its docstring; what the pages show is waited
for with ``expect``, and what is stored is then read from the database. Other phones are either
real browser contexts or the services that their saves go through.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Change, Game, Seat
from scoring.services import pad as pad_services
from tests.browser.conftest import DEFAULT_TIMEOUT_MS
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    SMALL_PHONE,
    back_online,
    banner,
    error,
    expect_saved,
    field,
    go_offline,
    make_game,
    minus,
    pad_ready,
    plus,
    refused_save,
    sign_in,
    status,
    total,
    wait_until_all_saved,
)
from tests.support.factories import save_value, save_workers

pytestmark = pytest.mark.browser

LIVE = "**/live/**"  # the pad's polling of what other phones saved


# -- Phones at the table ------------------------------------------------------------------------


def pad_url(base: str, game_id: int) -> str:
    return f"{base}/games/{game_id}/"


def seat(game_id: int, number: int) -> Seat:
    return Seat.objects.get(game__public_id=game_id, number=number)


def cell_of(page: Page, key: str, name: str):
    """The grid cell that holds a field (it is marked when another phone changed the field)."""
    return page.locator(".cell").filter(has=field(page, key, name))


def stop_polling(page: Page) -> None:
    """This phone hears nothing from the others: each of its polls is answered "nothing new"
    (304, as the server answers when no phone saved), so its page stays as it was loaded."""
    page.context.route(LIVE, lambda route: route.fulfill(status=304))


def resume_polling(page: Page) -> None:
    page.context.unroute(LIVE)


def breakdown_cell(page: Page, label: str, column: int):
    """A player’s VP in one row of the results' breakdown table (column 0: seat 1), the row named by
    its short label (its full one a tap away, in the row's help)."""
    row = page.locator("table.breakdown tr").filter(has=page.locator("th").get_by_text(label, exact=True))
    return row.get_by_role("cell").nth(column)


# -- 1. Two phones, one game: each sees the other's saves --------------------------------------


def test_a_save_on_one_phone_shows_on_the_other(open_phone, live_server):
    """Alice's phone (A) and Bruno's phone (B) score the same game. A types Alice's farm income
    12: within a poll or two B's field shows 12, B's total for Alice agrees (1 starting VP + 12), and B's
    cell is marked as changed elsewhere. B types Bruno's recruits 5, and A sees it the same way."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    a, b = open_phone(), open_phone()
    for page in (a, b):
        page.goto(pad_url(live_server.url, game_id))
        expect(field(page, "farm_income", "Alice")).to_have_value("")
        expect(total(page, "Alice")).to_have_text("1")

    field(a, "farm_income", "Alice").fill("12")
    expect_saved(a, "s1-farm_income")
    expect(field(b, "farm_income", "Alice")).to_have_value("12", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(cell_of(b, "farm_income", "Alice")).to_have_class(re.compile(r"\bchanged-elsewhere\b"))
    expect(total(b, "Alice")).to_have_text("13")
    assert seat(game_id, 1).farm_income == 12

    field(b, "recruits", "Bruno").fill("5")
    expect_saved(b, "s2-recruits")
    expect(field(a, "recruits", "Bruno")).to_have_value("5", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(cell_of(a, "recruits", "Bruno")).to_have_class(re.compile(r"\bchanged-elsewhere\b"))
    expect(total(a, "Bruno")).to_have_text("7")  # 2 starting VP + 5
    assert seat(game_id, 2).recruits == 5

    # The mark fades: it says "just changed", not "different".
    expect(cell_of(b, "farm_income", "Alice")).not_to_have_class(re.compile(r"\bchanged-elsewhere\b"))
    expect(field(a, "farm_income", "Alice")).to_have_value("12")
    expect(field(b, "recruits", "Bruno")).to_have_value("5")


def test_a_value_that_comes_for_the_field_a_player_is_in_shows_once_they_leave_it(open_phone, live_server):
    """Issue 47, point 7: A's player is in Alice's farm income (nothing typed) as B saves 12
    there. Nothing changes under A's fingers, and nothing is lost either: the poll has moved A's
    page on past B's save, and once A's player leaves the field it shows 12 (it used to stay
    empty until a reload)."""
    game_id = make_game(["Alice", "Bruno"])
    a, b = open_phone(), open_phone()
    for page in (a, b):
        page.goto(pad_url(live_server.url, game_id))
        pad_ready(page)
    a_field = field(a, "farm_income", "Alice")
    a_field.focus()

    field(b, "farm_income", "Alice").fill("12")
    expect_saved(b, "s1-farm_income")
    expect(a.locator("[data-pad]")).to_have_attribute("data-revision", "1", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(a_field).to_have_value("")
    expect(a_field).to_be_focused()

    a_field.press("Tab")
    expect(a_field).to_have_value("12")
    expect(total(a, "Alice")).to_have_text("13")


def test_a_page_drawn_a_moment_before_its_phones_last_save_shows_that_save(browser, phone, live_server):
    """Issue 47, point 7, as a slow phone met it: a reload while a save was on its way, the old
    page heard the answer (its outbox emptied) and the server drew the new page a moment before
    the save was stored. The new page shows the saved value from its first moments, the player
    back in the field, and nothing is sent twice."""
    context = browser.new_context(**phone, service_workers="block")  # (every request through page.route)
    sign_in(context, live_server.url)
    page = context.new_page()
    game_id = make_game(["Alice", "Bruno"])
    page.goto(pad_url(live_server.url, game_id))
    pad_ready(page)
    drawn_before = page.context.request.get(pad_url(live_server.url, game_id)).text()  # (the game at revision 0)
    farm_income = field(page, "farm_income", "Alice")
    farm_income.fill("7+2")
    expect_saved(page, "s1-farm_income")
    assert seat(game_id, 1).farm_income == 9

    page.route(
        pad_url(live_server.url, game_id), lambda route: route.fulfill(body=drawn_before, content_type="text/html")
    )
    page.reload()
    pad_ready(page)

    expect(farm_income).to_have_value("7+2")
    expect(farm_income).to_be_focused()
    expect(status(page, "s1-farm_income")).to_contain_text("= 9")
    expect(total(page, "Alice")).to_have_text("10")
    expect(banner(page)).to_be_hidden()
    assert Change.objects.filter(game__public_id=game_id, field="farm_income").count() == 1
    context.close()


# A page the test can hide and show again, as a phone put in a pocket or behind another app
# (Chromium headless keeps every page visible: the page's own visibilityState is the test's). It
# counts the polls it sends (htmx's beforeSend on #live), in the page: what the page did is known
# as soon as the clock has run, with no wait for the network's events.
HIDEABLE = """
let hidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
                      {configurable: true, get: () => hidden ? "hidden" : "visible"});
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => hidden});
window.__setHidden = (value) => { hidden = value; document.dispatchEvent(new Event("visibilitychange")); };
window.__polls = 0;
document.addEventListener("htmx:beforeSend", (event) => { if (event.detail.elt.id === "live") window.__polls += 1; });
"""


def test_a_hidden_phone_does_not_poll_and_asks_at_once_when_shown_again(open_phone, live_server, settings):
    """Bruno's phone goes into his pocket: it asks the server nothing while hidden. Alice saves
    meanwhile; shown again, Bruno's phone asks at once, not at its next poll (ten minutes away
    here), and shows her value. (The page's clock is the test's: several polls' worth of time
    pass in an instant, and every timer due in them has fired.)"""
    bruno = open_phone()
    bruno.context.add_init_script(HIDEABLE)
    bruno.clock.install()
    game_id = make_game(["Alice", "Bruno"])
    bruno.goto(pad_url(live_server.url, game_id))
    polls = "window.__polls"
    bruno.clock.run_for(settings.PAD_POLL_MS * 3)
    assert bruno.evaluate(polls) >= 1, "the shown page polls"  # (htmx drops a poll while one is on its way)

    bruno.evaluate("window.__setHidden(true)")
    before = bruno.evaluate(polls)
    bruno.clock.run_for(settings.PAD_POLL_MS * 4)
    assert bruno.evaluate(polls) == before, "a hidden page polled"

    settings.PAD_POLL_MS = 600_000
    bruno.reload()
    bruno.evaluate("window.__setHidden(true)")
    save_value(seat=seat(game_id, 1), key="farm_income", value=12)  # Alice's phone
    bruno.evaluate("window.__setHidden(false)")
    expect(field(bruno, "farm_income", "Alice")).to_have_value("12")
    assert bruno.evaluate(polls) == 1


# -- 2. Two taps on one stepper at the same moment ----------------------------------------------


def test_two_phones_tapping_plus_together_add_two(open_phone, live_server):
    """Two small phones show Alice's 3 farms and 1 active worker. Both tap + on Alice's farms,
    and both press the up arrow in her active workers (the keyboard's step, for cells too
    narrow for buttons), before either could hear of the other's change: each is a step applied
    to the stored value, so 3 + 1 + 1 = 5 farms and 1 + 1 + 1 = 3 workers are stored, and both
    pages end up showing them (and Alice's total). Both tapping − then takes two away."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    alice = seat(game_id, 1)
    save_value(seat=alice, key="farms", value=3)
    save_workers(seat=alice, workers=1)
    phones = [open_phone(**SMALL_PHONE), open_phone(**SMALL_PHONE)]
    for page in phones:
        stop_polling(page)  # neither phone can learn of the other's change before making its own
        page.goto(pad_url(live_server.url, game_id))
        expect(field(page, "farms", "Alice")).to_have_value("3")
        expect(field(page, "active_workers", "Alice")).to_have_value("1")
        expect(total(page, "Alice")).to_have_text("4")  # 1 starting VP + 3 farms

    for page in phones:
        plus(page, "f-s1-farms").tap()
        field(page, "active_workers", "Alice").press("ArrowUp")
    for page in phones:
        field(page, "active_workers", "Alice").blur()  # a field being edited is left alone by polls
        wait_until_all_saved(page)
        expect_saved(page, "s1-farms")
        expect_saved(page, "s1-active_workers")
    stored = seat(game_id, 1)
    assert (stored.farms, stored.active_workers) == (5, 3)

    for page in phones:
        resume_polling(page)
    for page in phones:  # each hears of the other's steps by a poll
        expect(field(page, "farms", "Alice")).to_have_value("5", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(field(page, "active_workers", "Alice")).to_have_value("3", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(total(page, "Alice")).to_have_text("6")  # 1 starting VP + 5 farms

    for page in phones:
        minus(page, "f-s1-farms").tap()
    for page in phones:
        wait_until_all_saved(page)
    assert seat(game_id, 1).farms == 3
    for page in phones:  # the first to save hears of the second's step by a poll
        expect(field(page, "farms", "Alice")).to_have_value("3", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(total(page, "Alice")).to_have_text("4")


# -- 3. Finishing on a phone that has not heard of the last saves -------------------------------


def test_finishing_on_a_stale_phone_keeps_the_other_phones_saves(open_phone, live_server):
    """B loads the pad and hears nothing more (its polling is cut). A saves Alice's farms 10 and
    recruits 20. B, whose page still shows them empty, taps "Finish the game" (and "Finish
    anyway", as categories nobody entered remain): finishing writes none of B's stale values,
    so the stored game keeps 10 and 20, and the results show them."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    a, b = open_phone(), open_phone()
    stop_polling(b)
    b.goto(pad_url(live_server.url, game_id))
    a.goto(pad_url(live_server.url, game_id))

    field(a, "farms", "Alice").fill("10")
    field(a, "recruits", "Alice").fill("20")
    expect_saved(a, "s1-farms")
    expect_saved(a, "s1-recruits")
    assert (seat(game_id, 1).farms, seat(game_id, 1).recruits) == (10, 20)
    expect(field(b, "farms", "Alice")).to_have_value("")  # B's page is stale
    expect(field(b, "recruits", "Alice")).to_have_value("")

    b.get_by_role("button", name="Finish the game", exact=True).click()
    confirm = b.locator("#finish-confirm")
    expect(confirm).to_contain_text("Farm income")  # nobody entered it: it counts as 0
    expect(confirm).not_to_contain_text("Farms built")  # A entered it, even if B's page did not show it
    confirm.get_by_role("button", name="Finish anyway", exact=True).click()

    expect(b).to_have_url(re.compile(rf"/games/{game_id}/results/$"))
    expect(breakdown_cell(b, "Farms built", 0)).to_have_text("10")
    expect(breakdown_cell(b, "Recruits built", 0)).to_have_text("20")
    expect(breakdown_cell(b, "Total", 0)).to_have_text("31")  # 1 + 10 + 20
    stored = seat(game_id, 1)
    assert (stored.farms, stored.recruits) == (10, 20)
    assert Game.objects.get(public_id=game_id).is_finished


# -- 4. Typing over a value another phone saved -------------------------------------------------


def test_a_conflict_is_shown_and_never_silently_overwritten(open_phone, live_server, browser_watch):
    """Both phones show Alice's and Bruno's developments empty. B hears nothing more (polling
    cut), so its page stays stale. A saves Alice 9 and Bruno 4. B then types Alice 7 and Bruno 6:
    both saves are refused, B is told under each field that it changed on another phone (with
    Keep mine / Use …), B's typed values stay on screen and the database keeps 9 and 4.
    "Keep mine" for Alice then stores 7; "Use 4" for Bruno shows 4 and stores nothing."""
    game_id = make_game(["Alice", "Bruno"])
    a, b = open_phone(), open_phone()
    stop_polling(b)
    for page in (a, b):
        page.goto(pad_url(live_server.url, game_id))
        expect(field(page, "developments", "Alice")).to_have_value("")
        expect(field(page, "developments", "Bruno")).to_have_value("")

    field(a, "developments", "Alice").fill("9")
    field(a, "developments", "Bruno").fill("4")
    expect_saved(a, "s1-developments")
    expect_saved(a, "s2-developments")
    field(a, "developments", "Bruno").blur()

    browser_watch.expect_console_error(refused_save(409))  # B's stale saves
    field(b, "developments", "Alice").fill("7")
    field(b, "developments", "Bruno").fill("6")
    alice_error, bruno_error = error(b, "s1-developments"), error(b, "s2-developments")
    expect(alice_error).to_be_visible()
    expect(alice_error).to_contain_text("Developments built, Alice")
    expect(alice_error).to_contain_text("changed on another phone to 9")
    expect(bruno_error).to_contain_text("changed on another phone to 4")
    expect(field(b, "developments", "Alice")).to_have_value("7")
    expect(field(b, "developments", "Bruno")).to_have_value("6")
    expect(field(b, "developments", "Alice")).to_have_attribute("aria-invalid", "true")
    stored = seat(game_id, 1), seat(game_id, 2)
    assert (stored[0].developments, stored[1].developments) == (9, 4)

    alice_error.get_by_role("button", name="Keep mine", exact=True).click()
    expect_saved(b, "s1-developments")
    expect(alice_error).to_be_hidden()
    expect(field(b, "developments", "Alice")).to_have_value("7")
    assert seat(game_id, 1).developments == 7

    bruno_error.get_by_role("button", name="Use 4", exact=True).click()
    expect(field(b, "developments", "Bruno")).to_have_value("4")
    expect(bruno_error).to_be_hidden()
    expect(field(b, "developments", "Bruno")).not_to_have_attribute("aria-invalid", "true")
    wait_until_all_saved(b)
    assert seat(game_id, 2).developments == 4

    # A, which saved 9 for Alice, hears of B's deliberate 7.
    expect(field(a, "developments", "Alice")).to_have_value("7", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(field(a, "developments", "Bruno")).to_have_value("4")


# -- 5. The game is deleted under a phone -------------------------------------------------------


def test_a_save_to_a_deleted_game_says_so_and_keeps_the_value(page: Page, live_server, browser_watch):
    """The pad is open; another phone deletes the game. Typing a value then gets a 404: the
    banner says the game is no longer here, and the typed value stays on screen, marked as not
    saved (to be noted before leaving)."""
    game_id = make_game(["Alice", "Bruno"])
    stop_polling(page)  # so that the save, not a poll, is the first to learn of it
    page.goto(pad_url(live_server.url, game_id))
    farm_income = field(page, "farm_income", "Alice")
    expect(farm_income).to_be_visible()
    Game.objects.filter(public_id=game_id).delete()
    browser_watch.expect_console_error(refused_save(404))

    with page.expect_response(lambda response: "/save/" in response.url) as answer:
        farm_income.fill("12")
    assert answer.value.status == 404
    expect(banner(page)).to_be_visible()
    expect(banner(page)).to_contain_text("This game can no longer be reached from here")
    expect(farm_income).to_have_value("12")
    expect(farm_income).to_have_class(re.compile(r"\bunsaved\b"))
    expect(status(page, "s1-farm_income")).to_contain_text("Not saved")


# -- 6. The session expires under a phone --------------------------------------------------------


def test_an_expired_session_offers_a_reload_that_saves_the_value(page: Page, context, live_server, browser_watch):
    """The pad is open, then the phone loses its CSRF cookie (it expired). Typing a
    value gets a 403: the banner says the session expired and offers Reload, and the value stays.
    Reload (accepting the leave-page warning) puts the value back from the tab's storage and
    saves it: the database has it and the field says Saved."""
    game_id = make_game(["Alice", "Bruno"])
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(pad_url(live_server.url, game_id))
    farm_income = field(page, "farm_income", "Alice")
    expect(farm_income).to_be_visible()
    context.clear_cookies(name="csrftoken")
    browser_watch.expect_console_error(refused_save(403))

    with page.expect_response(lambda response: "/save/" in response.url) as answer:
        farm_income.fill("12")
    assert answer.value.status == 403
    expect(banner(page)).to_contain_text("Your session expired")
    reload = banner(page).get_by_role("button", name="Reload", exact=True)
    expect(reload).to_be_visible()
    expect(farm_income).to_have_value("12")
    assert seat(game_id, 1).farm_income is None

    with page.expect_navigation():
        reload.click()
    expect_saved(page, "s1-farm_income")
    expect(field(page, "farm_income", "Alice")).to_have_value("12")
    expect(total(page, "Alice")).to_have_text("13")
    expect(banner(page)).to_be_hidden()
    assert seat(game_id, 1).farm_income == 12


# -- 7. A reload in the middle of typing -------------------------------------------------------


def test_a_reload_while_a_save_is_on_its_way_keeps_the_value_stored_once(page: Page, live_server):
    """A player types Alice's farm income 12 and moves on; the save reaches the server, which
    stores it, but the page reloads (accepting the leave-page warning) before its answer arrives,
    so the phone never heard it. The reopened page sends it again from what it kept: the field
    shows 12 and says Saved, with no conflict, and 12 is stored once.

    (A value still being typed when the page reloads is test_typing's: it goes on being typed.)"""
    game_id = make_game(["Alice", "Bruno"])
    page.on("dialog", lambda dialog: dialog.accept())
    stored_unheard: list[int] = []

    def hold_the_first_answer(route):
        if stored_unheard:
            route.continue_()
            return
        stored_unheard.append(route.fetch().status)  # (the server has it; the page is never answered)

    page.route("**/save/", hold_the_first_answer)
    page.goto(pad_url(live_server.url, game_id))
    farm_income = field(page, "farm_income", "Alice")
    farm_income.fill("12")
    farm_income.press("Tab")
    for _ in range(DEFAULT_TIMEOUT_MS // 50):
        if stored_unheard:
            break
        page.wait_for_timeout(50)  # (the route's handler runs while the page waits)
    assert stored_unheard == [200] and seat(game_id, 1).farm_income == 12
    page.reload()

    farm_income = field(page, "farm_income", "Alice")
    expect(farm_income).to_have_value("12")
    expect_saved(page, "s1-farm_income")
    wait_until_all_saved(page)
    expect(error(page, "s1-farm_income")).to_be_hidden()
    expect(total(page, "Alice")).to_have_text("13")
    expect(banner(page)).to_be_hidden()
    assert seat(game_id, 1).farm_income == 12
    assert Change.objects.filter(game__public_id=game_id, field="farm_income").count() == 1


# -- 8. Back and Forward ------------------------------------------------------------------------


def test_back_and_forward_show_fresh_values(page: Page, live_server):
    """From the list of games the player opens the pad, types Alice's farm income 12 and waits
    for Saved, then goes Back: the list shows Alice's new total (13). Meanwhile another phone
    saves Bruno's recruits 5; Forward shows the pad with Bruno's 5 and his new total (7), and
    Alice's 12 still there."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    page.goto(f"{live_server.url}/")
    game_link = page.locator(f'a.history-link[href="/games/{game_id}/"]')
    expect(game_link.locator(".history-player", has_text="Alice")).to_contain_text("1")
    game_link.click()
    expect(page).to_have_url(pad_url(live_server.url, game_id))

    field(page, "farm_income", "Alice").fill("12")
    expect_saved(page, "s1-farm_income")
    wait_until_all_saved(page)

    page.go_back()
    expect(page).to_have_url(f"{live_server.url}/")
    expect(game_link.locator(".history-player", has_text="Alice").locator("b")).to_have_text("13")

    save_value(seat=seat(game_id, 2), key="recruits", value=5)
    page.go_forward()
    expect(page).to_have_url(pad_url(live_server.url, game_id))
    expect(field(page, "recruits", "Bruno")).to_have_value("5")
    expect(total(page, "Bruno")).to_have_text("7")
    expect(field(page, "farm_income", "Alice")).to_have_value("12")
    expect(total(page, "Alice")).to_have_text("13")

    page.go_back()
    expect(game_link.locator(".history-player", has_text="Bruno").locator("b")).to_have_text("7")


# -- 9. A phone without JavaScript --------------------------------------------------------------


def test_a_phone_without_javascript_saves_steps_and_finishes(open_phone, live_server):
    """A phone with JavaScript off scores with plain form posts. It types Alice's farm income 12
    and Bruno's recruits 5 and presses "Save all": both are stored. Meanwhile another phone saved
    Alice's developments 4, which this page still shows empty: the post keeps it. It taps "Add
    one" on Alice's farms: one farm is stored. Then, while another phone saves Bruno's
    developments 6, it types Alice's Queen’s Favor 3 and taps "Finish the game": the 3 is saved,
    the 6 is kept, the confirmation lists what nobody entered, and "Finish anyway" shows the
    results."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    page = open_phone(java_script_enabled=False)
    page.goto(pad_url(live_server.url, game_id))
    save_all = page.get_by_role("button", name="Save all", exact=True)
    expect(save_all).to_be_visible()

    field(page, "farm_income", "Alice").fill("12")
    field(page, "recruits", "Bruno").fill("5")
    save_value(seat=seat(game_id, 1), key="developments", value=4)  # another phone
    with page.expect_navigation():
        save_all.click()
    alice, bruno = seat(game_id, 1), seat(game_id, 2)
    assert (alice.farm_income, alice.developments, bruno.recruits) == (12, 4, 5)
    expect(field(page, "farm_income", "Alice")).to_have_value("12")
    expect(field(page, "developments", "Alice")).to_have_value("4")
    expect(total(page, "Alice")).to_have_text("17")  # 1 + 12 + 4

    with page.expect_navigation():
        page.get_by_role("button", name="Add one: Farms built, Alice", exact=True).click()
    expect(field(page, "farms", "Alice")).to_have_value("1")
    assert seat(game_id, 1).farms == 1
    expect(total(page, "Alice")).to_have_text("18")

    save_value(seat=seat(game_id, 2), key="developments", value=6)  # another phone
    field(page, "queens_favor", "Alice").fill("3")
    with page.expect_navigation():
        page.get_by_role("button", name="Finish the game", exact=True).click()
    confirm = page.locator("#finish-confirm")
    expect(confirm).to_contain_text("Explore token bonuses")
    expect(confirm).not_to_contain_text("Developments built")
    alice, bruno = seat(game_id, 1), seat(game_id, 2)
    assert (alice.queens_favor, alice.farms, bruno.developments, bruno.recruits) == (3, 1, 6, 5)
    assert not Game.objects.get(public_id=game_id).is_finished

    with page.expect_navigation():
        confirm.get_by_role("button", name="Finish anyway", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/results/$"))
    expect(breakdown_cell(page, "Total", 0)).to_have_text("21")  # 1 + 12 + 1 + 4 + 3
    expect(breakdown_cell(page, "Total", 1)).to_have_text("13")  # 2 + 5 + 6
    assert Game.objects.get(public_id=game_id).is_finished
    alice, bruno = seat(game_id, 1), seat(game_id, 2)
    assert (alice.farm_income, alice.developments, alice.farms, alice.queens_favor) == (12, 4, 1, 3)
    assert (bruno.recruits, bruno.developments) == (5, 6)


# -- 10. The connection drops ----------------------------------------------------------------------


def test_a_value_typed_offline_is_saved_when_the_connection_is_back(page: Page, context, live_server, browser_watch):
    """The phone goes offline and the player types Alice's farm income 12: the field says it is
    not saved and is being retried, the banner says the phone is offline, and nothing is stored.
    Back online, the value is saved, the banner goes away and the database has 12."""
    game_id = make_game(["Alice", "Bruno"])
    page.goto(pad_url(live_server.url, game_id))
    farm_income = field(page, "farm_income", "Alice")
    expect(farm_income).to_be_visible()

    go_offline(context, browser_watch)
    farm_income.fill("12")
    expect(status(page, "s1-farm_income")).to_contain_text("Not saved")
    expect(status(page, "s1-farm_income")).to_contain_text("retrying")
    expect(banner(page)).to_be_visible()
    expect(banner(page)).to_contain_text("You are offline")
    expect(banner(page)).to_contain_text("1 value is not saved yet.")
    expect(farm_income).to_have_value("12")
    assert seat(game_id, 1).farm_income is None

    back_online(context)
    expect_saved(page, "s1-farm_income")
    expect(banner(page)).to_be_hidden()
    expect(total(page, "Alice")).to_have_text("13")
    assert seat(game_id, 1).farm_income == 12

    page.reload()
    expect(field(page, "farm_income", "Alice")).to_have_value("12")
    expect(total(page, "Alice")).to_have_text("13")


def figure(page: Page, row: str, name: str):
    """A player's figure in one of the pad's figure rows ("During the game, Alice")."""
    return page.get_by_label(f"{row}, {name}", exact=True)


def test_offline_the_phones_own_sums_update_and_what_needs_every_phone_waits(
    page: Page, context, live_server, browser_watch
):
    """Issues 19 and 20: offline, Alice's phone still works out her own sums as she types (farm
    income 5+7 over her starting VP 1, two frames and the hive mat at 8 VP each), and her total;
    the ranking, which needs every phone’s values, says it waits for the network (the totals'
    places are the phone's own), and so do the comb's majorities (and the figures that include
    them, and the places) once she moves a token. Back online,
    the server's figures are the ones she saw, and the ranking is whole again."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    page.goto(pad_url(live_server.url, game_id))
    expect(total(page, "Alice")).to_have_text("1")
    ranks = page.locator("#totals .total-rank")
    expect(ranks).to_have_text(["", ""])  # (nobody has scored yet: nobody ranked)

    go_offline(context, browser_watch)
    field(page, "farm_income", "Alice").fill("5+7")
    expect(figure(page, "During the game", "Alice")).to_have_text("13")
    expect(total(page, "Alice")).to_have_text("13")
    expect(figure(page, "During the game", "Bruno")).to_have_text("2")
    ranking = page.locator("#ranking")
    expect(ranking).to_contain_text("Waiting for the network")
    # (the cards' places as the phone knows them, every total and both players' workers on it:
    # issue 49; the ranking's list, with its tie-breaks in words, waits for the server)
    expect(ranks).to_have_text(["1st", "2nd"])

    plus(page, "f-s1-frames_filled").click()
    plus(page, "f-s1-frames_filled").click()
    field(page, "hive_mat_full", "Alice").check()
    expect(figure(page, "End of the game", "Alice")).to_have_text("24")
    expect(total(page, "Alice")).to_have_text("37")
    field(page, "carvings", "Alice").fill("-3")
    expect(total(page, "Alice")).to_have_text("34")
    field(page, "carvings", "Alice").fill("3x")  # not a number: her figures stay as they were
    expect(total(page, "Alice")).to_have_text("34")
    field(page, "carvings", "Alice").fill("1 \u2212 3")  # a typographic minus and spaces, as the server reads them
    expect(total(page, "Alice")).to_have_text("35")

    plus(page, "f-s1-t0").click()  # the sector's majority needs Bruno's tokens too
    for row in ("Comb majorities", "End of the game"):
        expect(figure(page, row, "Alice")).to_have_text("\u2026")
        expect(figure(page, row, "Bruno")).to_have_text("\u2026")
    expect(total(page, "Alice")).to_have_text("\u2026")
    expect(ranks).to_have_text(["\u2026", "\u2026"])  # (a total it does not know: no place)
    expect(figure(page, "During the game", "Alice")).to_have_text("13")
    assert seat(game_id, 1).farm_income is None

    back_online(context)
    for name in ("s1-farm_income", "s1-frames_filled", "s1-hive_mat_full", "s1-carvings", "s1-t0"):
        expect_saved(page, name)
    expect(figure(page, "Comb majorities", "Alice")).to_have_text("9")
    expect(figure(page, "End of the game", "Alice")).to_have_text("31")
    expect(total(page, "Alice")).to_have_text("44")
    expect(ranking).not_to_contain_text("Waiting for the network")
    expect(ranks).to_have_text(["1st", "2nd"])
    alice = seat(game_id, 1)
    assert (alice.farm_income, alice.frames_filled, alice.hive_mat_full, alice.carvings) == (12, 2, True, -2)


# -- A database that refuses to write (a full disk) ------------------------------------------------


def test_a_full_database_says_it_cannot_save_keeps_the_value_and_saves_it_later(
    page: Page, live_server, monkeypatch, browser_watch
):
    """The server's database refuses writes (its disk is full): the save answers 503 in words, the
    banner says so, the typed value stays on screen as not saved, and once the database writes
    again the pad sends it by itself (after the Retry-After the answer gave)."""
    from django.db import OperationalError

    game_id = make_game(["Alice", "Bruno"])
    stop_polling(page)
    page.goto(pad_url(live_server.url, game_id))
    farm_income = field(page, "farm_income", "Alice")
    expect(farm_income).to_be_visible()
    lock = pad_services.game_lock

    def disk_full(game_id):
        raise OperationalError("database or disk is full")

    monkeypatch.setattr(pad_services, "game_lock", disk_full)
    browser_watch.expect_console_error(refused_save(503))
    with page.expect_response(lambda response: "/save/" in response.url) as answer:
        farm_income.fill("12")
    assert answer.value.status == 503
    expect(banner(page)).to_contain_text("The server cannot save right now")
    expect(farm_income).to_have_value("12")
    expect(farm_income).to_have_class(re.compile(r"\bunsaved\b"))

    monkeypatch.setattr(pad_services, "game_lock", lock)  # the disk has room again
    expect_saved(page, "s1-farm_income")
    expect(banner(page)).to_be_hidden()
    assert Seat.objects.get(game__public_id=game_id, number=1).farm_income == 12


def test_the_recent_changes_come_when_shown_and_follow_the_saves_while_open(page: Page, live_server):
    """The recent changes are a fold: while folded a save does not bring them; opening it reads
    them at once, and while it is open each save brings them with its figures."""
    game_id = make_game(["Alice", "Bruno"])
    page.goto(pad_url(live_server.url, game_id))
    field(page, "farm_income", "Alice").fill("12")
    expect_saved(page, "s1-farm_income")
    changes = page.locator("#changes")

    page.get_by_text("Recent changes").click()  # opened after the save: read then
    expect(changes).to_contain_text("Farm income, Alice: — → 12")

    field(page, "recruits", "Bruno").fill("4")
    expect_saved(page, "s2-recruits")
    expect(changes.locator("li").first).to_contain_text("Recruits built, Bruno: — → 4")


# -- A sector's awards follow every phone's tokens ----------------------------------------------


def test_a_sectors_awards_follow_the_tokens_on_every_phone(open_phone, live_server):
    """Sector 1 gives 9 VP to the most tokens and 4 to the second. Alice's phone (A) puts 3 of
    Alice's tokens there: A shows "+9" beside them. Bruno's phone (B) puts 4 of Bruno's there:
    Bruno now has the majority, and both phones show "+9" beside Bruno's and "+4" beside
    Alice's; no phone keeps the "+9" that Alice no longer earns. Then A itself puts Alice's up to
    5: A's own answer moves Bruno's award to "+4" at once, and B follows within a poll."""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    a, b = open_phone(), open_phone()
    for page in (a, b):
        page.goto(pad_url(live_server.url, game_id))

    def tokens_field(page: Page, name: str):
        return page.get_by_role("textbox", name=f"Tokens in sector 1, {name}", exact=True)

    tokens_field(a, "Alice").fill("3")
    expect_saved(a, "s1-t0")
    expect(status(a, "s1-t0")).to_contain_text("+9")
    expect(status(b, "s1-t0")).to_contain_text("+9", timeout=ANOTHER_PHONE_TIMEOUT_MS)

    tokens_field(b, "Bruno").fill("4")
    expect_saved(b, "s2-t0")
    expect(status(b, "s2-t0")).to_contain_text("+9")
    expect(status(b, "s1-t0")).to_contain_text("+4")  # B's own answer: at once
    expect(status(a, "s2-t0")).to_contain_text("+9", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(status(a, "s1-t0")).to_contain_text("+4", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(status(a, "s1-t0")).not_to_contain_text("+9")

    tokens_field(a, "Alice").fill("5")
    expect_saved(a, "s1-t0")
    expect(status(a, "s1-t0")).to_contain_text("+9")
    expect(status(a, "s2-t0")).to_contain_text("+4")
    expect(status(b, "s2-t0")).to_contain_text("+4", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(status(b, "s1-t0")).to_contain_text("+9", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    assert seat(game_id, 1).score_majority == 9 and seat(game_id, 2).score_majority == 4


def test_a_rows_nobody_yet_goes_on_every_phone_once_somebody_enters_it(open_phone, live_server):
    """Nobody has entered the recruits: the row says "(not entered yet)" and is dimmed on both phones.
    A enters Bruno's 4: on A at once and on B within a poll, the row says it no more and is not
    dimmed. A clears it again: the row says "(not entered yet)" again, on both. (Scoring has begun:
    a new pad's rows are only dimmed, their mark shown once something is entered.)"""
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    save_value(seat=seat(game_id, 1), key="farms", value=3)
    a, b = open_phone(), open_phone()
    for page in (a, b):
        page.goto(pad_url(live_server.url, game_id))
        expect(page.locator("#label-recruits")).to_contain_text("(not entered yet)")
        expect(page.locator("#row-recruits")).to_have_class(re.compile(r"\bnot-entered\b"))

    field(a, "recruits", "Bruno").fill("4")
    expect_saved(a, "s2-recruits")
    for page, timeout in ((a, DEFAULT_TIMEOUT_MS), (b, ANOTHER_PHONE_TIMEOUT_MS)):
        expect(page.locator("#label-recruits")).not_to_contain_text("(not entered yet)", timeout=timeout)
        expect(page.locator("#row-recruits")).not_to_have_class(re.compile(r"\bnot-entered\b"))

    field(a, "recruits", "Bruno").fill("")
    expect_saved(a, "s2-recruits")
    for page, timeout in ((a, DEFAULT_TIMEOUT_MS), (b, ANOTHER_PHONE_TIMEOUT_MS)):
        expect(page.locator("#label-recruits")).to_contain_text("(not entered yet)", timeout=timeout)
        expect(page.locator("#row-recruits")).to_have_class(re.compile(r"\bnot-entered\b"))

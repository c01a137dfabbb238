"""Real-browser journeys of entering numbers on a small phone (360 x 780): what is typed is
exactly what is stored, the keyboard's Next goes where the player chose, one player's column
can be read out and typed in one go, and the pad stays readable at one glance and at 200% text.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scoring.models import HibernationTokens, Seat
from scoring.rules.categories import During, categories_of
from tests.browser.pad_helpers import (
    axe_violations,
    error,
    expect_saved,
    field,
    make_game,
    no_sideways_scroll,
    plus,
    refused_save,
    shoot,
    status,
    tokens,
    total,
    wait_until_all_saved,
)

# The categories of a breakdown game's pad (the games here are breakdowns; the VP track's pad is
# tests/views/test_during.py's).
PAD_CATEGORIES = categories_of(During.BREAKDOWN)

pytestmark = pytest.mark.browser

FOUR = ["Alice", "Bruno", "Carla", "Dario"]
FIVE_SECTORS = [(9, 4), (13, 0), (6, 3), (8, 4), (5, 2)]


def seat(game_id: str, number: int) -> Seat:
    return Seat.objects.get(game__public_id=game_id, number=number)


def test_typing_after_next_stores_exactly_what_was_typed(small_phone: Page, live_server):
    """Next (the keyboard's Enter) lands in a field with its content selected, so what is typed
    replaces it: no digit lands in front of a pre-filled number, whatever the field held."""
    page = small_phone
    game_id = make_game(FOUR, FIVE_SECTORS)
    page.goto(f"{live_server.url}/games/{game_id}/")

    # Starting VP is pre-filled (1, 2, 3, 4): Alice corrects hers to 5 and moves on with Next,
    # across the players; Bruno's 2 is replaced by 6, Carla's by a sum.
    field(page, "starting_vp", "Alice").click()
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    page.keyboard.type("6")
    page.keyboard.press("Enter")
    page.keyboard.type("4+4")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # Dario keeps his 4
    page.keyboard.type("3+6+2")  # Alice's explore tokens: Next went on to the next row
    page.keyboard.press("Enter")
    wait_until_all_saved(page)
    expect(field(page, "starting_vp", "Carla")).to_have_value("4+4")
    expect(status(page, "s3-starting_vp")).to_contain_text("= 8")
    assert [seat(game_id, n).starting_vp for n in (1, 2, 3, 4)] == [5, 6, 8, 4]
    assert seat(game_id, 3).sums == {"starting_vp": "4+4"}
    assert seat(game_id, 1).explore_tokens == 11

    # A tap anywhere in a filled field selects it too: typing replaces, never inserts.
    income = field(page, "farm_income", "Bruno")
    income.click()
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect_saved(page, "s2-farm_income")
    box = income.bounding_box()
    income.tap(position={"x": 2, "y": box["height"] / 2})  # at the very start of the "7"
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    expect(income).to_have_value("12")
    wait_until_all_saved(page)
    assert seat(game_id, 2).farm_income == 12
    expect(total(page, "Bruno")).to_have_text("18")


def test_one_players_column_by_keyboard_alone(small_phone: Page, live_server):
    """ "Next goes down each player": Enter walks down one player's column, through the toggle,
    the steppers, the comb and the active workers, and the choice is remembered."""
    page = small_phone
    game_id = make_game(FOUR, FIVE_SECTORS[:2])
    page.goto(f"{live_server.url}/games/{game_id}/")
    page.get_by_label("down each player").check()

    typed = {key: str(number + 1) for number, key in enumerate(c.key for c in PAD_CATEGORIES if not c.is_flag)}
    typed["farms"], typed["frames_filled"] = "4", "2"
    field(page, "starting_vp", "Bruno").click()
    for category in PAD_CATEGORIES:
        focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused == f"{category.label}, Bruno"
        if category.is_flag:
            page.keyboard.press("Space")  # tick the hive mat
        else:
            page.keyboard.type(typed[category.key])
        page.keyboard.press("Enter")
    for sector, count in ((1, "2"), (2, "3")):
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == f"Tokens in sector {sector}, Bruno"
        page.keyboard.type(count)
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Active workers, Bruno"
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    wait_until_all_saved(page)

    bruno = seat(game_id, 2)
    for category in PAD_CATEGORIES:
        expected = True if category.is_flag else int(typed[category.key])
        assert getattr(bruno, category.key) == expected, category.key
    assert bruno.active_workers == 3
    assert sorted(HibernationTokens.objects.filter(seat=bruno).values_list("count", flat=True)) == [2, 3]
    assert seat(game_id, 1).farm_income is None  # nobody else's column was touched

    page.reload()
    expect(page.get_by_label("down each player")).to_be_checked()


def test_the_pad_of_four_players_and_five_sectors_fits_three_screens(small_phone: Page, live_server, screenshots):
    """The whole pad, with some numbers in, is at most three screens tall at 360 x 780, and the
    totals stay in view while scrolling. A new pad (nothing saved when it was loaded, as here) also
    shows its owner *Score together* above the scores, in its first screen (issue 19): that one row
    is counted apart; a pad loaded once scoring has begun has it beside Recent changes instead."""
    page = small_phone
    game_id = make_game(FOUR, FIVE_SECTORS)
    page.goto(f"{live_server.url}/games/{game_id}/")
    field(page, "explore_tokens", "Alice").fill("3+6+2")
    field(page, "farms", "Bruno").fill("4")
    tokens(page, 1, "Carla").fill("2")
    wait_until_all_saved(page)
    height = page.evaluate("document.documentElement.scrollHeight")
    together = page.evaluate("""() => {
        const row = document.getElementById("share"), style = getComputedStyle(row);
        return row.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    }""")
    print(
        f"\npad height, 4 players and 5 sectors at 360 x 780: {height} px = {height / 780:.2f} screens, "
        f"of which Score together (a new pad's first screen): {together:.0f} px"
    )
    assert height - together <= 3 * 780, f"the pad is {height - together:.0f} px tall: {height / 780:.2f} screens"
    no_sideways_scroll(page)
    for position in (0, height // 2, height):
        page.evaluate(f"window.scrollTo(0, {position})")
        expect(total(page, "Dario")).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, screenshots, "pad-4-players-360")


def test_200_percent_text_never_scrolls_sideways_and_keeps_the_totals_in_view(
    small_phone: Page, live_server, browser_watch
):
    page = small_phone
    browser_watch.expect_console_error(refused_save(422))  # "abc" in a farms field
    game_id = make_game(FOUR, FIVE_SECTORS)
    page.goto(f"{live_server.url}/games/{game_id}/")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    field(page, "explore_tokens", "Alice").fill("12+15+9+4")
    field(page, "farms", "Dario").fill("abc")
    expect(error(page, "s4-farms")).to_be_visible()
    expect_saved(page, "s1-explore_tokens")
    no_sideways_scroll(page)
    expect(total(page, "Alice")).to_be_in_viewport()
    expect(total(page, "Alice")).to_have_text("41")
    field(page, "queens_favor", "Carla").scroll_into_view_if_needed()
    expect(total(page, "Carla")).to_be_in_viewport()
    # The sum is readable in full: its result shows under the field.
    expect(status(page, "s1-explore_tokens")).to_contain_text("= 40")
    for url in (f"/games/{game_id}/results/", f"/games/{game_id}/table/", "/", "/games/new/", "/players/"):
        page.goto(live_server.url + url)
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        no_sideways_scroll(page)


def test_one_player_at_a_time_shows_their_whole_sheet_with_everyones_totals(small_phone: Page, live_server):
    page = small_phone
    game_id = make_game(FOUR, FIVE_SECTORS[:2])
    page.goto(f"{live_server.url}/games/{game_id}/")
    page.get_by_role("link", name="Carla", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/games/{game_id}/?player=3")
    expect(field(page, "farm_income", "Carla")).to_be_visible()
    expect(field(page, "farm_income", "Alice")).to_have_count(0)
    field(page, "farm_income", "Carla").fill("9")
    expect_saved(page, "s3-farm_income")
    expect(page.get_by_label("During the game, Carla", exact=True)).to_have_text("12")
    for name in FOUR:
        expect(total(page, name)).to_be_visible()
    expect(total(page, "Carla")).to_have_text("12")
    assert seat(game_id, 3).farm_income == 9


def test_a_whole_sheet_typed_by_keyboard_costs_one_save_per_value_entered(small_phone: Page, live_server):
    """Issue 9's "requests for a whole game": every value of two players' sheets typed by
    keyboard (Next after each; one value left to the typing pause, then Next, which must not send
    it again) is one save each, and nothing else posts. A burst of stepper taps is the first tap
    at once and the rest as one step. (The benchmark types a whole 4-player game the same way
    and counts its requests: tests/test_bench.py checks that it is one save per value too.)"""
    page = small_phone
    players = ["Alice", "Bruno"]
    game_id = make_game(players, FIVE_SECTORS[:2])
    saves = []
    page.on(
        "request",
        lambda request: (
            saves.append(request.post_data) if request.method == "POST" and request.url.endswith("/save/") else None
        ),
    )
    page.goto(f"{live_server.url}/games/{game_id}/")
    page.get_by_label("down each player").check()

    entered = 0
    for number, name in enumerate(players, start=1):
        field(page, "starting_vp", name).click()
        for category in PAD_CATEGORIES:
            if category.is_flag:
                page.keyboard.press("Space")
            else:
                page.keyboard.type(str(number + 1))
            if name == "Bruno" and category.key == "farms":  # left to the typing pause, then Next
                expect_saved(page, "s2-farms")
            page.keyboard.press("Enter")
            entered += 1
        for _sector in (1, 2):
            page.keyboard.type("1")
            page.keyboard.press("Enter")
            entered += 1
        page.keyboard.type(str(number - 1))  # active workers
        page.keyboard.press("Enter")
        entered += 1
    wait_until_all_saved(page)
    assert len(saves) == entered, f"{len(saves)} saves for {entered} values entered"
    assert all("value=" in body and "step=" not in body for body in saves)
    for number in (1, 2):
        stored = seat(game_id, number)
        for category in PAD_CATEGORIES:
            assert getattr(stored, category.key) == (True if category.is_flag else number + 1), (number, category.key)
        assert stored.active_workers == number - 1
    assert HibernationTokens.objects.filter(seat__game__public_id=game_id, count=1).count() == 4

    # Steppers (their buttons show in the one-player view): a tap is saved at once, and the taps
    # made while a save is on its way go as one step after it: three taps in a row, two saves.
    # (Each tap its own task, as a finger's are; the first save is held on its way until the two
    # others are made.)
    page.goto(f"{live_server.url}/games/{game_id}/?player=1")
    saves.clear()
    held = []
    page.route("**/save/", lambda route: held.append(route))
    plus(page, "f-s1-farms").click()
    expect(page.locator("#status-s1-farms")).to_have_attribute("data-state", "sending")
    plus(page, "f-s1-farms").click()
    plus(page, "f-s1-farms").click()
    page.unroute("**/save/")  # (which lets the held save go on)
    assert len(held) == 1
    wait_until_all_saved(page)
    assert [body.split("&")[:2] for body in saves] == [["field=s1-farms", "step=1"], ["field=s1-farms", "step=2"]]
    assert seat(game_id, 1).farms == 2 + 3


def test_finish_lists_what_nobody_entered_and_asks_first(page: Page, live_server):
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    page.goto(f"{live_server.url}/games/{game_id}/")
    field(page, "farm_income", "Alice").fill("5")
    page.get_by_role("button", name="Finish the game").click()
    confirm = page.locator("#finish-confirm")
    expect(confirm).to_contain_text("Nobody has entered these yet")
    expect(confirm).to_contain_text("Recruits built")
    expect(confirm).to_contain_text("Hibernation tokens on the comb")
    expect(confirm).not_to_contain_text("Farm income")
    assert seat(game_id, 1).farm_income == 5  # what was typed was saved before finishing
    confirm.get_by_role("button", name="Finish anyway").click()
    expect(page).to_have_url(f"{live_server.url}/games/{game_id}/results/")


def test_pages_pass_axe_core_accessibility_checks(page: Page, live_server, browser_watch):
    """axe-core finds no violation on the pad (with a message shown), the results, the history
    and the start form."""
    browser_watch.expect_console_error(refused_save(422))  # the message shown: "abc" in a farms field
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    page.goto(f"{live_server.url}/games/{game_id}/")
    field(page, "farms", "Alice").fill("abc")
    expect(error(page, "s1-farms")).to_be_visible()
    field(page, "recruits", "Bruno").fill("3+4")
    expect_saved(page, "s2-recruits")
    from scoring.models import Player

    alice = Player.objects.filter(name="Alice").first()
    pages = {
        "pad": None,
        "results": f"/games/{game_id}/results/",
        "history": "/",
        "start": "/games/new/",
        "players": "/players/",
        "player": f"/players/{alice.pk}/",
        "statistics": "/statistics/",
        "data": "/data/",
        "history filtered": "/?player=ali&status=in-progress",
    }
    problems = []
    for name, url in pages.items():
        if url:
            page.goto(live_server.url + url)
        problems += axe_violations(page, name)
    assert problems == []


def test_the_results_breakdown_keeps_the_player_names_in_view(small_phone: Page, live_server):
    """Scrolled down the breakdown, its header row of player names stays at the top."""
    page = small_phone
    game_id = make_game(FOUR, FIVE_SECTORS)
    page.goto(f"{live_server.url}/games/{game_id}/results/")
    page.locator("table.breakdown tr.total").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    header = page.locator("table.breakdown thead th").nth(1)
    expect(header).to_have_text("Alice")
    expect(header).to_be_in_viewport()

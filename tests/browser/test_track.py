"""The VP track at the table, in a real browser: a new game counts each player’s VP on the track
(one number each, starting VP included), typed by two phones at once; the way a game counts is
changed from the pad (a link beside the heading, to a page with one button; with JavaScript and
without), another phone following by itself; a change that would hide values is refused in
words; and a game counted as the breakdown still works as before.

The expected figures are worked out here from what the test types, never read back from the
application.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Seat
from scoring.rules.categories import During
from scoring.services.pad import game_mode_change
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    SMALL_PHONE,
    axe_violations,
    expect_saved,
    field,
    make_game,
    no_sideways_scroll,
    start_game,
    total,
    wait_until_all_saved,
)
from tests.support.factories import save_value

pytestmark = pytest.mark.browser

TRACK = "VP on the track at the end"


def pad_url(base: str, game_id: str) -> str:
    return f"{base}/games/{game_id}/"


def track_field(page: Page, name: str):
    return page.get_by_role("textbox", name=f"{TRACK}, {name}", exact=True)


def during_rows(page: Page):
    """The rows of the pad's during-the-game section."""
    return page.locator("section[aria-labelledby=during-heading] .row:not(.subtotal)")


def stored_track(game_id: str) -> list[int | None]:
    return list(Seat.objects.filter(game__public_id=game_id).order_by("number").values_list("vp_track", flat=True))


def test_two_phones_score_a_new_game_on_the_vp_track(open_phone, live_server, browser_watch):
    """Hana starts a game for Alice and Bruno from the start form, as it comes (the VP track):
    the pad asks one number per player where the nine rows were, and nothing is pre-filled.
    Alice's phone (A) types her track, 50+7; Bruno's phone (B) sees it, and types his, 61, and 3
    farms at the end. Both phones show the same totals and ranking; what is stored is what they
    show. The pad, and the page that changes the way, pass axe-core."""
    a, b = open_phone(**SMALL_PHONE), open_phone(**SMALL_PHONE)
    game_id = start_game(a, live_server.url, ["Alice", "Bruno"], [(9, 4)])
    assert Game.objects.get(public_id=game_id).during_mode == "track"
    b.goto(pad_url(live_server.url, game_id))
    for page in (a, b):
        expect(during_rows(page)).to_have_count(1)
        expect(page.locator("#label-vp_track")).to_contain_text("starting VP included")
        expect(track_field(page, "Alice")).to_have_value("")
        expect(page.get_by_role("textbox", name="Starting VP, Alice", exact=True)).to_have_count(0)
        expect(total(page, "Alice")).to_have_text("0")
        no_sideways_scroll(page)

    track_field(a, "Alice").fill("50+7")
    expect_saved(a, "s1-vp_track")
    expect(a.locator("#status-s1-vp_track")).to_contain_text("= 57")
    expect(track_field(b, "Alice")).to_have_value("50+7", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(total(b, "Alice")).to_have_text("57")

    track_field(b, "Bruno").fill("61")
    field(b, "farms", "Bruno").fill("3")
    wait_until_all_saved(b)
    for page in (a, b):
        expect(total(page, "Bruno")).to_have_text("64", timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(page.get_by_label("During the game, Bruno", exact=True)).to_have_text("61")
        expect(page.locator("#ranking .rank-name")).to_have_text(["Bruno", "Alice"])
    assert stored_track(game_id) == [57, 61]

    violations = axe_violations(a, "the pad")
    b.goto(f"{live_server.url}/games/{game_id}/during/")  # the page the link opens (the change refused there)
    violations += axe_violations(b, "the change of way")
    assert violations == []


def test_a_way_holding_values_is_kept_and_the_refusal_says_why(page: Page, live_server, browser_watch):
    """A track game, its link to the breakdown followed before Alice's track was typed on another
    phone: the change is refused, naming the value, and the pad keeps its track. Once a value is
    entered, the pad no longer offers the change."""
    browser_watch.expect_console_error(r"the server responded with a status of 409 \(Conflict\)$")  # the refusal
    game_id = make_game(["Alice", "Bruno"], [(9, 4)], during=During.TRACK)
    page.goto(pad_url(live_server.url, game_id))
    page.get_by_role("link", name="Use the breakdown").click()
    save_value(seat=Seat.objects.get(game__public_id=game_id, number=1), key="vp_track", value=44)  # another phone

    page.get_by_role("button", name="Use the breakdown").click()

    expect(page.get_by_role("alert")).to_have_text(
        "Values are already entered on the VP track: Alice’s VP on the track at the end. Clear them first to "
        "switch to the breakdown."
    )
    assert Game.objects.get(public_id=game_id).during_mode == "track"
    page.get_by_role("link", name="Back to the pad").click()
    expect(track_field(page, "Alice")).to_have_value("44")
    expect(page.get_by_role("link", name="Use the breakdown")).to_have_count(0)


def test_the_way_changed_on_one_phone_reloads_the_other(open_phone, live_server):
    """A new game started as the breakdown (starting VP 1 and 2 filled in): A taps "Use the VP
    track instead" before anything is typed. A's pad comes back with one track field per
    player; B, which typed nothing, follows by itself within a poll or two."""
    a, b = open_phone(), open_phone()
    game_id = start_game(a, live_server.url, ["Alice", "Bruno"], [(9, 4)], during=During.BREAKDOWN)
    b.goto(pad_url(live_server.url, game_id))
    for page in (a, b):
        expect(page.get_by_role("textbox", name="Starting VP, Bruno", exact=True)).to_have_value("2")
        expect(during_rows(page)).to_have_count(9)

    a.get_by_role("link", name="Use the VP track").click()
    expect(a.get_by_role("heading", level=1)).to_have_text("Points scored during the game")
    a.get_by_role("button", name="Use the VP track").click()

    for page in (a, b):
        expect(track_field(page, "Bruno")).to_be_visible(timeout=ANOTHER_PHONE_TIMEOUT_MS)
        expect(during_rows(page)).to_have_count(1)
        expect(total(page, "Bruno")).to_have_text("0")
    track_field(b, "Bruno").fill("38")
    expect(track_field(a, "Bruno")).to_have_value("38", timeout=ANOTHER_PHONE_TIMEOUT_MS)
    assert stored_track(game_id) == [None, 38]


def test_a_value_typed_while_another_phone_changes_the_way_is_kept_in_view_until_dismissed(
    open_phone, live_server, browser_watch
):
    """B's phone has not heard yet that A changed the game to the VP track when B types Alice's farm
    income, 57: the save is refused (the field is no longer the game's) and B's pad reloads with the
    track's fields. The 57 is not lost without a word: it is shown apart, with what it was and why,
    after a reload too, until B dismisses it. Nothing of it is stored."""
    browser_watch.expect_console_error(r"status of 400 \(Bad Request\) \(\S+/save/\)$")  # (the refused save)
    b = open_phone()
    game_id = make_game(["Alice", "Bruno"], [(9, 4)])
    b.goto(pad_url(live_server.url, game_id))
    b.context.route("**/live/**", lambda route: route.fulfill(status=304))  # (B hears nothing from A meanwhile)
    game_mode_change(game=Game.objects.get(public_id=game_id), during=During.TRACK)  # A's tap

    field(b, "farm_income", "Alice").fill("57")
    field(b, "farm_income", "Alice").blur()
    expect(track_field(b, "Alice")).to_be_visible()  # (reloaded, as the game counts now)
    apart = b.locator("#apart")
    expect(apart).to_contain_text(
        "57 in Farm income, Alice was not saved: another phone changed how this game "
        "counts the points scored during the game"
    )
    b.reload()
    expect(apart).to_contain_text("57 in Farm income, Alice")
    assert not axe_violations(b, "a value shown apart")
    assert stored_track(game_id) == [None, None]
    assert Seat.objects.get(game__public_id=game_id, number=1).farm_income is None

    dismiss = apart.get_by_role("button", name="Dismiss")
    expect(dismiss).to_have_accessible_description(re.compile(r"^57 in Farm income, Alice was not saved"))
    dismiss.click()
    expect(apart).to_be_hidden()
    b.reload()
    expect(track_field(b, "Alice")).to_be_visible()
    expect(apart).to_be_hidden()


def test_without_javascript_the_link_and_its_button_change_the_way(open_phone, live_server):
    """A phone without JavaScript: the link opens a page whose button is a plain form, and the pad
    comes back with the breakdown's rows, the starting VP filled in."""
    page = open_phone(java_script_enabled=False)
    game_id = make_game(["Alice", "Bruno"], [(9, 4)], during=During.TRACK)
    page.goto(pad_url(live_server.url, game_id))
    expect(during_rows(page)).to_have_count(1)

    page.get_by_role("link", name="Use the breakdown").click()
    page.get_by_role("button", name="Use the breakdown").click()

    expect(page).to_have_url(pad_url(live_server.url, game_id))
    expect(during_rows(page)).to_have_count(9)
    expect(page.get_by_role("textbox", name="Starting VP, Alice", exact=True)).to_have_value("1")
    assert Game.objects.get(public_id=game_id).during_mode == "breakdown"


def test_a_breakdown_game_still_adds_up_its_rows_on_two_phones(open_phone, live_server):
    """Started as the breakdown: the starting VP are filled in, each source typed on its own
    phone adds to the during-the-game subtotal, and the results list the nine rows."""
    a, b = open_phone(), open_phone()
    game_id = start_game(a, live_server.url, ["Alice", "Bruno"], [(9, 4)], during=During.BREAKDOWN)
    b.goto(pad_url(live_server.url, game_id))

    field(a, "farm_income", "Alice").fill("3+6")
    field(b, "tile_abilities", "Bruno").fill("5")
    wait_until_all_saved(a)
    wait_until_all_saved(b)
    for page in (a, b):
        expect(page.get_by_label("During the game, Alice", exact=True)).to_have_text(
            "10", timeout=ANOTHER_PHONE_TIMEOUT_MS
        )
        expect(page.get_by_label("During the game, Bruno", exact=True)).to_have_text(
            "7", timeout=ANOTHER_PHONE_TIMEOUT_MS
        )
    a.goto(f"{live_server.url}/games/{game_id}/results/")
    rows = a.locator("table.breakdown tbody th")
    expect(rows.nth(0).locator("summary")).to_have_text("Starting VP")  # (its full words a tap away)
    expect(rows.nth(9)).to_have_text("During the game")
    expect(a.locator(".winner-line")).to_have_text("Alice wins")

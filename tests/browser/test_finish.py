"""The end of a game, as a table lives it: finishing is a state every phone respects within one
poll. Each open pad says who finished and when, links to the results and takes no more values; a
save that reaches the finished game is refused in words and stores nothing (its value stays on
the phone, shown apart); changing a finished game is its owner's deliberate act (reopen it, then
finish it again), in its history, and the statistics follow; Finish from an edit link asks first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Game, GameEvent, Seat
from scoring.services.sharing import link_renew
from tests.browser.pad_helpers import (
    ANOTHER_PHONE_TIMEOUT_MS,
    axe_violations,
    expect_saved,
    field,
    make_game,
    pad_ready,
    total,
    wait_until_all_saved,
)

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"Finished by (.+) at \d\d:\d\d\. See the results")


def pad_url(base: str, game_id: str) -> str:
    return f"{base}/games/{game_id}/"


def join_as_everyone(page: Page, base: str, game_id: str, name: str) -> None:
    """A table-mate's phone opens the game's edit link, says it scores for everyone, and gives its name."""
    link = Game.objects.get(public_id=game_id).links.filter(access="edit", revoked_at__isnull=True).first()
    link = link or link_renew(game=Game.objects.get(public_id=game_id), access="edit")
    page.goto(base + reverse("scoring:join", args=[link.token]))
    page.get_by_role("button", name="Everyone").click()
    expect(page).to_have_url(pad_url(base, game_id))
    pad_ready(page)
    page.get_by_text("Recent changes").click()
    page.get_by_label("Your name, shown beside your changes").fill(name)
    page.get_by_role("button", name="Save my name").click()
    expect(page).to_have_url(pad_url(base, game_id) + "#changes-box")  # (the pad again, the name saved)
    pad_ready(page)


def test_finished_on_one_phone_is_finished_on_every_phone_until_its_owner_reopens_it(
    page: Page, open_phone, live_server, browser_watch
):
    host = page
    game_id = make_game(["Alice", "Tom"])
    url = pad_url(live_server.url, game_id)
    tom = open_phone(signed_in=False)
    join_as_everyone(tom, live_server.url, game_id, "Tom")
    host.goto(url)
    stale = open_phone(signed_in=False)  # (a second phone of Tom's, that will not hear of the finish)
    join_as_everyone(stale, live_server.url, game_id, "Tom")
    stale.context.route("**/live/**", lambda route: route.fulfill(status=304))
    field(tom, "farm_income", "Tom").fill("9")
    expect_saved(tom, "s2-farm_income")

    # Tom asks to finish: he is told he finishes the game for the whole table, and keeps scoring.
    tom.get_by_role("button", name="Finish the game").click()
    expect(tom.locator("#finish-confirm")).to_contain_text(
        "You are finishing the game for the whole table, as Tom (edit link)"
    )
    tom.get_by_role("link", name="Keep scoring").click()
    assert not Game.objects.get(public_id=game_id).is_finished

    # The host finishes; Tom's phone, at its next poll, says so and takes no more values, where he
    # is looking: at the bottom of the pad, the active workers (issue 49: the note sat at the top).
    tom.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    field(host, "farm_income", "Alice").fill("12")
    host.get_by_role("button", name="Finish the game").click()
    host.locator("#finish-confirm").get_by_role("button", name="Finish anyway").click()
    expect(host).to_have_url(f"{url}results/")
    note = tom.locator("#finished-note")
    expect(note).to_contain_text(FINISHED, timeout=ANOTHER_PHONE_TIMEOUT_MS)
    expect(note).to_contain_text("Finished by Hana at")
    expect(note).to_be_in_viewport(ratio=1)
    assert tom.evaluate("window.scrollY") > 0  # (still at the bottom: the note came to it)
    expect(field(tom, "farm_income", "Alice")).to_have_value("12")
    expect(field(tom, "farm_income", "Tom")).to_be_disabled()
    expect(tom.get_by_role("button", name="Finish the game")).to_have_count(0)
    assert not axe_violations(tom, "a finished game's pad")

    # A phone that has not heard yet types a value: refused in words, kept on the phone, nothing stored.
    browser_watch.expect_console_error(r"status of 409 \(Conflict\) \(\S+/save/\)$")
    field(stale, "recruits", "Tom").fill("4")
    field(stale, "recruits", "Tom").blur()
    apart = stale.locator("#apart")
    expect(apart).to_contain_text(
        "4 in Recruits built, Tom was not saved: the game was finished before it reached the server"
    )
    # (at once, focus or not: the sentence its save was refused with, until a poll brings the note)
    expect(stale.locator("#finished-note")).to_contain_text(
        re.compile(r"Finished by .+ at \d\d:\d\d\..* See the results")
    )
    expect(field(stale, "recruits", "Tom")).to_be_disabled()
    assert Seat.objects.get(game__public_id=game_id, number=2).recruits is None

    # The owner reopens it to correct it: every phone takes values again; finished again, the
    # history says who did what, and the statistics count the corrected total.
    host.goto(url)
    host.get_by_role("button", name="Reopen to correct the scores").click()
    expect(host.locator("#finished-note")).to_be_hidden()
    expect(field(tom, "farm_income", "Tom")).to_be_enabled(timeout=ANOTHER_PHONE_TIMEOUT_MS)
    field(host, "farm_income", "Alice").fill("15")
    expect_saved(host, "s1-farm_income")
    wait_until_all_saved(host)
    expect(total(host, "Alice")).to_have_text("16")
    host.get_by_role("button", name="Finish the game").click()
    host.locator("#finish-confirm").get_by_role("button", name="Finish anyway").click()
    expect(host).to_have_url(f"{url}results/")
    host.goto(url)
    host.get_by_text("Recent changes").click()
    changes = host.locator("#changes")
    expect(changes).to_contain_text("Game finished")
    expect(changes).to_contain_text("Game reopened to correct it")
    assert [event.what for event in GameEvent.objects.filter(game__public_id=game_id)] == [
        "finished",
        "reopened",
        "finished",
    ]
    host.goto(f"{live_server.url}/players/")
    expect(host.get_by_role("row").filter(has_text="Alice")).to_contain_text("16")

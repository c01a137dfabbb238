"""Real-browser journey of the history: a group with many games finds one by a player's name,
opens that player's page and takes its data out as a spreadsheet."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.gamefile.spreadsheet import CSV_COLUMNS
from scoring.models import Game
from tests.browser.pad_helpers import host
from tests.support.factories import game_scored, player

pytestmark = pytest.mark.browser


def test_search_the_history_open_a_player_and_download_the_csv(page: Page, live_server):
    owner = host()
    for day in range(1, 26):
        game_scored(
            player("Alice", farm_income=day),
            player("Bruno", farm_income=10),
            owner=owner,
            played_on=date(2024, 1, day),
            sectors=[],
            finished=True,
        )
    game_scored(
        player("Zoé", farm_income=40, faction="Saha"),
        player("Bruno"),
        owner=owner,
        played_on=date(2023, 6, 1),
        sectors=[],
        finished=True,
    )

    page.goto(f"{live_server.url}/")
    expect(page.locator(".history-game")).to_have_count(20)  # a page at a time
    page.get_by_text("Find games").click()
    page.get_by_label("Player", exact=True).fill("zo")
    page.get_by_role("button", name="Show these games").click()
    expect(page).to_have_url(f"{live_server.url}/?player=zo&since=&until=&players=&faction=&status=")
    expect(page.locator(".history-game")).to_have_count(1)
    expect(page.locator(".history-game")).to_contain_text("Zoé (winner) 40")
    expect(page.get_by_role("link", name="Remove the filter Player: zo")).to_be_visible()

    page.goto(f"{live_server.url}/players/")
    page.get_by_role("link", name="Alice", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Alice")
    expect(page.locator("main")).to_contain_text("25")  # games played
    expect(page.locator("svg")).to_be_visible()

    page.goto(f"{live_server.url}/data/")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    header, *cells = csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig")))
    assert header[:5] == ["Date", "Game", "Finished", "Seat", "Player"]  # (in words: issue 50)
    rows = [dict(zip(CSV_COLUMNS, row, strict=True)) for row in cells]
    assert len(rows) == 2 * 26
    assert {row["player"] for row in rows} == {"Alice", "Bruno", "Zoé"}
    alice = [row for row in rows if row["player"] == "Alice"]
    assert sorted(int(row["farm_income"]) for row in alice) == list(range(1, 26))


def seven_games() -> bytes:
    """A game file of seven small games, each different."""
    import json

    games = [
        {
            "played_on": f"2024-02-{day:02d}",
            "players": [{"name": "Alice", "seat": 1, "during": {"farm_income": day}}, {"name": "Bruno", "seat": 2}],
        }
        for day in range(1, 8)
    ]
    return json.dumps({"format": "apiary-scorepad", "version": 1, "games": games}).encode()


def upload_and_add(page: Page, base: str) -> None:
    page.goto(f"{base}/data/")
    page.get_by_label("Game file").set_input_files(
        files=[{"name": "backup.json", "mimeType": "application/json", "buffer": seven_games()}]
    )
    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_role("heading", name="To add: 7 games")).to_be_visible()
    page.get_by_role("button", name="Add these 7 games").click()


def test_a_big_file_is_added_step_by_step_as_the_progress_bar_follows(page: Page, live_server, monkeypatch):
    """With JavaScript each step asks for the next: the player sees the bar move and lands on
    the data page, which says what was added."""
    from scoring.services import uploads

    monkeypatch.setattr(uploads, "IMPORT_STEP", 2)  # four steps for seven games
    steps = []
    page.on("request", lambda request: steps.append(request.url) if "/data/import/continue/" in request.url else None)

    upload_and_add(page, live_server.url)

    expect(page.get_by_role("status")).to_contain_text("Added 7 games to your history.")
    assert page.url == f"{live_server.url}/data/"
    assert len(steps) == 3
    assert Game.objects.filter(owner=host()).count() == 7


def test_without_javascript_the_player_continues_each_step_by_hand(browser, phone, live_server, monkeypatch):
    from scoring.services import uploads
    from tests.browser.pad_helpers import sign_in

    monkeypatch.setattr(uploads, "IMPORT_STEP", 3)
    context = browser.new_context(**phone, java_script_enabled=False)  # (watched and closed, as every context)
    sign_in(context, live_server.url)
    page = context.new_page()

    upload_and_add(page, live_server.url)

    progress = page.get_by_role("progressbar", name="3 of 7 games done")
    expect(progress).to_have_attribute("value", "3")
    page.reload()  # a reload shows where it stands, and adds nothing
    expect(progress).to_have_attribute("value", "3")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("progressbar", name="6 of 7 games done")).to_be_visible()
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("status")).to_contain_text("Added 7 games to your history.")
    assert Game.objects.filter(owner=host()).count() == 7


def test_a_file_the_waiting_room_cannot_hold_is_refused_by_its_field_until_one_is_cancelled(
    page: Page, open_phone, live_server, settings, browser_watch
):
    """The player's account already has a file waiting on their other phone: the new one is
    refused by its field, saying what to do (add or cancel that one, or wait until when); once
    the other phone cancels its file, the same file goes through."""
    settings.IMPORT_WAITING_PER_ACCOUNT = 1
    upload_and_check(page, live_server.url)
    expect(page.get_by_text(re.compile(r"^The file is kept until \d\d:\d\d: add its games or cancel"))).to_be_visible()
    other_phone = open_phone()
    browser_watch.expect_console_error(r"status of 409 \(Conflict\)")  # (the refused upload's page)

    upload_and_check(other_phone, live_server.url)

    expect(other_phone.get_by_label("Game file")).to_have_accessible_description(
        re.compile(
            re.escape(
                "1 game file of your account is already waiting to be added, sent from another browser or device: "
                "add or cancel it there, or wait until "
            )
            + r"\d\d:\d\d, when it stops waiting, then send this file again\.$"
        )
    )
    page.get_by_role("button", name="Cancel").click()
    upload_and_check(other_phone, live_server.url)
    expect(other_phone.get_by_role("heading", name="To add: 7 games")).to_be_visible()


def upload_and_check(page: Page, base: str) -> None:
    """The data page, the seven games' file chosen, and *Check the file* pressed."""
    page.goto(f"{base}/data/")
    page.get_by_label("Game file").set_input_files(
        files=[{"name": "backup.json", "mimeType": "application/json", "buffer": seven_games()}]
    )
    page.get_by_role("button", name="Check the file").click()

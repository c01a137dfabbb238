"""Real-browser journey of the history: a group with many games finds one by a player's name,
opens that player's page and takes its data out as a spreadsheet."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pad_helpers import host
from tests.factories import game_scored, player

pytestmark = pytest.mark.browser


def test_search_the_history_open_a_player_and_download_the_csv(page: Page, live_server):
    owner = host()
    for day in range(1, 26):
        game_scored(player("Alice", farm_income=day), player("Bruno", farm_income=10), owner=owner,
                    played_on=date(2024, 1, day), sectors=[], finished=True)
    game_scored(player("Zoé", farm_income=40, faction="Saha"), player("Bruno"), owner=owner,
                played_on=date(2023, 6, 1), sectors=[], finished=True)

    page.goto(f"{live_server.url}/")
    expect(page.locator(".history-game")).to_have_count(20)  # a page at a time
    page.get_by_text("Find games").click()
    page.get_by_label("Player", exact=True).fill("zo")
    page.get_by_role("button", name="Show these games").click()
    expect(page).to_have_url(f"{live_server.url}/?player=zo&since=&until=&players=&faction=&status=")
    expect(page.locator(".history-game")).to_have_count(1)
    expect(page.locator(".history-game")).to_contain_text("Zoé 40")
    expect(page.get_by_role("link", name="Remove the filter Player: zo")).to_be_visible()

    page.goto(f"{live_server.url}/players/")
    page.get_by_role("link", name="Alice", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Alice")
    expect(page.locator("main")).to_contain_text("25")  # games played
    expect(page.locator("svg")).to_be_visible()

    page.goto(f"{live_server.url}/data/")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read())))
    assert len(rows) == 2 * 26
    assert {row["player"] for row in rows} == {"Alice", "Bruno", "Zoé"}
    alice = [row for row in rows if row["player"] == "Alice"]
    assert sorted(int(row["farm_income"]) for row in alice) == list(range(1, 26))

"""The pictures of the README: the pad, the table's view and the results of a four-player game at a phone's size,
in light and dark. Run with the suite (into artifacts/screenshots/), and by ``make screenshots``
into docs/images/, which is committed, so the README shows the pad as it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.pad_helpers import host, sign_in
from tests.support.factories import game_scored, player

pytestmark = pytest.mark.browser

DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


@pytest.fixture
def folder(screenshots) -> Path:
    """docs/images/ under ``make screenshots`` (DOCS_IMAGES=1), else the suite's artifacts."""
    if os.environ.get("DOCS_IMAGES") == "1":
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        return DOCS_IMAGES
    return screenshots


def a_game_night(*, finished: bool):
    return game_scored(
        player(
            "Alice",
            faction="Ana",
            workers=2,
            tokens=[2, 1, 0],
            starting_vp=1,
            explore_tokens=11,
            farm_income=7,
            comb_pods=4,
            planted_seed_cards=12,
            farms=5,
            recruits=6,
            developments=9,
            carvings=-3,
            queens_favor=8,
            hive_mat_full=True,
            frames_filled=2,
            faction_ability=5,
        ),
        player(
            "Bruno",
            faction="Iber",
            workers=3,
            tokens=[2, 0, 2],
            starting_vp=2,
            explore_tokens=9,
            farm_income=10,
            comb_pods=2,
            planted_seed_cards=23,
            farms=3,
            recruits=7,
            developments=8,
            carvings=4,
            queens_favor=10,
            frames_filled=1,
            faction_ability=6,
        ),
        player(
            "Carla",
            faction="Nica",
            workers=1,
            tokens=[0, 3, 1],
            starting_vp=3,
            explore_tokens=5,
            farm_income=6,
            comb_pods=3,
            planted_seed_cards=9,
            farms=5,
            recruits=5,
            developments=7,
            carvings=-1,
            queens_favor=6,
            hive_mat_full=True,
            frames_filled=1,
            faction_ability=4,
        ),
        player(
            "Dario",
            faction="Saha",
            workers=2,
            tokens=[1, 1, 1],
            starting_vp=4,
            explore_tokens=6,
            farm_income=8,
            comb_pods=1,
            planted_seed_cards=14,
            farms=4,
            recruits=6,
            developments=6,
            queens_favor=7,
            frames_filled=2,
            faction_ability=3,
        ),
        sectors=[(9, 4), (8, 5), (13, 0)],
        finished=finished,
        owner=host(),
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pictures_of_the_pad_and_the_results(browser, phone, live_server, folder, scheme):
    context = browser.new_context(**{**phone, "device_scale_factor": 1}, color_scheme=scheme)
    sign_in(context, live_server.url)
    page = context.new_page()
    in_progress, finished = a_game_night(finished=False), a_game_night(finished=True)
    page.goto(f"{live_server.url}/games/{in_progress.public_id}/")
    expect(page.get_by_label("Total, Bruno", exact=True)).to_be_visible()
    page.screenshot(path=folder / f"pad-{scheme}.png")
    page.goto(f"{live_server.url}/games/{in_progress.public_id}/table/")
    expect(page.locator(".standing-total").first).to_be_visible()
    page.screenshot(path=folder / f"table-{scheme}.png")
    page.goto(f"{live_server.url}/games/{finished.public_id}/results/")
    expect(page.locator(".winner-line")).to_be_visible()
    page.screenshot(path=folder / f"results-{scheme}.png")
    context.close()

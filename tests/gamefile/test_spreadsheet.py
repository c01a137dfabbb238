"""Specification of the spreadsheet *Your data* downloads (``scoring/gamefile/spreadsheet.py``):
one row per player of every game the account owns, the engine's figures, the header and the
separator in the page's language, and no cell that a spreadsheet reads as a formula."""

from __future__ import annotations

import codecs
from datetime import date

import pytest

from scoring.rules.categories import CATEGORIES, During, Section, categories_of
from tests.support.factories import game_scored, game_started, player, total_of
from tests.views.transfer_cases import (
    csv_table,
    export_csv,
    today,
)

pytestmark = pytest.mark.django_db


def two_games():
    """Alice and Bruno on the tests' comb (9/4, 13/0, 6/3), finished, and a game in progress."""
    finished = game_scored(
        player("Alice", farm_income=12, farms=4, hive_mat_full=True, workers=2, tokens=(3, 0, 1), faction="Ana"),
        player("Bruno", farm_income=5, carvings=-3, tokens=(1, 2, 0)),
        played_on=date(2026, 11, 29),
        finished=True,
    )
    started = game_started("Carla", "Dee", "Émile", played_on=date(2026, 12, 5))
    return finished, started


def test_the_csv_has_its_header_and_one_row_per_player_per_game(owner_client):
    finished, started = two_games()

    response = export_csv(owner_client)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="apiary-games-{today()}.csv"'
    assert response.content.startswith(codecs.BOM_UTF8)  # spreadsheet apps then read "Émile"
    header = response.content.decode("utf-8-sig").splitlines()[0].split(",")
    assert header == [  # each column named in words (issue 50), a category by its label
        "Date",
        "Game",
        "Finished",
        "Seat",
        "Player",
        "Faction",
        "Automa",
        *(category.label for category in CATEGORIES),
        "Active workers",
        "Hibernation tokens",
        "Comb majorities",
        "During the game",
        "End of the game",
        "Total",
        "Rank",
        "Winner",
    ]
    rows = csv_table(response)
    assert [(row["played_on"], row["game_id"], row["finished"], row["seat"], row["player"]) for row in rows] == [
        ("2026-11-29", finished.public_id, "yes", "1", "Alice"),
        ("2026-11-29", finished.public_id, "yes", "2", "Bruno"),
        ("2026-12-05", started.public_id, "no", "1", "Carla"),
        ("2026-12-05", started.public_id, "no", "2", "Dee"),
        ("2026-12-05", started.public_id, "no", "3", "Émile"),
    ]


def test_the_csv_gives_every_entry_and_the_engines_figures(owner_client):
    finished, _started = two_games()

    alice, bruno, carla, *_ = csv_table(export_csv(owner_client))

    # Alice: 12 during; farms 4 + hive mat 8 + comb 9 (1st in sector 1) + 6 (alone in sector 3) at the end.
    assert {
        key: alice[key]
        for key in (
            "faction",
            "automa",
            "farm_income",
            "farms",
            "hive_mat_full",
            "active_workers",
            "hibernation_tokens",
        )
    } == {
        "faction": "Ana",
        "automa": "no",
        "farm_income": "12",
        "farms": "4",
        "hive_mat_full": "1",
        "active_workers": "2",
        "hibernation_tokens": "4",
    }
    assert {key: alice[key] for key in ("majority", "during", "end", "total", "rank", "winner")} == {
        "majority": "15",
        "during": "12",
        "end": "27",
        "total": "39",
        "rank": "1",
        "winner": "yes",
    }
    # Bruno: 5 during; carvings -3 + comb 4 (2nd in sector 1) + 13 (alone in sector 2).
    assert {
        key: bruno[key] for key in ("carvings", "hive_mat_full", "majority", "during", "end", "total", "rank", "winner")
    } == {
        "carvings": "-3",
        "hive_mat_full": "0",
        "majority": "17",
        "during": "5",
        "end": "14",
        "total": "19",
        "rank": "2",
        "winner": "no",
    }
    assert [int(alice["total"]), int(bruno["total"])] == [total_of(finished, 1), total_of(finished, 2)]
    # What nobody has entered is an empty cell (it counts as 0); the start form's starting VP is there.
    assert (alice["starting_vp"], alice["recruits"], bruno["active_workers"]) == ("", "", "0")
    assert (
        carla["starting_vp"],
        carla["farms"],
        carla["active_workers"],
        carla["hibernation_tokens"],
        carla["total"],
    ) == ("1", "", "", "", "1")


def test_the_csv_gives_a_track_games_track_and_a_breakdown_games_breakdown_each_leaving_the_other_empty(owner_client):
    track = game_scored(
        player("Ann", vp_track=57, farms=2),
        player("Ben", vp_track=40),
        during=During.TRACK,
        played_on=date(2026, 11, 1),
    )
    game_scored(player("Cid", starting_vp=1, farm_income=9), played_on=date(2026, 11, 2))

    ann, ben, cid = csv_table(export_csv(owner_client))

    breakdown_keys = [category.key for category in categories_of(During.BREAKDOWN, Section.DURING)]
    assert (ann["vp_track"], ann["farms"], ann["during"], ann["total"]) == ("57", "2", "57", "59")
    assert [ann[key] for key in breakdown_keys] == [""] * len(breakdown_keys)
    assert (ben["vp_track"], ben["rank"]) == ("40", "2")
    assert (cid["vp_track"], cid["starting_vp"], cid["farm_income"], cid["during"]) == ("", "1", "9", "10")
    assert [int(ann["total"]), int(ben["total"])] == [total_of(track, 1), total_of(track, 2)]


def test_a_name_a_spreadsheet_would_take_for_a_formula_is_written_as_text(owner_client):
    game_scored(player("=1+2"), player("@Ben"), player("Dee-Dee"))

    rows = csv_table(export_csv(owner_client))

    assert [row["player"] for row in rows] == ["'=1+2", "'@Ben", "Dee-Dee"]

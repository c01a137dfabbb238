"""Specification of what ``score_game`` prints for a game file (``scoring.gamefile.scores``)."""

from __future__ import annotations

import json

from scoring.gamefile import (
    parse_document,
    score_document,
    to_json,
)
from tests.gamefile.documents import (
    DATA,
    EXAMPLE_SCORE,
    MULTI_SCORE,
    format_md_json_blocks,
)


def test_format_md_example_scores_exactly():
    games = parse_document((DATA / "example.json").read_bytes())
    assert score_document(games) == format_md_json_blocks()[1] == EXAMPLE_SCORE


def test_several_games_score_in_document_order_with_players_in_seat_order():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    assert score_document(games) == MULTI_SCORE


def test_five_players_with_a_shared_first_place_rank_1_1_3():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    players = score_document(games)["games"][1]["players"]
    assert [p["rank"] for p in players] == [1, 1, 3, 4, 5]
    assert [p["name"] for p in players if p["winner"]] == ["Ann", "Ben"]


def test_active_workers_break_a_tie_on_vp():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    players = score_document(games)["games"][2]["players"]
    assert [(p["name"], p["total"], p["rank"], p["winner"]) for p in players] == [
        ("Automa", 30, 2, False),
        ("Claire", 30, 1, True),
    ]


def test_score_output_is_json_text_with_a_final_newline():
    games = parse_document((DATA / "example.json").read_bytes())
    text = to_json(score_document(games))
    assert text.endswith("}\n")
    assert json.loads(text) == EXAMPLE_SCORE

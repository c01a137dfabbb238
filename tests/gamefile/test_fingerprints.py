"""Specification of recognising a game (``scoring.gamefile.fingerprints``; ``docs/game-file.md``,
"Importing the same games twice")."""

from __future__ import annotations

import re
from datetime import date

import pytest

from scoring.gamefile import (
    game_fingerprint,
    read_document,
)
from tests.gamefile.documents import (
    P0,
    example_document,
    fingerprint_of,
    history_document,
    multi_document,
    set_,
)


def test_a_fingerprint_is_64_hex_digits_and_the_same_for_the_same_game():
    assert re.fullmatch(r"[0-9a-f]{64}", fingerprint_of(example_document()))
    assert fingerprint_of(example_document()) == fingerprint_of(example_document())


def test_the_same_game_written_another_way_has_the_same_fingerprint():
    """Key order, spaces, defaults left out or written, players listed out of seat order."""
    spelled_out = example_document()
    terse = example_document()
    game = terse["games"][0]
    game["players"][0] = dict(reversed(list(game["players"][0].items())))
    game["players"][0]["during"] = {k: v for k, v in game["players"][0]["during"].items() if v}  # 0s left out
    del game["end_trigger_token"]  # 7, the default
    assert fingerprint_of(terse) == fingerprint_of(spelled_out)

    doc = multi_document()
    shuffled = multi_document()
    shuffled["games"][0]["players"].reverse()  # the seats say the order
    assert [game_fingerprint(g) for g in read_document(shuffled)] == [game_fingerprint(g) for g in read_document(doc)]


def test_the_change_history_and_the_plays_length_are_not_part_of_the_fingerprint():
    """Both are said of a game as it is played and after: the game is the same game."""
    without = history_document()
    del without["games"][0]["changes"]
    timed = history_document()
    timed["games"][0]["play_minutes"] = 85
    assert fingerprint_of(history_document()) == fingerprint_of(without) == fingerprint_of(timed)


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(set_("games[0].played_on", "2026-11-30"), id="date"),
        pytest.param(set_("games[0].notes", "Saturday"), id="notes"),
        pytest.param(set_("games[0].end_trigger_token", 6), id="end-trigger-token"),
        pytest.param(set_("games[0].comb[1].second", 1), id="comb"),
        pytest.param(set_(f"{P0}.name", "Alicia"), id="name"),
        pytest.param(set_(f"{P0}.faction", "Iber"), id="faction"),
        pytest.param(set_(f"{P0}.automa", True), id="automa"),
        pytest.param(set_(f"{P0}.active_workers", 2), id="active-workers"),
        pytest.param(set_(f"{P0}.end.farms", 5), id="an-entry"),
        pytest.param(set_(f"{P0}.end.hive_mat_full", False), id="the-flag"),
        pytest.param(set_(f"{P0}.hibernation", [1, 2]), id="tokens"),
    ],
)
def test_any_other_difference_makes_another_game(edit):
    changed = example_document()
    edit(changed)
    assert fingerprint_of(changed) != fingerprint_of(example_document())


def test_a_game_without_a_date_is_taken_as_played_on_the_day_given():
    undated = example_document()
    del undated["games"][0]["played_on"]
    day = date(2026, 11, 29)  # the example's date
    assert fingerprint_of(undated) != fingerprint_of(example_document())
    assert fingerprint_of(undated, undated_as=day) == fingerprint_of(example_document())
    assert fingerprint_of(example_document(), undated_as=date(2030, 1, 1)) == fingerprint_of(example_document())

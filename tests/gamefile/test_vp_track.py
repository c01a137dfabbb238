"""Specification of a game that counts its during-the-game points on the VP track in the game file
(``docs/game-file.md``, "A game": ``during``): read, scored, written and recognised."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.gamefile import (
    GameFileError,
    dump_document,
    game_fingerprint,
    parse_document,
    read_document,
    score_document,
    to_json,
)
from tests.gamefile.documents import (
    EXAMPLE_SCORE,
    P0,
    edits,
    example_document,
    fingerprint_of,
    set_,
)


def track_document() -> dict[str, Any]:
    """FORMAT.md's example counted on the VP track: Alice's track shows 24 at the end (her
    breakdown's sum), the rest as in the example."""
    doc = example_document()
    doc["games"][0]["during"] = "track"
    doc["games"][0]["players"][0]["during"] = {"vp_track": 24}
    return doc


def test_a_track_game_reads_its_one_during_the_game_entry_and_scores_as_its_breakdown():
    (game,) = read_document(track_document())
    assert game.during == "track"
    (alice,) = game.players
    assert alice.entries == {
        "vp_track": 24,
        "planted_seed_cards": 12,
        "farms": 4,
        "recruits": 6,
        "developments": 9,
        "carvings": 14,
        "queens_favor": 5,
        "hive_mat_full": True,
        "frames_filled": 1,
        "faction_ability": 6,
    }
    assert score_document([game]) == EXAMPLE_SCORE


def test_a_game_without_during_is_a_breakdown_as_every_older_file_and_an_explicit_breakdown_is_the_same():
    (older,) = read_document(example_document())
    explicit = example_document()
    explicit["games"][0]["during"] = "breakdown"
    (same,) = read_document(explicit)
    assert older.during == same.during == "breakdown"
    assert older == same
    assert game_fingerprint(older) == game_fingerprint(same)


def test_the_writer_writes_during_for_a_track_game_only():
    """A breakdown game is written as before (so its fingerprint and an earlier pad's reading stay
    as they were); a track game says so, and its players' ``during`` holds the track alone."""
    assert "during" not in dump_document(read_document(example_document()))["games"][0]
    written = dump_document(read_document(track_document()))["games"][0]
    assert written["during"] == "track"
    assert list(written) == [
        "played_on",
        "notes",
        "end_trigger_token",
        "during",
        "started_at",
        "finished_at",
        "comb",
        "players",
    ]
    assert written["players"][0]["during"] == {"vp_track": 24}
    assert written["players"][0]["end"] == example_document()["games"][0]["players"][0]["end"]


def test_a_track_game_round_trips():
    games = read_document(track_document())
    text = to_json(dump_document(games))
    assert parse_document(text) == games
    assert to_json(dump_document(parse_document(text))) == text


def test_the_way_of_counting_is_part_of_the_fingerprint():
    """The same numbers counted another way are another game."""
    as_breakdown = example_document()
    as_breakdown["games"][0]["players"][0]["during"] = {"starting_vp": 24}
    assert fingerprint_of(track_document()) != fingerprint_of(as_breakdown)


@pytest.mark.parametrize(
    ("edit", "path", "message"),
    [
        pytest.param(
            set_("games[0].during", "tracks"),
            "games[0].during",
            "must be “track” or “breakdown” (not the text “tracks”)",
            id="an-unknown-way",
        ),
        pytest.param(
            set_("games[0].during", True), "games[0].during", "must be “track” or “breakdown” (not true)", id="not-text"
        ),
        pytest.param(
            set_(f"{P0}.during.vp_track", 40),
            f"{P0}.during.vp_track",
            "is not a key of this game’s “during”: vp_track belongs to a game whose “during” is “track”",
            id="the-track-in-a-breakdown-game",
        ),
        pytest.param(
            edits(set_("games[0].during", "track")),
            f"{P0}.during.starting_vp",
            "is not a key of this game’s “during”: starting_vp belongs to a game whose “during” is “breakdown”",
            id="the-breakdown-in-a-track-game",
        ),
        pytest.param(
            edits(set_("games[0].during", "track"), set_(f"{P0}.during", {"vp_track": 1000})),
            f"{P0}.during.vp_track",
            "must be a whole number from 0 to 999 (not 1000)",
            id="the-track-out-of-range",
        ),
        pytest.param(
            edits(set_("games[0].during", "track"), set_(f"{P0}.end.vp_track", 40), set_(f"{P0}.during", {})),
            f"{P0}.end.vp_track",
            "is not a key the format knows here: vp_track belongs in during",
            id="the-track-in-end",
        ),
    ],
)
def test_a_key_of_the_other_way_or_an_unknown_way_is_a_problem_named_by_its_path(edit, path, message):
    doc = example_document()
    edit(doc)
    with pytest.raises(GameFileError) as caught:
        read_document(doc)
    assert [str(problem) for problem in caught.value.problems][0] == f"{path}: {message}"


def test_a_track_games_history_may_change_its_track_and_keeps_what_was_entered_the_other_way_before():
    """The history is a record: a change of the track, and one of the breakdown made before the
    game was changed to the track, are both read."""
    doc = track_document()
    doc["games"][0]["changes"] = [
        {"player": 1, "entry": "farm_income", "old": None, "new": 6, "at": "2026-11-29T20:00:00+01:00", "by": ""},
        {"player": 1, "entry": "farm_income", "old": 6, "new": None, "at": "2026-11-29T20:01:00+01:00", "by": ""},
        {"player": 1, "entry": "vp_track", "old": None, "new": "20+4", "at": "2026-11-29T21:00:00+01:00", "by": ""},
    ]
    (game,) = read_document(doc)
    assert [(change.entry, change.new) for change in game.changes] == [
        ("farm_income", 6),
        ("farm_income", None),
        ("vp_track", "20+4"),
    ]

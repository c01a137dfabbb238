"""Specification of reading a game file (``scoring.gamefile.reading`` and its primitive checks,
``scoring.gamefile.checks``) against ``docs/game-file.md``: the example files, every rule of a
valid document, every invalid document's problems named by their paths, and documents the
reader must turn into problems rather than crash on. Pure Python, no database."""

from __future__ import annotations

import json
import sys
from datetime import date

import pytest

from scoring.gamefile import (
    GameFileError,
    dump_document,
    parse_document,
    read_document,
    score_document,
)
from scoring.rules.engine import Sector
from tests.gamefile.documents import (
    ALL_ENTRY_KEYS,
    DATA,
    EXAMPLE_SCORE,
    FORMAT_LIMITS,
    INVALID_DOCUMENTS,
    LONE_SURROGATE_NAME,
    P0,
    SECOND_GAME_INVALID,
    SECOND_GAME_INVALID_PATH,
    THREE_ERROR_PATHS,
    THREE_ERRORS,
    UNREADABLE_DOCUMENTS,
    add_player,
    delete,
    edited,
    edits,
    example_document,
    format_md_json_blocks,
    problem_paths,
    scored,
    set_,
)


def test_example_file_is_format_md_example_verbatim():
    assert example_document() == format_md_json_blocks()[0]


def test_format_md_printed_score_is_the_expected_score():
    assert format_md_json_blocks()[1] == EXAMPLE_SCORE


def test_multi_game_file_is_valid():
    assert len(parse_document((DATA / "multi_game.json").read_bytes())) == 3


def test_an_empty_game_list_is_a_valid_document_that_holds_nothing():
    """The backup of an account without games (docs/game-file.md, "With no games stored")."""
    empty = {"format": "apiary-scorepad", "version": 1, "games": []}
    assert parse_document(json.dumps(empty)) == []
    assert dump_document([]) == empty
    assert score_document([]) == {"games": []}


# ---------------------------------------------------------------------------------------------
# Reading valid documents


def test_example_reads_every_field():
    (game,) = parse_document((DATA / "example.json").read_bytes())
    assert game.played_on == date(2026, 11, 29)
    assert game.notes == "Friday game night"
    assert game.end_trigger_token == 7
    assert game.comb == [Sector(9, 4), Sector(6, 0)]
    (alice,) = game.players
    assert (alice.name, alice.seat, alice.faction, alice.automa, alice.active_workers) == ("Alice", 1, "Ana", False, 3)
    assert alice.hibernation == [2, 1]
    assert alice.entries == {
        "starting_vp": 1,
        "explore_tokens": 4,
        "farm_income": 6,
        "comb_pods": 2,
        "hive_build_bonuses": 1,
        "advance_strength4": 3,
        "explore_strength4": 0,
        "tile_abilities": 5,
        "seed_card_benefits": 2,
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


def test_text_and_bytes_read_the_same():
    text = (DATA / "multi_game.json").read_text(encoding="utf-8")
    assert parse_document(text) == parse_document(text.encode("utf-8"))


def test_players_out_of_order_are_read_in_seat_order():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    assert [(p.seat, p.name) for p in games[0].players] == [(1, "Bob"), (2, "Automa"), (3, "Zoé")]


def test_seat_left_out_is_the_order_of_the_list():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    assert [(p.seat, p.name) for p in games[1].players] == [(1, "Ann"), (2, "Ben"), (3, "Cid"), (4, "Dee"), (5, "Eve")]


def test_missing_entries_count_as_zero_and_false():
    doc = example_document()
    doc["games"][0]["players"] = [{"name": "Nobody"}]
    doc["games"][0]["comb"] = []
    (game,) = read_document(doc)
    (player,) = game.players
    assert player.entries == {key: (False if key == "hive_mat_full" else 0) for key in ALL_ENTRY_KEYS}
    assert (player.seat, player.faction, player.automa, player.active_workers, player.hibernation) == (
        1,
        "",
        False,
        0,
        [],
    )
    assert score_document([game]) == {"games": [{"players": [scored("Nobody", 1, 0, 0, 0, rank=1, winner=True)]}]}


def test_empty_sections_count_as_zero():
    doc = example_document()
    doc["games"][0]["players"][0].update(during={}, end={})
    (game,) = read_document(doc)
    # Only the comb majorities remain: 9 + 6.
    assert score_document([game])["games"][0]["players"][0] == scored("Alice", 1, 0, 15, 15, rank=1, winner=True)


def test_optional_game_fields_left_out():
    doc = {"format": "apiary-scorepad", "version": 1, "games": [{"players": [{"name": "Alice"}]}]}
    (game,) = read_document(doc)
    assert (game.played_on, game.notes, game.end_trigger_token, game.comb) == (None, "", 7, [])


def test_hibernation_left_out_means_no_tokens():
    doc = example_document()
    doc["games"][0]["players"].append({"name": "Bob"})  # seat 2, no hibernation
    (game,) = read_document(doc)
    assert game.players[1].hibernation == [0, 0]
    players = score_document([game])["games"][0]["players"]
    # Alice alone on both sectors: 9 + 6; Bob has no token anywhere.
    assert [(p["name"], p["majority"]) for p in players] == [("Alice", 15), ("Bob", 0)]


@pytest.mark.parametrize("automa", [False, True], ids=["human", "automa"])
def test_automa_is_scored_like_any_player(automa):
    doc = example_document()
    doc["games"][0]["players"][0]["automa"] = automa
    (game,) = read_document(doc)
    assert game.players[0].automa is automa
    assert score_document([game]) == EXAMPLE_SCORE


@pytest.mark.parametrize(
    "edit, check",
    [
        pytest.param(set_("games[0].play_minutes", 1), lambda g: g.play_minutes == 1, id="play_minutes-1"),
        pytest.param(set_("games[0].play_minutes", 1440), lambda g: g.play_minutes == 1440, id="play_minutes-1440"),
        pytest.param(
            set_(f"{P0}.end.carvings", -99), lambda g: g.players[0].entries["carvings"] == -99, id="carvings--99"
        ),
        pytest.param(
            set_(f"{P0}.end.hive_mat_full", False),
            lambda g: g.players[0].entries["hive_mat_full"] is False,
            id="hive_mat_full-false",
        ),
        pytest.param(
            set_(f"{P0}.active_workers", 0), lambda g: g.players[0].active_workers == 0, id="active_workers-0"
        ),
        pytest.param(
            set_(f"{P0}.active_workers", 4), lambda g: g.players[0].active_workers == 4, id="active_workers-4"
        ),
        pytest.param(
            set_("games[0].end_trigger_token", 6), lambda g: g.end_trigger_token == 6, id="end_trigger_token-6"
        ),
        pytest.param(
            delete("games[0].end_trigger_token"), lambda g: g.end_trigger_token == 7, id="end_trigger_token-default-7"
        ),
        pytest.param(
            edits(set_("games[0].comb", [{"first": 99, "second": 99}] * 20), delete(f"{P0}.hibernation")),
            lambda g: g.comb == [Sector(99, 99)] * 20 and g.players[0].hibernation == [0] * 20,
            id="comb-20-sectors-of-99",
        ),
        pytest.param(
            edits(set_("games[0].comb", []), set_(f"{P0}.hibernation", [])),
            lambda g: g.comb == [] and g.players[0].hibernation == [],
            id="comb-empty",
        ),
        pytest.param(
            delete("games[0].comb[1].second"), lambda g: g.comb[1] == Sector(6, 0), id="sector-second-left-out"
        ),
        pytest.param(
            set_(f"{P0}.hibernation", [7, 0]),
            lambda g: g.players[0].hibernation == [7, 0],
            id="hibernation-7-in-one-sector",
        ),
        pytest.param(
            set_(f"{P0}.hibernation", [3, 4]), lambda g: g.players[0].hibernation == [3, 4], id="hibernation-total-7"
        ),
        pytest.param(set_(f"{P0}.name", "N" * 40), lambda g: g.players[0].name == "N" * 40, id="name-40-chars"),
        pytest.param(set_(f"{P0}.name", "  Alice \t"), lambda g: g.players[0].name == "Alice", id="name-trimmed"),
        pytest.param(
            set_("games[0].notes", "Rainy.\nBruno late.\tTea"),
            lambda g: g.notes == "Rainy.\nBruno late.\tTea",
            id="notes-with-lines-and-tabs",
        ),
        pytest.param(
            set_(f"{P0}.name", " " + "N" * 40 + " "),
            lambda g: g.players[0].name == "N" * 40,
            id="name-40-chars-after-trimming",
        ),
        pytest.param(
            set_(f"{P0}.faction", "F" * 40), lambda g: g.players[0].faction == "F" * 40, id="faction-40-chars"
        ),
        pytest.param(delete(f"{P0}.faction"), lambda g: g.players[0].faction == "", id="faction-left-out"),
        pytest.param(delete(f"{P0}.automa"), lambda g: g.players[0].automa is False, id="automa-left-out"),
        pytest.param(delete("games[0].notes"), lambda g: g.notes == "", id="notes-left-out"),
        pytest.param(
            set_("games[0].played_on", "2024-02-29"),
            lambda g: g.played_on == date(2024, 2, 29),
            id="played_on-leap-day",
        ),
        pytest.param(delete("games[0].played_on"), lambda g: g.played_on is None, id="played_on-left-out"),
        pytest.param(
            set_("games[0].players", [{"name": f"P{i}"} for i in range(5)]),
            lambda g: [p.seat for p in g.players] == [1, 2, 3, 4, 5],
            id="players-5",
        ),
        pytest.param(
            add_player(name="Bot", automa=True),
            lambda g: [p.automa for p in g.players] == [False, True],
            id="automa-one-of-two",
        ),
        pytest.param(
            add_player(name="Alicia"), lambda g: [p.name for p in g.players] == ["Alice", "Alicia"], id="names-distinct"
        ),
    ],
)
def test_valid_edge_values(edit, check):
    (game,) = parse_document(edited(edit)())
    assert check(game)


@pytest.mark.parametrize(
    "key, value",
    [
        pytest.param(key, value, id=f"{key}={value}")
        for key, (_section, low, high) in FORMAT_LIMITS.items()
        for value in (low, high)
    ],
)
def test_every_entry_accepts_its_limits(key, value):
    section = FORMAT_LIMITS[key][0]
    (game,) = parse_document(edited(set_(f"{P0}.{section}.{key}", value))())
    assert game.players[0].entries[key] == value


# ---------------------------------------------------------------------------------------------
# Reading invalid documents


@pytest.mark.parametrize("build, paths", INVALID_DOCUMENTS)
def test_invalid_document_names_the_problem_by_its_path(build, paths):
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert problem_paths(caught.value) == list(paths)
    for path in paths:
        assert any(line.startswith(f"{path}: ") for line in str(caught.value).splitlines()), str(caught.value)


def test_a_name_that_could_hide_or_reorder_text_is_refused_naming_the_character():
    with pytest.raises(GameFileError) as caught:
        parse_document(edited(set_(f"{P0}.name", "\u202eaivilO"))())
    message = (
        "holds a character that can hide or reorder text (U+202E RIGHT-TO-LEFT OVERRIDE), which a name cannot hold"
    )
    assert str(caught.value).splitlines() == [f"{P0}.name: {message}"]


def test_wrong_section_says_where_the_key_belongs():
    with pytest.raises(GameFileError) as caught:
        parse_document(edited(set_(f"{P0}.during.farms", 1))())
    assert "belongs in end" in str(caught.value)


def test_every_problem_of_one_player_is_reported():
    build = edited(edits(set_(f"{P0}.name", ""), set_(f"{P0}.seat", 0), set_(f"{P0}.end.farms", 100)))
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert sorted(problem_paths(caught.value)) == sorted([f"{P0}.name", f"{P0}.seat", f"{P0}.end.farms"])


def test_every_problem_of_a_document_is_reported():
    with pytest.raises(GameFileError) as caught:
        parse_document(THREE_ERRORS())
    assert sorted(problem_paths(caught.value)) == sorted(THREE_ERROR_PATHS)


def test_a_valid_game_does_not_hide_an_invalid_one():
    with pytest.raises(GameFileError) as caught:
        parse_document(SECOND_GAME_INVALID())
    assert problem_paths(caught.value) == [SECOND_GAME_INVALID_PATH]


# Robustness: documents that are valid JSON text the reader must still turn into an error by path,
# never into an unexpected exception (FORMAT.md: an invalid document "says ... what is wrong and where").


@pytest.mark.parametrize("build", UNREADABLE_DOCUMENTS)
def test_unreadable_json_is_a_problem_not_a_crash(build):
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert problem_paths(caught.value) == ["(document)"]


def test_a_name_that_is_not_unicode_text_is_a_problem_not_a_crash():
    # "\ud800" is a lone surrogate: JSON allows the escape, but it is no character and cannot be
    # written as UTF-8 (the database and standard output both fail on it).
    with pytest.raises(GameFileError) as caught:
        parse_document(LONE_SURROGATE_NAME())
    assert problem_paths(caught.value) == [f"{P0}.name"]


# Text that is not JSON: where, and what is wrong, in the reader's words (the page's language),
# never Python's json module's English ("Expecting property name enclosed in double quotes").

TRAILING_COMMA = (  # (Python 3.13 names the comma; 3.12 expects a value after it)
    ("line 1, column 13", "a comma cannot come just before the end of a list or an object")
    if sys.version_info >= (3, 13)
    else ("line 1, column 14", "a value is expected")
)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        pytest.param("", "line 1, column 1", "a value is expected", id="empty"),
        pytest.param('{"games": [}', "line 1, column 12", "a value is expected", id="no-value"),
        pytest.param("{games: []}", "line 1, column 2", "a key in double quotes is expected", id="key-unquoted"),
        pytest.param('{"games" []}', "line 1, column 10", "a colon is expected after the key", id="no-colon"),
        pytest.param(
            '{"games": [1 2]}',
            "line 1, column 14",
            "a comma, or the end of the list or object, is expected",
            id="no-comma",
        ),
        pytest.param('{"games": [1,]}', *TRAILING_COMMA, id="trailing-comma"),
        pytest.param(
            '{\n"notes": "x',
            "line 2, column 10",
            "a text that starts here has no closing double quote",
            id="unterminated",
        ),
        pytest.param(
            '{"notes": "a\nb"}',
            "line 1, column 13",
            "a text holds a line break or another control character, which JSON writes as an escape",
            id="line-break-in-a-text",
        ),
        pytest.param(
            '{"notes": "a\\qb"}',
            "line 1, column 13",
            "a backslash in a text starts no escape that JSON knows",
            id="escape",
        ),
        pytest.param('{"games": []} []', "line 1, column 15", "something follows the end of the document", id="extra"),
    ],
)
def test_text_that_is_not_json_is_said_where_and_in_the_readers_words(text, where, words):
    with pytest.raises(GameFileError) as caught:
        parse_document(text)
    (problem,) = caught.value.problems
    assert (problem.path, problem.message) == ("(document)", f"is not valid JSON at {where}: {words}")

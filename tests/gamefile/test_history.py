"""Specification of a game’s change history in the game file (``docs/game-file.md``, "The change
history (optional)"): reading and writing it, every problem of an invalid history, and the pad's
words for a change (``scoring.gamefile.history``). The history's round trip through the database
is ``tests/test_history.py``'s."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from scoring.gamefile import (
    ChangeData,
    GameData,
    GameFileError,
    dump_document,
    entry_of_field,
    field_of_entry,
    parse_document,
    read_document,
    score_document,
    text_of_value,
    to_json,
    value_of_text,
)
from tests.gamefile.documents import (
    DATA,
    FORMAT_MD,
    C,
    delete,
    edits,
    example_document,
    history_document,
    history_text_replacing,
    in_history,
    problem_paths,
    set_,
)

CET = timezone(timedelta(hours=1))


def add_change(**change: Any) -> Callable[[dict], None]:
    def edit(doc: dict) -> None:
        doc["games"][0]["changes"].append(change)

    return edit


def history_game() -> GameData:
    (game,) = read_document(history_document())
    return game


def test_format_md_history_example_reads_every_change():
    assert history_game().changes == [
        ChangeData(
            player=1,
            entry="farm_income",
            old=None,
            new="3+6",
            at=datetime(2026, 11, 29, 20, 15, 3, tzinfo=CET),
            by="Ann",
        ),
        ChangeData(
            player=2,
            entry="hibernation[0]",
            old=None,
            new=1,
            at=datetime(2026, 11, 29, 20, 16, 40, tzinfo=CET),
            by="",
            by_link=True,
        ),
        ChangeData(
            player=1,
            entry="farm_income",
            old="3+6",
            new="3+6+2",
            at=datetime(2026, 11, 29, 20, 17, 0, tzinfo=CET),
            by="Ben",
            by_link=True,
        ),
        ChangeData(
            player=1,
            entry="farm_income",
            old="3+6+2",
            new="3+6",
            at=datetime(2026, 11, 29, 20, 17, 5, tzinfo=CET),
            by="Ann",
            undoes=2,
        ),
        ChangeData(
            player=1,
            entry="hive_mat_full",
            old=False,
            new=True,
            at=datetime(2026, 11, 29, 21, 40, 12, 500000, tzinfo=CET),
            by="Ann",
        ),
    ]


def test_a_change_without_by_link_an_older_files_reads_as_no_link_holders():
    doc = history_document()
    for change in doc["games"][0]["changes"]:
        change.pop("by_link", None)
    doc["games"][0]["changes"][1]["by"] = "edit link"  # as the writer wrote a link's holder without a name then

    (game,) = read_document(doc)

    assert [(change.by, change.by_link) for change in game.changes] == [
        ("Ann", False),
        ("edit link", False),
        ("Ben", False),
        ("Ann", False),
        ("Ann", False),
    ]


def test_the_history_does_not_change_the_scores():
    doc = history_document()
    without = copy.deepcopy(doc)
    del without["games"][0]["changes"]
    assert score_document(read_document(doc)) == score_document(read_document(without))


def test_a_document_without_history_is_still_version_1_and_reads_no_changes():
    (game,) = parse_document((DATA / "example.json").read_bytes())
    assert game.changes == []
    assert dump_document([game])["version"] == 1
    assert "changes" not in dump_document([game])["games"][0]


def test_a_document_with_history_is_version_1_too():
    assert history_document()["version"] == 1
    assert dump_document([history_game()])["version"] == 1


def test_an_empty_history_reads_as_none_and_is_not_written():
    doc = example_document()
    doc["games"][0]["changes"] = []
    (game,) = read_document(doc)
    assert game.changes == []
    assert dump_document([game]) == example_document()


def test_history_is_written_in_its_order_with_by_link_and_undoes_only_where_set():
    written = dump_document([history_game()])["games"][0]["changes"]
    assert written == history_document()["games"][0]["changes"]
    assert [list(change) for change in written][:3] == [
        ["player", "entry", "old", "new", "at", "by"],
        *[["player", "entry", "old", "new", "at", "by", "by_link"]] * 2,
    ]
    assert [change.get("by_link") for change in written] == [None, True, True, None, None]
    assert [change.get("undoes") for change in written] == [None, None, None, 2, None]


def test_history_dump_then_read_gives_the_same_games():
    games = parse_document(json.dumps(history_document()))
    text = to_json(dump_document(games))
    assert parse_document(text) == games
    assert to_json(dump_document(parse_document(text))) == text


def test_the_writer_keeps_the_offset_the_time_has():
    (game,) = read_document(history_document())
    game.changes[0] = ChangeData(
        player=1, entry="farms", old=None, new=4, at=datetime(2026, 11, 29, 19, 15, 3, tzinfo=UTC), by=""
    )
    assert dump_document([game])["games"][0]["changes"][0]["at"] == "2026-11-29T19:15:03+00:00"


@pytest.mark.parametrize(
    "edit, check",
    [
        pytest.param(
            set_(f"{C}[0].at", "2026-11-29T19:15:03Z"),
            lambda c: c[0].at == datetime(2026, 11, 29, 19, 15, 3, tzinfo=UTC),
            id="at-Z",
        ),
        pytest.param(
            set_(f"{C}[0].at", "2026-11-29T14:15:03-05:00"),
            lambda c: c[0].at == datetime(2026, 11, 29, 19, 15, 3, tzinfo=UTC),
            id="at-minus-5h",
        ),
        pytest.param(
            set_(f"{C}[0].at", "2026-11-29T20:15:03.5+01:00"),
            lambda c: c[0].at.microsecond == 500000,
            id="at-one-fraction-digit",
        ),
        pytest.param(
            set_(f"{C}[1].at", "2026-11-29T20:15:03+01:00"),
            lambda c: c[0].at == c[1].at,
            id="at-same-time-as-the-one-before",
        ),
        pytest.param(set_(f"{C}[0].new", "3 + 6"), lambda c: c[0].new == "3+6", id="sum-spaces-dropped"),
        pytest.param(set_(f"{C}[0].new", "14-3"), lambda c: c[0].new == "14-3", id="sum-with-minus"),
        pytest.param(set_(f"{C}[0].new", "500+499"), lambda c: c[0].new == "500+499", id="sum-making-999"),
        pytest.param(set_(f"{C}[0].new", 999), lambda c: c[0].new == 999, id="number-999"),
        pytest.param(set_(f"{C}[0].new", 0), lambda c: c[0].new == 0, id="number-0-is-not-null"),
        pytest.param(
            edits(set_(f"{C}[0].entry", "carvings"), set_(f"{C}[0].new", "-100+1")),
            lambda c: c[0].new == "-100+1",
            id="carvings-sum-making-minus-99",
        ),
        pytest.param(
            edits(set_(f"{C}[0].entry", "carvings"), set_(f"{C}[0].new", -99)),
            lambda c: c[0].new == -99,
            id="carvings-minus-99",
        ),
        pytest.param(
            edits(set_(f"{C}[0].entry", "frames_filled"), set_(f"{C}[0].new", 15)),
            lambda c: c[0].new == 15,
            id="frames-15",
        ),
        pytest.param(
            edits(set_(f"{C}[1].entry", "active_workers"), set_(f"{C}[1].new", 4)),
            lambda c: (c[1].entry, c[1].new) == ("active_workers", 4),
            id="workers-4",
        ),
        pytest.param(
            edits(set_(f"{C}[1].old", 7), set_(f"{C}[1].new", None)),
            lambda c: (c[1].old, c[1].new) == (7, None),
            id="tokens-7-to-not-entered",
        ),
        pytest.param(set_(f"{C}[4].by", ""), lambda c: c[4].by == "", id="by-nobody"),
        pytest.param(set_(f"{C}[4].by", "  Ann \t"), lambda c: c[4].by == "Ann", id="by-trimmed"),
        pytest.param(set_(f"{C}[4].by", "Z" * 80), lambda c: c[4].by == "Z" * 80, id="by-80-characters"),
        pytest.param(set_(f"{C}[1].by_link", False), lambda c: c[1].by_link is False, id="by-link-false"),
        pytest.param(
            set_(f"{C}[4].by_link", True),
            lambda c: (c[4].by, c[4].by_link) == ("Ann", True),
            id="by-link-with-the-owners-name",
        ),
        pytest.param(set_(f"{C}[4].player", 2), lambda c: c[4].player == 2, id="player-2"),
        pytest.param(
            add_change(
                player=1,
                entry="farm_income",
                old="3+6",
                new="3+6+2",
                at="2026-11-29T21:41:00+01:00",
                by="ann",
                undoes=3,
            ),
            lambda c: (c[5].undoes, c[5].new) == (3, "3+6+2"),
            id="undoing-an-undo",
        ),
        pytest.param(
            add_change(
                player=1,
                entry="farm_income",
                old="3+6",
                new="3+6+2",
                at="2026-11-29T21:41:00+01:00",
                by="ann",
                undoes=2,
            ),
            lambda c: c[3].undoes == c[5].undoes == 2,
            id="a-change-undone-twice",
        ),
        pytest.param(delete(f"{C}[3].undoes"), lambda c: c[3].undoes is None, id="undoes-left-out"),
    ],
)
def test_valid_history_edge_values(edit, check):
    (game,) = parse_document(in_history(edit)())
    assert check(game.changes)


def test_every_problem_of_a_history_is_reported_by_path():
    build = in_history(
        edits(
            set_(f"{C}[0].player", 9),
            set_(f"{C}[1].entry", "hibernation[5]"),
            set_(f"{C}[2].at", "yesterday"),
            set_(f"{C}[3].undoes", 3),
        )
    )
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert problem_paths(caught.value) == [f"{C}[0].player", f"{C}[1].entry", f"{C}[2].at", f"{C}[3].undoes"]


def test_a_change_is_checked_against_the_seats_only_when_the_players_are_valid():
    # Players invalid: their problem is reported, and the change's seat is only checked to be a seat.
    build = in_history(edits(set_("games[0].players[1].name", ""), set_(f"{C}[0].player", 3)))
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert problem_paths(caught.value) == ["games[0].players[1].name"]


# The messages FORMAT.md prints under "Errors in the history", each with the edit that gives it.
HISTORY_MESSAGES = [
    (set_(C, {}), f"{C}: must be a list of changes (not an object)"),
    (set_(f"{C}[0].player", 3), f"{C}[0].player: must be the seat of one of the game’s players, from 1 to 2 (not 3)"),
    (
        set_(f"{C}[1].entry", "farm"),
        f"{C}[1].entry: must be a category key, “active_workers” or “hibernation[<sector index>]” "
        "(not the text “farm”)",
    ),
    (
        set_(f"{C}[1].entry", "hibernation[1]"),
        f"{C}[1].entry: names comb sector index 1, but the comb has 1 sector (only hibernation[0])",
    ),
    (
        set_(f"{C}[2].old", "3"),
        f"{C}[2].old: must be a whole number from 0 to 999, a sum such as “3+6+2”, or null (not the text “3”)",
    ),
    (set_(f"{C}[2].new", "600+500"), f"{C}[2].new: the sum “600+500” makes 1100; it must be from 0 to 999"),
    (set_(f"{C}[4].old", None), f"{C}[4].old: must be true or false (not null)"),
    (set_(f"{C}[1].new", "1+1"), f"{C}[1].new: must be a whole number from 0 to 7, or null (not the text “1+1”)"),
    (
        set_(f"{C}[3].at", "2026-11-29 20:17:05"),
        (
            f"{C}[3].at: must be a date and time with its offset from UTC, such as 2026-11-29T21:04:05+01:00 "
            "(not the text “2026-11-29 20:17:05”)"
        ),
    ),
    (
        set_(f"{C}[0].at", "2026-02-30T20:15:03+01:00"),
        f"{C}[0].at: is not a real date and time: 2026-02-30T20:15:03+01:00",
    ),
    (
        set_(f"{C}[4].at", "2026-11-29T20:17:04+01:00"),
        f"{C}[4].at: is earlier than changes[3] (2026-11-29T20:17:05+01:00): changes are listed oldest first",
    ),
    (set_(f"{C}[4].by", "x" * 81), f"{C}[4].by: must be at most 80 characters long (not 81)"),
    (set_(f"{C}[2].by_link", "yes"), f"{C}[2].by_link: must be true or false (not the text “yes”)"),
    (
        set_(f"{C}[3].undoes", 3),
        f"{C}[3].undoes: must be the index of an earlier change in this list, from 0 to 2 (not 3)",
    ),
    (
        set_(f"{C}[4].undoes", 2),
        (
            f"{C}[4].undoes: a change can only undo a change of the same entry, and changes[2] changed "
            "farm_income of player 1 (not hive_mat_full of player 1)"
        ),
    ),
    (set_(f"{C}[4].colour", "red"), f"{C}[4].colour: is not a key the format knows"),
    (delete(f"{C}[0].by"), f"{C}[0].by: is required"),
]


@pytest.mark.parametrize("edit, message", HISTORY_MESSAGES, ids=[m.split(":")[0] for _e, m in HISTORY_MESSAGES])
def test_history_problem_messages(edit, message):
    with pytest.raises(GameFileError) as caught:
        parse_document(in_history(edit)())
    assert str(caught.value).splitlines() == [message]


def test_format_md_lists_exactly_the_history_messages():
    text = FORMAT_MD.read_text(encoding="utf-8")
    section = text[text.index("### Errors in the history") :]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL).group(1)
    assert block.splitlines() == [message for _edit, message in HISTORY_MESSAGES]


def test_a_lone_surrogate_in_a_bad_value_is_quoted_as_an_escape():
    build = history_text_replacing('"new": "3+6+2"', '"new": "3+6+\\ud800"')
    with pytest.raises(GameFileError) as caught:
        parse_document(build())
    assert problem_paths(caught.value) == [f"{C}[2].new"]
    str(caught.value).encode("utf-8")  # printable: the surrogate is written as \\ud800


# The pad's words for a change (its field keys and the text its inputs show) and the file's.


@pytest.mark.parametrize(
    "field_key, entry",
    [
        ("farm_income", "farm_income"),
        ("hive_mat_full", "hive_mat_full"),
        ("active_workers", "active_workers"),
        ("t0", "hibernation[0]"),
        ("t19", "hibernation[19]"),
    ],
)
def test_pad_field_keys_and_file_entries(field_key, entry):
    assert entry_of_field(field_key) == entry
    assert field_of_entry(entry) == field_key


@pytest.mark.parametrize(
    "text, value",
    [
        ("", None),
        ("0", 0),
        ("12", 12),
        ("-3", -3),
        ("3+6+2", "3+6+2"),
        ("14-3", "14-3"),
        ("-3+5", "-3+5"),
        ("True", True),
        ("False", False),
    ],
)
def test_pad_texts_and_file_values(text, value):
    assert value_of_text(text) == value
    assert type(value_of_text(text)) is type(value)
    assert text_of_value(value) == text

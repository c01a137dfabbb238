"""Specification of the game file (``scoring/gamefile.py``) against ``docs/game-file.md``.

Pure Python, no database: reading (every rule of the document, every error named by its
path), scoring (what ``score_game`` prints), writing (what ``export_games`` writes), and the
optional change history of a game (``changes``). The history's round trip through the database
is in ``tests/test_history.py``.
The tables of documents defined here are shared with ``tests/test_commands.py``, which runs
the same documents through the three management commands.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from scoring.gamefile import (
    ChangeData,
    GameData,
    GameFileError,
    dump_document,
    entry_of_field,
    field_of_entry,
    game_fingerprint,
    parse_document,
    read_document,
    score_document,
    text_of_value,
    to_json,
    value_of_text,
)
from scoring.rules.engine import Sector

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
FORMAT_MD = TESTS.parent / "docs" / "game-file.md"

# ---------------------------------------------------------------------------------------------
# The documents


def load(name: str) -> dict[str, Any]:
    """A fresh copy of a document of ``tests/data``, decoded."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def example_document() -> dict[str, Any]:
    """FORMAT.md's example: one game, one player (Alice), two comb sectors."""
    return load("example.json")


def multi_document() -> dict[str, Any]:
    """Three games: out-of-order seats with an Automa, five players with ties, a solo tie-break."""
    return load("multi_game.json")


def format_md_json_blocks() -> list[Any]:
    """The ```json blocks of FORMAT.md, decoded: [0] the example document, [1] what score_game
    prints for it, [2] the example of "The change history (optional)"."""
    return [
        json.loads(block)
        for block in re.findall(r"```json\n(.*?)```", FORMAT_MD.read_text(encoding="utf-8"), re.DOTALL)
    ]


def history_document() -> dict[str, Any]:
    """FORMAT.md's change-history example: Ann (seat 1) and Ben (seat 2), one comb sector, and
    five changes (0: Ann's farm income typed as 3+6; 1: a token of Ben's; 2: Ann's farm income
    changed to 3+6+2 by Ben; 3: that undone; 4: Ann's hive mat ticked)."""
    return format_md_json_blocks()[2]


# What score_game must print for FORMAT.md's example (FORMAT.md, "score_game FILE").
EXAMPLE_SCORE = {
    "games": [
        {
            "players": [
                {
                    "name": "Alice",
                    "seat": 1,
                    "during": 24,
                    "end": 87,
                    "majority": 15,
                    "total": 111,
                    "rank": 1,
                    "winner": True,
                },
            ]
        }
    ]
}


def scored(name: str, seat: int, during: int, end: int, majority: int, rank: int, winner: bool) -> dict[str, Any]:
    return {
        "name": name,
        "seat": seat,
        "during": during,
        "end": end,
        "majority": majority,
        "total": during + end,
        "rank": rank,
        "winner": winner,
    }


# What score_game must print for tests/data/multi_game.json, worked out by hand from SCORING.md.
MULTI_SCORE = {
    "games": [
        {
            # Listed Zoé (3), Bob (1), Automa (2): printed in seat order.
            # Sector 1 (9/4): Zoé 2, Bob 2, Automa 1 -> Zoé and Bob tie for 1st: 13 // 2 = 6 each.
            # Sector 2 (6/0): Bob alone -> 6. Sector 3 (13/5): Zoé 3, Bob 3 -> 18 // 2 = 9 each.
            "players": [
                # during 1+7; end 10 + 8 (hive mat) + 4 + majority 6+6+9
                scored("Bob", 1, during=8, end=43, majority=21, rank=1, winner=True),
                # the Automa is scored like any player: during 2+12; end 5+6
                scored("Automa", 2, during=14, end=11, majority=0, rank=3, winner=False),
                # during 3+10; end 5 farms - 3 carvings + 2 frames * 8 + majority 6+9
                scored("Zoé", 3, during=13, end=33, majority=15, rank=2, winner=False),
            ]
        },
        {
            # Seats left out: the order of the list. Sector (10/6): Ann 3 takes 10, Ben 1 and Cid 1
            # share 2nd place, 6 // 2 = 3 each; Dee left hibernation out (no tokens).
            # Ann and Ben: 50 VP and 2 workers each -> shared victory; Cid and Dee: 40 VP, Cid has
            # more active workers -> 3 and 4 (ranks skip after the tie: 1, 1, 3).
            "players": [
                scored("Ann", 1, during=30, end=20, majority=10, rank=1, winner=True),
                scored("Ben", 2, during=2, end=48, majority=3, rank=1, winner=True),
                scored("Cid", 3, during=3, end=37, majority=3, rank=3, winner=False),
                scored("Dee", 4, during=40, end=0, majority=0, rank=4, winner=False),
                scored("Eve", 5, during=10, end=0, majority=0, rank=5, winner=False),
            ]
        },
        {
            # 30 VP each: Claire has 4 active workers, the Automa 1 -> Claire wins alone.
            "players": [
                scored("Automa", 1, during=1, end=29, majority=0, rank=2, winner=False),
                scored("Claire", 2, during=2, end=28, majority=0, rank=1, winner=True),
            ]
        },
    ]
}

# FORMAT.md's limits, written out from its text (not read from scoring.rules.categories).
VP_KEYS_DURING = (
    "starting_vp",
    "explore_tokens",
    "farm_income",
    "comb_pods",
    "hive_build_bonuses",
    "advance_strength4",
    "explore_strength4",
    "tile_abilities",
    "seed_card_benefits",
)
VP_KEYS_END = ("planted_seed_cards", "recruits", "developments", "queens_favor", "faction_ability")
FORMAT_LIMITS: dict[str, tuple[str, int, int]] = {
    **dict.fromkeys(VP_KEYS_DURING, ("during", 0, 999)),
    **dict.fromkeys(VP_KEYS_END, ("end", 0, 999)),
    "carvings": ("end", -99, 999),
    "farms": ("end", 0, 99),
    "frames_filled": ("end", 0, 15),
}
ALL_ENTRY_KEYS = (
    *VP_KEYS_DURING,
    "planted_seed_cards",
    "farms",
    "recruits",
    "developments",
    "carvings",
    "queens_favor",
    "hive_mat_full",
    "frames_filled",
    "faction_ability",
)

P0 = "games[0].players[0]"
C = "games[0].changes"


# ---------------------------------------------------------------------------------------------
# Editing documents by the same paths the errors use


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def _parent(doc: Any, path: str) -> tuple[Any, str | int]:
    steps = _steps(path)
    for step in steps[:-1]:
        doc = doc[step]
    return doc, steps[-1]


def set_(path: str, value: Any) -> Callable[[dict], None]:
    """Edit: set the value at ``path`` (``games[0].players[0].end.farms``), adding the key if needed."""

    def edit(doc: dict) -> None:
        parent, last = _parent(doc, path)
        parent[last] = copy.deepcopy(value)

    return edit


def delete(path: str) -> Callable[[dict], None]:
    def edit(doc: dict) -> None:
        parent, last = _parent(doc, path)
        del parent[last]

    return edit


def edits(*steps: Callable[[dict], None]) -> Callable[[dict], None]:
    def edit(doc: dict) -> None:
        for step in steps:
            step(doc)

    return edit


def add_player(**player: Any) -> Callable[[dict], None]:
    def edit(doc: dict) -> None:
        doc["games"][0]["players"].append(player)

    return edit


def edited(edit: Callable[[dict], None], base: Callable[[], dict] = example_document) -> Callable[[], str]:
    """A document builder: the base document (FORMAT.md's example) with one edit, as JSON text."""

    def build() -> str:
        doc = base()
        edit(doc)
        return json.dumps(doc, ensure_ascii=False)

    return build


def raw(text: str | bytes) -> Callable[[], str | bytes]:
    return lambda: text


def example_text_replacing(old: str, new: str) -> Callable[[], str]:
    """FORMAT.md's example as text, with one exact piece of text replaced (for duplicated keys)."""

    def build() -> str:
        text = (DATA / "example.json").read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        return text.replace(old, new)

    return build


def invalid(id: str, build: Callable[[], str | bytes], *paths: str) -> Any:
    return pytest.param(build, paths, id=id)


def _bad_entries() -> list[Any]:
    """Each VP entry just outside its limits, at the path where it belongs."""
    cases = []
    for key, (section, low, high) in FORMAT_LIMITS.items():
        for value in (low - 1, high + 1):
            path = f"{P0}.{section}.{key}"
            cases.append(invalid(f"{section}.{key}={value}", edited(set_(path, value)), path))
    return cases


def in_history(edit: Callable[[dict], None]) -> Callable[[], str]:
    """A document builder: FORMAT.md's change-history example with one edit."""
    return edited(edit, base=history_document)


def history_text_replacing(old: str, new: str) -> Callable[[], str]:
    """The change-history example as indented JSON text, with one exact piece of text replaced."""

    def build() -> str:
        text = json.dumps(history_document(), indent=2)
        assert text.count(old) == 1, old
        return text.replace(old, new)

    return build


# Every kind of invalid change history (FORMAT.md, "The change history (optional)").
INVALID_CHANGES = [
    invalid("changes-an-object", in_history(set_(C, {})), C),
    invalid("changes-null", in_history(set_(C, None)), C),
    invalid("change-not-an-object", in_history(set_(f"{C}[1]", "Ben +1")), f"{C}[1]"),
    invalid("change-unknown-key", in_history(set_(f"{C}[4].colour", "red")), f"{C}[4].colour"),
    invalid("change-duplicated-key", history_text_replacing('"by": "Ben"', '"by": "Ben", "by": "Ann"'), f"{C}[2].by"),
    *[
        invalid(f"change-{key}-missing", in_history(delete(f"{C}[0].{key}")), f"{C}[0].{key}")
        for key in ("player", "entry", "old", "new", "at", "by")
    ],
    invalid("change-by-link-1", in_history(set_(f"{C}[1].by_link", 1)), f"{C}[1].by_link"),
    invalid("change-by-link-null", in_history(set_(f"{C}[1].by_link", None)), f"{C}[1].by_link"),
    invalid("change-by-link-a-name", in_history(set_(f"{C}[2].by_link", "Ben")), f"{C}[2].by_link"),
    # The player: one of the game's seats.
    invalid("change-player-3-of-2", in_history(set_(f"{C}[0].player", 3)), f"{C}[0].player"),
    invalid("change-player-0", in_history(set_(f"{C}[0].player", 0)), f"{C}[0].player"),
    invalid("change-player-text", in_history(set_(f"{C}[0].player", "1")), f"{C}[0].player"),
    invalid("change-player-a-name", in_history(set_(f"{C}[0].player", "Ann")), f"{C}[0].player"),
    invalid("change-player-true", in_history(set_(f"{C}[0].player", True)), f"{C}[0].player"),
    # The entry: a category key, "active_workers" or "hibernation[<sector index>]" within the comb.
    invalid("change-entry-unknown", in_history(set_(f"{C}[1].entry", "farm")), f"{C}[1].entry"),
    invalid("change-entry-pad-field-key", in_history(set_(f"{C}[1].entry", "t0")), f"{C}[1].entry"),
    invalid("change-entry-section-path", in_history(set_(f"{C}[0].entry", "during.farm_income")), f"{C}[0].entry"),
    invalid("change-entry-null", in_history(set_(f"{C}[0].entry", None)), f"{C}[0].entry"),
    invalid(
        "change-entry-hibernation-outside-the-comb",
        in_history(set_(f"{C}[1].entry", "hibernation[1]")),
        f"{C}[1].entry",
    ),
    invalid(
        "change-entry-hibernation-without-index", in_history(set_(f"{C}[1].entry", "hibernation")), f"{C}[1].entry"
    ),
    invalid(
        "change-entry-hibernation-leading-zero", in_history(set_(f"{C}[1].entry", "hibernation[00]")), f"{C}[1].entry"
    ),
    invalid("change-entry-hibernation-negative", in_history(set_(f"{C}[1].entry", "hibernation[-1]")), f"{C}[1].entry"),
    # The values, within the entry's limits.
    invalid("change-value-plain-number-as-text", in_history(set_(f"{C}[2].old", "3")), f"{C}[2].old"),
    invalid("change-value-1000", in_history(set_(f"{C}[2].new", 1000)), f"{C}[2].new"),
    invalid("change-value-minus-1", in_history(set_(f"{C}[2].new", -1)), f"{C}[2].new"),
    invalid("change-value-float", in_history(set_(f"{C}[2].new", 9.0)), f"{C}[2].new"),
    invalid("change-value-sum-out-of-range", in_history(set_(f"{C}[2].new", "600+500")), f"{C}[2].new"),
    invalid("change-value-not-a-sum", in_history(set_(f"{C}[2].new", "3++6")), f"{C}[2].new"),
    invalid("change-value-sum-other-digits", in_history(set_(f"{C}[2].new", "3+\uff16")), f"{C}[2].new"),
    invalid("change-value-sum-61-characters", in_history(set_(f"{C}[2].new", "1+" * 30 + "1")), f"{C}[2].new"),
    invalid("change-value-words", in_history(set_(f"{C}[2].new", "nine")), f"{C}[2].new"),
    invalid("change-value-list", in_history(set_(f"{C}[2].new", [3, 6])), f"{C}[2].new"),
    invalid("change-value-true-for-a-number", in_history(set_(f"{C}[2].new", True)), f"{C}[2].new"),
    invalid(
        "change-farms-100", in_history(edits(set_(f"{C}[0].entry", "farms"), set_(f"{C}[0].new", 100))), f"{C}[0].new"
    ),
    invalid(
        "change-carvings-minus-100",
        in_history(edits(set_(f"{C}[0].entry", "carvings"), set_(f"{C}[0].new", -100))),
        f"{C}[0].new",
    ),
    invalid("change-flag-null", in_history(set_(f"{C}[4].old", None)), f"{C}[4].old"),
    invalid("change-flag-1", in_history(set_(f"{C}[4].new", 1)), f"{C}[4].new"),
    invalid("change-flag-text", in_history(set_(f"{C}[4].new", "True")), f"{C}[4].new"),
    invalid("change-tokens-8", in_history(set_(f"{C}[1].new", 8)), f"{C}[1].new"),
    invalid("change-tokens-a-sum", in_history(set_(f"{C}[1].new", "1+1")), f"{C}[1].new"),
    invalid(
        "change-workers-5",
        in_history(edits(set_(f"{C}[1].entry", "active_workers"), set_(f"{C}[1].new", 5))),
        f"{C}[1].new",
    ),
    invalid(
        "change-workers-a-sum",
        in_history(edits(set_(f"{C}[1].entry", "active_workers"), set_(f"{C}[1].new", "2+1"))),
        f"{C}[1].new",
    ),
    # The time: an ISO 8601 date-time with its offset, oldest first.
    invalid("change-at-without-offset", in_history(set_(f"{C}[0].at", "2026-11-29T20:15:03")), f"{C}[0].at"),
    invalid("change-at-space-separator", in_history(set_(f"{C}[0].at", "2026-11-29 20:15:03+01:00")), f"{C}[0].at"),
    invalid("change-at-without-seconds", in_history(set_(f"{C}[0].at", "2026-11-29T20:15+01:00")), f"{C}[0].at"),
    invalid(
        "change-at-7-fraction-digits", in_history(set_(f"{C}[0].at", "2026-11-29T20:15:03.1234567+01:00")), f"{C}[0].at"
    ),
    invalid("change-at-a-date", in_history(set_(f"{C}[0].at", "2026-11-29")), f"{C}[0].at"),
    invalid("change-at-a-number", in_history(set_(f"{C}[0].at", 1796238903)), f"{C}[0].at"),
    invalid("change-at-february-30", in_history(set_(f"{C}[0].at", "2026-02-30T20:15:03+01:00")), f"{C}[0].at"),
    invalid("change-at-hour-24", in_history(set_(f"{C}[0].at", "2026-11-28T24:00:00+01:00")), f"{C}[0].at"),
    invalid("change-at-offset-24h", in_history(set_(f"{C}[0].at", "2026-11-29T20:15:03+24:00")), f"{C}[0].at"),
    invalid(
        "change-at-before-year-1-in-utc", in_history(set_(f"{C}[0].at", "0001-01-01T00:00:00+01:00")), f"{C}[0].at"
    ),
    invalid(
        "change-at-earlier-than-the-one-before",
        in_history(set_(f"{C}[4].at", "2026-11-29T20:17:04+01:00")),
        f"{C}[4].at",
    ),
    # The author: text of at most 80 characters.
    invalid("change-by-81-characters", in_history(set_(f"{C}[4].by", "x" * 81)), f"{C}[4].by"),
    invalid("change-by-null", in_history(set_(f"{C}[4].by", None)), f"{C}[4].by"),
    invalid("change-by-a-number", in_history(set_(f"{C}[4].by", 3)), f"{C}[4].by"),
    invalid("change-by-lone-surrogate", history_text_replacing('"by": "Ben"', '"by": "Ben\ud800"'), f"{C}[2].by"),
    invalid("change-by-with-right-to-left-override", in_history(set_(f"{C}[4].by", "\u202eaivilO")), f"{C}[4].by"),
    # What a change undid: an earlier change of the same player's same entry.
    invalid("change-undoes-itself", in_history(set_(f"{C}[3].undoes", 3)), f"{C}[3].undoes"),
    invalid("change-undoes-a-later-change", in_history(set_(f"{C}[3].undoes", 4)), f"{C}[3].undoes"),
    invalid("change-undoes-on-the-first-change", in_history(set_(f"{C}[0].undoes", 0)), f"{C}[0].undoes"),
    invalid("change-undoes-minus-1", in_history(set_(f"{C}[3].undoes", -1)), f"{C}[3].undoes"),
    invalid("change-undoes-text", in_history(set_(f"{C}[3].undoes", "2")), f"{C}[3].undoes"),
    invalid("change-undoes-null", in_history(set_(f"{C}[3].undoes", None)), f"{C}[3].undoes"),
    invalid("change-undoes-another-entry", in_history(set_(f"{C}[4].undoes", 2)), f"{C}[4].undoes"),
    invalid("change-undoes-another-player", in_history(set_(f"{C}[3].player", 2)), f"{C}[3].undoes"),
]

# Every kind of invalid document: the document (a builder of its text) and exactly the paths
# of the problems the reader must report. Used here and by tests/test_commands.py.
INVALID_DOCUMENTS = [
    # The root.
    invalid("format-wrong-string", edited(set_("format", "apiary")), "format"),
    invalid("format-null", edited(set_("format", None)), "format"),
    invalid("format-missing", edited(delete("format")), "format"),
    invalid("version-2", edited(set_("version", 2)), "version"),
    invalid("version-true", edited(set_("version", True)), "version"),
    invalid("version-text-1", edited(set_("version", "1")), "version"),
    invalid("version-float-1.0", edited(set_("version", 1.0)), "version"),
    invalid("version-missing", edited(delete("version")), "version"),
    invalid("games-missing", edited(delete("games")), "games"),
    invalid("games-an-object", edited(set_("games", {})), "games"),
    invalid("game-not-an-object", edited(set_("games[0]", [])), "games[0]"),
    # Players.
    invalid("players-missing", edited(delete("games[0].players")), "games[0].players"),
    invalid("players-0", edited(set_("games[0].players", [])), "games[0].players"),
    invalid("players-6", edited(set_("games[0].players", [{"name": f"P{i}"} for i in range(6)])), "games[0].players"),
    invalid("players-an-object", edited(set_("games[0].players", {"name": "Alice"})), "games[0].players"),
    invalid("player-not-an-object", edited(set_(f"{P0}", "Alice")), P0),
    # Names.
    invalid("name-empty", edited(set_(f"{P0}.name", "")), f"{P0}.name"),
    invalid("name-blank-after-trimming", edited(set_(f"{P0}.name", " \t  ")), f"{P0}.name"),
    invalid("name-41-chars", edited(set_(f"{P0}.name", "N" * 41)), f"{P0}.name"),
    invalid("name-41-chars-after-trimming", edited(set_(f"{P0}.name", "  " + "N" * 41 + "  ")), f"{P0}.name"),
    invalid("name-missing", edited(delete(f"{P0}.name")), f"{P0}.name"),
    invalid("name-a-number", edited(set_(f"{P0}.name", 7)), f"{P0}.name"),
    invalid("name-null", edited(set_(f"{P0}.name", None)), f"{P0}.name"),
    invalid("name-duplicate-ignoring-case", edited(add_player(name="ALICE")), "games[0].players[1].name"),
    invalid("name-duplicate-after-trimming", edited(add_player(name="  alice ")), "games[0].players[1].name"),
    # Seats.
    invalid("seat-0", edited(set_(f"{P0}.seat", 0)), f"{P0}.seat"),
    invalid("seat-negative", edited(set_(f"{P0}.seat", -1)), f"{P0}.seat"),
    invalid("seat-above-player-count", edited(set_(f"{P0}.seat", 2)), f"{P0}.seat"),
    invalid(
        "seat-above-player-count-of-3",
        edited(edits(add_player(name="Bob", seat=2), add_player(name="Cid", seat=4))),
        "games[0].players[2].seat",
    ),
    invalid("seat-duplicate", edited(add_player(name="Bob", seat=1)), "games[0].players[1].seat"),
    invalid("seat-text", edited(set_(f"{P0}.seat", "1")), f"{P0}.seat"),
    invalid("seat-float", edited(set_(f"{P0}.seat", 1.0)), f"{P0}.seat"),
    # The Automa.
    invalid(
        "automa-two",
        edited(edits(set_(f"{P0}.automa", True), add_player(name="Bot", automa=True))),
        "games[0].players[1].automa",
    ),
    invalid("automa-text", edited(set_(f"{P0}.automa", "yes")), f"{P0}.automa"),
    invalid("automa-1", edited(set_(f"{P0}.automa", 1)), f"{P0}.automa"),
    # Keys the format does not know.
    invalid("unknown-key-root", edited(set_("extra", 1)), "extra"),
    invalid("unknown-key-game", edited(set_("games[0].winner", "Alice")), "games[0].winner"),
    invalid("unknown-key-player", edited(set_(f"{P0}.score", 111)), f"{P0}.score"),
    invalid("unknown-key-during", edited(set_(f"{P0}.during.bonus", 1)), f"{P0}.during.bonus"),
    invalid("unknown-key-end", edited(set_(f"{P0}.end.majority", 15)), f"{P0}.end.majority"),
    invalid("unknown-key-comb-sector", edited(set_("games[0].comb[0].third", 1)), "games[0].comb[0].third"),
    invalid("category-in-wrong-section-farms-in-during", edited(set_(f"{P0}.during.farms", 1)), f"{P0}.during.farms"),
    invalid(
        "category-in-wrong-section-starting_vp-in-end",
        edited(set_(f"{P0}.end.starting_vp", 1)),
        f"{P0}.end.starting_vp",
    ),
    # Values of the wrong type.
    invalid("farms-2.5", edited(set_(f"{P0}.end.farms", 2.5)), f"{P0}.end.farms"),
    invalid("farms-text-3", edited(set_(f"{P0}.end.farms", "3")), f"{P0}.end.farms"),
    invalid("farms-null", edited(set_(f"{P0}.end.farms", None)), f"{P0}.end.farms"),
    invalid("farms-true", edited(set_(f"{P0}.end.farms", True)), f"{P0}.end.farms"),
    invalid("starting_vp-text", edited(set_(f"{P0}.during.starting_vp", "1")), f"{P0}.during.starting_vp"),
    invalid("carvings-float", edited(set_(f"{P0}.end.carvings", -3.0)), f"{P0}.end.carvings"),
    invalid("hive_mat_full-1", edited(set_(f"{P0}.end.hive_mat_full", 1)), f"{P0}.end.hive_mat_full"),
    invalid("hive_mat_full-text", edited(set_(f"{P0}.end.hive_mat_full", "true")), f"{P0}.end.hive_mat_full"),
    invalid("hive_mat_full-null", edited(set_(f"{P0}.end.hive_mat_full", None)), f"{P0}.end.hive_mat_full"),
    invalid("active_workers-text", edited(set_(f"{P0}.active_workers", "3")), f"{P0}.active_workers"),
    invalid("active_workers-true", edited(set_(f"{P0}.active_workers", True)), f"{P0}.active_workers"),
    invalid("during-a-list", edited(set_(f"{P0}.during", [1, 2])), f"{P0}.during"),
    invalid("end-null", edited(set_(f"{P0}.end", None)), f"{P0}.end"),
    invalid("faction-a-number", edited(set_(f"{P0}.faction", 3)), f"{P0}.faction"),
    invalid("faction-41-chars", edited(set_(f"{P0}.faction", "F" * 41)), f"{P0}.faction"),
    # Control characters (issue 18: NUL made PostgreSQL answer a misleading 503 at the import's
    # confirmation): refused at read time, each at its path; line breaks only in the notes.
    invalid("name-with-nul", edited(set_(f"{P0}.name", "Ali\x00ce")), f"{P0}.name"),
    invalid("name-with-line-break", edited(set_(f"{P0}.name", "Ali\nce")), f"{P0}.name"),
    invalid("faction-with-escape", edited(set_(f"{P0}.faction", "Ana\x1b[31m")), f"{P0}.faction"),
    # Characters that hide or reorder text (issue 27, scoring/rules/names.py): refused in every name (a
    # player's, a faction's, a change's author's), each at its path.
    invalid("name-with-right-to-left-override", edited(set_(f"{P0}.name", "\u202eaivilO")), f"{P0}.name"),
    invalid("name-with-zero-width-space", edited(set_(f"{P0}.name", "Ali\u200bce")), f"{P0}.name"),
    invalid("name-with-a-joiner-between-latin-letters", edited(set_(f"{P0}.name", "Ali\u200dce")), f"{P0}.name"),
    invalid("name-with-paragraph-separator", edited(set_(f"{P0}.name", "Ali\u2029ce")), f"{P0}.name"),
    invalid("faction-with-isolate", edited(set_(f"{P0}.faction", "\u2067Ana")), f"{P0}.faction"),
    invalid("notes-with-nul", edited(set_("games[0].notes", "Rainy\x00")), "games[0].notes"),
    invalid("notes-a-number", edited(set_("games[0].notes", 5)), "games[0].notes"),
    invalid("end_trigger_token-text", edited(set_("games[0].end_trigger_token", "7")), "games[0].end_trigger_token"),
    invalid("end_trigger_token-float", edited(set_("games[0].end_trigger_token", 7.0)), "games[0].end_trigger_token"),
    invalid("sector-first-text", edited(set_("games[0].comb[0].first", "9")), "games[0].comb[0].first"),
    invalid("sector-second-float", edited(set_("games[0].comb[1].second", 0.5)), "games[0].comb[1].second"),
    invalid(
        "sector-not-an-object",
        edited(edits(set_("games[0].comb", [9]), delete(f"{P0}.hibernation"))),
        "games[0].comb[0]",
    ),
    invalid("comb-an-object", edited(set_("games[0].comb", {})), "games[0].comb"),
    invalid("hibernation-count-float", edited(set_(f"{P0}.hibernation", [1.5, 0])), f"{P0}.hibernation[0]"),
    invalid("hibernation-count-true", edited(set_(f"{P0}.hibernation", [0, True])), f"{P0}.hibernation[1]"),
    invalid("hibernation-text", edited(set_(f"{P0}.hibernation", "2")), f"{P0}.hibernation"),
    invalid("hibernation-null", edited(set_(f"{P0}.hibernation", None)), f"{P0}.hibernation"),
    invalid("played_on-a-number", edited(set_("games[0].played_on", 20261129)), "games[0].played_on"),
    # Values out of range.
    invalid("vp-1000", edited(set_(f"{P0}.during.tile_abilities", 1000)), f"{P0}.during.tile_abilities"),
    invalid("vp-minus-1", edited(set_(f"{P0}.end.recruits", -1)), f"{P0}.end.recruits"),
    invalid("carvings-minus-100", edited(set_(f"{P0}.end.carvings", -100)), f"{P0}.end.carvings"),
    invalid("farms-100", edited(set_(f"{P0}.end.farms", 100)), f"{P0}.end.farms"),
    invalid("frames_filled-16", edited(set_(f"{P0}.end.frames_filled", 16)), f"{P0}.end.frames_filled"),
    invalid("active_workers-5", edited(set_(f"{P0}.active_workers", 5)), f"{P0}.active_workers"),
    invalid("active_workers-minus-1", edited(set_(f"{P0}.active_workers", -1)), f"{P0}.active_workers"),
    invalid("end_trigger_token-5", edited(set_("games[0].end_trigger_token", 5)), "games[0].end_trigger_token"),
    invalid("end_trigger_token-8", edited(set_("games[0].end_trigger_token", 8)), "games[0].end_trigger_token"),
    invalid(
        "comb-21-sectors",
        edited(edits(set_("games[0].comb", [{"first": 1, "second": 0}] * 21), delete(f"{P0}.hibernation"))),
        "games[0].comb",
    ),
    invalid("sector-first-100", edited(set_("games[0].comb[0].first", 100)), "games[0].comb[0].first"),
    invalid("sector-second-100", edited(set_("games[0].comb[1].second", 100)), "games[0].comb[1].second"),
    invalid("sector-first-minus-1", edited(set_("games[0].comb[0].first", -1)), "games[0].comb[0].first"),
    invalid("sector-first-missing", edited(delete("games[0].comb[1].first")), "games[0].comb[1].first"),
    invalid("hibernation-too-short", edited(set_(f"{P0}.hibernation", [2])), f"{P0}.hibernation"),
    invalid("hibernation-too-long", edited(set_(f"{P0}.hibernation", [2, 1, 0])), f"{P0}.hibernation"),
    invalid("hibernation-without-comb", edited(delete("games[0].comb")), f"{P0}.hibernation"),
    invalid("hibernation-count-8", edited(set_(f"{P0}.hibernation", [8, 0])), f"{P0}.hibernation[0]"),
    invalid("hibernation-count-minus-1", edited(set_(f"{P0}.hibernation", [0, -1])), f"{P0}.hibernation[1]"),
    invalid("hibernation-total-8", edited(set_(f"{P0}.hibernation", [4, 4])), f"{P0}.hibernation"),
    # Dates.
    invalid("played_on-month-13", edited(set_("games[0].played_on", "2026-13-01")), "games[0].played_on"),
    invalid("played_on-february-30", edited(set_("games[0].played_on", "2026-02-30")), "games[0].played_on"),
    invalid("played_on-yesterday", edited(set_("games[0].played_on", "yesterday")), "games[0].played_on"),
    invalid("played_on-with-time", edited(set_("games[0].played_on", "2026-11-29T20:00")), "games[0].played_on"),
    invalid("played_on-day-first", edited(set_("games[0].played_on", "29/11/2026")), "games[0].played_on"),
    invalid("played_on-null", edited(set_("games[0].played_on", None)), "games[0].played_on"),
    # The text itself.
    invalid("json-invalid", raw('{"format": "apiary-scorepad", "version": 1, "games": ['), "(document)"),
    invalid(
        "json-trailing-comma", example_text_replacing('"hibernation": [2, 1]', '"hibernation": [2, 1],'), "(document)"
    ),
    invalid("json-empty-text", raw(""), "(document)"),
    invalid("json-not-utf8", raw(b'{"format": "apiary-scorepad\xff"}'), "(document)"),
    invalid("document-a-list", lambda: json.dumps([example_document()]), "(document)"),
    invalid("document-a-number", raw("1"), "(document)"),
    invalid("document-null", raw("null"), "(document)"),
    invalid(
        "duplicated-key-farms", example_text_replacing('"farms": 4,', '"farms": 4, "farms": 5,'), f"{P0}.end.farms"
    ),
    invalid(
        "duplicated-key-version", example_text_replacing('"version": 1,', '"version": 1, "version": 1,'), "version"
    ),
    invalid(
        "duplicated-key-name",
        example_text_replacing('"name": "Alice",', '"name": "Alice", "name": "Bob",'),
        f"{P0}.name",
    ),
    *_bad_entries(),
    *INVALID_CHANGES,
]


def problem_paths(error: GameFileError) -> list[str]:
    return [problem.path for problem in error.problems]


# ---------------------------------------------------------------------------------------------
# The example files


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


THREE_ERRORS = edited(
    edits(
        set_("extra", True),
        set_("games[0].players[1].end.farms", 100),
        set_("games[1].comb[0].first", 100),
    ),
    base=multi_document,
)
THREE_ERROR_PATHS = ["extra", "games[0].players[1].end.farms", "games[1].comb[0].first"]

SECOND_GAME_INVALID = edited(set_("games[2].players[1].active_workers", 5), base=multi_document)
SECOND_GAME_INVALID_PATH = "games[2].players[1].active_workers"


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

HUGE_NUMBER = example_text_replacing('"farms": 4,', '"farms": ' + "9" * 5000 + ",")
DEEPLY_NESTED = example_text_replacing('"hibernation": [2, 1]', '"hibernation": ' + "[" * 100_000 + "]" * 100_000)
LONE_SURROGATE_NAME = example_text_replacing('"name": "Alice"', '"name": "Alice\\ud800"')

# JSON text that json.loads refuses with an exception parse_document does not catch.
UNREADABLE_DOCUMENTS = [
    # A plain ValueError: Python reads no integer of more than 4300 digits (sys.int_max_str_digits).
    pytest.param(HUGE_NUMBER, id="number-of-5000-digits"),
    # A RecursionError: the decoder recurses once per nesting level.
    pytest.param(DEEPLY_NESTED, id="lists-nested-100000-deep"),
]


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


# ---------------------------------------------------------------------------------------------
# Scoring


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


# ---------------------------------------------------------------------------------------------
# Writing


def test_dump_writes_every_key_players_in_seat_order():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    document = dump_document(games)
    assert (document["format"], document["version"], len(document["games"])) == ("apiary-scorepad", 1, 3)
    first = document["games"][0]
    assert [p["name"] for p in first["players"]] == ["Bob", "Automa", "Zoé"]
    for game in document["games"]:
        for player in game["players"]:
            assert list(player["during"]) == list(VP_KEYS_DURING)
            assert set(player["end"]) == set(ALL_ENTRY_KEYS) - set(VP_KEYS_DURING)
            assert len(player["hibernation"]) == len(game["comb"])
            assert isinstance(player["automa"], bool)
    assert document["games"][1]["players"][3]["hibernation"] == [0]  # Dee: left out, written as no tokens


def test_example_dumps_back_to_itself():
    assert dump_document(parse_document((DATA / "example.json").read_bytes())) == example_document()


def test_dump_then_read_gives_the_same_games():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    text = to_json(dump_document(games))
    assert parse_document(text) == games
    assert to_json(dump_document(parse_document(text))) == text


def test_dump_of_a_game_without_a_date_leaves_played_on_out():
    (game,) = parse_document((DATA / "example.json").read_bytes())
    document = dump_document([GameData(players=game.players, comb=game.comb)])
    assert "played_on" not in document["games"][0]
    assert read_document(document)[0].played_on is None


# ---------------------------------------------------------------------------------------------
# The change history (FORMAT.md, "The change history (optional)")

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
    (set_(C, {}), f"{C}: must be a list of changes, not an object"),
    (set_(f"{C}[0].player", 3), f"{C}[0].player: must be the seat of one of the game's players (1 to 2), not 3"),
    (
        set_(f"{C}[1].entry", "farm"),
        f'{C}[1].entry: must be a category key, "active_workers" or "hibernation[<sector index>]", not the text "farm"',
    ),
    (
        set_(f"{C}[1].entry", "hibernation[1]"),
        f"{C}[1].entry: names comb sector index 1, but the comb has 1 sector (only hibernation[0])",
    ),
    (
        set_(f"{C}[2].old", "3"),
        f'{C}[2].old: must be a whole number from 0 to 999, a sum such as "3+6+2", or null, not the text "3"',
    ),
    (set_(f"{C}[2].new", "600+500"), f'{C}[2].new: the sum "600+500" makes 1100; it must be from 0 to 999'),
    (set_(f"{C}[4].old", None), f"{C}[4].old: must be true or false, not null"),
    (set_(f"{C}[1].new", "1+1"), f'{C}[1].new: must be a whole number from 0 to 7, or null, not the text "1+1"'),
    (
        set_(f"{C}[3].at", "2026-11-29 20:17:05"),
        (
            f"{C}[3].at: must be a date and time with its offset from UTC, such as 2026-11-29T21:04:05+01:00, "
            'not the text "2026-11-29 20:17:05"'
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
    (set_(f"{C}[4].by", "x" * 81), f"{C}[4].by: must be at most 80 characters long, not 81"),
    (set_(f"{C}[2].by_link", "yes"), f'{C}[2].by_link: must be true or false, not the text "yes"'),
    (set_(f"{C}[3].undoes", 3), f"{C}[3].undoes: must be the index of an earlier change in this list (0 to 2), not 3"),
    (
        set_(f"{C}[4].undoes", 2),
        (
            f"{C}[4].undoes: changes[2] changed farm_income of player 1, not hive_mat_full of player 1: "
            "a change can only undo a change of the same entry"
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


# ---------------------------------------------------------------------------------------------
# Recognising a game (docs/game-file.md, "Importing the same games twice")


def fingerprint_of(document: dict[str, Any], **options: Any) -> str:
    (game,) = read_document(document)
    return game_fingerprint(game, **options)


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


def test_the_change_history_is_not_part_of_the_fingerprint():
    without = history_document()
    del without["games"][0]["changes"]
    assert fingerprint_of(history_document()) == fingerprint_of(without)


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


# ---------------------------------------------------------------------------------------------
# The VP track (docs/game-file.md, "A game": ``during``)


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
    assert list(written) == ["played_on", "notes", "end_trigger_token", "during", "comb", "players"]
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
            'must be "track" or "breakdown", not the text "tracks"',
            id="an-unknown-way",
        ),
        pytest.param(
            set_("games[0].during", True), "games[0].during", 'must be "track" or "breakdown", not true', id="not-text"
        ),
        pytest.param(
            set_(f"{P0}.during.vp_track", 40),
            f"{P0}.during.vp_track",
            'is not a key of this game\'s "during": vp_track belongs to a game whose "during" is "track"',
            id="the-track-in-a-breakdown-game",
        ),
        pytest.param(
            edits(set_("games[0].during", "track")),
            f"{P0}.during.starting_vp",
            'is not a key of this game\'s "during": starting_vp belongs to a game whose "during" is "breakdown"',
            id="the-breakdown-in-a-track-game",
        ),
        pytest.param(
            edits(set_("games[0].during", "track"), set_(f"{P0}.during", {"vp_track": 1000})),
            f"{P0}.during.vp_track",
            "must be a whole number from 0 to 999, not 1000",
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

"""The game files the game file's tests read and break (``docs/game-file.md``): the example
documents of ``tests/data`` and of the document itself, what ``score_game`` must print for them,
edits by the same paths the problems use, and the tables of invalid documents and change
histories, each with exactly the paths of the problems the reader must report. Shared with
``tests/management/test_commands.py``, which runs the same documents through the commands."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scoring.gamefile import GameFileError, game_fingerprint, read_document

TESTS = Path(__file__).resolve().parent.parent
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


def without(key: str, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``key`` taken out of each of its games: the times an import gives a game
    whose file says none (it is finished at the import, and started then at the latest)."""
    return {**document, "games": [{k: v for k, v in game.items() if k != key} for game in document["games"]]}


def without_times(document: dict[str, Any]) -> dict[str, Any]:
    return without("started_at", without("finished_at", document))


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
    # (as a file holds it: a JSON escape, which reads as a lone surrogate)
    invalid("change-by-lone-surrogate", history_text_replacing('"by": "Ben"', '"by": "Ben\\ud800"'), f"{C}[2].by"),
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
# of the problems the reader must report. Used by the reader's tests and tests/management/test_commands.py.
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
    invalid("play_minutes-0", edited(set_("games[0].play_minutes", 0)), "games[0].play_minutes"),
    invalid("play_minutes-1441", edited(set_("games[0].play_minutes", 1441)), "games[0].play_minutes"),
    invalid("play_minutes-text", edited(set_("games[0].play_minutes", "85")), "games[0].play_minutes"),
    invalid("started_at-no-offset", edited(set_("games[0].started_at", "2026-11-29T20:02:11")), "games[0].started_at"),
    invalid("finished_at-a-date", edited(set_("games[0].finished_at", "2026-11-29")), "games[0].finished_at"),
    invalid(
        "finished_before_started",
        edited(set_("games[0].finished_at", "2026-11-29T20:01:00+00:00")),
        "games[0].finished_at",
    ),
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


def fingerprint_of(document: dict[str, Any], **options: Any) -> str:
    (game,) = read_document(document)
    return game_fingerprint(game, **options)


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

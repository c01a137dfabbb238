"""Specification of the scoring engine (``scoring/rules/engine.py``).

Every table below is drawn from ``docs/scoring-rules.md`` (the rules in the project's own
words, with the English and French rule texts' worked examples) and the example of
``docs/game-file.md``; the document's own worked examples are read from it, table by table, and
scored; the properties at the end check the same rules on random games.
These tests need no database.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.categories import (
    CATEGORIES,
    END_CATEGORIES,
    MAX_ACTIVE_WORKERS,
    MAX_PLAYERS,
    MAX_SECTOR_VP,
    MAX_SECTORS,
    TOKENS_PER_PLAYER,
    During,
    Section,
    categories_of,
)
from scoring.rules.engine import PlayerSheet, Sector, SectorOutcome, TieResult, category_vp, score_game, score_sector
from tests.gamefile.documents import example_document


def vp_player(vp: int, workers: int = 0, tokens: tuple[int, ...] = ()) -> PlayerSheet:
    """A player whose whole score (without majorities) is ``vp``, entered as faction ability VP."""
    return PlayerSheet(entries={"faction_ability": vp}, active_workers=workers, tokens=tokens)


# ============================================================================================
# Comb sector majorities: one sector at a time
# ============================================================================================


class Expected(NamedTuple):
    outcome: SectorOutcome
    first_place: tuple[int, ...]
    second_place: tuple[int, ...]
    pool: int
    first_each: int
    second_each: int
    reason: str
    awards: tuple[int, ...]  # what each player takes from the sector


SECTOR_CASES = [
    # The texts' own examples.
    pytest.param(
        Sector(5, 4),
        (2, 2),
        Expected(SectorOutcome.TIED_FIRST, (0, 1), (), 9, 4, 0, "tie", (4, 4)),
        id="en-example-9vp-5+4-shared-by-two-tied-for-1st-gives-4-each",
    ),
    pytest.param(
        Sector(9, 0),
        (3, 3),
        Expected(SectorOutcome.TIED_FIRST, (0, 1), (), 9, 4, 0, "tie", (4, 4)),
        id="en-example-9vp-9+0-shared-by-two-tied-for-1st-gives-4-each",
    ),
    pytest.param(
        Sector(8, 5),
        (1, 1),
        Expected(SectorOutcome.TIED_FIRST, (0, 1), (), 13, 6, 0, "tie", (6, 6)),
        id="fr-example-13vp-8+5-shared-by-two-tied-for-1st-gives-6-each",
    ),
    pytest.param(
        Sector(8, 5),
        (2, 1, 2),
        Expected(SectorOutcome.TIED_FIRST, (0, 2), (), 13, 6, 0, "tie", (6, 0, 6)),
        id="fr-example-the-player-behind-a-tie-for-1st-gets-no-2nd-place",
    ),
    # Ties for 1st.
    pytest.param(
        Sector(9, 4),
        (2, 2, 2),
        Expected(SectorOutcome.TIED_FIRST, (0, 1, 2), (), 13, 4, 0, "tie", (4, 4, 4)),
        id="three-way-tie-for-1st-13vp-divided-by-3-rounded-down",
    ),
    pytest.param(
        Sector(10, 5),
        (3, 1, 3, 3, 2),
        Expected(SectorOutcome.TIED_FIRST, (0, 2, 3), (), 15, 5, 0, "tie", (5, 0, 5, 5, 0)),
        id="three-way-tie-for-1st-no-2nd-place-for-the-others",
    ),
    pytest.param(
        Sector(1, 0),
        (1, 1, 1, 1, 1),
        Expected(SectorOutcome.TIED_FIRST, (0, 1, 2, 3, 4), (), 1, 0, 0, "tie", (0, 0, 0, 0, 0)),
        id="five-way-tie-for-1st-on-1vp-rounds-down-to-0",
    ),
    pytest.param(
        Sector(6, 0),
        (4, 4),
        Expected(SectorOutcome.TIED_FIRST, (0, 1), (), 6, 3, 0, "tie", (3, 3)),
        id="tie-for-1st-on-a-sector-without-2nd-award",
    ),
    # One player has the most.
    pytest.param(
        Sector(9, 4),
        (3, 1),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (1,), 9, 9, 4, "", (9, 4)),
        id="sole-1st-and-sole-2nd",
    ),
    pytest.param(
        Sector(9, 4),
        (1, 3, 2),
        Expected(SectorOutcome.SOLE_FIRST, (1,), (2,), 9, 9, 4, "", (0, 9, 4)),
        id="only-the-next-most-take-2nd-place",
    ),
    pytest.param(
        Sector(9, 5),
        (3, 1, 1),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (1, 2), 9, 9, 2, "", (9, 2, 2)),
        id="tie-for-2nd-5vp-divided-by-2-rounded-down",
    ),
    pytest.param(
        Sector(9, 6),
        (2, 4, 2),
        Expected(SectorOutcome.SOLE_FIRST, (1,), (0, 2), 9, 9, 3, "", (3, 9, 3)),
        id="tie-for-2nd-6vp-divided-by-2",
    ),
    pytest.param(
        Sector(9, 5),
        (4, 2, 2, 2, 1),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (1, 2, 3), 9, 9, 1, "", (9, 1, 1, 1, 0)),
        id="three-way-tie-for-2nd-rounded-down-and-nothing-for-3rd",
    ),
    pytest.param(
        Sector(9, 4),
        (0, 3, 0),
        Expected(SectorOutcome.SOLE_FIRST, (1,), (), 9, 9, 0, "nobody", (0, 9, 0)),
        id="one-player-only-takes-1st-and-2nd-is-not-awarded",
    ),
    pytest.param(
        Sector(9, 4),
        (7,),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (), 9, 9, 0, "nobody", (9,)),
        id="solo-player-takes-1st-only",
    ),
    pytest.param(
        Sector(6, 0),
        (3, 1),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (), 6, 6, 0, "no_award", (6, 0)),
        id="no-2nd-place-award-printed",
    ),
    pytest.param(
        Sector(6, 0),
        (1, 3, 1),
        Expected(SectorOutcome.SOLE_FIRST, (1,), (), 6, 6, 0, "no_award", (0, 6, 0)),
        id="no-2nd-place-award-even-for-a-tie-for-2nd",
    ),
    # Nobody there.
    pytest.param(
        Sector(9, 4),
        (0, 0, 0),
        Expected(SectorOutcome.EMPTY, (), (), 0, 0, 0, "nobody", (0, 0, 0)),
        id="empty-sector-nobody-scores",
    ),
    pytest.param(
        Sector(9, 4),
        (),
        Expected(SectorOutcome.EMPTY, (), (), 0, 0, 0, "nobody", ()),
        id="no-players-nobody-scores",
    ),
    # Players with 0 tokens never count.
    pytest.param(
        Sector(9, 4),
        (2, 0),
        Expected(SectorOutcome.SOLE_FIRST, (0,), (), 9, 9, 0, "nobody", (9, 0)),
        id="zero-tokens-is-not-2nd-place",
    ),
    pytest.param(
        Sector(9, 4),
        (0, 2, 0, 1),
        Expected(SectorOutcome.SOLE_FIRST, (1,), (3,), 9, 9, 4, "", (0, 9, 0, 4)),
        id="zero-tokens-do-not-share-2nd-place",
    ),
    pytest.param(
        Sector(9, 4),
        (0, 0, 1),
        Expected(SectorOutcome.SOLE_FIRST, (2,), (), 9, 9, 0, "nobody", (0, 0, 9)),
        id="zero-tokens-do-not-tie-for-1st",
    ),
]


@pytest.mark.parametrize(("sector", "tokens", "expected"), SECTOR_CASES)
def test_score_sector(sector, tokens, expected):
    """SCORING.md, "Hibernation Comb sector majorities", counting only players with at least one token:
    1. No player has a token: nobody scores.
    2. Exactly one player has the most: they take the 1st-place VP. Among the remaining players with
       tokens, those with the most share the 2nd-place VP, each getting it divided by their number,
       rounded down. With nobody remaining, the 2nd-place VP is not awarded.
    3. Two or more players tie for the most: they share ALL the sector’s VP (1st + 2nd), each getting
       that sum divided by their number, rounded down; nobody scores 2nd place.
    """
    result = score_sector(3, sector, tokens)

    assert (result.index, result.sector) == (3, sector)
    assert result.outcome is expected.outcome
    assert result.first_place == expected.first_place
    assert result.second_place == expected.second_place
    assert result.pool == expected.pool
    assert result.first_each == expected.first_each
    assert result.second_each == expected.second_each
    assert result.second_unawarded_reason == expected.reason
    assert tuple(result.award_for(player) for player in range(len(tokens))) == expected.awards


@pytest.mark.parametrize(
    ("tokens", "first_tokens", "second_tokens"),
    [
        pytest.param((3, 1), 3, 1, id="sole-1st-and-2nd"),
        pytest.param((2, 2, 1), 2, 0, id="tie-for-1st-has-no-2nd-count"),
        pytest.param((5, 0), 5, 0, id="nobody-2nd"),
        pytest.param((0, 0), 0, 0, id="empty"),
    ],
)
def test_sector_result_reports_the_token_counts_that_decided_it(tokens, first_tokens, second_tokens):
    """The engine "explains itself: for each comb sector who took 1st and 2nd place and why"."""
    result = score_sector(0, Sector(9, 4), tokens)
    assert (result.first_tokens, result.second_tokens) == (first_tokens, second_tokens)


def test_sector_without_2nd_award_still_reports_who_was_2nd():
    """With 0 printed for 2nd place, the 2nd-most count is known but "no_award" explains the 0."""
    result = score_sector(0, Sector(6, 0), (3, 2))
    assert (result.second_tokens, result.second_unawarded_reason, result.second_place) == (2, "no_award", ())


def test_award_for_a_player_not_in_the_sector_is_zero():
    result = score_sector(0, Sector(9, 4), (3, 1))
    assert result.award_for(7) == 0


# ============================================================================================
# Subtotals
# ============================================================================================


@pytest.mark.parametrize(
    ("entries", "key", "vp"),
    [
        pytest.param({"farms": 4}, "farms", 4, id="farms-1vp-each"),
        pytest.param({"hive_mat_full": True}, "hive_mat_full", 8, id="hive-mat-full-8vp"),
        pytest.param({"hive_mat_full": False}, "hive_mat_full", 0, id="hive-mat-not-full-0vp"),
        pytest.param({"frames_filled": 2}, "frames_filled", 16, id="frames-8vp-each"),
        pytest.param({"carvings": -3}, "carvings", -3, id="carvings-may-be-negative"),
        pytest.param({"starting_vp": 2}, "starting_vp", 2, id="starting-vp-as-entered"),
        pytest.param({}, "farms", 0, id="missing-count-is-0"),
        pytest.param({}, "hive_mat_full", 0, id="missing-flag-is-false"),
        pytest.param({}, "queens_favor", 0, id="missing-vp-is-0"),
    ],
)
def test_category_vp(entries, key, vp):
    """SCORING.md: farms "1 per farm", hive mat "8 if yes", frames "8 per frame", carvings "may be
    negative"; FORMAT.md: "A missing entry counts as 0 (false)."
    """
    assert category_vp(entries)[key] == vp


def test_category_vp_gives_every_category_in_order_and_0_for_an_empty_sheet():
    assert category_vp({}) == {category.key: 0 for category in CATEGORIES}
    assert list(category_vp({"farms": 3})) == [category.key for category in CATEGORIES]


# FORMAT.md's example, the suite's one example game (tests/data/example.json, which the game
# file's tests hold to FORMAT.md's own): one game, one player (Alice), two comb sectors.
EXAMPLE_GAME = example_document()["games"][0]
EXAMPLE_COMB = tuple(Sector(first=sector["first"], second=sector["second"]) for sector in EXAMPLE_GAME["comb"])
EXAMPLE_DURING = EXAMPLE_GAME["players"][0]["during"]
EXAMPLE_END = EXAMPLE_GAME["players"][0]["end"]
EXAMPLE_ALICE = PlayerSheet(
    entries={**EXAMPLE_DURING, **EXAMPLE_END},
    active_workers=EXAMPLE_GAME["players"][0]["active_workers"],
    tokens=tuple(EXAMPLE_GAME["players"][0]["hibernation"]),
)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param("during", 24, id="during-24"),
        pytest.param("end", 87, id="end-87-majorities-included"),
        pytest.param("majority", 15, id="majority-15"),
        pytest.param("total", 111, id="total-111"),
        pytest.param("rank", 1, id="rank-1"),
        pytest.param("winner", True, id="winner"),
        pytest.param("majority_by_sector", (9, 6), id="majority-9-and-6"),
        pytest.param("active_workers", 3, id="active-workers-3"),
    ],
)
def test_format_md_example(field, value):
    """FORMAT.md: {"name": "Alice", "seat": 1, "during": 24, "end": 87, "majority": 15, "total": 111,
    "rank": 1, "winner": true}. "`during` is the sum of the during-the-game entries; `end` is the sum
    of the end-of-game VP, majorities included; `majority` is the comb majority VP alone; `total` is
    `during + end`."
    """
    result = score_game(EXAMPLE_COMB, [EXAMPLE_ALICE])
    assert getattr(result.players[0], field) == value


def test_format_md_example_category_breakdown():
    """Farms 4 x 1, hive mat full 8, one frame 8; every other entry as entered."""
    vp = score_game(EXAMPLE_COMB, [EXAMPLE_ALICE]).players[0].category_vp
    assert vp == {"vp_track": 0, **EXAMPLE_DURING, **EXAMPLE_END, "hive_mat_full": 8, "frames_filled": 8}


def test_format_md_example_sectors():
    """Alice is alone on both sectors: 1st place each time, 2nd not awarded ("nobody")."""
    sectors = score_game(EXAMPLE_COMB, [EXAMPLE_ALICE]).sectors
    assert [(s.index, s.outcome, s.first_place, s.second_unawarded_reason) for s in sectors] == [
        (0, SectorOutcome.SOLE_FIRST, (0,), "nobody"),
        (1, SectorOutcome.SOLE_FIRST, (0,), "nobody"),
    ]


@pytest.mark.parametrize(
    ("entries", "during", "end", "total"),
    [
        pytest.param({}, 0, 0, 0, id="empty-sheet-scores-0"),
        pytest.param({"starting_vp": 1}, 1, 0, 1, id="starting-vp-is-during-the-game"),
        pytest.param({"farm_income": 5, "farms": 5}, 5, 5, 10, id="farm-income-during-farms-at-the-end"),
        pytest.param({"carvings": -3}, 0, -3, -3, id="a-negative-carving-lowers-the-end-and-total"),
        pytest.param(
            {"tile_abilities": 10, "carvings": -3, "frames_filled": 2}, 10, 13, 23, id="negative-carving-among-others"
        ),
        pytest.param({"hive_mat_full": True, "frames_filled": 15}, 0, 128, 128, id="full-hive-and-all-frames"),
        pytest.param(dict.fromkeys(EXAMPLE_DURING, 999), 9 * 999, 0, 9 * 999, id="every-during-entry-at-999"),
    ],
)
def test_subtotals_without_majorities(entries, during, end, total):
    result = score_game([], [PlayerSheet(entries=entries)]).players[0]
    assert (result.during, result.end, result.majority, result.total) == (during, end, 0, total)


def test_missing_tokens_count_as_no_token():
    """FORMAT.md: `hibernation` "may be left out (no tokens)"; short lists count 0 in later sectors."""
    result = score_game([Sector(9, 4), Sector(6, 3)], [PlayerSheet(tokens=(1,)), PlayerSheet()])
    assert [p.majority_by_sector for p in result.players] == [(9, 0), (0, 0)]
    assert result.sectors[1].outcome is SectorOutcome.EMPTY


def test_majorities_add_to_the_end_of_game_vp_of_each_player():
    """Three sectors, three players: each player's majority is the sum of their sector awards."""
    comb = [Sector(9, 4), Sector(8, 5), Sector(6, 0)]
    players = [
        PlayerSheet(entries={"farms": 2}, tokens=(3, 1, 0)),  # 1st (9) + tied 1st (6)
        PlayerSheet(entries={"farms": 2}, tokens=(1, 1, 2)),  # 2nd (4) + tied 1st (6) + 1st (6)
        PlayerSheet(entries={"farms": 2}, tokens=(0, 0, 1)),  # nothing: 2nd not awarded on sector 3
    ]
    result = score_game(comb, players)
    assert [p.majority_by_sector for p in result.players] == [(9, 6, 0), (4, 6, 6), (0, 0, 0)]
    assert [(p.majority, p.end, p.total) for p in result.players] == [(15, 17, 17), (16, 18, 18), (0, 2, 2)]


# ============================================================================================
# Ranks, winners and ties
# ============================================================================================

RANKING_CASES = [
    pytest.param((10, 30, 20), (0, 0, 0), (3, 1, 2), (1,), id="most-vp-wins"),
    pytest.param((20, 20, 10), (2, 2, 0), (1, 1, 3), (0, 1), id="tie-for-1st-shares-rank-and-skips-1-1-3"),
    pytest.param((30, 20, 20, 10), (1, 1, 1, 1), (1, 2, 2, 4), (0,), id="tie-for-2nd-shares-rank-and-skips-1-2-2-4"),
    pytest.param((20, 20, 10), (1, 3, 4), (2, 1, 3), (1,), id="more-active-workers-breaks-a-tie-for-1st"),
    pytest.param((30, 20, 20), (0, 1, 2), (1, 3, 2), (0,), id="more-active-workers-breaks-a-tie-for-2nd"),
    pytest.param((25, 25), (2, 2), (1, 1), (0, 1), id="still-tied-on-workers-shares-the-victory"),
    pytest.param((25, 25), (0, 0), (1, 1), (0, 1), id="still-tied-with-no-workers-shares-the-victory"),
    pytest.param((20, 20, 20), (2, 3, 3), (3, 1, 1), (1, 2), id="three-tied-on-vp-two-on-workers-share-1st"),
    pytest.param((20, 20, 20), (4, 1, 1), (1, 2, 2), (0,), id="three-tied-on-vp-workers-pick-1st-two-share-2nd"),
    pytest.param((20, 20, 20), (1, 2, 3), (3, 2, 1), (2,), id="three-tied-on-vp-workers-order-them-all"),
    pytest.param((21, 20), (0, 4), (1, 2), (0,), id="workers-never-beat-more-vp"),
    pytest.param((0,), (0,), (1,), (0,), id="a-solo-player-wins"),
    pytest.param((0,) * 5, (0,) * 5, (1,) * 5, (0, 1, 2, 3, 4), id="five-players-all-tied-all-win"),
]


@pytest.mark.parametrize(("vps", "workers", "ranks", "winners"), RANKING_CASES)
def test_ranks_and_winners(vps, workers, ranks, winners):
    """SCORING.md: "The most VP wins. On equal VP, the tied player with more active workers ... wins.
    Still tied: the victory is shared. Ranks are shared the same way and skip after a tie (1, 1, 3)."
    """
    result = score_game([], [vp_player(vp, w) for vp, w in zip(vps, workers, strict=False)])
    assert tuple(p.rank for p in result.players) == ranks
    assert result.winners == winners
    assert tuple(i for i, p in enumerate(result.players) if p.winner) == winners
    assert result.shared_victory is (len(winners) > 1)


@pytest.mark.parametrize(
    ("vps", "workers", "ranking"),
    [
        pytest.param((10, 30, 20), (0, 0, 0), (1, 2, 0), id="best-first"),
        pytest.param((10, 20, 20), (0, 1, 1), (1, 2, 0), id="equal-ranks-keep-the-given-order"),
        pytest.param((20, 20, 20), (1, 1, 3), (2, 0, 1), id="workers-first-then-given-order"),
        pytest.param((5, 5, 5, 5), (0, 0, 0, 0), (0, 1, 2, 3), id="all-equal-given-order"),
    ],
)
def test_ranking_lists_positions_from_first_to_last(vps, workers, ranking):
    """``GameResult.ranking()``: "Player positions from first place to last (equal ranks keep the given
    order)."
    """
    assert score_game([], [vp_player(vp, w) for vp, w in zip(vps, workers, strict=False)]).ranking() == ranking


def test_comb_majorities_can_decide_the_winner():
    """Majorities are end-of-game VP like any other: they count toward the total that is ranked."""
    players = [vp_player(20, workers=4, tokens=(1,)), vp_player(20, workers=0, tokens=(2,))]
    result = score_game([Sector(3, 1)], players)
    assert [p.total for p in result.players] == [21, 23]
    assert result.winners == (1,)
    assert result.ties == ()


TIE_CASES = [
    pytest.param(
        (20, 20, 10),
        (2, 2, 0),
        (TieResult(total=20, players=(0, 1), workers=(2, 2), rank=1, decided_by_workers=False, shared=True),),
        id="tie-for-1st-still-tied-on-workers-is-shared",
    ),
    pytest.param(
        (20, 20, 10),
        (1, 3, 4),
        (TieResult(total=20, players=(1, 0), workers=(3, 1), rank=1, decided_by_workers=True, shared=False),),
        id="tie-for-1st-decided-by-workers-lists-the-winner-first",
    ),
    pytest.param(
        (20, 20, 20),
        (2, 3, 3),
        (TieResult(total=20, players=(1, 2, 0), workers=(3, 3, 2), rank=1, decided_by_workers=True, shared=True),),
        id="three-tied-on-vp-two-also-on-workers-split-in-part",
    ),
    pytest.param(
        (30, 20, 20, 20),
        (0, 1, 4, 1),
        (TieResult(total=20, players=(2, 1, 3), workers=(4, 1, 1), rank=2, decided_by_workers=True, shared=True),),
        id="tie-for-2nd-reports-its-best-rank",
    ),
    pytest.param(
        (30, 30, 10, 10, 5),
        (1, 2, 3, 3, 0),
        (
            TieResult(total=30, players=(1, 0), workers=(2, 1), rank=1, decided_by_workers=True, shared=False),
            TieResult(total=10, players=(2, 3), workers=(3, 3), rank=3, decided_by_workers=False, shared=True),
        ),
        id="two-tie-groups-best-first",
    ),
    pytest.param(
        (5, 5, 5, 5, 5),
        (0, 4, 0, 4, 2),
        (
            TieResult(
                total=5, players=(1, 3, 4, 0, 2), workers=(4, 4, 2, 0, 0), rank=1, decided_by_workers=True, shared=True
            ),
        ),
        id="five-tied-most-workers-first-then-given-order",
    ),
    pytest.param((3, 2, 1), (0, 0, 0), (), id="no-tie-no-tie-result"),
    pytest.param((3,), (0,), (), id="one-player-no-tie"),
]


@pytest.mark.parametrize(("vps", "workers", "ties"), TIE_CASES)
def test_ties_explain_how_each_tie_on_vp_was_broken(vps, workers, ties):
    """The engine explains "for each tie on VP how it was broken": who tied, their active workers,
    best first (more workers first, then the given order), the group's best rank, whether the workers
    split it at least in part, and whether some still share a place.
    """
    assert score_game([], [vp_player(vp, w) for vp, w in zip(vps, workers, strict=False)]).ties == ties


def test_players_are_reported_in_the_order_given():
    result = score_game([], [vp_player(1), vp_player(3), vp_player(2)])
    assert [p.total for p in result.players] == [1, 3, 2]


def test_no_players_no_result():
    result = score_game([Sector(9, 4)], [])
    assert (result.players, result.winners, result.ties, result.ranking()) == ((), (), (), ())
    assert result.shared_victory is False
    assert result.sectors[0].outcome is SectorOutcome.EMPTY


# ============================================================================================
# The worked examples of docs/scoring-rules.md, read from the document itself
# ============================================================================================

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCORING_RULES_MD = DOCS / "scoring-rules.md"
# The tables of the document, by their header: the categories and their usual values
# (test_categories.py reads them) and the three kinds of worked example.
CATEGORY_TABLE = ("key", "English", "French edition", "VP")
USUAL_VALUES = ("category", "key", "usual", "why")
SECTOR_EXAMPLES = ("sector", "tokens (Alice, Bruno, Carla, Dan)", "outcome", "VP (Alice, Bruno, Carla, Dan)")
GAME_EXAMPLES = ("player", "during", "end-of-game entries", "comb majorities", "end", "total")
RANKING_EXAMPLES = ("player", "total VP", "active workers", "rank", "winner")


def markdown_tables(text: str) -> list[tuple[tuple[str, ...], list[tuple[str, ...]]]]:
    """Every table of a Markdown text, in order: its header's cells and its rows' cells."""
    tables = []
    for block in re.findall(r"(?:^\|.*\|\n)+", text, flags=re.MULTILINE):
        header, rule, *rows = [tuple(cell.strip() for cell in line[1:-1].split("|")) for line in block.splitlines()]
        assert all(re.fullmatch(r":?-+:?", cell) for cell in rule), block
        tables.append((header, rows))
    return tables


def examples(header: tuple[str, ...]) -> list[list[tuple[str, ...]]]:
    """The rows of each table of docs/scoring-rules.md with that header."""
    return [rows for found, rows in markdown_tables(SCORING_RULES_MD.read_text(encoding="utf-8")) if found == header]


def whole_numbers(cell: str, pattern: str = r"-?\d+(, -?\d+)*") -> list[int]:
    """The numbers of a cell written as the pattern says (by default "2, 1, 0, 0")."""
    assert re.fullmatch(pattern, cell), f"{cell!r} is not written as {pattern}"
    return [int(number) for number in re.findall(r"-?\d+", cell)]


def yes_or_no(cell: str) -> bool:
    assert cell in ("yes", "no"), cell
    return cell == "yes"


def test_the_rules_document_holds_every_worked_example():
    """Every table of docs/scoring-rules.md is one the tests read, and each holds as many examples
    as the document does: a table that the reading below missed, or one that it found empty, fails."""
    tables = markdown_tables(SCORING_RULES_MD.read_text(encoding="utf-8"))
    assert {header for header, _rows in tables} == {
        CATEGORY_TABLE,
        USUAL_VALUES,
        SECTOR_EXAMPLES,
        GAME_EXAMPLES,
        RANKING_EXAMPLES,
    }
    assert [len(rows) for rows in examples(SECTOR_EXAMPLES)] == [8]
    assert [len(rows) for rows in examples(GAME_EXAMPLES)] == [1]
    assert [len(rows) for rows in examples(RANKING_EXAMPLES)] == [4, 2]


@pytest.mark.parametrize(
    "row",
    [row for rows in examples(SECTOR_EXAMPLES) for row in rows],
    ids=lambda row: f"{row[0].replace(' ', '')}-tokens-{row[1].replace(', ', '-')}",
)
def test_a_sector_example_of_the_rules_document(row):
    """docs/scoring-rules.md, "Worked examples": a sector ("9 / 4"), each player's tokens there and
    what each takes from it."""
    sector, tokens, _outcome, vp = row
    first, second = whole_numbers(sector, r"\d+ / \d+")
    four = r"\d+(, \d+){3}"  # Alice, Bruno, Carla, Dan
    result = score_sector(0, Sector(first, second), whole_numbers(tokens, four))
    assert [result.award_for(player) for player in range(4)] == whole_numbers(vp, four)


def test_the_whole_game_example_of_the_rules_document_is_the_game_file_example_scored():
    """docs/scoring-rules.md scores the example of docs/game-file.md: each player's subtotals, and
    their comb majorities sector by sector ("9 + 6 = 15")."""
    from scoring.gamefile import parse_document

    example = re.search(r"```json\n(.*?)```", (DOCS / "game-file.md").read_text(encoding="utf-8"), re.DOTALL).group(1)
    (game,) = parse_document(example)
    scored = dict(zip((player.name for player in game.players), game.score().players, strict=True))
    (rows,) = examples(GAME_EXAMPLES)
    assert [row[0] for row in rows] == list(scored)
    for name, during, entries, majorities, end, total in rows:
        *by_sector, majority = whole_numbers(majorities, r"\d+( \+ \d+)* = \d+")
        player = scored[name]
        assert (
            player.during,
            player.end - player.majority,
            player.majority_by_sector,
            player.majority,
            player.end,
            player.total,
        ) == (int(during), int(entries), tuple(by_sector), majority, int(end), int(total)), name


@pytest.mark.parametrize("rows", examples(RANKING_EXAMPLES), ids=lambda rows: "-".join(row[0] for row in rows))
def test_a_ranking_example_of_the_rules_document(rows):
    """docs/scoring-rules.md, "Winner and ties": players' totals and active workers, and the rank
    and victory each gets."""
    players = [vp_player(*whole_numbers(total), *whole_numbers(workers)) for _name, total, workers, _rank, _won in rows]
    result = score_game([], players)
    assert [(player.total, player.active_workers, player.rank, player.winner) for player in result.players] == [
        (*whole_numbers(total), *whole_numbers(workers), *whole_numbers(rank), yes_or_no(won))
        for _name, total, workers, rank, won in rows
    ]


# ============================================================================================
# Properties on random games
# ============================================================================================

PROPERTY_SETTINGS = settings(max_examples=200, deadline=None)

sectors_st = st.lists(
    st.builds(Sector, st.integers(0, MAX_SECTOR_VP), st.integers(0, MAX_SECTOR_VP)), max_size=MAX_SECTORS
)


def _entry_st(category):
    if category.is_flag:
        return st.booleans()
    # Small values often, so that players often tie on VP; the whole range sometimes.
    small = st.integers(category.minimum, min(category.maximum, category.minimum + 3))
    return small | st.integers(category.minimum, category.maximum)


# Entries of every category, those of the other way of counting the during-the-game points too
# (the engine must count them for nothing).
entries_st = st.fixed_dictionaries({}, optional={c.key: _entry_st(c) for c in CATEGORIES})


@st.composite
def games(draw, min_players=1, during=None):
    """(sectors, players, how the game counts its during-the-game points: ``during``, or either)."""
    during = draw(st.sampled_from(During)) if during is None else during
    sectors = draw(sectors_st)
    count = draw(st.integers(min_players, MAX_PLAYERS))
    players = [
        PlayerSheet(
            entries=draw(entries_st),
            active_workers=draw(st.integers(0, MAX_ACTIVE_WORKERS)),
            tokens=tuple(
                draw(st.lists(st.integers(0, TOKENS_PER_PLAYER), min_size=len(sectors), max_size=len(sectors)))
            ),
        )
        for _ in range(count)
    ]
    return sectors, players, during


def _tokens(player: PlayerSheet, index: int) -> int:
    return player.tokens[index] if index < len(player.tokens) else 0


def reference_sector_awards(sector: Sector, tokens: list[int]) -> list[int]:
    """SCORING.md's three cases, written independently of the engine."""
    counts = [t for t in tokens if t > 0]
    if not counts:
        return [0] * len(tokens)
    most = max(counts)
    leaders = [p for p, t in enumerate(tokens) if t == most]
    if len(leaders) > 1:
        return [(sector.first + sector.second) // len(leaders) if t == most else 0 for t in tokens]
    others = [t for t in counts if t < most]
    if not others:
        return [sector.first if t == most else 0 for t in tokens]
    runner_up = max(others)
    seconds = sum(1 for t in tokens if t == runner_up)
    return [sector.first if t == most else sector.second // seconds if t == runner_up else 0 for t in tokens]


@PROPERTY_SETTINGS
@given(games())
def test_property_sector_awards_follow_the_three_cases_of_scoring_md(game):
    sectors, players, during = game
    result = score_game(sectors, players, during)
    for index, sector in enumerate(sectors):
        expected = reference_sector_awards(sector, [_tokens(p, index) for p in players])
        assert [p.majority_by_sector[index] for p in result.players] == expected


@PROPERTY_SETTINGS
@given(games())
def test_property_a_sector_never_awards_more_than_its_1st_plus_2nd_vp(game):
    sectors, players, during = game
    for result in score_game(sectors, players, during).sectors:
        awards = [result.award_for(p) for p in range(len(players))]
        assert all(award >= 0 for award in awards)
        assert sum(awards) <= result.sector.first + result.sector.second


@PROPERTY_SETTINGS
@given(games())
def test_property_a_player_with_no_token_in_a_sector_gets_nothing_from_it(game):
    """SCORING.md: "counting only players with at least one token there"."""
    sectors, players, during = game
    result = score_game(sectors, players, during)
    for index, sector_result in enumerate(result.sectors):
        for position, player in enumerate(players):
            if _tokens(player, index) == 0:
                assert result.players[position].majority_by_sector[index] == 0
                assert position not in sector_result.first_place + sector_result.second_place


@PROPERTY_SETTINGS
@given(games(), st.data())
def test_property_relabelling_the_players_relabels_the_results(game, data):
    """Scoring does not depend on the order players are given in (only ``ranking()``'s and the ties'
    order among equals do, by design).
    """
    sectors, players, during = game
    permutation = data.draw(st.permutations(range(len(players))))  # new position k holds old player p[k]
    before = score_game(sectors, players, during)
    after = score_game(sectors, [players[old] for old in permutation], during)
    new_of = {old: new for new, old in enumerate(permutation)}

    for new, old in enumerate(permutation):
        assert after.players[new] == before.players[old]
    assert set(after.winners) == {new_of[old] for old in before.winners}
    assert after.shared_victory == before.shared_victory
    for s_before, s_after in zip(before.sectors, after.sectors, strict=True):
        assert s_after.outcome == s_before.outcome
        assert set(s_after.first_place) == {new_of[p] for p in s_before.first_place}
        assert set(s_after.second_place) == {new_of[p] for p in s_before.second_place}
        assert (s_after.first_each, s_after.second_each, s_after.pool, s_after.second_unawarded_reason) == (
            s_before.first_each,
            s_before.second_each,
            s_before.pool,
            s_before.second_unawarded_reason,
        )
    assert len(after.ties) == len(before.ties)
    for t_before, t_after in zip(before.ties, after.ties, strict=False):
        assert (t_after.total, t_after.workers, t_after.rank) == (t_before.total, t_before.workers, t_before.rank)
        assert (t_after.decided_by_workers, t_after.shared) == (t_before.decided_by_workers, t_before.shared)
        assert set(t_after.players) == {new_of[p] for p in t_before.players}


@PROPERTY_SETTINGS
@given(games(), st.data())
def test_property_raising_an_entry_never_lowers_the_total_nor_worsens_the_rank(game, data):
    sectors, players, during = game
    position = data.draw(st.integers(0, len(players) - 1), label="player")
    category = data.draw(st.sampled_from(categories_of(during)), label="category")
    old_value = players[position].entries.get(category.key, False if category.is_flag else 0)
    new_value = True if category.is_flag else data.draw(st.integers(old_value, category.maximum), label="new value")
    raised = list(players)
    raised[position] = PlayerSheet(
        entries={**players[position].entries, category.key: new_value},
        active_workers=players[position].active_workers,
        tokens=players[position].tokens,
    )

    before = score_game(sectors, players, during)
    after = score_game(sectors, raised, during)

    assert after.players[position].total >= before.players[position].total
    assert after.players[position].total - before.players[position].total == (
        category.vp(new_value) - category.vp(old_value)
    )
    assert after.players[position].rank <= before.players[position].rank
    for other in range(len(players)):
        if other != position:
            assert after.players[other].total == before.players[other].total
    if before.players[position].winner:
        assert after.players[position].winner


@PROPERTY_SETTINGS
@given(games())
def test_property_total_is_during_plus_end_and_end_includes_the_majorities(game):
    """FORMAT.md: "`during` is the sum of the during-the-game entries; `end` is the sum of the
    end-of-game VP, majorities included; `majority` is the comb majority VP alone; `total` is
    `during + end`."
    """
    sectors, players, during = game
    result = score_game(sectors, players, during)
    for position, (sheet, player) in enumerate(zip(players, result.players, strict=True)):
        vp = {c.key: c.vp(sheet.entries.get(c.key, 0)) if c.counts_in(during) else 0 for c in CATEGORIES}
        assert player.category_vp == vp
        assert player.during == sum(vp[c.key] for c in categories_of(during, Section.DURING))
        assert player.majority_by_sector == tuple(s.award_for(position) for s in result.sectors)
        assert player.majority == sum(player.majority_by_sector)
        assert player.end == sum(vp[c.key] for c in END_CATEGORIES) + player.majority
        assert player.total == player.during + player.end
        assert player.active_workers == sheet.active_workers


@PROPERTY_SETTINGS
@given(games())
def test_property_ranks_count_the_players_strictly_better(game):
    """A player's rank is 1 + the number of players with more VP, or equal VP and more active workers;
    exactly the players with the best (VP, workers) have rank 1 and win.
    """
    sectors, players, during = game
    result = score_game(sectors, players, during)
    keys = [(p.total, p.active_workers) for p in result.players]
    best = max(keys)
    for position, player in enumerate(result.players):
        assert player.rank == 1 + sum(1 for key in keys if key > keys[position])
        assert (player.rank == 1) is (keys[position] == best)
        assert player.winner is (player.rank == 1)
    assert result.winners == tuple(i for i, key in enumerate(keys) if key == best)
    assert result.shared_victory is (keys.count(best) > 1)
    ranking = result.ranking()
    assert sorted(ranking) == list(range(len(players)))
    assert [result.players[i].rank for i in ranking] == sorted(p.rank for p in result.players)


@PROPERTY_SETTINGS
@given(games())
def test_property_ties_list_every_group_sharing_a_total(game):
    sectors, players, during = game
    result = score_game(sectors, players, during)
    totals = [p.total for p in result.players]
    groups = {t: [i for i, x in enumerate(totals) if x == t] for t in set(totals) if totals.count(t) > 1}
    assert [tie.total for tie in result.ties] == sorted(groups, reverse=True)
    for tie in result.ties:
        assert sorted(tie.players) == groups[tie.total]
        assert tie.workers == tuple(result.players[p].active_workers for p in tie.players)
        assert list(tie.workers) == sorted(tie.workers, reverse=True)
        assert tie.rank == min(result.players[p].rank for p in tie.players)
        assert tie.decided_by_workers is (len(set(tie.workers)) > 1)
        assert tie.shared is (len(set(tie.workers)) < len(tie.workers))


# ============================================================================================
# The VP track or the breakdown: two ways of counting the during-the-game points
# ============================================================================================


@pytest.mark.parametrize(
    ("during", "entries", "counted"),
    [
        pytest.param(During.TRACK, {"vp_track": 57}, 57, id="track-the-track-entry-is-the-whole-part"),
        pytest.param(
            During.TRACK,
            {"vp_track": 57, "starting_vp": 1, "farm_income": 9},
            57,
            id="track-the-breakdowns-entries-count-for-nothing",
        ),
        pytest.param(During.TRACK, {}, 0, id="track-an-empty-track-is-0"),
        pytest.param(
            During.BREAKDOWN,
            {"starting_vp": 2, "farm_income": 9, "tile_abilities": 4},
            15,
            id="breakdown-the-sum-of-its-entries",
        ),
        pytest.param(
            During.BREAKDOWN, {"starting_vp": 2, "vp_track": 57}, 2, id="breakdown-the-track-entry-counts-for-nothing"
        ),
    ],
)
def test_the_during_the_game_part_is_the_track_or_the_breakdowns_sum(during, entries, counted):
    """SCORING.md: "A game counts the entries of its own way only; those of the other way stay
    empty." The end of the game is the same either way."""
    sheet = PlayerSheet(entries={**entries, "farms": 3, "frames_filled": 1})
    result = score_game([], [sheet], during).players[0]
    assert (result.during, result.end, result.total) == (counted, 3 + 8, counted + 11)
    assert {key for key, vp in result.category_vp.items() if vp} <= {c.key for c in categories_of(during)}


def test_the_breakdown_is_what_the_engine_counts_unless_told():
    """Every game of a file written before the VP track was a breakdown (``during`` left out)."""
    sheet = PlayerSheet(entries={"starting_vp": 1, "vp_track": 40})
    assert score_game([], [sheet]).players[0].during == 1
    assert category_vp({"starting_vp": 1, "vp_track": 40}) == category_vp(
        {"starting_vp": 1, "vp_track": 40}, During.BREAKDOWN
    )


@PROPERTY_SETTINGS
@given(games(during=During.BREAKDOWN))
def test_property_the_same_game_scored_both_ways_gets_the_same_totals_and_ranking(game):
    """A breakdown game whose players' during-the-game sums are typed as their VP on the track:
    every subtotal, total, rank, winner and tie is the same (only the categories differ)."""
    sectors, players, _during = game
    breakdown = score_game(sectors, players, During.BREAKDOWN)
    on_the_track = [
        PlayerSheet(
            entries={
                **{
                    c.key: value
                    for c in categories_of(During.TRACK, Section.END)
                    if (value := sheet.entries.get(c.key)) is not None
                },
                "vp_track": outcome.during,
            },
            active_workers=sheet.active_workers,
            tokens=sheet.tokens,
        )
        for sheet, outcome in zip(players, breakdown.players, strict=True)
    ]
    track = score_game(sectors, on_the_track, During.TRACK)

    for before, after in zip(breakdown.players, track.players, strict=True):
        assert (after.during, after.majority, after.end, after.total, after.rank, after.winner) == (
            before.during,
            before.majority,
            before.end,
            before.total,
            before.rank,
            before.winner,
        )
        assert after.category_vp["vp_track"] == before.during
    assert track.ranking() == breakdown.ranking()
    assert track.ties == breakdown.ties
    assert track.sectors == breakdown.sectors

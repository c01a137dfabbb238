"""The scoring engine: Apiary's end-of-game rules as pure functions.

No Django here. The views, the commands and the game file all score through
``score_game``, which takes plain values and returns plain values, and explains itself:
for each comb sector who took 1st and 2nd place and why, and for each tie on VP how it
was broken. A game scores its during-the-game points one of two ways (``During``): the VP
track (one number per player) or the breakdown (the starting VP and each source); the entries
of the other way count for nothing. The rules are in ``docs/scoring-rules.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from scoring.rules.categories import CATEGORIES, During, Section


@dataclass(frozen=True, slots=True)
class Sector:
    """One Hibernation Comb sector: the VP printed for its 1st and 2nd place (0: no award)."""

    first: int
    second: int = 0


@dataclass(frozen=True, slots=True)
class PlayerSheet:
    """What the pad knows of one player: their entries, active workers and comb tokens."""

    entries: Mapping[str, int | bool] = field(default_factory=dict)
    active_workers: int = 0
    tokens: Sequence[int] = ()  # hibernation tokens per sector, in the comb's order


class SectorOutcome(StrEnum):
    EMPTY = "empty"  # nobody has a token: nobody scores
    SOLE_FIRST = "sole_first"  # one player has the most; the next most share 2nd place
    TIED_FIRST = "tied_first"  # several tie for the most and share all the sector's VP


@dataclass(frozen=True, slots=True)
class SectorResult:
    """How one sector was scored. Player positions index the ``players`` given to the engine."""

    index: int
    sector: Sector
    outcome: SectorOutcome
    first_place: tuple[int, ...] = ()  # who took (or shared) 1st
    second_place: tuple[int, ...] = ()  # who shared 2nd (empty when 2nd is not awarded)
    first_tokens: int = 0
    second_tokens: int = 0
    pool: int = 0  # the VP divided among ``first_place`` (1st alone, or 1st + 2nd when tied)
    first_each: int = 0
    second_each: int = 0
    second_unawarded_reason: str = ""  # "tie", "nobody", "no_award", or "" when awarded

    def award_for(self, player: int) -> int:
        if player in self.first_place:
            return self.first_each
        if player in self.second_place:
            return self.second_each
        return 0


@dataclass(frozen=True, slots=True)
class TieResult:
    """A group of players with the same total, and how active workers ordered them."""

    total: int
    players: tuple[int, ...]  # ordered best first (most workers first), then by position
    workers: tuple[int, ...]  # the active workers of ``players``, in the same order
    rank: int  # the best rank in the group
    decided_by_workers: bool  # the workers split the group at least partly
    shared: bool  # at least two of them still share a place


@dataclass(frozen=True, slots=True)
class PlayerResult:
    category_vp: Mapping[str, int]  # VP per category key
    majority: int  # VP from comb sector majorities
    majority_by_sector: tuple[int, ...]
    during: int
    end: int  # end-of-game VP, majorities included
    total: int
    active_workers: int
    rank: int
    winner: bool


@dataclass(frozen=True, slots=True)
class GameResult:
    players: tuple[PlayerResult, ...]  # in the order they were given
    sectors: tuple[SectorResult, ...]
    ties: tuple[TieResult, ...]  # groups of two or more players on the same total, best first

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, player in enumerate(self.players) if player.winner)

    @property
    def shared_victory(self) -> bool:
        return len(self.winners) > 1

    def ranking(self) -> tuple[int, ...]:
        """Player positions from first place to last (equal ranks keep the given order)."""
        return tuple(sorted(range(len(self.players)), key=lambda i: (self.players[i].rank, i)))


def score_sector(index: int, sector: Sector, tokens: Sequence[int]) -> SectorResult:
    """Score one sector from each player's token count there (``tokens[player]``)."""
    present = {player: count for player, count in enumerate(tokens) if count > 0}
    if not present:
        return SectorResult(index, sector, SectorOutcome.EMPTY, second_unawarded_reason="nobody")

    most = max(present.values())
    leaders = tuple(p for p, count in present.items() if count == most)
    if len(leaders) > 1:
        pool = sector.first + sector.second
        return SectorResult(
            index,
            sector,
            SectorOutcome.TIED_FIRST,
            first_place=leaders,
            first_tokens=most,
            pool=pool,
            first_each=pool // len(leaders),
            second_unawarded_reason="tie",
        )

    rest = {p: count for p, count in present.items() if p not in leaders}
    if not rest:
        return SectorResult(
            index,
            sector,
            SectorOutcome.SOLE_FIRST,
            first_place=leaders,
            first_tokens=most,
            pool=sector.first,
            first_each=sector.first,
            second_unawarded_reason="nobody",
        )
    if sector.second == 0:
        return SectorResult(
            index,
            sector,
            SectorOutcome.SOLE_FIRST,
            first_place=leaders,
            first_tokens=most,
            pool=sector.first,
            first_each=sector.first,
            second_tokens=max(rest.values()),
            second_unawarded_reason="no_award",
        )
    next_most = max(rest.values())
    seconds = tuple(p for p, count in rest.items() if count == next_most)
    return SectorResult(
        index,
        sector,
        SectorOutcome.SOLE_FIRST,
        first_place=leaders,
        second_place=seconds,
        first_tokens=most,
        second_tokens=next_most,
        pool=sector.first,
        first_each=sector.first,
        second_each=sector.second // len(seconds),
    )


def category_vp(entries: Mapping[str, int | bool], during: During = During.BREAKDOWN) -> dict[str, int]:
    """The VP of each category for one player's entries, in a game that scores its
    during-the-game points ``during``; a missing entry counts as 0, and so does an entry of the
    other way of scoring them."""
    return {
        category.key: category.vp(entries.get(category.key, 0)) if category.counts_in(during) else 0
        for category in CATEGORIES
    }


def score_game(
    sectors: Sequence[Sector], players: Sequence[PlayerSheet], during: During = During.BREAKDOWN
) -> GameResult:
    """Score a whole game: every subtotal, the comb majorities, ranks, ties and winners. Its
    during-the-game points are the VP track's (one entry a player) or the breakdown's (``during``)."""
    sector_results = tuple(
        score_sector(index, sector, [_tokens_in(player, index) for player in players])
        for index, sector in enumerate(sectors)
    )

    sums = []
    for position, player in enumerate(players):
        vp = category_vp(player.entries, during)
        by_sector = tuple(result.award_for(position) for result in sector_results)
        majority = sum(by_sector)
        during_vp = sum(vp[c.key] for c in CATEGORIES if c.section is Section.DURING)
        end = sum(vp[c.key] for c in CATEGORIES if c.section is Section.END) + majority
        sums.append((vp, by_sector, majority, during_vp, end))

    totals = [during_vp + end for (_, _, _, during_vp, end) in sums]
    workers = [player.active_workers for player in players]
    # A player's rank is 1 + the number of players who beat them: more VP, or the same VP
    # and more active workers. Equal VP and equal workers share the rank (1, 1, 3).
    ranks = [
        1 + sum(1 for j in range(len(players)) if (totals[j], workers[j]) > (totals[i], workers[i]))
        for i in range(len(players))
    ]

    results = tuple(
        PlayerResult(
            category_vp=vp,
            majority=majority,
            majority_by_sector=by_sector,
            during=during_vp,
            end=end,
            total=totals[i],
            active_workers=workers[i],
            rank=ranks[i],
            winner=ranks[i] == 1,
        )
        for i, (vp, by_sector, majority, during_vp, end) in enumerate(sums)
    )
    return GameResult(players=results, sectors=sector_results, ties=_ties(totals, workers, ranks))


def _tokens_in(player: PlayerSheet, sector_index: int) -> int:
    return player.tokens[sector_index] if sector_index < len(player.tokens) else 0


def _ties(totals: Sequence[int], workers: Sequence[int], ranks: Sequence[int]) -> tuple[TieResult, ...]:
    groups: dict[int, list[int]] = {}
    for position, total in enumerate(totals):
        groups.setdefault(total, []).append(position)
    ties = []
    for total in sorted(groups, reverse=True):
        members = groups[total]
        if len(members) < 2:
            continue
        ordered = tuple(sorted(members, key=lambda p: (-workers[p], p)))
        member_workers = tuple(workers[p] for p in ordered)
        ties.append(
            TieResult(
                total=total,
                players=ordered,
                workers=member_workers,
                rank=min(ranks[p] for p in members),
                decided_by_workers=len(set(member_workers)) > 1,
                shared=len(set(member_workers)) < len(member_workers),
            )
        )
    return tuple(ties)

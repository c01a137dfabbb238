"""Overall statistics, from the tallies (and the few games joined through links, summed here)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from scoring.models import (
    OwnerTally,
    Seat,
    Tally,
)
from scoring.selectors.games import joined_games
from scoring.selectors.people import average
from scoring.tallies import point_parts, row_measures, seat_measures, seat_scopes


@dataclass(frozen=True)
class Share:
    label: str  # English (the template translates it): the edition's full words, a tap away
    vp: int
    percent: float
    short: str = ""  # English too: the row's short words (the pad's)


@dataclass(frozen=True)
class WinRate:
    label: str
    seats: int  # how many times it was played
    wins: int

    @property
    def percent(self) -> int:
        return round(100 * self.wins / self.seats) if self.seats else 0


@dataclass(frozen=True)
class OverallStatistics:
    games: int  # finished games behind every figure
    average_winning_score: float | None
    shares: list[Share]  # each part's share of all points (``point_parts``: none without a point)
    by_faction: list[WinRate]
    by_seat: list[WinRate]


def overall_statistics(user) -> OverallStatistics:
    """Over the user's finished games (their own, and those joined through a live link): the
    average winning score, each category's share of all points, and the win rate by faction and
    by seat, each with the number behind it. The account's tallies, and the seats of the games
    it joined (another account's games, summed here): the same queries whatever the number of
    games."""
    sums: dict[tuple[str, str], Counter] = defaultdict(Counter)
    if getattr(user, "is_authenticated", False):
        for row in OwnerTally.objects.filter(owner=user):
            sums[row.scope, row.key].update(row_measures(row))
        joined = joined_games(user).filter(finished_at__isnull=False)
        for seat in Seat.objects.filter(game__in=joined):
            measures = seat_measures(seat)
            for scope_and_key in seat_scopes(seat):
                sums[scope_and_key].update(measures)
    overall = sums[Tally.Scope.ALL, ""]
    everything = overall["points"]
    shares = [
        Share(label, vp, round(100 * vp / everything, 1) if everything else 0.0, short)
        for label, short, vp in point_parts(overall)
    ]

    def rates(scope: str) -> list[WinRate]:
        rows = [(key, row) for (kind, key), row in sums.items() if kind == scope and row["seats"]]
        rows.sort(key=lambda item: int(item[0]) if scope == Tally.Scope.SEAT else item[0])
        return [WinRate(key, row["seats"], row["wins"]) for key, row in rows]

    return OverallStatistics(
        games=overall["games"],
        average_winning_score=average(overall["winner_points"], overall["wins"]),
        shares=shares,
        by_faction=rates(Tally.Scope.FACTION),
        by_seat=rates(Tally.Scope.SEAT),
    )

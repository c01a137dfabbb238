"""People across games: the players list and a player's page. Only finished games count; every
figure is read from the tallies (scoring.tallies), so a page makes the same queries and reads
the same rows whatever the number of games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from django.db.models import (
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from scoring.models import (
    Game,
    Player,
    PlayerTally,
    Seat,
    Tally,
)
from scoring.tallies import point_parts, row_measures


def _rate(wins: int, games: int) -> int:
    return round(100 * wins / games) if games else 0


def player_of(user, player_id: int) -> Player | None:
    """One of the user's own players (None: no such player of theirs)."""
    return players_of(user).filter(pk=player_id).first()


def players_of(user) -> QuerySet[Player]:
    """The user's own players (the Automa too): the only ones their pages may show."""
    if not getattr(user, "is_authenticated", False):
        return Player.objects.none()
    return Player.objects.filter(owner=user)


@dataclass
class PlayerRow:
    """One line of the players list: a person's figures over finished games."""

    player: Player
    games: int
    wins: int
    average: float | None  # None: no finished game yet
    best: int | None

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def win_rate(self) -> int:
        return _rate(self.wins, self.games)


def _tally_sums(rows) -> dict[tuple[str, str], dict]:
    """Tally rows by (scope, key), with their measures (rows moved back to no seat left out)."""
    return {(row.scope, row.key): row_measures(row) | {"best": getattr(row, "best", None)} for row in rows if row.seats}


def average(points: int, seats: int) -> float | None:
    return round(points / seats, 1) if seats else None


def players_table(user) -> list[PlayerRow]:
    """Every person of the user's games (the Automa aside) with games, wins, average and best
    score over finished games; most wins first, then most games, then the name. One query, read
    from the players' tallies: the same cost at 10 games as at 100,000."""
    rows = (
        players_of(user)
        .filter(is_automa=False)
        .annotate(overall=FilteredRelation("tallies", condition=Q(tallies__scope=Tally.Scope.ALL)))
        .annotate(
            n_games=Coalesce(F("overall__seats"), 0),
            n_wins=Coalesce(F("overall__wins"), 0),
            points=Coalesce(F("overall__points"), 0),
            best=F("overall__best"),
        )
        .order_by("-n_wins", "-n_games", "name_key")
    )
    return [
        PlayerRow(
            player=row,
            games=row.n_games,
            wins=row.n_wins,
            average=average(row.points, row.n_games),
            best=row.best if row.n_games else None,
        )
        for row in rows
    ]


@dataclass
class CategoryAverage:
    label: str  # the edition's full words, a tap away
    average: float | None  # (None: no finished game yet)
    short: str = ""  # the row's short words (the pad's)


@dataclass
class FactionRow:
    faction: str
    played: int
    won: int


@dataclass
class ScorePoint:
    played_on: date
    game_id: str  # the game's public id
    total: int
    winner: bool


CHART_GAMES = 50  # a player's chart shows their latest games, up to this many


@dataclass
class PlayerPage:
    """What a player's page shows, over their finished games (``games`` of them behind every figure)."""

    player: Player
    games: int
    wins: int
    average: float | None
    best: int | None
    categories: list[CategoryAverage]
    factions: list[FactionRow]
    scores: list[ScorePoint]  # their latest finished games (up to CHART_GAMES), oldest first
    others: list[Player]  # the user's other players this one may be merged into
    aliases: list[str]  # the names of the records merged into this one

    @property
    def win_rate(self) -> int:
        return _rate(self.wins, self.games)

    @property
    def latest(self) -> ScorePoint | None:
        return self.scores[-1] if self.scores else None


def player_latest_scores(player: Player, limit: int = CHART_GAMES) -> list[ScorePoint]:
    """The player's latest finished games, oldest first: read newest first through the history's
    index, each game asked whether the player sat at it, so the cost follows ``limit``, not the
    number of games."""
    seat = Seat.objects.filter(game=OuterRef("pk"), player=player)
    games = (
        Game.objects.filter(owner_id=player.owner_id, finished_at__isnull=False)
        .annotate(total=Subquery(seat.values("score_total")[:1]), won=Subquery(seat.values("is_winner")[:1]))
        .filter(total__isnull=False)
        .order_by("-played_on", "-created_at", "-id")
        .values_list("played_on", "public_id", "total", "won")[:limit]
    )
    return [ScorePoint(played_on, game_id, total, bool(won)) for played_on, game_id, total, won in reversed(games)]


def category_averages(overall: Mapping[str, int]) -> list[CategoryAverage]:
    """A player's average VP of each part their totals are made of (``point_parts``), over their
    finished games (the tallies' ``overall`` row): the rows add up to their average total."""
    return [
        CategoryAverage(label=gettext(label), average=average(vp, overall["seats"]), short=gettext(short))
        for label, short, vp in point_parts(overall)
    ]


def player_page(player: Player) -> PlayerPage:
    """A player's figures over finished games, read from their tallies: four queries whatever
    the number of games (the tallies, their latest games, their other names, the other players)."""
    sums = _tally_sums(PlayerTally.objects.filter(player=player))
    aliases = list(player.aliases.order_by("name_key").values_list("name", flat=True))
    overall = sums.get((Tally.Scope.ALL, ""))
    others = (
        []
        if player.is_automa
        else list(
            Player.objects.filter(owner_id=player.owner_id, is_automa=False).exclude(pk=player.pk).order_by("name_key")
        )
    )
    if overall is None:
        return PlayerPage(
            player=player,
            games=0,
            wins=0,
            average=None,
            best=None,
            categories=[],
            factions=[],
            scores=[],
            others=others,
            aliases=aliases,
        )
    factions = sorted(
        (
            FactionRow(key, row["seats"], row["wins"])
            for (scope, key), row in sums.items()
            if scope == Tally.Scope.FACTION
        ),
        key=lambda row: (-row.played, -row.won, row.faction),
    )
    return PlayerPage(
        player=player,
        games=overall["seats"],
        wins=overall["wins"],
        average=average(overall["points"], overall["seats"]),
        best=overall["best"],
        categories=category_averages(overall),
        factions=factions,
        scores=player_latest_scores(player),
        others=others,
        aliases=aliases,
    )

"""Reads: what the pages and commands need of stored games, in one or two queries each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from scoring.engine import GameResult, Sector
from scoring.gamefile import GameData, PlayerData
from scoring.models import Game, GameSector, HibernationTokens, Seat


def games_with_everything() -> QuerySet[Game]:
    """Games with their sectors, seats and tokens prefetched (ordered for scoring)."""
    return Game.objects.prefetch_related(
        Prefetch("sectors", queryset=GameSector.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.order_by("number")),
        Prefetch("seats__tokens", queryset=HibernationTokens.objects.select_related("sector")),
    )


def game_get(game_id: int) -> Game:
    """One game with everything it needs for scoring; raises Game.DoesNotExist."""
    return games_with_everything().get(pk=game_id)


def seat_tokens(seat: Seat, sectors: Iterable[GameSector]) -> list[int]:
    """The seat's tokens per sector, in sector order (uses the prefetched tokens)."""
    by_sector = {tokens.sector_id: tokens.count for tokens in seat.tokens.all()}
    return [by_sector.get(sector.pk, 0) for sector in sectors]


def game_data(game: Game) -> GameData:
    """A stored game as the game file sees it (entries not made yet count as 0)."""
    sectors = list(game.sectors.all())
    players = [
        PlayerData(
            name=seat.name,
            seat=seat.number,
            faction=seat.faction,
            automa=seat.is_automa,
            active_workers=seat.workers,
            entries=seat.entries(),
            hibernation=seat_tokens(seat, sectors),
        )
        for seat in game.seats.all()
    ]
    return GameData(
        players=players,
        comb=[Sector(sector.first_vp, sector.second_vp) for sector in sectors],
        played_on=game.played_on,
        notes=game.notes,
        end_trigger_token=game.end_trigger_token,
    )


def game_result(game: Game) -> GameResult:
    """The engine's result for a game loaded with ``games_with_everything``."""
    return game_data(game).score()


def games_for_export() -> list[GameData]:
    """Every stored game, oldest first, as game-file data."""
    return [game_data(game) for game in games_with_everything().order_by("played_on", "created_at", "id")]


def comb_layouts() -> list:
    from scoring.models import CombLayout, CombLayoutSector

    return list(
        CombLayout.objects.prefetch_related(
            Prefetch("sectors", queryset=CombLayoutSector.objects.order_by("position"))
        )
    )


def known_player_names() -> list[str]:
    """Names from earlier games, most used first, for the start form's suggestions."""
    from django.db.models import Count

    rows = (
        Seat.objects.filter(is_automa=False)
        .values("name")
        .annotate(games=Count("id"))
        .order_by("-games", "name")[:50]
    )
    seen: set[str] = set()
    names = []
    for row in rows:
        if row["name"].casefold() not in seen:
            seen.add(row["name"].casefold())
            names.append(row["name"])
    return names


@dataclass
class HistoryEntry:
    game: Game
    result: GameResult
    seats: list[Seat]

    @property
    def players(self) -> list[tuple[Seat, object]]:
        return list(zip(self.seats, self.result.players, strict=True))

    @property
    def winners(self) -> list[Seat]:
        return [seat for seat, outcome in self.players if outcome.winner]


def history() -> list[HistoryEntry]:
    """Every game, newest first, with its players, scores and winners."""
    entries = []
    for game in games_with_everything().order_by("-played_on", "-created_at", "-id"):
        entries.append(HistoryEntry(game=game, result=game_result(game), seats=list(game.seats.all())))
    return entries


@dataclass
class PlayerStatistics:
    name: str
    games: int = 0
    wins: int = 0
    best: int = 0
    total_vp: int = 0

    @property
    def average(self) -> float:
        return round(self.total_vp / self.games, 1) if self.games else 0.0

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def player_statistics() -> list[PlayerStatistics]:
    """Per player name (ignoring case) over finished games: games, wins, best and average score.
    The Automa is not a player to keep statistics of."""
    stats: dict[str, PlayerStatistics] = {}
    for entry in history():
        if not entry.game.is_finished:
            continue
        for seat, outcome in entry.players:
            if seat.is_automa:
                continue
            item = stats.setdefault(seat.name.casefold(), PlayerStatistics(name=seat.name))
            item.games += 1
            item.wins += 1 if outcome.winner else 0
            item.best = max(item.best, outcome.total)
            item.total_vp += outcome.total
    return sorted(stats.values(), key=lambda s: (-s.wins, -s.games, s.name.casefold()))

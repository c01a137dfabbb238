"""Reads: what the pages and commands need of stored games, in one or two queries each."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Prefetch, QuerySet

from scoring.engine import GameResult, PlayerSheet, Sector
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


def game_sheets(game: Game) -> tuple[list[Sector], list[PlayerSheet]]:
    sectors = list(game.sectors.all())
    comb = [Sector(sector.first_vp, sector.second_vp) for sector in sectors]
    sheets = [
        PlayerSheet(entries=seat.entries(), active_workers=seat.active_workers, tokens=seat_tokens(seat, sectors))
        for seat in game.seats.all()
    ]
    return comb, sheets


def game_result(game: Game) -> GameResult:
    from scoring.engine import score_game

    comb, sheets = game_sheets(game)
    return score_game(comb, sheets)


def game_data(game: Game) -> GameData:
    """A stored game as the game file sees it."""
    sectors = list(game.sectors.all())
    players = [
        PlayerData(
            name=seat.name,
            seat=seat.number,
            faction=seat.faction,
            automa=seat.is_automa,
            active_workers=seat.active_workers,
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


def games_for_export() -> list[GameData]:
    """Every stored game, oldest first, as game-file data."""
    return [game_data(game) for game in games_with_everything().order_by("played_on", "created_at", "id")]

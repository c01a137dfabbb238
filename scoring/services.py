"""Writes: every change to stored games goes through one of these small functions."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scoring.gamefile import GameData
from scoring.models import Game, GameSector, HibernationTokens, Seat


@transaction.atomic
def game_store(data: GameData, *, finished: bool = False) -> Game:
    """Store one game from game-file data: the game, its sectors, seats and tokens."""
    game = Game.objects.create(
        played_on=data.played_on or timezone.localdate(),
        notes=data.notes,
        end_trigger_token=data.end_trigger_token,
        finished_at=timezone.now() if finished else None,
    )
    sectors = GameSector.objects.bulk_create(
        GameSector(game=game, position=position, first_vp=sector.first, second_vp=sector.second)
        for position, sector in enumerate(data.comb)
    )
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            number=player.seat,
            name=player.name,
            faction=player.faction,
            is_automa=player.automa,
            active_workers=player.active_workers,
            **player.entries,
        )
        for player in data.players
    )
    HibernationTokens.objects.bulk_create(
        HibernationTokens(seat=seat, sector=sector, count=count)
        for seat, player in zip(seats, data.players, strict=True)
        for sector, count in zip(sectors, player.hibernation or [0] * len(sectors), strict=True)
    )
    return game


@transaction.atomic
def games_import(games: Sequence[GameData]) -> list[Game]:
    """Store every game of a checked document, or none of them (all or nothing)."""
    return [game_store(data, finished=True) for data in games]

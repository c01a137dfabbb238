"""Writes: every change to stored games goes through one of these small functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.categories import CATEGORY_BY_KEY, DEFAULT_END_TRIGGER_TOKEN, TOKENS_PER_PLAYER
from scoring.engine import Sector
from scoring.gamefile import GameData, PlayerData
from scoring.models import CombLayout, CombLayoutSector, Game, GameSector, HibernationTokens, Seat


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
            name_key=Seat.key_for(player.name),
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


# ---------------------------------------------------------------------------------------------
# The start form and the pad


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    faction: str = ""
    automa: bool = False


@transaction.atomic
def game_create(
    *,
    players: Sequence[PlayerSetup],
    sectors: Sequence[tuple[int, int]],
    played_on: date | None = None,
    notes: str = "",
    end_trigger_token: int = DEFAULT_END_TRIGGER_TOKEN,
) -> Game:
    """Start a game: seats in the given order, starting VP pre-filled from the seat (1, 2, 3, ...)."""
    data = GameData(
        players=[
            PlayerData(
                name=player.name.strip(),
                seat=number,
                faction=player.faction,
                automa=player.automa,
                entries={"starting_vp": number},
            )
            for number, player in enumerate(players, start=1)
        ],
        comb=[Sector(first, second) for first, second in sectors],
        played_on=played_on,
        notes=notes,
        end_trigger_token=end_trigger_token,
    )
    return game_store(data)


@transaction.atomic
def comb_layout_save(*, name: str, sectors: Sequence[tuple[int, int]]) -> CombLayout:
    """Create the named layout, or replace the sectors of the layout of that name."""
    layout, _created = CombLayout.objects.update_or_create(name=name.strip())
    layout.sectors.all().delete()
    CombLayoutSector.objects.bulk_create(
        CombLayoutSector(layout=layout, position=position, first_vp=first, second_vp=second)
        for position, (first, second) in enumerate(sectors)
    )
    return layout


def _touch(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(updated_at=timezone.now())


@transaction.atomic
def entry_set_value(*, seat: Seat, key: str, value: int | bool, sum_text: str = "") -> None:
    """Save one category entry of one seat (and the sum it was typed as, if any).

    Only that column changes, so two phones saving different fields never undo each other.
    """
    CATEGORY_BY_KEY[key]  # a KeyError here is a programming error, not user input
    locked = Seat.objects.select_for_update().only("sums").get(pk=seat.pk)
    sums = dict(locked.sums)
    if sum_text:
        sums[key] = sum_text
    else:
        sums.pop(key, None)
    Seat.objects.filter(pk=seat.pk).update(**{key: value}, sums=sums, updated_at=timezone.now())
    setattr(seat, key, value)
    seat.sums = sums
    _touch(seat.game_id)


def seat_set_active_workers(*, seat: Seat, workers: int) -> None:
    Seat.objects.filter(pk=seat.pk).update(active_workers=workers, updated_at=timezone.now())
    seat.active_workers = workers
    _touch(seat.game_id)


@transaction.atomic
def tokens_set(*, seat: Seat, sector: GameSector, count: int) -> None:
    """Set how many of the seat's hibernation tokens lie in the sector.

    A player owns 7 tokens: a count that would put more than 7 on the comb in all is refused
    (ValidationError, in words), so every stored game stays a valid game file.
    """
    Seat.objects.select_for_update().filter(pk=seat.pk).first()  # one writer per seat at a time
    elsewhere = (
        HibernationTokens.objects.filter(seat=seat).exclude(sector=sector).aggregate(total=Sum("count"))["total"] or 0
    )
    if elsewhere + count > TOKENS_PER_PLAYER:
        raise ValidationError(
            _("%(name)s owns only %(max)s hibernation tokens and has %(elsewhere)s in other sectors: "
              "at most %(left)s here."),
            code="too_many_tokens",
            params={"name": seat.name, "max": TOKENS_PER_PLAYER, "elsewhere": elsewhere,
                    "left": max(0, TOKENS_PER_PLAYER - elsewhere)},
        )
    HibernationTokens.objects.update_or_create(seat=seat, sector=sector, defaults={"count": count})
    _touch(seat.game_id)


def game_finish(*, game: Game) -> None:
    if game.finished_at is None:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at", "updated_at"])


def game_reopen(*, game: Game) -> None:
    game.finished_at = None
    game.save(update_fields=["finished_at", "updated_at"])


def game_delete(*, game: Game) -> None:
    game.delete()

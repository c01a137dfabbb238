"""Games started from the start form (their comb layout saved for next time) and deleted, and
the lock every write of a game takes first. The pad's own writes are ``scoring.services.pad``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils.translation import gettext

from scoring.gamefile import GameData, PlayerData
from scoring.models import (
    CombLayout,
    CombLayoutSector,
    Game,
    Seat,
)
from scoring.rules.categories import (
    DEFAULT_DURING,
    DEFAULT_END_TRIGGER_TOKEN,
    During,
    Section,
    categories_of,
    entry_at_start,
)
from scoring.rules.engine import Sector
from scoring.services.imports import game_store
from scoring.services.locking import game_lock
from scoring.services.sharing import link_renew
from scoring.services.tallies import tallies_follow


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
    during: During = DEFAULT_DURING,
    owner=None,
    visitor: str | None = None,
) -> Game:
    """Start a game: seats in the given order, every entry empty. Its during-the-game points are
    counted ``during``: on the VP track (where each marker starts on its seat's starting VP), or
    as the breakdown, whose starting VP are then filled in from the seat (1, 2, 3, ...)."""
    data = GameData(
        players=[
            PlayerData(
                name=player.name.strip(),
                seat=number,
                faction=player.faction,
                automa=player.automa,
                active_workers=None,
                entries={
                    category.key: value
                    for category in categories_of(during, Section.DURING)
                    if (value := entry_at_start(category, during, number)) is not None
                },
            )
            for number, player in enumerate(players, start=1)
        ],
        comb=[Sector(first, second) for first, second in sectors],
        played_on=played_on,
        notes=notes,
        end_trigger_token=end_trigger_token,
        during=During(during),
    )
    return game_store(data, owner=owner, visitor=visitor)


@transaction.atomic
def game_start(
    *,
    players: Sequence[PlayerSetup],
    solo: bool = False,
    sectors: Sequence[tuple[int, int]] = (),
    layout_name: str = "",
    played_on: date | None = None,
    notes: str = "",
    end_trigger_token: int = DEFAULT_END_TRIGGER_TOKEN,
    during: During = DEFAULT_DURING,
    owner=None,
    visitor: str | None = None,
    after: Game | None = None,
) -> Game:
    """Start a game from the start form: solo puts the Automa first in turn order (1 VP) and the
    player second (2 VP); a comb given a layout name is saved as that layout for next time. The
    game is ``owner``'s, or ``visitor``'s (a browser without an account). Started with *Play
    again*, it is the next game of the table of ``after`` (the same keeper's game): see
    ``_table_moves_on``."""
    if solo:
        players = [PlayerSetup(gettext("Automa"), automa=True), *players]
    if layout_name.strip() and sectors:
        comb_layout_save(name=layout_name, sectors=sectors, owner=owner, visitor=visitor)
    game = game_create(
        players=players,
        sectors=sectors,
        played_on=played_on,
        notes=notes,
        end_trigger_token=end_trigger_token,
        during=during,
        owner=owner,
        visitor=visitor,
    )
    if after is not None and (after.owner_id, after.visitor) == (game.owner_id, game.visitor):
        _table_moves_on(after, game)
    return game


def _table_moves_on(before: Game, game: Game) -> None:
    """``game`` is the next game of ``before``'s table: it follows it (``played_after``), it is
    shared as ``before`` was (each of ``before``'s live links carried on by a new link of its
    access, by which the phones that held it may follow, and they only), and ``before``'s
    revision moves on, so that its phones' next poll brings the offer to follow."""
    game.played_after = before
    game.save(update_fields=["played_after"])
    for link in before.links.filter(revoked_at__isnull=True).order_by("access"):
        link_renew(game=game, access=link.access, carried_from=link)
    game_lock(before.pk)


@transaction.atomic
def comb_layout_save(
    *, name: str, sectors: Sequence[tuple[int, int]], owner=None, visitor: str | None = None
) -> CombLayout:
    """Create the owner's (or the visitor's) named layout, or replace the sectors of their layout
    of that name."""
    layout, _created = CombLayout.objects.update_or_create(owner=owner, visitor=visitor, name=name.strip())
    layout.sectors.all().delete()
    CombLayoutSector.objects.bulk_create(
        CombLayoutSector(layout=layout, position=position, first_vp=first, second_vp=second)
        for position, (first, second) in enumerate(sectors)
    )
    return layout


@transaction.atomic
def game_delete(*, game: Game) -> None:
    """Delete the game, and take what its seats added out of the tallies."""
    game_lock(game.pk)
    tallies_follow(list(Seat.objects.filter(game=game)), owner_id=game.owner_id, counted=False)
    game.delete()

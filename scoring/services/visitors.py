"""A visitor's games (a browser that scored without an account), kept by the account it makes
or signs in to."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from scoring.gamefile import PlayerData
from scoring.models import (
    Change,
    CombLayout,
    Game,
    GameEvent,
    Seat,
)
from scoring.services.people import players_attach
from scoring.tallies import tallies_follow


@transaction.atomic
def visitor_games_claim(*, visitor: str | None, user) -> int:
    """Every game the browser of ``visitor`` started without an account becomes ``user``'s, and
    its saved comb layouts with them, in one transaction: the games locked and moved in one
    statement (their phones see them changed), their seats attached to the account's players by
    name (``players_attach``: "maya" joins the account's Maya, a new name makes a new player),
    the finished ones added to the account's tallies (``tallies_follow``: until now they counted
    nowhere), and what the browser did itself (not through a link), its changes, its finishing
    and reopening of a game, credited to the account. Of a layout name the account has already,
    the layout saved last stays. How many games moved: 0 when the browser has none (so claiming
    twice moves nothing)."""
    if not visitor:
        return 0
    games = Game.objects.select_for_update().filter(visitor=visitor)
    ids = list(games.order_by("pk").values_list("pk", flat=True))
    _layouts_claim(visitor=visitor, user=user)
    if not ids:
        return 0
    Game.objects.filter(pk__in=ids).update(owner=user, visitor=None, revision=F("revision") + 1, fingerprint=None)
    seats_of: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=ids).select_related("game").order_by("game_id", "number"):
        seats_of.setdefault(seat.game_id, []).append(seat)
    people = players_attach(
        user,
        [
            [PlayerData(name=seat.name, seat=seat.number, automa=seat.is_automa) for seat in seats]
            for seats in seats_of.values()
        ],
    )
    for seats, players in zip(seats_of.values(), people, strict=True):
        for seat in seats:
            seat.player = players[seat.number]
    every_seat = [seat for seats in seats_of.values() for seat in seats]
    Seat.objects.bulk_update(every_seat, ["player"])
    tallies_follow([seat for seat in every_seat if seat.game.is_finished], owner_id=user.pk, counted=True)
    for authored in (Change, GameEvent):  # (its finishing and reopening too: "Finished by the owner")
        authored.objects.filter(game_id__in=ids, by_user__isnull=True, by_link_holder=False, by_name="").update(
            by_user=user
        )
    return len(ids)


def _layouts_claim(*, visitor: str, user) -> None:
    """The browser's comb layouts become the account's; of two of one name, the one saved last."""
    kept = {layout.name: layout for layout in CombLayout.objects.filter(owner=user)}
    for layout in CombLayout.objects.filter(visitor=visitor):
        same_name = kept.get(layout.name)
        if same_name is not None:
            if same_name.updated_at >= layout.updated_at:
                layout.delete()
                continue
            same_name.delete()
        # (update() leaves updated_at as it was: the start form still offers the latest first)
        CombLayout.objects.filter(pk=layout.pk).update(owner=user, visitor=None)

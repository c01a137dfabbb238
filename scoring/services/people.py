"""People across games: the players a game's seats are attached to, by name, and two records
of one person merged."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.gamefile import PlayerData
from scoring.models import (
    Game,
    Player,
    PlayerAlias,
    Seat,
)
from scoring.services.tallies import tallies_merge
from scoring.wording.numbers_and_dates import game_date
from scoring.wording.sentences import isolated, words


def players_attach(owner, games: Sequence[Sequence[PlayerData]]) -> list[dict[int, Player | None]]:
    """The owner's Player of each game-file player of each game, by seat number: the person of
    that name (ignoring case), created with this spelling when new; the Automa the owner's one
    Automa record; a name once merged into another player (an alias), that player, unless that
    player already sits at the same game. Games of nobody (owner None) have no players. Two
    queries for any number of games, three with new people or aliases."""
    if owner is None:
        return [{player.seat: None for player in players} for players in games]
    keys = {Seat.key_for(player.name) for players in games for player in players if not player.automa}
    known = {
        person.name_key: person for person in Player.objects.filter(owner=owner, is_automa=False, name_key__in=keys)
    }
    aliases = {}
    if keys - known.keys():  # a name merged into another player joins that player
        aliases = {
            alias.name_key: alias.player
            for alias in PlayerAlias.objects.filter(owner=owner, name_key__in=keys - known.keys()).select_related(
                "player"
            )
        }
    automa = None
    if any(player.automa for players in games for player in players):
        automa = Player.objects.filter(owner=owner, is_automa=True).first()
        if automa is None:
            automa = Player.objects.create(owner=owner, name=gettext("Automa"), is_automa=True)
    new: dict[str, Player] = {}  # people first met in these games, by name key
    attached = []
    for players in games:
        seated = {known[key].pk for key in (Seat.key_for(player.name) for player in players) if key in known}
        seats: dict[int, Player | None] = {}
        for player in players:
            key = Seat.key_for(player.name)
            person = automa if player.automa else known.get(key) or new.get(key)
            if person is None:
                alias = aliases.get(key)
                if alias is not None and alias.pk not in seated:  # else the alias's player sits here: someone else
                    person = alias
                    seated.add(alias.pk)
                else:
                    person = new[key] = Player(owner=owner, name=player.name.strip(), name_key=key)
            seats[player.seat] = person
        attached.append(seats)
    if new:
        Player.objects.bulk_create(new.values())  # (bulk_create skips save(): name_key is set above)
    return attached


@transaction.atomic
def players_merge(*, keep: Player, merged: Player) -> Player:
    """``merged`` turns out to be the same person as ``keep``: its seats follow to ``keep``, the
    record is deleted, and its name (with its own other names) becomes another name of
    ``keep``'s, so a later game with that name joins ``keep``. Refused (ValidationError, in
    words) for the same record, two records of different owners, the Automa with a person, and
    two people who sat at the same game."""
    if keep.pk == merged.pk:
        raise ValidationError(_("A player cannot be merged with themselves."), code="same_player")
    if keep.owner_id != merged.owner_id:
        raise ValidationError(_("Only two players of the same account can be merged."), code="other_owner")
    if keep.is_automa or merged.is_automa:
        raise ValidationError(
            words(
                gettext("The Automa is not a person: it cannot be merged with %(name)s."),
                name=isolated(merged.name if keep.is_automa else keep.name),
            ),
            code="automa",
        )
    together = Game.objects.filter(seats__player=keep).filter(seats__player=merged).order_by("played_on").first()
    if together is not None:
        raise ValidationError(
            words(
                gettext("%(keep)s and %(merged)s played in the same game (%(date)s): they are two people."),
                keep=isolated(keep.name),
                merged=isolated(merged.name),
                date=game_date(together.played_on, gettext("j M Y")),
            ),
            code="played_together",
        )
    tallies_merge(keep=keep, merged=merged)
    Seat.objects.filter(player=merged).update(player=keep)
    PlayerAlias.objects.filter(player=merged).update(player=keep)  # its own other names follow
    PlayerAlias.objects.create(owner_id=keep.owner_id, player=keep, name=merged.name)
    merged.delete()
    return keep

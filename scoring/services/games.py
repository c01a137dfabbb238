"""Stored games: started, imported from a game file, their outcomes kept, shared, deleted, and
their players across games. The pad's own writes are ``scoring.services.pad``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.categories import DEFAULT_END_TRIGGER_TOKEN
from scoring.engine import GameResult, Sector
from scoring.fields import WORKERS, tokens_key
from scoring.gamefile import GameData, PlayerData, field_of_entry, text_of_value
from scoring.models import (
    Change,
    CombLayout,
    CombLayoutSector,
    Game,
    GameLink,
    GameSector,
    HibernationTokens,
    Player,
    PlayerAlias,
    Seat,
)
from scoring.selectors import GameState, game_state
from scoring.sums import evaluate_sum
from scoring.tallies import tallies_follow, tallies_merge


def game_lock(game_id: int) -> bool:
    """Lock the game until the transaction ends, by moving its revision on: every write to a game
    begins here, so the writers of one game queue (on PostgreSQL behind the row's lock; on SQLite
    every transaction already holds the database's write lock from its start, settings'
    ``transaction_mode``), and every phone's poll sees that something changed. A write that then
    changes nothing rolls back, and the revision with it (``pad.field_save``). False when the game
    is gone."""
    return bool(Game.objects.filter(pk=game_id).update(revision=F("revision") + 1))


@transaction.atomic
def game_store(data: GameData, *, finished: bool = False, owner=None) -> Game:
    """Store one game from game-file data: the game, its sectors, seats and tokens, and its
    change history when it has one.

    The players' entries cannot say "not entered" (they count it as 0) nor the sum an entry was
    typed as; the history can. A field whose last change left it empty, and that the entries
    give as 0, is stored as not entered; a field whose last change typed a sum that makes the
    entry keeps that sum. So an imported game shows as it was exported, and its last changes
    can be undone.
    """
    shown = {(change.player, field_of_entry(change.entry)): change.new for change in data.changes}

    def not_entered(number: int, key: str, value) -> bool:
        return value == 0 and not isinstance(value, bool) and (number, key) in shown and shown[number, key] is None

    def typed_sums(number: int, entries: dict) -> dict[str, str]:
        sums = {}
        for key, value in entries.items():
            typed = shown.get((number, key))
            if isinstance(typed, str) and not isinstance(value, bool) and evaluate_sum(typed) == value:
                sums[key] = typed
        return sums

    game = Game.objects.create(
        owner=owner,
        played_on=data.played_on or timezone.localdate(),
        notes=data.notes,
        end_trigger_token=data.end_trigger_token,
        finished_at=timezone.now() if finished else None,
    )
    sectors = GameSector.objects.bulk_create(
        GameSector(game=game, position=position, first_vp=sector.first, second_vp=sector.second)
        for position, sector in enumerate(data.comb)
    )
    people = players_attach(owner, data.players)  # each seat's Player (none for a game of nobody)
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            player=people[player.seat],
            number=player.seat,
            name=player.name,
            name_key=Seat.key_for(player.name),
            faction=player.faction,
            is_automa=player.automa,
            active_workers=None if not_entered(player.seat, WORKERS, player.active_workers) else player.active_workers,
            sums=typed_sums(player.seat, player.entries),
            **{key: None if not_entered(player.seat, key, value) else value for key, value in player.entries.items()},
        )
        for player in data.players
    )
    HibernationTokens.objects.bulk_create(  # a player with no tokens given has none entered yet
        HibernationTokens(seat=seat, sector=sector, count=count)
        for seat, player in zip(seats, data.players, strict=True)
        if player.hibernation
        for sector, count in zip(sectors, player.hibernation, strict=True)
        if not not_entered(player.seat, tokens_key(sector.position), count)
    )
    if data.changes:
        # The change history, in its order; its authors in words only (no account or link is
        # recreated) and marked as a link's holder's where they were, and each undo pointing at
        # the change it undid.
        seat_of = {seat.number: seat for seat in seats}
        changes = Change.objects.bulk_create(
            Change(
                game=game, seat=seat_of[change.player], field=field_of_entry(change.entry),
                old=text_of_value(change.old), new=text_of_value(change.new), at=change.at, by_name=change.by,
                by_link_holder=change.by_link,
            )
            for change in data.changes
        )
        undos = []
        for row, change in zip(changes, data.changes, strict=True):
            if change.undoes is not None:
                row.undoes = changes[change.undoes]
                undos.append(row)
        Change.objects.bulk_update(undos, ["undoes"])
    game_outcome_store(game)
    return game


@transaction.atomic
def games_import(games: Sequence[GameData], *, owner=None, skip_known: bool = True) -> list[Game]:
    """Store every game of a checked document for ``owner``, or none of them (all or nothing).

    With ``skip_known`` (the default) a game the owner already has is not stored again: one
    whose fingerprint (``gamefile.game_fingerprint``, docs/game-file.md "Importing the same
    games twice") is that of one of the owner's stored games (owner None: of the games of
    nobody). The games of the document are not compared with each other. Returns the games
    stored, in the document's order: ``len(games) - len(returned)`` were skipped.
    """
    from django.contrib.auth import get_user_model

    from scoring import selectors  # reads of stored games (selectors import this module's models only)

    if not skip_known:
        return [game_store(data, finished=True, owner=owner) for data in games]
    if owner is not None:
        # One import of an account at a time (PostgreSQL; SQLite's transactions take the write
        # lock at once): two imports of the same file, sent together, store its games once.
        list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk", flat=True))
    stored = selectors.already_stored(owner, games)
    return [game_store(data, finished=True, owner=owner) for data, known in zip(games, stored, strict=True) if not known]


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
    owner=None,
) -> Game:
    """Start a game: seats in the given order, starting VP pre-filled from the seat (1, 2, 3, ...)."""
    data = GameData(
        players=[
            PlayerData(
                name=player.name.strip(),
                seat=number,
                faction=player.faction,
                automa=player.automa,
                active_workers=None,
                entries={"starting_vp": number},  # every other entry starts empty
            )
            for number, player in enumerate(players, start=1)
        ],
        comb=[Sector(first, second) for first, second in sectors],
        played_on=played_on,
        notes=notes,
        end_trigger_token=end_trigger_token,
    )
    return game_store(data, owner=owner)


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
    owner=None,
) -> Game:
    """Start a game from the start form: solo puts the Automa first in turn order (1 VP) and the
    player second (2 VP); a comb given a layout name is saved as that layout for next time."""
    if solo:
        players = [PlayerSetup(gettext("Automa"), automa=True), *players]
    if layout_name.strip() and sectors:
        comb_layout_save(name=layout_name, sectors=sectors, owner=owner)
    return game_create(
        players=players, sectors=sectors, played_on=played_on, notes=notes, end_trigger_token=end_trigger_token,
        owner=owner,
    )


@transaction.atomic
def comb_layout_save(*, name: str, sectors: Sequence[tuple[int, int]], owner=None) -> CombLayout:
    """Create the owner's named layout, or replace the sectors of their layout of that name."""
    layout, _created = CombLayout.objects.update_or_create(owner=owner, name=name.strip())
    layout.sectors.all().delete()
    CombLayoutSector.objects.bulk_create(
        CombLayoutSector(layout=layout, position=position, first_vp=first, second_vp=second)
        for position, (first, second) in enumerate(sectors)
    )
    return layout


# ---------------------------------------------------------------------------------------------
# Outcomes: every seat's subtotals, total, rank and awards, stored so that histories and
# statistics read them instead of scoring again

OUTCOME_FIELDS = ("score_during", "score_majority", "score_end", "score_total", "rank", "is_winner", "sector_awards")


def outcomes_store(state: GameState, *, also: Seat | None = None, also_fields: Sequence[str] = ()) -> GameResult:
    """Score the game in memory and store the outcome of every seat whose outcome changed, with
    ``also_fields`` of the seat ``also`` that a write changed: one statement. Then the tallies
    follow (nothing while the game is in progress). The caller holds the game's lock."""
    result = state.score()
    changed = []
    for seat, outcome in zip(state.seats, result.players, strict=True):
        stored = [getattr(seat, name) for name in OUTCOME_FIELDS]
        wanted = [outcome.during, outcome.majority, outcome.end, outcome.total, outcome.rank, outcome.winner,
                  list(outcome.majority_by_sector)]
        if stored != wanted:
            for name, value in zip(OUTCOME_FIELDS, wanted, strict=True):
                setattr(seat, name, value)
            changed.append(seat)
    if also is not None and also not in changed:
        changed.append(also)
    names = [*also_fields, *OUTCOME_FIELDS]
    if len(changed) == 1:  # the usual save: one seat's field and outcome
        Seat.objects.filter(pk=changed[0].pk).update(**{name: getattr(changed[0], name) for name in names})
    elif changed:
        Seat.objects.bulk_update(changed, names)
    tallies_follow(state.seats, owner_id=state.game.owner_id, counted=state.counted)
    return result


def game_outcome_store(game: Game) -> bool:
    """Score the game with the engine and store every seat's outcome, moving the tallies by what
    that changed in a finished game. True when some outcome stored was different (a rules fix,
    a repair). The caller holds the game's lock."""
    state = game_state(game)
    before = [[getattr(seat, name) for name in OUTCOME_FIELDS] for seat in state.seats]
    outcomes_store(state)
    return before != [[getattr(seat, name) for name in OUTCOME_FIELDS] for seat in state.seats]


@transaction.atomic
def game_outcome_recompute(game: Game) -> bool:
    """``game_outcome_store`` on its own, the game locked first: after a fix of the rules."""
    game_lock(game.pk)
    return game_outcome_store(game)


# ---------------------------------------------------------------------------------------------
# Share links


@transaction.atomic
def link_renew(*, game: Game, access: str) -> GameLink:
    """A new link of that access for the game; the one it replaces (if any) stops working now."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return GameLink.objects.create(game=game, access=access)


def link_revoke(*, game: Game, access: str) -> None:
    """The game's live link of that access stops working, at once, for everyone who holds it."""
    GameLink.objects.filter(game=game, access=access, revoked_at__isnull=True).update(revoked_at=timezone.now())


@transaction.atomic
def game_delete(*, game: Game) -> None:
    """Delete the game, and take what its seats added out of the tallies."""
    game_lock(game.pk)
    tallies_follow(list(Seat.objects.filter(game=game)), owner_id=game.owner_id, counted=False)
    game.delete()


# ---------------------------------------------------------------------------------------------
# People across games


def players_attach(owner, players: Sequence[PlayerData]) -> dict[int, Player | None]:
    """The owner's Player of each game-file player, by seat number: the person of that name
    (ignoring case), created with this spelling when new; the Automa the owner's one Automa
    record; a name once merged into another player (an alias), that player. A game of nobody
    (owner None) has no players. Two queries, three with new people or aliases."""
    if owner is None:
        return {player.seat: None for player in players}
    keys = {Seat.key_for(player.name) for player in players if not player.automa}
    known = {person.name_key: person
             for person in Player.objects.filter(owner=owner, is_automa=False, name_key__in=keys)}
    if keys - known.keys():  # a name merged into another player joins that player...
        aliases = {alias.name_key: alias.player for alias in PlayerAlias.objects.filter(
            owner=owner, name_key__in=keys - known.keys()).select_related("player")}
        seated = {person.pk for person in known.values()}
        for player in players:  # ...unless that player already sits at this game: then it is someone else
            person = aliases.get(Seat.key_for(player.name))
            if person is not None and not player.automa and person.pk not in seated:
                known[Seat.key_for(player.name)] = person
                seated.add(person.pk)
    automa = None
    if any(player.automa for player in players):
        automa = Player.objects.filter(owner=owner, is_automa=True).first()
        if automa is None:
            automa = Player.objects.create(owner=owner, name=gettext("Automa"), is_automa=True)
    new = []
    for player in players:
        key = Seat.key_for(player.name)
        if not player.automa and key not in known:
            known[key] = Player(owner=owner, name=player.name.strip(), name_key=key)
            new.append(known[key])
    if new:
        Player.objects.bulk_create(new)  # (bulk_create skips save(): name_key is set above)
    return {player.seat: automa if player.automa else known[Seat.key_for(player.name)] for player in players}


@transaction.atomic
def players_merge(*, keep: Player, merged: Player) -> Player:
    """``merged`` turns out to be the same person as ``keep``: its seats follow to ``keep``, the
    record is deleted, and its name (with its own other names) becomes another name of
    ``keep``'s, so a later game with that name joins ``keep``. Refused (ValidationError, in words) for the same record, two records
    of different owners, the Automa with a person, and two people who sat at the same game."""
    if keep.pk == merged.pk:
        raise ValidationError(_("A player cannot be merged with themselves."), code="same_player")
    if keep.owner_id != merged.owner_id:
        raise ValidationError(_("Only two players of the same account can be merged."), code="other_owner")
    if keep.is_automa or merged.is_automa:
        raise ValidationError(_("The Automa is not a person: it cannot be merged with %(name)s."),
                              code="automa", params={"name": merged.name if keep.is_automa else keep.name})
    together = (Game.objects.filter(seats__player=keep).filter(seats__player=merged)
                .order_by("played_on").first())
    if together is not None:
        raise ValidationError(
            _("%(keep)s and %(merged)s played in the same game (%(date)s): they are two people."),
            code="played_together",
            params={"keep": keep.name, "merged": merged.name, "date": together.played_on.isoformat()},
        )
    tallies_merge(keep=keep, merged=merged)
    Seat.objects.filter(player=merged).update(player=keep)
    PlayerAlias.objects.filter(player=merged).update(player=keep)  # its own other names follow
    PlayerAlias.objects.create(owner_id=keep.owner_id, player=keep, name=merged.name)
    merged.delete()
    return keep

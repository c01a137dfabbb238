"""Stored games: started, imported from a game file, their outcomes kept, shared, deleted, and
their players across games. The pad's own writes are ``scoring.services.pad``."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.categories import DEFAULT_DURING, DEFAULT_END_TRIGGER_TOKEN, During, Section, categories_of, entry_at_start
from scoring.engine import GameResult, PlayerResult, Sector
from scoring.explain import game_date, isolated, words
from scoring.fields import WORKERS, tokens_key
from scoring.gamefile import GameData, PlayerData, field_of_entry, game_fingerprint, text_of_value
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
    ``transaction_mode``), and every phone's poll sees that something changed. Its fingerprint is
    forgotten in the same statement, as the write may change what the game holds (an import
    fills it again: ``fingerprints_fill``). A write that then changes nothing rolls back, and the
    revision and fingerprint with it (``pad.field_save``). False when the game is gone."""
    return bool(Game.objects.filter(pk=game_id).update(revision=F("revision") + 1, fingerprint=None))


def game_store(data: GameData, *, finished: bool = False, owner=None, visitor: str | None = None) -> Game:
    """Store one game from game-file data (``games_store`` of one game)."""
    return games_store([data], finished=finished, owner=owner, visitor=visitor)[0]


@transaction.atomic
def games_store(games: Sequence[GameData], *, finished: bool = False, owner=None,
                visitor: str | None = None) -> list[Game]:
    """Store games from game-file data, all of them in a few statements whatever their number:
    each game, its sectors, seats and tokens, its outcome (scored by the engine from the data)
    and its change history when it has one; then the tallies, once, when the games are finished.

    The players' entries cannot say "not entered" (they count it as 0) nor the sum an entry was
    typed as; the history can. A field whose last change left it empty, and that the entries
    give as 0, is stored as not entered; a field whose last change typed a sum that makes the
    entry keeps that sum. So an imported game shows as it was exported, and its last changes
    can be undone.

    The games are ``owner``'s, or ``visitor``'s (a browser without an account: no players and
    no tallies until an account claims them, ``visitor_games_claim``), or nobody's.
    """
    today = timezone.localdate()
    now = timezone.now()
    rows = Game.objects.bulk_create(
        Game(
            owner=owner,
            visitor=visitor,
            played_on=data.played_on or today,
            notes=data.notes,
            end_trigger_token=data.end_trigger_token,
            during_mode=During(data.during).value,
            finished_at=now if finished else None,
            fingerprint=game_fingerprint(data, undated_as=today),
        )
        for data in games
    )
    sectors = GameSector.objects.bulk_create(
        GameSector(game=game, position=position, first_vp=sector.first, second_vp=sector.second)
        for game, data in zip(rows, games, strict=True)
        for position, sector in enumerate(data.comb)
    )
    sectors_of: dict[int, list[GameSector]] = {game.pk: [] for game in rows}
    for sector in sectors:
        sectors_of[sector.game_id].append(sector)
    people = players_attach(owner, [data.players for data in games])  # none for games of nobody
    shown = [_last_shown(data) for data in games]
    seats = Seat.objects.bulk_create(
        seat
        for game, data, players, last in zip(rows, games, people, shown, strict=True)
        for seat in _seats(game, data, players, last)
    )
    seats_of: dict[int, list[Seat]] = {game.pk: [] for game in rows}
    for seat in seats:
        seats_of[seat.game_id].append(seat)
    HibernationTokens.objects.bulk_create(
        tokens
        for game, data, last in zip(rows, games, shown, strict=True)
        for tokens in _tokens(data, seats_of[game.pk], sectors_of[game.pk], last)
    )
    history = [(game, data) for game, data in zip(rows, games, strict=True) if data.changes]
    if history:
        _changes_store(history, seats_of)
    if finished and owner is not None:
        tallies_follow(seats, owner_id=owner.pk, counted=True)
    return rows


def _last_shown(data: GameData) -> dict[tuple[int, str], object]:
    """What the history's last change of each (seat number, field key) left the field showing."""
    return {(change.player, field_of_entry(change.entry)): change.new for change in data.changes}


def _as_stored(value, where: tuple[int, str], shown: dict[tuple[int, str], object]):
    """An entry of the file as the field stores it: not entered (None) where the file gives 0
    and the history's last change of the field left it empty; the value otherwise."""
    left_empty = where in shown and shown[where] is None
    return None if value == 0 and not isinstance(value, bool) and left_empty else value


def _seats(game: Game, data: GameData, people: dict[int, Player | None],
           shown: dict[tuple[int, str], object]) -> list[Seat]:
    """The game's seats, not stored yet, with their entries and their outcome (the engine's);
    ``shown``: what the history last left each field showing (``_last_shown``)."""

    def typed_sums(number: int, entries: dict) -> dict[str, str]:
        sums = {}
        for key, value in entries.items():
            typed = shown.get((number, key))
            if isinstance(typed, str) and not isinstance(value, bool) and evaluate_sum(typed) == value:
                sums[key] = typed
        return sums

    result = data.score()
    counted = {category.key for category in categories_of(data.during)}  # the other way's stay not entered
    return [
        Seat(
            game=game,
            player=people[player.seat],
            number=player.seat,
            name=player.name,
            name_key=Seat.key_for(player.name),
            faction=player.faction,
            is_automa=player.automa,
            active_workers=_as_stored(player.active_workers, (player.seat, WORKERS), shown),
            sums=typed_sums(player.seat, entries),
            **{key: _as_stored(value, (player.seat, key), shown) for key, value in entries.items()},
            **outcome_fields(outcome),
        )
        for player, outcome in zip(data.players, result.players, strict=True)
        for entries in [{key: value for key, value in player.entries.items() if key in counted}]
    ]


def _tokens(data: GameData, seats: Sequence[Seat], sectors: Sequence[GameSector],
            shown: dict[tuple[int, str], object]) -> list[HibernationTokens]:
    """The tokens each player placed (a player with no tokens given has none entered yet)."""
    return [
        HibernationTokens(seat=seat, sector=sector, count=count)
        for seat, player in zip(seats, data.players, strict=True)
        if player.hibernation
        for sector, count in zip(sectors, player.hibernation, strict=True)
        if _as_stored(count, (player.seat, tokens_key(sector.position)), shown) is not None
    ]


def _changes_store(history: Sequence[tuple[Game, GameData]], seats_of: dict[int, list[Seat]]) -> None:
    """The change histories, each in its order; their authors in words only (no account or link
    is recreated) and marked as a link holder's where they were, and each undo pointing at the
    change it undid."""
    rows = Change.objects.bulk_create(
        Change(
            game=game, seat=seat_of[change.player], field=field_of_entry(change.entry),
            old=text_of_value(change.old), new=text_of_value(change.new), at=change.at, by_name=change.by,
            by_link_holder=change.by_link,
        )
        for game, data in history
        for seat_of in [{seat.number: seat for seat in seats_of[game.pk]}]
        for change in data.changes
    )
    undos = []
    first = 0
    for _game, data in history:
        changes = rows[first:first + len(data.changes)]
        for row, change in zip(changes, data.changes, strict=True):
            if change.undoes is not None:
                row.undoes = changes[change.undoes]
                undos.append(row)
        first += len(data.changes)
    Change.objects.bulk_update(undos, ["undoes"])


IMPORT_BATCH = 50  # games stored in one transaction: a few tens of milliseconds of the write lock
# On SQLite, after each batch the import waits this long before taking the write lock again. A
# writer that found the lock taken (a save of another table) does not queue for it: SQLite's
# busy handler sleeps and looks again, at most 100 ms later. Without the wait, batch after batch
# would take the lock back each time within microseconds, and the save would wait for the whole
# import. (PostgreSQL queues the writers of each row: no wait there.)
SQLITE_LOCK_GIVEN_BACK = 0.1


@dataclass(frozen=True)
class ImportResult:
    added: int  # games stored
    skipped: int  # games the owner had already (or held twice in the document)


def games_import(games: Sequence[GameData], *, owner=None, batch: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> ImportResult:
    """Store the games of a checked document for ``owner``, ``batch`` games at a time, each batch
    its own short transaction: other tables' saves wait for one batch at most (on SQLite the
    import gives the lock back between batches: ``SQLITE_LOCK_GIVEN_BACK``), and
    an import interrupted half-way (a worker timed out, a server stopped) keeps the batches
    stored and continues where it stopped when run again. ``progress(done, total)`` is called
    after each batch.

    A game the owner already has is not stored again: one whose fingerprint
    (``gamefile.game_fingerprint``, docs/game-file.md "Importing the same games twice") is that
    of one of the owner's stored games (owner None: of the games of nobody), a game stored by an
    earlier batch included. So the same game held twice by a document is stored once, and two
    imports of one file run at once store its games once.
    """
    batch = batch or IMPORT_BATCH
    fingerprints_fill(owner)
    added = 0
    for start in range(0, len(games), batch):
        if start and connection.vendor == "sqlite":
            time.sleep(SQLITE_LOCK_GIVEN_BACK)
        added += len(_batch_import(games[start:start + batch], owner=owner))
        if progress is not None:
            progress(min(start + batch, len(games)), len(games))
    return ImportResult(added=added, skipped=len(games) - added)


@transaction.atomic
def _batch_import(games: Sequence[GameData], *, owner) -> list[Game]:
    """One batch of ``games_import``: the games of the batch the owner has not got, stored."""
    from django.contrib.auth import get_user_model

    from scoring import selectors  # reads of stored games (selectors import this module's models only)

    if owner is not None:
        # One batch of an account at a time (PostgreSQL; SQLite's transactions take the write
        # lock at once): two imports of the same file, sent together, store its games once.
        list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk", flat=True))
    today = timezone.localdate()
    fingerprints = [game_fingerprint(data, undated_as=today) for data in games]
    known = selectors.fingerprints_stored(owner, fingerprints)
    new = []
    for data, fingerprint in zip(games, fingerprints, strict=True):
        if fingerprint not in known:
            known.add(fingerprint)
            new.append(data)
    return games_store(new, finished=True, owner=owner) if new else []


FINGERPRINT_BATCH = 200  # games read back at a time to fill their fingerprints


def fingerprints_fill(owner=None) -> int:
    """Store the fingerprint of each of the owner's games that has none (written to since it was
    stored or finished, or stored before fingerprints were kept), ``FINGERPRINT_BATCH`` games at a
    time. A game written to again meanwhile keeps none (its revision moved): the next import fills
    it. Returns how many were filled."""
    from scoring import selectors

    filled = 0
    after = 0
    while True:
        chunk = list(selectors.games_with_everything()
                     .filter(owner=owner, fingerprint__isnull=True, pk__gt=after).order_by("pk")[:FINGERPRINT_BATCH])
        if not chunk:
            return filled
        for game in chunk:
            fingerprint = game_fingerprint(selectors.game_data(game))
            filled += Game.objects.filter(pk=game.pk, revision=game.revision, fingerprint__isnull=True).update(
                fingerprint=fingerprint)
        after = chunk[-1].pk


def fingerprint_store(game: Game) -> None:
    """Store what the game holds now as its fingerprint (a finished game). The caller holds the
    game's lock."""
    from scoring import selectors

    stored = selectors.games_with_everything().get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(fingerprint=game_fingerprint(selectors.game_data(stored)))


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
                entries={category.key: value for category in categories_of(during, Section.DURING)
                         if (value := entry_at_start(category, during, number)) is not None},
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
) -> Game:
    """Start a game from the start form: solo puts the Automa first in turn order (1 VP) and the
    player second (2 VP); a comb given a layout name is saved as that layout for next time. The
    game is ``owner``'s, or ``visitor``'s (a browser without an account)."""
    if solo:
        players = [PlayerSetup(gettext("Automa"), automa=True), *players]
    if layout_name.strip() and sectors:
        comb_layout_save(name=layout_name, sectors=sectors, owner=owner, visitor=visitor)
    return game_create(
        players=players, sectors=sectors, played_on=played_on, notes=notes, end_trigger_token=end_trigger_token,
        during=during, owner=owner, visitor=visitor,
    )


@transaction.atomic
def comb_layout_save(*, name: str, sectors: Sequence[tuple[int, int]], owner=None,
                     visitor: str | None = None) -> CombLayout:
    """Create the owner's (or the visitor's) named layout, or replace the sectors of their layout
    of that name."""
    layout, _created = CombLayout.objects.update_or_create(owner=owner, visitor=visitor, name=name.strip())
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


def outcome_fields(outcome: PlayerResult) -> dict:
    """A seat's outcome as its ``OUTCOME_FIELDS`` store it."""
    return dict(zip(OUTCOME_FIELDS, (outcome.during, outcome.majority, outcome.end, outcome.total, outcome.rank,
                                     outcome.winner, list(outcome.majority_by_sector)), strict=True))


def outcomes_store(state: GameState, *, also: Seat | None = None, also_fields: Sequence[str] = ()) -> GameResult:
    """Score the game in memory and store the outcome of every seat whose outcome changed, with
    ``also_fields`` of the seat ``also`` that a write changed: one statement. Then the tallies
    follow (nothing while the game is in progress). The caller holds the game's lock."""
    result = state.score()
    changed = []
    for seat, outcome in zip(state.seats, result.players, strict=True):
        wanted = outcome_fields(outcome)
        if any(getattr(seat, name) != value for name, value in wanted.items()):
            for name, value in wanted.items():
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


def players_attach(owner, games: Sequence[Sequence[PlayerData]]) -> list[dict[int, Player | None]]:
    """The owner's Player of each game-file player of each game, by seat number: the person of
    that name (ignoring case), created with this spelling when new; the Automa the owner's one
    Automa record; a name once merged into another player (an alias), that player, unless that
    player already sits at the same game. Games of nobody (owner None) have no players. Two
    queries for any number of games, three with new people or aliases."""
    if owner is None:
        return [{player.seat: None for player in players} for players in games]
    keys = {Seat.key_for(player.name) for players in games for player in players if not player.automa}
    known = {person.name_key: person
             for person in Player.objects.filter(owner=owner, is_automa=False, name_key__in=keys)}
    aliases = {}
    if keys - known.keys():  # a name merged into another player joins that player
        aliases = {alias.name_key: alias.player for alias in PlayerAlias.objects.filter(
            owner=owner, name_key__in=keys - known.keys()).select_related("player")}
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
    ``keep``'s, so a later game with that name joins ``keep``. Refused (ValidationError, in words) for the same record, two records
    of different owners, the Automa with a person, and two people who sat at the same game."""
    if keep.pk == merged.pk:
        raise ValidationError(_("A player cannot be merged with themselves."), code="same_player")
    if keep.owner_id != merged.owner_id:
        raise ValidationError(_("Only two players of the same account can be merged."), code="other_owner")
    if keep.is_automa or merged.is_automa:
        raise ValidationError(words(_("The Automa is not a person: it cannot be merged with %(name)s."),
                                    name=isolated(merged.name if keep.is_automa else keep.name)), code="automa")
    together = (Game.objects.filter(seats__player=keep).filter(seats__player=merged)
                .order_by("played_on").first())
    if together is not None:
        raise ValidationError(
            words(_("%(keep)s and %(merged)s played in the same game (%(date)s): they are two people."),
                  keep=isolated(keep.name), merged=isolated(merged.name),
                  date=game_date(together.played_on, _("j M Y"))),
            code="played_together",
        )
    tallies_merge(keep=keep, merged=merged)
    Seat.objects.filter(player=merged).update(player=keep)
    PlayerAlias.objects.filter(player=merged).update(player=keep)  # its own other names follow
    PlayerAlias.objects.create(owner_id=keep.owner_id, player=keep, name=merged.name)
    merged.delete()
    return keep


# ---------------------------------------------------------------------------------------------
# A visitor's games, kept by an account


@transaction.atomic
def visitor_games_claim(*, visitor: str | None, user) -> int:
    """Every game the browser of ``visitor`` started without an account becomes ``user``'s, and
    its saved comb layouts with them, in one transaction: the games locked and moved in one
    statement (their phones see them changed), their seats attached to the account's players by
    name (``players_attach``: "maya" joins the account's Maya, a new name makes a new player),
    the finished ones added to the account's tallies (``tallies_follow``: until now they counted
    nowhere), and the changes the browser made itself (not through a link) credited to the
    account. Of a layout name the account has already, the layout saved last stays. How many
    games moved: 0 when the browser has none (so claiming twice moves nothing)."""
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
    people = players_attach(user, [[PlayerData(name=seat.name, seat=seat.number, automa=seat.is_automa)
                                     for seat in seats] for seats in seats_of.values()])
    for seats, players in zip(seats_of.values(), people, strict=True):
        for seat in seats:
            seat.player = players[seat.number]
    every_seat = [seat for seats in seats_of.values() for seat in seats]
    Seat.objects.bulk_update(every_seat, ["player"])
    tallies_follow([seat for seat in every_seat if seat.game.is_finished], owner_id=user.pk, counted=True)
    Change.objects.filter(game_id__in=ids, by_user__isnull=True, by_link_holder=False, by_name="").update(
        by_user=user)
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

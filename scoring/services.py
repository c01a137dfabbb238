"""Writes: every change to stored games goes through one of these small functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import CharField, F, Func, StringAgg, Subquery, Value
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.access import NOBODY, Actor
from scoring.categories import CATEGORY_BY_KEY, DEFAULT_END_TRIGGER_TOKEN, MAX_ACTIVE_WORKERS, TOKENS_PER_PLAYER
from scoring.compiled import Compiled
from scoring.engine import GameResult, PlayerSheet, Sector, score_game
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
from scoring.sums import evaluate_sum, input_text, is_sum
from scoring.tallies import counts as tallies_count
from scoring.tallies import tallies_follow, tallies_merge


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
        if not not_entered(player.seat, field_key(sector=sector), count)
    )
    if data.changes:
        # The change history, in its order; its authors in words only (no account or link is
        # recreated), and each undo pointing at the change it undid.
        seat_of = {seat.number: seat for seat in seats}
        changes = Change.objects.bulk_create(
            Change(
                game=game, seat=seat_of[change.player], field=field_of_entry(change.entry),
                old=text_of_value(change.old), new=text_of_value(change.new), at=change.at, by_name=change.by,
            )
            for change in data.changes
        )
        undos = []
        for row, change in zip(changes, data.changes, strict=True):
            if change.undoes is not None:
                row.undoes = changes[change.undoes]
                undos.append(row)
        Change.objects.bulk_update(undos, ["undoes"])
    game_outcome_store(game.pk)
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
# Writing one field of the pad
#
# Several phones score one game at once, and a phone's save can be slow, retried or arrive after
# a newer one. Every write below therefore names what it is based on (a ``Guard``); it changes
# only its own field, under the seat's row lock, and is refused (a conflict) when it would
# overwrite a value its page never saw. Steppers send a change (+1/-1), applied to the stored
# value, so two phones tapping + on the same stepper add two.


class Outcome(StrEnum):
    SAVED = "saved"  # written (or a step that changed nothing, at a limit)
    SUPERSEDED = "superseded"  # this page already wrote this field with a later (or the same) save
    CONFLICT = "conflict"  # the field changed elsewhere since the page saw it: nothing written


NOT_CHECKED = object()


@dataclass(frozen=True)
class Guard:
    """What a write is based on.

    ``page`` names the page (one browser tab) and ``seq`` its save's number, rising with every
    save the page sends: an older save of the page that arrives after a newer one is ignored,
    and a retried save is applied once. ``version`` is the field's version the page showed
    (htmx saves); ``value`` the value it showed (plain form posts). A write based on an older
    version or another value than the stored one is a conflict, unless this page itself wrote
    the newer one (its own save that it has not heard back from yet).
    """

    version: int | None = None
    value: object = NOT_CHECKED
    page: str = ""
    seq: int = 0

    def for_step(self) -> Guard:
        """A step (+1/-1) applies to the stored value, whatever it is: only the page's order counts."""
        return Guard(page=self.page, seq=self.seq)


NO_GUARD = Guard()  # a write checked against nothing (imports, the start form)


@dataclass(frozen=True)
class WriteResult:
    outcome: Outcome
    value: int | bool | None  # the field's stored value after the call (None: not entered)
    version: int
    change: Change | None = None  # the change recorded, when something was written

    @property
    def saved(self) -> bool:
        return self.outcome is Outcome.SAVED


def field_key(*, key: str | None = None, sector: GameSector | None = None) -> str:
    """The key under which a seat keeps a field's revision: a category key, "active_workers",
    or "t<sector position>"."""
    if sector is not None:
        return f"t{sector.position}"
    return key or WORKERS


WORKERS = "active_workers"


def _blocked(revision: list, guard: Guard, current: object) -> Outcome | None:
    """Why a write based on ``guard`` must not happen, or None when it may."""
    version, page, seq = (list(revision) + [0, "", 0])[:3] if revision else (0, "", 0)
    own = bool(guard.page) and page == guard.page
    if own and seq >= guard.seq:
        return Outcome.SUPERSEDED
    if own:
        return None  # the newer version is this page's own earlier save
    if guard.version is not None and guard.version != version:
        return Outcome.CONFLICT
    if guard.value is not NOT_CHECKED and guard.value != current:
        return Outcome.CONFLICT
    return None


def _decide(revisions: dict, key: str, guard: Guard, current, value, delta: int, low: int, high: int):
    """What a write comes to: (an outcome that ends it without writing, or None to write; the
    value to write). A step is applied to the stored value within the limits, and changes
    nothing at a limit (nor "−" on an empty field). A value that another phone has already
    stored is no conflict: there is nothing to refuse, nor to write."""
    blocked = _blocked(revisions.get(key), guard.for_step() if delta else guard, current)
    if delta:
        if blocked is not None:
            return blocked, current
        value = _clamp((current or 0) + delta, low, high)
        return (Outcome.SAVED if value == (current or 0) else None), value
    if blocked is Outcome.CONFLICT and value == current:
        return Outcome.SAVED, current
    return blocked, value


def _version(revisions: dict, key: str) -> int:
    revision = revisions.get(key)
    return int(revision[0]) if revision else 0


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _next_revisions(revisions: dict, key: str, guard: Guard) -> dict:
    updated = dict(revisions)
    updated[key] = [_version(revisions, key) + 1, guard.page, guard.seq]
    return updated


def _unchanged(seat: Seat, revisions: dict, key: str, guard: Guard, current) -> WriteResult:
    """A write that finds the field already holding what it would write: nothing is written nor
    recorded, but the page's save is remembered as in (so that its earlier saves, arriving late,
    are still ignored)."""
    version = _version(revisions, key)
    if guard.page and list(revisions.get(key) or [])[1:] != [guard.page, guard.seq]:
        revisions = {**revisions, key: [version, guard.page, guard.seq]}
        Seat.objects.filter(pk=seat.pk).update(revisions=revisions)
        seat.revisions = revisions
    return WriteResult(Outcome.SAVED, current, version)


OUTCOME_FIELDS = ("score_during", "score_majority", "score_end", "score_total", "rank", "is_winner", "sector_awards")


@dataclass
class GameState:
    """A game as one write reads it, under the game's lock: its row, comb sectors, seats and the
    tokens entered. The write changes it in memory as it changes the database, so the answer
    is drawn from it without reading the game again."""

    game: Game
    sectors: list[GameSector]
    seats: list[Seat]
    tokens: dict[tuple[int, int], int]  # (seat id, sector id): the count entered

    def seat_numbered(self, number: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.number == number), None)

    def sector_at(self, position: int) -> GameSector | None:
        return next((sector for sector in self.sectors if sector.position == position), None)

    def entered_tokens(self) -> list[dict[int, int]]:
        """Per seat, the counts entered by sector id (a sector not entered is missing)."""
        return [{sector.pk: self.tokens[seat.pk, sector.pk] for sector in self.sectors
                 if (seat.pk, sector.pk) in self.tokens} for seat in self.seats]

    def score(self) -> GameResult:
        return score_game(
            [Sector(sector.first_vp, sector.second_vp) for sector in self.sectors],
            [PlayerSheet(entries=seat.entries(), active_workers=seat.workers,
                         tokens=[self.tokens.get((seat.pk, sector.pk), 0) for sector in self.sectors])
             for seat in self.seats],
        )

    @property
    def counted(self) -> bool:
        """Whether its seats count in the tallies (a finished game of an account)."""
        return tallies_count(self.game)


class _CommaJoined(Func):
    """Texts joined by commas, in SQL (``||``, which SQLite and PostgreSQL both take)."""

    template = "%(expressions)s"
    arg_joiner = " || ',' || "
    output_field = CharField()


def _comb_text(game_id) -> Subquery:
    """The game's comb as one text: per sector and seat with tokens there, "position,first VP,
    second VP,sector id,seat id,count" (the last two empty for a sector nobody has tokens in),
    joined by ";" (``_comb_parse``)."""
    row = _CommaJoined(*(Coalesce(Cast(name, CharField()), Value("")) for name in
                         ("position", "first_vp", "second_vp", "pk", "tokens__seat_id", "tokens__count")))
    return Subquery(GameSector.objects.filter(game_id=game_id).order_by().values("game")
                    .annotate(comb=StringAgg(row, delimiter=Value(";"))).values("comb"))


def _comb_parse(game_id: int, comb: str | None) -> tuple[list[GameSector], dict[tuple[int, int], int]]:
    """The sectors (in comb order) and the tokens entered ((seat id, sector id): count) of
    ``_comb_text``."""
    sectors: dict[int, GameSector] = {}
    tokens: dict[tuple[int, int], int] = {}
    for item in comb.split(";") if comb else ():
        position, first_vp, second_vp, pk, seat_id, count = item.split(",")
        pk = int(pk)
        if pk not in sectors:
            sectors[pk] = GameSector(pk=pk, game_id=game_id, position=int(position), first_vp=int(first_vp),
                                     second_vp=int(second_vp))
        if seat_id:
            tokens[int(seat_id), pk] = int(count)
    return sorted(sectors.values(), key=lambda sector: sector.position), tokens


# A game's seats in turn order, each with the comb as one text (the database reads it once):
# compiled once (scoring.compiled), as every save runs it.
_seats_with_comb = Compiled(
    lambda game_id: Seat.objects.filter(game_id=game_id).annotate(comb=_comb_text(game_id)).order_by("number")
)


def game_state_load(game: Game) -> GameState:
    """The game's seats, comb sectors and entered tokens: one statement (the seats, with the comb
    as one text, ``_comb_text``). The caller holds the game's lock."""
    seats = list(_seats_with_comb(game.pk))
    if seats:
        comb = seats[0].comb
    else:  # (a game always has seats; without them, its comb is read on its own all the same)
        comb = Game.objects.filter(pk=game.pk).annotate(comb=_comb_text(game.pk)).values_list("comb", flat=True)[0]
    sectors, tokens = _comb_parse(game.pk, comb)
    return GameState(game=game, sectors=sectors, seats=seats, tokens=tokens)


def game_claim(public_id: str) -> Game | None:
    """The game of that address, its revision already one up for the save it is claimed for:
    one statement, which also holds the game's row (its lock) until the transaction ends. None
    when there is no such game. Call inside a transaction; a save that writes nothing after all
    gives the revision back (``game_claim_undo``) or rolls back."""
    quote = connection.ops.quote_name
    claimed = Game.objects.raw(  # (run once, by the one iteration below; the fields' own conversions)
        f"UPDATE {quote(Game._meta.db_table)} SET revision = revision + 1 WHERE public_id = %s "
        f"RETURNING {', '.join(quote(field.column) for field in Game._meta.concrete_fields)}",  # (names, not input)
        [public_id],
    )
    return next(iter(claimed), None)


def game_claim_undo(game: Game) -> None:
    """The claimed revision given back: the save changed nothing after all."""
    Game.objects.filter(pk=game.pk).update(revision=F("revision") - 1)
    game.revision -= 1


def _outcome_store(state: GameState, *, also: Seat | None = None, also_fields: Sequence[str] = ()) -> GameResult:
    """Score the game in memory and store the outcome of every seat whose outcome changed, with
    ``also_fields`` of the seat ``also`` that the write changed: one statement. Then the tallies
    follow (nothing while the game is in progress)."""
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
    if len(changed) == 1:  # the usual save: one seat's field and outcome (a plain UPDATE compiles faster)
        Seat.objects.filter(pk=changed[0].pk).update(**{name: getattr(changed[0], name) for name in names})
    elif changed:
        Seat.objects.bulk_update(changed, names)
    tallies_follow(state.seats, owner_id=state.game.owner_id, counted=state.counted)
    return result


def game_outcome_store(game_id: int) -> bool:
    """Score the game with the engine and store every seat's outcome (subtotals, total, rank,
    winner, the VP of each comb sector), so that histories and statistics read it instead of
    scoring again, and move the tallies by what that changed in a finished game. True when
    some outcome stored was different (a rules fix, a repair). The caller holds the game's lock."""
    state = game_state_load(Game.objects.get(pk=game_id))
    before = [[getattr(seat, name) for name in OUTCOME_FIELDS] for seat in state.seats]
    _outcome_store(state)
    return before != [[getattr(seat, name) for name in OUTCOME_FIELDS] for seat in state.seats]


@transaction.atomic
def game_outcome_recompute(game_id: int) -> bool:
    """``game_outcome_store`` on its own (the game locked first): after a fix of the rules."""
    _lock_game(game_id)
    return game_outcome_store(game_id)


def _lock_game(game_id: int) -> Game:
    """One writer per game at a time (until the transaction ends): a write also stores the
    outcome of every seat, so writers of different seats must not lock seats in turn (on
    PostgreSQL they would deadlock); the game's row is always locked first. On SQLite every
    write transaction already begins with the database's write lock (BEGIN IMMEDIATE, in the
    settings), so the row is only read. The game as read under the lock."""
    games = Game.objects.filter(pk=game_id)
    if connection.features.has_select_for_update:
        games = games.select_for_update()
    return games.get()


@dataclass(frozen=True)
class FieldSaved:
    """A write's result, and the game as it stands after it (for the answer)."""

    result: WriteResult
    state: GameState
    scored: GameResult | None  # the game scored after the write (None when nothing was written)


def field_save(
    state: GameState, *, seat: Seat, key: str, value: int | bool | None = None, sum_text: str = "", delta: int = 0,
    guard: Guard = NO_GUARD, by: Actor = NOBODY, claimed: bool = False,
) -> FieldSaved:
    """Write one field of one seat of a loaded game (``state``, under the game's lock) by its key:
    a category key, "active_workers" or "t<sector position>". With ``delta`` (a stepper's taps)
    the step applies to the stored value, within the field's limits. Only that field changes, so
    two phones saving different fields never undo each other; a save based on a version the page
    did not see is a conflict (``Guard``). ``claimed``: the game's revision is already one up
    (``game_claim``), and is given back when nothing is written.

    A written field costs: the seat's field, revisions and outcome with every other seat whose
    outcome changed (one statement), the tokens' row for tokens, the revision unless claimed,
    and the change."""
    tokens_key = key.startswith("t") and key[1:].isdigit()
    sector = state.sector_at(int(key[1:])) if tokens_key else None
    if tokens_key and sector is None:
        raise ValueError(f"no sector at position {key[1:]}")  # a programming error, not user input
    category = None if key == WORKERS or tokens_key else CATEGORY_BY_KEY[key]
    if category is not None:
        current, low, high = getattr(seat, key), category.minimum, category.maximum
    elif tokens_key:
        current, low, high = state.tokens.get((seat.pk, sector.pk)), 0, TOKENS_PER_PLAYER
    else:
        current, low, high = seat.active_workers, 0, MAX_ACTIVE_WORKERS
    outcome, value = _decide(seat.revisions, key, guard, current, value, delta, low, high)
    if category is not None and outcome is None:
        if delta:
            sum_text = ""
        old_text, new_text = input_text(current, seat.sums.get(key, "")), input_text(value, sum_text)
    else:
        old_text, new_text = input_text(current), input_text(value)
    if outcome is Outcome.SAVED or (outcome is None and old_text == new_text):  # it already holds exactly this
        if claimed:
            game_claim_undo(state.game)
        return FieldSaved(_unchanged(seat, seat.revisions, key, guard, current), state, None)
    if outcome is not None:
        if claimed:
            game_claim_undo(state.game)
        return FieldSaved(WriteResult(outcome, current, _version(seat.revisions, key)), state, None)
    fields = ["revisions"]
    if tokens_key:
        elsewhere = sum(count for (seat_id, sector_id), count in state.tokens.items()
                        if seat_id == seat.pk and sector_id != sector.pk)
        if value is not None and value > (current or 0) and elsewhere + value > TOKENS_PER_PLAYER:
            raise ValidationError(
                _("%(name)s owns only %(max)s hibernation tokens and has %(elsewhere)s in other sectors: "
                  "at most %(left)s here."),
                code="too_many_tokens",
                params={"name": seat.name, "max": TOKENS_PER_PLAYER, "elsewhere": elsewhere,
                        "left": max(0, TOKENS_PER_PLAYER - elsewhere)},
            )
        if value is None:
            HibernationTokens.objects.filter(seat_id=seat.pk, sector_id=sector.pk).delete()
            state.tokens.pop((seat.pk, sector.pk), None)
        else:
            if current is None:
                HibernationTokens.objects.create(seat_id=seat.pk, sector_id=sector.pk, count=value)
            else:
                HibernationTokens.objects.filter(seat_id=seat.pk, sector_id=sector.pk).update(count=value)
            state.tokens[seat.pk, sector.pk] = value
    elif category is not None:
        sums = dict(seat.sums)
        if sum_text:
            sums[key] = sum_text
        else:
            sums.pop(key, None)
        setattr(seat, key, value)
        seat.sums = sums
        fields += [key, "sums"]
    else:
        seat.active_workers = value
        fields.append(WORKERS)
    seat.revisions = _next_revisions(seat.revisions, key, guard)
    scored = _outcome_store(state, also=seat, also_fields=fields)
    if not claimed:
        Game.objects.filter(pk=state.game.pk).update(revision=F("revision") + 1)
        state.game.revision += 1
    change = Change.objects.create(
        game_id=state.game.pk, seat_id=seat.pk, field=key, old=old_text, new=new_text,
        by_user=by.user, by_link=by.link, by_name=by.name,
    )
    return FieldSaved(WriteResult(Outcome.SAVED, value, _version(seat.revisions, key), change), state, scored)


@transaction.atomic
def _write_by_seat(seat: Seat, key: str, **write) -> WriteResult:
    """A field of one seat written on its own: the game locked and read, the field written, and
    the caller's seat object brought up to date."""
    state = game_state_load(_lock_game(seat.game_id))
    loaded = next(found for found in state.seats if found.pk == seat.pk)
    saved = field_save(state, seat=loaded, key=key, **write)
    for name in ("sums", "revisions", WORKERS, *CATEGORY_BY_KEY):
        setattr(seat, name, getattr(loaded, name))
    return saved.result


def entry_set_value(
    *, seat: Seat, key: str, value: int | bool | None, sum_text: str = "", delta: int = 0, guard: Guard = NO_GUARD,
    by: Actor = NOBODY,
) -> WriteResult:
    """Save one category entry of one seat (None: not entered), and the sum it was typed as, or
    step it (``field_save``)."""
    if key not in CATEGORY_BY_KEY:
        raise KeyError(key)  # a programming error, not user input
    return _write_by_seat(seat, key, value=value, sum_text=sum_text, delta=delta, guard=guard, by=by)


def seat_set_active_workers(
    *, seat: Seat, workers: int | None, delta: int = 0, guard: Guard = NO_GUARD, by: Actor = NOBODY
) -> WriteResult:
    """Save a seat's active workers (the tie-breaker; None: not entered), or step them."""
    return _write_by_seat(seat, WORKERS, value=workers, delta=delta, guard=guard, by=by)


def tokens_set(
    *, seat: Seat, sector: GameSector, count: int | None, delta: int = 0, guard: Guard = NO_GUARD,
    by: Actor = NOBODY,
) -> WriteResult:
    """Set how many of the seat's hibernation tokens lie in the sector (None: not entered), or
    step the count. A player owns 7 tokens: a count that would put more than 7 on the comb in
    all is refused (ValidationError, in words), so every stored game stays a valid game file."""
    return _write_by_seat(seat, field_key(sector=sector), value=count, delta=delta, guard=guard, by=by)


def field_write(
    *, seat: Seat, key: str, value: int | bool | None = None, sum_text: str = "", delta: int = 0,
    guard: Guard = NO_GUARD, by: Actor = NOBODY,
) -> WriteResult:
    """Write one pad field of a seat by its key: a category key, "active_workers" or
    "t<sector position>" (``field_save``)."""
    return _write_by_seat(seat, key, value=value, sum_text=sum_text, delta=delta, guard=guard, by=by)


def _value_of(key: str, text: str) -> tuple[int | bool | None, str]:
    """A change's recorded text as a value to write again, and the sum it was typed as."""
    category = CATEGORY_BY_KEY.get(key)
    if category is not None and category.is_flag:
        return text == "True", ""
    if text == "":
        return None, ""
    return evaluate_sum(text), text if is_sum(text) else ""


@transaction.atomic
def change_undo(*, change: Change, by: Actor = NOBODY) -> WriteResult:
    """Put the field back as it was before ``change``: itself a change, recorded as undoing it.

    Only while the field still holds what the change made: a field changed again since (on any
    phone) is not overwritten, the answer is a conflict with what it holds now."""
    seat = Seat.objects.get(pk=change.seat_id)
    value, sum_text = _value_of(change.field, change.old)
    made, _made_sum = _value_of(change.field, change.new)
    result = field_write(seat=seat, key=change.field, value=value, sum_text=sum_text,
                         guard=Guard(value=made), by=by)
    if result.change is not None:
        result.change.undoes = change
        result.change.save(update_fields=["undoes"])
    return result


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
def game_finish(*, game: Game) -> None:
    """Mark the game finished (once: finishing it again keeps the first time); its seats now
    count in the tallies."""
    if game.finished_at is None:
        _lock_game(game.pk)
        game.finished_at = timezone.now()
        if Game.objects.filter(pk=game.pk, finished_at__isnull=True).update(
            finished_at=game.finished_at, revision=F("revision") + 1
        ):
            game_outcome_store(game.pk)


@transaction.atomic
def game_delete(*, game: Game) -> None:
    """Delete the game, and take what its seats added out of the tallies."""
    _lock_game(game.pk)
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

"""The pad's writes: one value saved (``field_save``), the values of a plain post saved one by one
(``values_save``), a change undone through the same write (``change_undo``), and the way the
game counts its during-the-game points changed (``game_mode_change``). Finishing and reopening
the game are ``services.finishing``'s.

Several phones score one game at once, and a phone's save can be slow, retried, or arrive after
a newer one. Every save therefore names what it is based on (a ``Guard``); it changes only its
own value, under the game's lock, and is a conflict when it would overwrite a value its page
never saw. Steppers send a step (+1, -1, or several taps at once), applied to the stored value,
so two phones tapping + on the same stepper add two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.actors import NOBODY, Actor
from scoring.fields import NOT_CHECKED, FieldAddress, Guard, PadField, pad_field
from scoring.models import Change, Game, GameEvent, HibernationTokens, Seat
from scoring.rules.categories import DURING_CATEGORIES, TOKENS_PER_PLAYER, During, entry_at_start
from scoring.rules.engine import GameResult
from scoring.rules.sums import evaluate_sum, input_text, is_sum
from scoring.selectors.changes import finish_event
from scoring.selectors.games import GameState, game_state
from scoring.services.locking import game_lock
from scoring.services.outcomes import outcomes_store
from scoring.wording.sentences import isolated, names_list, words


class Outcome(StrEnum):
    SAVED = "saved"  # written (or nothing to write: the value was already stored, a step at a limit)
    SUPERSEDED = "superseded"  # this page already saved this value with a later (or the same) save
    CONFLICT = "conflict"  # the value changed elsewhere since the page saw it: nothing written
    FINISHED = "finished"  # the game is finished: it takes no more values until its owner reopens it
    REFUSED = "refused"  # not a value the game can hold (``message`` says why): nothing written
    NO_FIELD = "no_field"  # the game has no such seat or sector
    GONE = "gone"  # the game was deleted meanwhile


NO_GUARD = Guard()  # a save based on nothing in particular: applied to whatever is stored


@dataclass
class SaveResult:
    outcome: Outcome
    state: GameState | None = None  # the game as it stands after the save (None: gone)
    field: PadField | None = None
    value: int | bool | None = None  # the value stored after the save (None: not entered)
    text: str = ""  # that value as its input shows it (a sum as typed)
    version: int = 0  # its version after the save
    message: str = ""  # why it was refused, in words
    change: Change | None = None  # the change recorded, when something was written
    scored: GameResult | None = None  # the game scored after a write
    wrote: bool = False  # something was written (the value, or only the page's save number)
    finish: GameEvent | None = None  # FINISHED: who finished the game, and when (None: not said)

    @property
    def saved(self) -> bool:
        return self.outcome is Outcome.SAVED

    @property
    def stands(self) -> GameState:
        """The game as it stands after the save: every outcome has it but GONE."""
        if self.state is None:
            raise LookupError("The game was deleted: the save found no game to stand.")
        return self.state


@dataclass(frozen=True)
class ValueSave:
    """One value to save, as a form read it: ``field_save``'s arguments."""

    address: FieldAddress
    value: int | bool | None = None
    sum_text: str = ""
    step: int = 0
    guard: Guard = NO_GUARD


def values_save(*, game: Game, saves: Sequence[ValueSave], by: Actor = NOBODY) -> list[SaveResult]:
    """Save each value of a plain post (the pad without JavaScript), one after the other, each as
    a save of the pad's script is (``field_save``, its own transaction): a refused or conflicting
    value leaves the others saved. Stops at a game gone meanwhile (its result the last)."""
    results = []
    for save in saves:
        result = field_save(
            game=game,
            address=save.address,
            value=save.value,
            sum_text=save.sum_text,
            step=save.step,
            guard=save.guard,
            by=by,
        )
        results.append(result)
        if result.outcome is Outcome.GONE:
            break
    return results


def field_save(
    *,
    game: Game,
    address: FieldAddress,
    value: int | bool | None = None,
    sum_text: str = "",
    step: int = 0,
    guard: Guard = NO_GUARD,
    by: Actor = NOBODY,
) -> SaveResult:
    """Save one value of the game: ``value`` (None: not entered) typed as ``sum_text`` when it
    was a sum, or ``step`` taps of a stepper applied to the stored value within its limits.

    The game is locked first, one way on SQLite and PostgreSQL alike: by a conditional update
    that moves its revision on (``locking.game_lock``; not ``select_for_update``, which SQLite
    ignores and which would need a second statement for the revision). Then it is read as it
    stands (``selectors.games.game_state``); the guard is checked; the value, the seats' outcomes and
    the tallies are written, and the change recorded. Only that value changes, so two phones
    saving different values never undo each other. A save that writes nothing (a conflict, a
    refusal, a retry) rolls its transaction back, the lock's move of the revision with it: the
    revision moves only with what is written. Returns what came of it, with the game as it stands
    after, for the answer."""
    with transaction.atomic():
        result = _save(game, address, value, sum_text, step, guard, by)
        if not result.wrote:
            transaction.set_rollback(True)
    if result.state is not None and not result.wrote:
        result.state.game.refresh_from_db(fields=["revision"])  # (as it stands again, for the answer)
    return result


def _save(game: Game, address: FieldAddress, value, sum_text: str, step: int, guard: Guard, by: Actor) -> SaveResult:
    """``field_save`` inside its transaction."""
    if not game_lock(game.pk):
        return SaveResult(Outcome.GONE)
    state = game_state(game)
    pad = pad_field(state.seats, state.sectors, address, state.game.during)
    if pad is None:
        return SaveResult(Outcome.NO_FIELD, state)
    if state.game.is_finished:
        return SaveResult(Outcome.FINISHED, state, pad, finish=finish_event(state.game))
    seat = pad.seat
    current, current_text, version, last_page, _last_seq, seen = state.stored(pad)
    own = bool(guard.page) and last_page == guard.page
    if guard.page in seen and seen[guard.page] >= guard.seq:  # (in already: a retry, a resent request, an older save)
        return SaveResult(Outcome.SUPERSEDED, state, pad, current, current_text, version)
    if step:
        low, high = pad.limits
        value, sum_text = max(low, min(high, (current or 0) + step)), ""
        if value == (current or 0):  # a step at a limit (or − on an empty field): nothing to do
            return _unchanged(state, pad, current, current_text, version, guard, seen)
    new_text = input_text(value, sum_text if pad.category is not None else "")
    if new_text == current_text:  # already stored exactly so: nothing to write
        return _unchanged(state, pad, current, current_text, version, guard, seen)
    if not own and not step and _moved(guard, version, current, pad):
        if value == current:  # another phone stored this very value meanwhile: nothing to refuse
            return _unchanged(state, pad, current, current_text, version, guard, seen)
        return SaveResult(Outcome.CONFLICT, state, pad, current, current_text, version)
    if pad.sector is not None and isinstance(value, int) and value > (current or 0):
        sector_pk = pad.sector.pk
        elsewhere = sum(
            count
            for (seat_id, sector_id), count in state.tokens.items()
            if seat_id == seat.pk and sector_id != sector_pk
        )
        if elsewhere + value > TOKENS_PER_PLAYER:
            message = words(
                _(
                    "%(name)s owns only %(max)s hibernation tokens and has %(elsewhere)s in other sectors: "
                    "at most %(left)s here."
                ),
                name=isolated(seat.name),
                max=TOKENS_PER_PLAYER,
                elsewhere=elsewhere,
                left=max(0, TOKENS_PER_PLAYER - elsewhere),
            )
            return SaveResult(Outcome.REFUSED, state, pad, current, current_text, version, message)
    changed = _write(state, pad, value, sum_text, current)
    seat.revisions = {**seat.revisions, pad.key: _revision(version + 1, guard, seen)}
    scored = outcomes_store(state, also=seat, also_fields=[*changed, "revisions"])
    change = Change.objects.create(
        game_id=state.game.pk,
        seat_id=seat.pk,
        field=pad.key,
        old=current_text,
        new=new_text,
        undoes=guard.undoing,
        **by.authored,
    )
    return SaveResult(Outcome.SAVED, state, pad, value, new_text, version + 1, change=change, scored=scored, wrote=True)


def _moved(guard: Guard, version: int, current, pad: PadField) -> bool:
    """Whether the value moved since what the save is based on."""
    if guard.undoing is not None:
        return Change.objects.filter(seat_id=pad.seat.pk, field=pad.key, pk__gt=guard.undoing.pk).exists()
    if guard.version is not None and guard.version != version:
        return True
    return guard.value is not NOT_CHECKED and guard.value != current


def _unchanged(
    state: GameState, pad: PadField, current, text: str, version: int, guard: Guard, seen: dict[str, int]
) -> SaveResult:
    """A save that finds the value already as it would make it: nothing is written nor recorded,
    but the page's save is remembered as in (so that its earlier saves, arriving late, are still
    ignored)."""
    seat = pad.seat
    remembered = bool(guard.page) and seen.get(guard.page) != guard.seq
    if remembered:
        seat.revisions = {**seat.revisions, pad.key: _revision(version, guard, seen)}
        Seat.objects.filter(pk=seat.pk).update(revisions=seat.revisions)
    return SaveResult(Outcome.SAVED, state, pad, current, text, version, wrote=remembered)


# How many pages a field remembers the latest save number of: far more than the phones and page
# loads that touch one field between a save and its coming back (a retry within the pad's 15 s, a
# request the browser resends on a new connection).
PAGES_REMEMBERED = 8


def _revision(version: int, guard: Guard, seen: dict[str, int]) -> list:
    """A field's entry in ``Seat.revisions`` once ``guard``'s save is in: [version, page, seq],
    then {page: seq}, the latest save number of each other page of the ``PAGES_REMEMBERED`` seen
    last, when there is one."""
    others = {name: seq for name, seq in seen.items() if name != guard.page}
    others = dict(list(others.items())[-(PAGES_REMEMBERED - 1) :])
    return [version, guard.page, guard.seq, *([others] if others else [])]


def _write(state: GameState, pad: PadField, value, sum_text: str, current) -> list[str]:
    """Write the value (in the database and in ``state``); the seat's fields still to store."""
    seat = pad.seat
    if pad.sector is not None:  # a sector's tokens
        place = (seat.pk, pad.sector.pk)
        tokens = HibernationTokens.objects.filter(seat_id=seat.pk, sector_id=pad.sector.pk)
        if value is None:
            tokens.delete()
            state.tokens.pop(place, None)
        else:
            if current is None:
                HibernationTokens.objects.create(seat_id=seat.pk, sector_id=pad.sector.pk, count=value)
            else:
                tokens.update(count=value)
            state.tokens[place] = value
        return []
    setattr(seat, pad.key, value)
    if pad.is_workers:
        return [pad.key]
    seat.sums = {key: text for key, text in seat.sums.items() if key != pad.key}
    if sum_text:
        seat.sums[pad.key] = sum_text
    return [pad.key, "sums"]


def change_undo(*, game: Game, change: Change, by: Actor = NOBODY) -> SaveResult:
    """Put the value back as it was before ``change``: a save like any other (``field_save``),
    recorded as undoing it, and a conflict once the value has changed again since, on any phone
    (the change is no longer its latest)."""
    value, sum_text = _value_of(change)
    return field_save(
        game=game,
        address=FieldAddress(change.seat.number, change.field),
        value=value,
        sum_text=sum_text,
        guard=Guard(undoing=change),
        by=by,
    )


def _value_of(change: Change) -> tuple[int | bool | None, str]:
    """The value a change found (its recorded text), and the sum it was typed as."""
    text = change.old
    if text in ("True", "False"):
        return text == "True", ""
    if text == "":
        return None, ""
    return evaluate_sum(text), text if is_sum(text) else ""


def game_mode_change(*, game: Game, during: During) -> bool:
    """Count the game's during-the-game points ``during``: on the VP track (one number per player)
    or as the breakdown (the starting VP and each source). True when the way changed; False when
    the game already counted so, or is gone (nothing written).

    Refused (ValidationError, in words, naming what is entered) while the way the game counts now
    holds an entry, the breakdown's starting VP as the game filled them in aside: nothing a player
    typed is ever hidden or lost. The way left is emptied and the new one made ready as a new
    game's: the breakdown's starting VP filled in from the seats (1, 2, 3, ...), the track empty.
    Each field written gets a new version, so a phone that still shows the other way cannot save
    into it unseen; the outcomes and the tallies follow, as after any save."""
    wanted = During(during)
    with transaction.atomic():
        if not game_lock(game.pk):
            return False
        state = game_state(game)
        current = state.game.during
        if wanted == current:
            transaction.set_rollback(True)  # (the lock's move of the revision with it)
            return False
        if state.game.is_finished:
            raise ValidationError(_("The game is finished: its owner reopens it to change it."), code="finished")
        entered = state.during_entered()
        if entered:
            what = names_list(
                [
                    words(_("%(name)s’s %(what)s"), name=isolated(seat.name), what=_(category.label))
                    for seat, category in entered
                ]
            )
            message = (
                _("Values are already entered in the breakdown: %(what)s. Clear them first to switch to the VP track.")
                if current == During.BREAKDOWN
                else _(
                    "Values are already entered on the VP track: %(what)s. Clear them first to switch to the breakdown."
                )
            )
            raise ValidationError(words(message, what=what), code="entered")
        keys = [category.key for category in DURING_CATEGORIES]
        for seat in state.seats:
            for category in DURING_CATEGORIES:
                value = entry_at_start(category, wanted, seat.number)
                if getattr(seat, category.key) != value:
                    setattr(seat, category.key, value)
                    version = int((seat.revisions.get(category.key) or [0])[0])
                    seat.revisions = {**seat.revisions, category.key: [version + 1, "", 0]}
            seat.sums = {key: text for key, text in seat.sums.items() if key not in keys}
        Seat.objects.bulk_update(state.seats, [*keys, "sums", "revisions"])
        Game.objects.filter(pk=game.pk).update(during_mode=wanted.value)
        state.game.during_mode = game.during_mode = wanted.value
        outcomes_store(state)
    return True

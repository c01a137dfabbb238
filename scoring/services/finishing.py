"""Finishing a game, and reopening it: the pad's *Finish* (``pad_finish``: what this phone changed
saved first, the game checked, and finished once nothing stops it and the table has confirmed
what it asks), the finishing itself (``game_finish``), the owner's reopening (``game_reopen``),
and how long the play lasted (``play_length_set``).

A finished game takes no more values (``services.pad.field_save`` refuses them) until its owner
reopens it; its seats count in the tallies, and its history says who finished it and when.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from scoring.actors import NOBODY, Actor
from scoring.fields import PadField
from scoring.models import Game, GameEvent, GameLink, Seat
from scoring.rules.categories import END_CATEGORIES, TOKENS_PER_PLAYER, Category, Section, categories_of, comb_spaces
from scoring.selectors.games import GameState, game_state
from scoring.services.imports import fingerprint_store
from scoring.services.locking import game_lock
from scoring.services.outcomes import game_outcome_store
from scoring.services.pad import Outcome, SaveResult, ValueSave, values_save


@dataclass(frozen=True)
class FinishCheck:
    """What a game's values say before it is finished. ``over_owned``: the players with more
    tokens on the comb than each owns, which must be corrected first; the rest the table is asked
    to confirm: the number categories nobody entered (``empty``), the comb with sectors but no
    token (``comb_empty``), no active workers entered at a table of several (``workers_empty``),
    the fields whose value lies far from what games usually record (``unusual``), and more tokens
    on the comb than it has spaces (``comb_overfilled``)."""

    over_owned: tuple[Seat, ...] = ()
    empty: tuple[Category, ...] = ()
    comb_empty: bool = False
    workers_empty: bool = False
    unusual: tuple[PadField, ...] = ()
    tokens_on_comb: int = 0
    comb_spaces: int = 0

    @property
    def comb_overfilled(self) -> bool:
        return self.tokens_on_comb > self.comb_spaces

    @property
    def blocks(self) -> bool:
        """Something must be corrected before the game can be finished."""
        return bool(self.over_owned)

    @property
    def asks(self) -> bool:
        """Something the table confirms before the game is finished."""
        return bool(self.empty or self.comb_empty or self.workers_empty or self.unusual or self.comb_overfilled)


def finish_check(state: GameState) -> FinishCheck:
    """What the game's values, as they stand, say before it is finished (``FinishCheck``)."""
    seats = state.seats
    entered_tokens = state.entered_tokens()
    placed = [sum(entered.values()) for entered in entered_tokens]
    categories = (*categories_of(state.game.during, Section.DURING), *END_CATEGORIES)
    return FinishCheck(
        over_owned=tuple(seat for seat, count in zip(seats, placed, strict=True) if count > TOKENS_PER_PLAYER),
        empty=tuple(
            category
            for category in categories
            if not category.is_flag and all(getattr(seat, category.key) is None for seat in seats)
        ),
        comb_empty=bool(state.sectors) and not any(entered_tokens),  # (a count of 0 is entered)
        workers_empty=len(seats) > 1 and all(seat.active_workers is None for seat in seats),
        unusual=tuple(
            PadField(seat, category=category)
            for category in categories
            for seat in seats
            if category.is_unusual(getattr(seat, category.key))
        ),
        tokens_on_comb=sum(placed),
        comb_spaces=comb_spaces(len(seats)),
    )


class FinishOutcome(StrEnum):
    FINISHED = "finished"  # finished now
    ALREADY = "already"  # finished before (on another phone, or by a second tap): nothing more done
    NOT_SAVED = "not_saved"  # a value this phone changed was not saved (``saves`` say why): not finished
    BLOCKED = "blocked"  # the check found what must be corrected first (``check.blocks``)
    ASKS = "asks"  # the check, or finishing for the whole table, asks the table to confirm first
    GONE = "gone"  # the game was deleted meanwhile


@dataclass
class FinishResult:
    outcome: FinishOutcome
    state: GameState | None = None  # the game as it stands (None: gone)
    check: FinishCheck | None = None
    saves: list[SaveResult] = field(default_factory=list)  # what came of the values this phone changed
    for_table: bool = False  # finishing ends the game for other phones too (asked first)

    @property
    def stands(self) -> GameState:
        """The game as it stands after Finish: every outcome has it but GONE and NOT_SAVED."""
        if self.state is None:
            raise LookupError("Finish read no game: it was deleted, or a value was not saved.")
        return self.state


def pad_finish(
    *,
    game: Game,
    saves: Sequence[ValueSave] = (),
    refused: bool = False,
    confirmed: bool = False,
    by: Actor = NOBODY,
) -> FinishResult:
    """The pad's *Finish*: the values this phone changed saved first (``values_save``), each as
    any save; then the game, as it stands, checked (``finish_check``). It is finished only when
    every value was saved (none ``refused`` by the form that read them either), nothing must be
    corrected, and the table has ``confirmed`` what the check asks. Finishing is asked about too
    whenever it ends the game for a table: a link's holder (``by.link``) always is, and its owner
    while a share link is live (other phones may be scoring: one stray tap would stop them all)."""
    saved = values_save(game=game, saves=saves, by=by)
    if any(result.outcome is Outcome.GONE for result in saved):
        return FinishResult(FinishOutcome.GONE, saves=saved)
    if refused or any(not result.saved for result in saved):
        return FinishResult(FinishOutcome.NOT_SAVED, saves=saved)
    state = game_state(game)
    if not state.seats:  # (deleted meanwhile: every game has a seat)
        return FinishResult(FinishOutcome.GONE)
    if state.game.is_finished:
        return FinishResult(FinishOutcome.ALREADY, state)
    check = finish_check(state)
    if check.blocks:
        return FinishResult(FinishOutcome.BLOCKED, state, check)
    for_table = _for_a_table(state.game, by)
    if (check.asks or for_table) and not confirmed:
        return FinishResult(FinishOutcome.ASKS, state, check, for_table=for_table)
    if not game_finish(game=state.game, by=by):
        return FinishResult(FinishOutcome.ALREADY, state)
    return FinishResult(FinishOutcome.FINISHED, state, check)


def _for_a_table(game: Game, by: Actor) -> bool:
    """Whether finishing ends the game for other phones than this one's: a link's holder finishes
    it for the table; so does its owner while a share link is live."""
    return by.link is not None or GameLink.objects.filter(game=game, revoked_at__isnull=True).exists()


@transaction.atomic
def game_finish(*, game: Game, by: Actor = NOBODY) -> bool:
    """Finish the game: it takes no more values (``field_save`` refuses them) until its owner
    reopens it, its seats count in the tallies, and its history says who finished it and when
    (a ``GameEvent``). False when it was finished already (on another phone: nothing more is done)."""
    if not game_lock(game.pk):
        return False
    now = timezone.now()
    if not Game.objects.filter(pk=game.pk, finished_at__isnull=True).update(finished_at=now):
        transaction.set_rollback(True)  # (the lock's move of the revision with it: nothing changed)
        return False
    GameEvent.objects.create(game_id=game.pk, what=GameEvent.What.FINISHED, at=now, **by.authored)
    game.finished_at = now
    game_outcome_store(game)
    fingerprint_store(game)  # what an import of its export will find
    return True


@transaction.atomic
def game_reopen(*, game: Game, by: Actor = NOBODY) -> bool:
    """Reopen a finished game to correct it (its owner's deliberate act: the view asks for the
    owner): it takes values again, its seats leave the tallies until it is finished again, and its
    history says who reopened it and when. False when it was not finished."""
    if not game_lock(game.pk):
        return False
    if not Game.objects.filter(pk=game.pk, finished_at__isnull=False).update(finished_at=None):
        transaction.set_rollback(True)
        return False
    GameEvent.objects.create(game_id=game.pk, what=GameEvent.What.REOPENED, **by.authored)
    game.finished_at = None
    game_outcome_store(game)
    return True


@transaction.atomic
def play_length_set(*, game: Game, minutes: int | None, by: Actor = NOBODY) -> bool:
    """How long the play lasted, in minutes, as its table says it (None: taken back), for BG
    Stats; said by its owner once the game is finished (the view asks for the owner), and in its
    history (a ``GameEvent``) as the rest of a finished game is. Not one of the game's scores: no
    phone's pad changes for it. False when the game is not finished (nothing is done) or the
    length is the one it had."""
    stands = Game.objects.select_for_update().filter(pk=game.pk).values_list("finished_at", "play_minutes").first()
    if stands is None or stands[0] is None or stands[1] == minutes:
        return False
    Game.objects.filter(pk=game.pk).update(play_minutes=minutes)
    GameEvent.objects.create(game_id=game.pk, what=GameEvent.What.LENGTH, minutes=minutes, **by.authored)
    game.play_minutes = minutes
    return True

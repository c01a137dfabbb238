"""Outcomes: every seat's subtotals, total, rank and awards, stored so that histories and
statistics never score a game again."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from scoring.models import (
    Game,
    Seat,
)
from scoring.rules.engine import GameResult, PlayerResult
from scoring.selectors.games import GameState, game_state
from scoring.services.locking import game_lock
from scoring.services.tallies import tallies_follow

OUTCOME_FIELDS = ("score_during", "score_majority", "score_end", "score_total", "rank", "is_winner", "sector_awards")


def outcome_fields(outcome: PlayerResult) -> dict:
    """A seat's outcome as its ``OUTCOME_FIELDS`` store it."""
    return dict(
        zip(
            OUTCOME_FIELDS,
            (
                outcome.during,
                outcome.majority,
                outcome.end,
                outcome.total,
                outcome.rank,
                outcome.winner,
                list(outcome.majority_by_sector),
            ),
            strict=True,
        )
    )


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

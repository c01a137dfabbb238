"""Specification of the stored outcomes (``services.outcomes.game_outcome_store``): every change to a
game stores, in the same transaction, what the scoring engine makes of it (subtotals, total,
rank, winner, the VP of each comb sector), so that histories and statistics read outcomes
instead of scoring games again; ``recompute_outcomes`` stores them all again after a rules fix.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scoring.actors import Keeper
from scoring.models import Game, GameSector, Seat
from scoring.selectors.games import game_result, games_with_everything
from scoring.selectors.history import HistoryFilters, history_page
from scoring.services.outcomes import game_outcome_recompute, game_outcome_store
from scoring.services.pad import change_undo
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
    save_tokens,
    save_value,
    save_workers,
    seat_of,
    stored_outcomes,
)

pytestmark = pytest.mark.django_db


def stored(game) -> list[tuple]:
    return [
        (
            seat.score_during,
            seat.score_majority,
            seat.score_end,
            seat.score_total,
            seat.rank,
            seat.is_winner,
            seat.sector_awards,
        )
        for seat in Seat.objects.filter(game=game).order_by("number")
    ]


def scored(game) -> list[tuple]:
    """What the engine makes of the game as stored now."""
    result = game_result(games_with_everything().get(pk=game.pk))
    return [
        (p.during, p.majority, p.end, p.total, p.rank, p.winner, list(p.majority_by_sector)) for p in result.players
    ]


def test_a_new_game_has_the_outcome_of_its_starting_vp():
    game = game_started("Alice", "Bruno")
    assert stored(game) == scored(game)
    assert [row[3] for row in stored(game)] == [1, 2]  # starting VP 1 and 2: Bruno leads
    assert [row[5] for row in stored(game)] == [False, True]


def test_every_kind_of_write_stores_the_outcome_at_once():
    game = game_started("Alice", "Bruno")
    alice, bruno = Seat.objects.filter(game=game).order_by("number")
    sector = GameSector.objects.get(game=game, position=0)
    save_value(seat=alice, key="farm_income", value=12, sum_text="")
    save_tokens(seat=alice, sector=sector, count=2)
    save_tokens(seat=bruno, sector=sector, count=1)
    save_workers(seat=bruno, workers=3)
    save_value(seat=bruno, key="farms", value=None, delta=1)

    assert stored(game) == scored(game)
    alice_row = stored(game)[0]
    assert alice_row[1] == 9 and alice_row[6][0] == 9  # sole 1st of sector 1 (9 VP)
    assert stored(game)[1][6][0] == 4  # Bruno 2nd there: 4 VP


def test_an_undo_stores_the_outcome_too():
    game = game_started("Alice", "Bruno")
    alice = Seat.objects.get(game=game, number=1)
    result = save_value(seat=alice, key="recruits", value=20)
    assert change_undo(game=game, change=result.change).saved
    assert stored(game) == scored(game)
    assert stored(game)[0][3] == 1


def test_an_imported_game_is_stored_with_its_outcome():
    game = game_scored(player("Ann", farm_income=10, workers=2), player("Ben", farm_income=10, workers=2))
    assert stored(game) == scored(game)
    assert [row[4:6] for row in stored(game)] == [(1, True), (1, True)]  # a shared victory


def test_recompute_outcomes_repairs_outcomes_that_differ_and_counts_them():
    right = game_started("Alice", "Bruno")
    wrong = game_started("Carla", "Dario")
    Seat.objects.filter(game=wrong, number=1).update(score_total=99, is_winner=True)

    out = StringIO()
    call_command("recompute_outcomes", stdout=out)

    assert "Scored 2 games again. 1 stored outcome was different and is now right." in out.getvalue()
    assert stored(wrong) == scored(wrong) and stored(right) == scored(right)


def test_the_history_reads_stored_outcomes_without_scoring_games(django_assert_num_queries, owner):
    for _ in range(3):
        game_started("Alice", "Bruno")
    # the games joined through links, the count, a page of games, their seats: whatever their number
    with django_assert_num_queries(4):
        _page, entries = history_page(Keeper(user=owner), HistoryFilters(), 1)
    assert [[(seat.name, outcome.total, outcome.winner) for seat, outcome in entry.players] for entry in entries] == [
        [("Alice", 1, False), ("Bruno", 2, True)]
    ] * 3


class StoredOutcomesAgreeWithTheEngine(TestCase):
    """Whatever is written, in whatever order, the stored outcome is the engine's."""

    @settings(max_examples=25, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.integers(1, 3),
                st.sampled_from(["farm_income", "farms", "carvings", "hive_mat_full", "tokens0", "tokens1", "workers"]),
                st.integers(0, 7),
            ),
            max_size=12,
        )
    )
    def test_any_writes(self, writes):
        game = game_started("Alice", "Bruno", "Carla")
        seats = {seat.number: seat for seat in Seat.objects.filter(game=game)}
        sectors = list(GameSector.objects.filter(game=game).order_by("position"))
        for number, what, value in writes:
            seat = seats[number]
            if what.startswith("tokens"):
                # (more than 7 tokens in all is refused, Outcome.REFUSED: nothing changes)
                save_tokens(seat=seat, sector=sectors[int(what[-1])], count=value)
            elif what == "workers":
                save_workers(seat=seat, workers=min(value, 4))
            elif what == "hive_mat_full":
                save_value(seat=seat, key=what, value=bool(value % 2))
            else:
                save_value(seat=seat, key=what, value=value)
        assert stored(game) == scored(game)


# ---------------------------------------------------------------------------------------------
# Outcomes: game_outcome_store and game_outcome_recompute take the game itself


def test_recomputing_a_games_outcome_repairs_it_and_says_whether_it_differed():
    game = game_scored(player("Alice", farm_income=10), player("Bruno", farm_income=3))
    right = stored_outcomes(game)
    Seat.objects.filter(game=game, number=2).update(score_total=99, is_winner=True, rank=1)

    assert game_outcome_recompute(game) is True
    assert stored_outcomes(game) == right
    assert game_outcome_recompute(game) is False
    assert revision_of(game) == 2  # it locks the game, as every write does


def test_storing_the_outcome_reads_the_game_as_it_is_stored_not_the_copy_given():
    game = game_started("Alice", "Bruno")
    stale = Game.objects.get(pk=game.pk)
    save_value(seat=seat_of(game, 1), key="farm_income", value=10)
    Seat.objects.filter(game=game).update(score_total=0)

    assert game_outcome_store(stale) is True
    assert [row[3] for row in stored_outcomes(game)] == [11, 2]

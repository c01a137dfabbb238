"""Specification of the game's lock (``scoring/services/locking.py``): every write to an existing
game begins with ``game_lock``, a conditional UPDATE that moves the game's revision on by one (on
PostgreSQL the row's lock; on SQLite the transaction already holds the database's write lock), so
that the other phones' polls see that something may have changed, and that forgets the game's
fingerprint (its content is no longer the one fingerprinted).
"""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.services.locking import game_lock
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
)

pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------------------------------
# game_lock


def test_the_lock_moves_the_games_revision_on_by_one_and_says_whether_the_game_is_there():
    game = game_started("Alice", "Bruno")

    assert game_lock(game.pk) is True
    assert game_lock(game.pk) is True
    assert revision_of(game) == 2
    assert game_lock(game.pk + 1000) is False


def test_the_lock_moves_the_games_revision_and_forgets_its_fingerprint(django_assert_num_queries):
    game = game_scored(player("Alice", farm_income=3), player("Bruno"), finished=True)
    before = Game.objects.values().get(pk=game.pk)

    with django_assert_num_queries(1):
        game_lock(game.pk)

    assert before["fingerprint"] is not None
    assert Game.objects.values().get(pk=game.pk) == {**before, "revision": before["revision"] + 1, "fingerprint": None}

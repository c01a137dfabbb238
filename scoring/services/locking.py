"""The lock every write of a game takes first."""

from __future__ import annotations

from django.db.models import F

from scoring.models import Game


def game_lock(game_id: int) -> bool:
    """Lock the game until the transaction ends, by moving its revision on: every write to a game
    begins here, so the writers of one game queue (on PostgreSQL behind the row's lock; on SQLite
    every transaction already holds the database's write lock from its start, settings'
    ``transaction_mode``), and every phone's poll sees that something changed. Its fingerprint is
    forgotten in the same statement, as the write may change what the game holds (an import
    fills it again: ``fingerprints_fill``). A write that then changes nothing rolls back, and the
    revision and fingerprint with it (``pad.field_save``). False when the game is gone."""
    return bool(Game.objects.filter(pk=game_id).update(revision=F("revision") + 1, fingerprint=None))

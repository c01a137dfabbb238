"""Recognising a game (``docs/game-file.md``, "Importing the same games twice"): an import skips the
games its account already has."""

from __future__ import annotations

import hashlib
import json
from datetime import date

from scoring.gamefile.data import GameData
from scoring.gamefile.writing import dump_game


def game_fingerprint(game: GameData, *, undated_as: date | None = None) -> str:
    """What makes a game the same game: a SHA-256 (64 hex digits) of the canonical JSON of the
    game as the writer writes it, without its change history, its length and its times.

    So two games are the same when their date, notes, end-trigger token, comb and players (in
    seat order: name, faction, Automa, active workers, every entry, tokens) are the same, however
    they were written in their files. A game without a date is taken as played on ``undated_as``
    (the date an import gives it), when that is given.
    """
    written = dump_game(game)
    written.pop("changes", None)
    written.pop("play_minutes", None)  # (said after the finish, when the game is the same game)
    written.pop("started_at", None)  # (files written before the times were: the same games)
    written.pop("finished_at", None)  # (... and a game finished again after a correction is the same too)
    if game.played_on is None and undated_as is not None:
        written["played_on"] = undated_as.isoformat()
    canonical = json.dumps(written, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()

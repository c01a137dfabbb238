"""Tallies: the sums behind the players list, a player's page and the statistics, kept up to date
in the transaction of every change to a finished game, so those pages read a handful of rows
whatever the number of games (a history of 100,000 games reads as fast as one of 1,000).

Each seat of a finished game adds its *measures* (one seat, one game on seat 1, a win, its total,
each category's VP...) to a few rows: its owner's row for all seats, for its faction and for its
seat number, and its player's row for all seats and for its faction. A seat remembers what it
added (``Seat.tallied``), so any later change (an entry corrected after the game, a game finished
or deleted) moves the rows by the difference alone: no page ever sums the seats again.

This module says what a seat adds and to which rows (plain reads of a seat); the writes that
move the rows are ``scoring.services.tallies``'s.
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.models import Game, Seat, Tally
from scoring.rules.categories import CATEGORIES, MAJORITY_LABEL, MAJORITY_SHORT_LABEL

Scope = Tally.Scope

# What a seat adds to each of its rows, in the columns of the same names (models.Tally).
MEASURES: tuple[str, ...] = (
    "games",
    "seats",
    "wins",
    "points",
    "winner_points",
    "vp_majority",
    *(f"vp_{category.key}" for category in CATEGORIES),
)

OwnerRow = tuple[int, str, str]  # owner id, scope, key
PlayerRow = tuple[int, str, str]  # player id, scope, key


def seat_measures(seat: Seat) -> dict[str, int]:
    """What one seat of a finished game adds to its rows, from its stored entries and outcome (an
    entry not entered counts 0: the breakdown's in a game that counts the VP track, and the
    track's in a breakdown game, are never entered, so a track game's during-the-game points are
    one measure, ``vp_vp_track``)."""
    # (not entered: 0; a category the seat has no column for, in the models of an older migration, too)
    entries = {category.key: getattr(seat, category.key, None) or 0 for category in CATEGORIES}
    measures = {
        "games": int(seat.number == 1),  # every game has a seat 1: its games are counted once
        "seats": 1,
        "wins": int(seat.is_winner),
        "points": seat.score_total,
        "winner_points": seat.score_total if seat.is_winner else 0,
        "vp_majority": seat.score_majority,
    }
    measures.update({f"vp_{category.key}": category.vp(entries[category.key]) for category in CATEGORIES})
    return measures


def point_parts(measures: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """The parts a total is made of, each with the VP that ``measures`` (a row's, or summed) hold
    in it, as (full words, short words, VP) in English: each category of either way of counting
    the during-the-game points, then the comb's majorities. They add up to ``measures["points"]``.
    A part without a point (the other way of counting, a category nobody used) is left out."""
    parts = [
        (category.label, category.short_label or category.label, measures[f"vp_{category.key}"])
        for category in CATEGORIES
    ]
    parts.append((MAJORITY_LABEL, MAJORITY_SHORT_LABEL, measures["vp_majority"]))
    return [(label, short, vp) for label, short, vp in parts if vp]


def seat_scopes(seat: Seat) -> list[tuple[str, str]]:
    """The (scope, key) of every account row a seat adds to: all seats, its seat number, its faction."""
    scopes = [(Scope.ALL.value, ""), (Scope.SEAT.value, str(seat.number))]
    if seat.faction:
        scopes.append((Scope.FACTION.value, seat.faction))
    return scopes


def owner_rows(owner_id: int, seat: Seat) -> list[OwnerRow]:
    return [(owner_id, scope, key) for scope, key in seat_scopes(seat)]


def row_measures(row: Tally) -> dict[str, int]:
    """A kept row's measures, by name (as ``seat_measures`` gives a seat's)."""
    return {name: getattr(row, name) for name in MEASURES}


def player_rows(seat: Seat) -> list[PlayerRow]:
    if seat.player_id is None:
        return []
    rows = [(seat.player_id, Scope.ALL.value, "")]
    if seat.faction:
        rows.append((seat.player_id, Scope.FACTION.value, seat.faction))
    return rows


def counts(game: Game) -> bool:
    """Whether a game's seats count in the tallies: a finished game of an account."""
    return game.finished_at is not None and game.owner_id is not None

"""*Play again*: the next game of the same table, as the results offer it. Plain Python: the rule
reads a finished game's seats and comb, nothing else.

The same players sit down again, each moved on by one seat: the one who sat second plays first,
and the first player of the game just played plays last (the next first player, round the
table). A solo game stays a solo game: the Automa keeps seat 1 and the player seat 2, as ever.
The factions are cleared (each player picks again); the comb's sectors, the way of counting the
points scored during the game (``categories.During``) and the token that ends the game are the
same. The start form shows it filled in, for the table to change anything before it starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from scoring.rules.categories import During


class TableSeat(Protocol):
    """A seat of the game just played, as the rule reads it (a stored seat is one)."""

    @property
    def number(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def is_automa(self) -> bool: ...


class CombSector(Protocol):
    """A sector of the comb just played (a stored sector is one)."""

    @property
    def position(self) -> int: ...
    @property
    def first_vp(self) -> int: ...
    @property
    def second_vp(self) -> int: ...


@dataclass(frozen=True)
class NextGame:
    """The next game of a table: its players' names in turn order (the Automa of a solo game left
    out: ``solo`` says it joins), its comb (each sector's 1st and 2nd place VP), its way of
    counting and its end-of-game token."""

    players: tuple[str, ...]
    solo: bool
    sectors: tuple[tuple[int, int], ...]
    during: During
    end_trigger_token: int
    first: str = ""  # who plays first now ("" in a solo game: the Automa, as ever)
    last: str = ""  # who played first in the game just played, and plays last now


def seats_moved_on(names: Sequence[str]) -> list[str]:
    """The turn order of the next game: everyone moved on by one seat, so that the second player
    plays first and the first player last."""
    return [*names[1:], *names[:1]]


def next_game(
    seats_played: Iterable[TableSeat], comb_played: Iterable[CombSector], *, during: During, end_trigger_token: int
) -> NextGame:
    """The game after the one played with these seats and comb, the same table
    (``seats_moved_on``; a solo game as it was)."""
    seats = sorted(seats_played, key=lambda seat: seat.number)
    solo = any(seat.is_automa for seat in seats)
    names = [seat.name for seat in seats if not seat.is_automa]
    moves = not solo and len(names) > 1
    moved = seats_moved_on(names) if moves else names
    comb = sorted(comb_played, key=lambda sector: sector.position)
    return NextGame(
        players=tuple(moved),
        solo=solo,
        sectors=tuple((sector.first_vp, sector.second_vp) for sector in comb),
        during=during,
        end_trigger_token=end_trigger_token,
        first=moved[0] if moves else "",
        last=moved[-1] if moves else "",
    )

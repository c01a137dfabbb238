"""The pad's fields: what one value of a game is called, and the one place its names are read.

A seat keeps each of its values under a **key**: a category key (``farms``), ``active_workers``
(the tie-breaker), or ``t<sector position>`` for its hibernation tokens in a comb sector
(``t0`` is the first sector). On the pad a value is named ``s<seat number>-<key>`` (``s2-t0``:
the second seat's tokens in the first sector). The services, the forms, the scoreboard, the
change history and the game file all read keys and names through this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from scoring.rules.categories import (
    CATEGORY_BY_KEY,
    MAX_ACTIVE_WORKERS,
    TOKENS_PER_PLAYER,
    Category,
    During,
    categories_of,
)

if TYPE_CHECKING:
    from scoring.models import Change, GameSector, Seat

WORKERS = "active_workers"  # the key of a seat's active workers (the tie-breaker)

_NAME = re.compile(r"s(?P<seat>[1-9][0-9]?)-(?P<key>[a-z0-9_]+)", re.ASCII)
_TOKENS_KEY = re.compile(r"t(?P<position>0|[1-9][0-9]?)", re.ASCII)


def tokens_key(position: int) -> str:
    """The key of a seat's tokens in the comb sector at ``position``."""
    return f"t{position}"


def tokens_position(key: str) -> int | None:
    """The comb sector position a key names (``t3`` is 3), or None when it names no tokens."""
    found = _TOKENS_KEY.fullmatch(key)
    return int(found["position"]) if found else None


def is_key(key: str) -> bool:
    """Whether ``key`` names a value of a seat (of some game)."""
    return key in CATEGORY_BY_KEY or key == WORKERS or tokens_position(key) is not None


def field_name(seat_number: int, key: str) -> str:
    return f"s{seat_number}-{key}"


@dataclass(frozen=True)
class FieldAddress:
    """What a posted field name says before the game is read: the seat's number and the key."""

    seat: int
    key: str

    @property
    def name(self) -> str:
        return field_name(self.seat, self.key)

    @property
    def sector_position(self) -> int | None:
        return tokens_position(self.key)

    @property
    def kind(self) -> PadField:
        """The field with stand-ins for its seat and sector: its kind and limits, enough to read
        what was typed into it (not to write it)."""
        from scoring.models import GameSector, Seat  # (the keys above are plain Python: the game file reads them)

        position = self.sector_position
        if position is not None:
            return PadField(Seat(number=self.seat), sector=GameSector(position=position))
        return PadField(Seat(number=self.seat), category=CATEGORY_BY_KEY.get(self.key))


def field_address(name: str) -> FieldAddress | None:
    """The address a posted field name stands for, or None when it cannot be one of any game's
    (only the field's own spelling counts: ``s01-farms`` is not ``s1-farms``)."""
    found = _NAME.fullmatch(name)
    if not found or not is_key(found["key"]):
        return None
    return FieldAddress(seat=int(found["seat"]), key=found["key"])


@dataclass(frozen=True)
class PadField:
    """One value of the pad: a category entry, active workers, or a sector's tokens."""

    seat: Seat
    category: Category | None = None
    sector: GameSector | None = None  # set for tokens

    @cached_property  # (a pad of 5 players and 20 sectors names its fields a few thousand times a page)
    def key(self) -> str:
        if self.sector is not None:
            return tokens_key(self.sector.position)
        return self.category.key if self.category is not None else WORKERS

    @cached_property
    def name(self) -> str:
        return field_name(self.seat.number, self.key)

    @property
    def address(self) -> FieldAddress:
        return FieldAddress(seat=self.seat.number, key=self.key)

    @property
    def is_tokens(self) -> bool:
        return self.sector is not None

    @property
    def is_workers(self) -> bool:
        return self.category is None and self.sector is None

    @property
    def is_flag(self) -> bool:
        return self.category is not None and self.category.is_flag

    @property
    def limits(self) -> tuple[int, int]:
        if self.category is not None:
            return self.category.minimum, self.category.maximum
        if self.is_tokens:
            return 0, TOKENS_PER_PLAYER
        return 0, MAX_ACTIVE_WORKERS

    @property
    def what(self) -> str:
        """What the field is, in words ("Farm income", "Tokens in sector 2")."""
        if self.category is not None:
            return gettext(self.category.label)
        if self.sector is not None:
            return gettext("Tokens in sector %(number)s") % {"number": self.sector.number}
        return gettext("Active workers")

    @property
    def label(self) -> str:
        """The accessible name: what the field is and whose ("Farm income, Alice")."""
        return f"{self.what}, {self.seat.name}"

    def id(self) -> str:
        return f"f-{self.name}"


def pad_field(
    seats: list[Seat], sectors: list[GameSector], address: FieldAddress | None, during: During = During.BREAKDOWN
) -> PadField | None:
    """The field of a game (its seats and comb sectors, its way of scoring the during-the-game
    points) at ``address``, or None when the game has no such seat or sector, or does not count
    that category (the breakdown's farm income in a game that counts the VP track)."""
    if address is None:
        return None
    seat = next((seat for seat in seats if seat.number == address.seat), None)
    if seat is None:
        return None
    position = address.sector_position
    if position is not None:
        sector = next((sector for sector in sectors if sector.position == position), None)
        return PadField(seat, sector=sector) if sector is not None else None
    if address.key == WORKERS:
        return PadField(seat)
    category = CATEGORY_BY_KEY.get(address.key)
    return PadField(seat, category=category) if category is not None and category.counts_in(during) else None


def pad_fields(seats: list[Seat], sectors: list[GameSector], during: During = During.BREAKDOWN) -> list[PadField]:
    """Every field of a game's pad, player by player: the entries (those of the game's way of
    scoring the during-the-game points), the tokens, the workers."""
    fields = []
    for seat in seats:
        fields += [PadField(seat, category=category) for category in categories_of(during)]
        fields += [PadField(seat, sector=sector) for sector in sectors]
        fields.append(PadField(seat))
    return fields


NOT_CHECKED = object()


@dataclass(frozen=True)
class Guard:
    """What a save is based on (``services.pad.field_save`` reads it; the forms say it of a post).

    ``page`` names the page (one browser tab) and ``seq`` its save's number, rising with every
    save the page sends: an older save of the page that arrives after a newer one is ignored,
    and a retried save is applied once. ``version`` is the value's version the page showed (the
    pad's script); ``value`` the value it showed (a plain form post, without JavaScript);
    ``undoing`` the change an undo puts back. A save based on another version or value than the
    stored one, or an undo of a change that is no longer the value's latest, is a conflict,
    unless this page itself made the newer one (its own save that it has not heard back from).
    A step checks only the page's order: it applies to whatever is stored.
    """

    version: int | None = None
    value: object = NOT_CHECKED
    page: str = ""
    seq: int = 0
    undoing: Change | None = None

"""Specification of the keys of a seat's values (``scoring/fields.py``): a category key, the
active workers, or ``t<sector position>`` for the tokens in a comb sector. (The names the pad
posts, ``s<seat>-<key>``, and the fields they stand for are specified in
``tests/forms/test_pad.py``.) No database."""

from __future__ import annotations

import pytest

from scoring.fields import WORKERS, FieldAddress, PadField, field_address, is_key, tokens_key, tokens_position
from scoring.models import GameSector, Seat
from scoring.rules.categories import CATEGORIES


@pytest.mark.parametrize("position", [0, 1, 2, 9, 10, 99])
def test_a_sectors_tokens_key_names_its_position_and_reads_back(position):
    assert tokens_key(position) == f"t{position}"
    assert tokens_position(tokens_key(position)) == position


@pytest.mark.parametrize("key", ["farms", WORKERS, "t", "t01", "t100", "tx", "T1", "t-1", " t1", "t\uff11"])
def test_a_key_that_names_no_sector_has_no_position(key):
    assert tokens_position(key) is None


def test_keys_name_a_category_the_active_workers_or_a_sector():
    seat = Seat(number=1, name="Alice")

    assert [PadField(seat, category=category).key for category in CATEGORIES] == [c.key for c in CATEGORIES]
    assert PadField(seat).key == WORKERS == "active_workers"
    assert PadField(seat, sector=GameSector(position=2)).key == "t2"
    assert all(is_key(key) for key in [*(c.key for c in CATEGORIES), WORKERS, "t0", "t12"])
    assert not any(is_key(key) for key in ["nonsense", "", "t", "t01", "Farms", "active-workers"])


def test_an_address_gives_its_name_its_sector_and_the_kind_of_its_field():
    tokens, workers, farms = FieldAddress(2, "t1"), FieldAddress(1, WORKERS), FieldAddress(3, "farms")

    assert [address.name for address in (tokens, workers, farms)] == ["s2-t1", "s1-active_workers", "s3-farms"]
    assert [address.sector_position for address in (tokens, workers, farms)] == [1, None, None]
    assert (tokens.kind.is_tokens, tokens.kind.limits) == (True, (0, 7))
    assert (workers.kind.is_workers, workers.kind.limits) == (True, (0, 4))
    assert (farms.kind.category.key, farms.kind.limits) == ("farms", (0, 99))
    assert field_address("s2-t1") == tokens and field_address(farms.name) == farms

"""Querysets compiled once (scoring.compiled): the same rows as the ORM, whatever the argument."""

from __future__ import annotations

import pytest

from scoring.compiled import Compiled
from scoring.models import Seat
from tests.factories import game_started

pytestmark = pytest.mark.django_db


def test_a_compiled_queryset_gives_each_arguments_own_rows_with_its_annotations():
    from django.db.models import F

    seats_of = Compiled(lambda game_id: Seat.objects.filter(game_id=game_id).annotate(doubled=F("number") * 2)
                        .order_by("-number"))
    first, second = game_started("Ann", "Bob"), game_started("Cid", "Dee", "Eve")
    for game in (first, second, first):  # compiled once, run with each game
        found = list(seats_of(game.pk))
        expected = list(Seat.objects.filter(game_id=game.pk).order_by("-number"))
        assert [(seat.pk, seat.name, seat.revisions) for seat in found] == [
            (seat.pk, seat.name, seat.revisions) for seat in expected]
        assert [seat.doubled for seat in found] == [seat.number * 2 for seat in expected]
    assert list(seats_of(-1)) == []


def test_a_queryset_that_does_not_use_its_argument_is_refused():
    with pytest.raises(ValueError, match="argument"):
        list(Compiled(lambda game_id: Seat.objects.all())(1))


def test_a_text_argument_is_put_where_its_marker_was():
    names = Compiled(lambda name: Seat.objects.filter(name=name))
    game_started("Ann", "Bob")
    assert [seat.name for seat in names("Bob")] == ["Bob"]
    assert list(names("Nobody")) == []

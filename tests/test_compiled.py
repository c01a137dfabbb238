"""Querysets compiled once (scoring.compiled) and the session and account look-ups built on them
(scoring.sessions): the same rows and answers as the ORM and Django's own, whatever the argument."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from scoring.compiled import Compiled
from scoring.models import Seat
from scoring.sessions import AccountBackend, SessionStore
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


def test_a_session_is_read_as_djangos_own_store_reads_it():
    store = SessionStore()
    store["seen"] = 3
    store.create()
    assert SessionStore(store.session_key)["seen"] == 3


def test_an_expired_session_is_none():
    store = SessionStore()
    store["seen"] = 3
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(store.session_key)
    assert again.get("seen") is None and again.session_key is None


def test_a_signed_in_phone_stays_signed_in_and_a_deactivated_account_does_not(owner):
    client = Client()
    client.force_login(owner)
    assert client.get("/").context["user"] == owner
    assert AccountBackend().get_user(owner.pk) == owner
    User.objects.filter(pk=owner.pk).update(is_active=False)
    assert AccountBackend().get_user(owner.pk) is None
    assert not client.get("/").context["user"].is_authenticated
    assert AccountBackend().get_user(10**9) is None

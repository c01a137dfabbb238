"""A database that refuses to write is met with words (apiary_site/faults.py), whatever the write:
the session too, which Django saves as the answer leaves, after every view has returned.

A full disk on the pad's own saves is ``tests/site/test_production.py``; a save waiting for SQLite's
lock longer than its timeout, ``tests/site/test_sqlite_writers.py``."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

from scoring.services.sharing import link_renew
from scoring.views import pad as pad_views
from tests.support.factories import game_started

pytestmark = pytest.mark.django_db


@contextmanager
def sessions_locked(monkeypatch):
    """Within the block the database answers every write to the sessions' table as SQLite does
    when another writer holds its lock past the timeout ("database is locked"); everything else,
    reads of the sessions included, as usual."""
    execute = CursorWrapper.execute

    def locked(self, sql, params=None):
        if sql.lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE")) and "django_session" in sql:
            raise OperationalError("database is locked")
        return execute(self, sql, params)

    with monkeypatch.context() as patched:
        patched.setattr(CursorWrapper, "execute", locked)
        yield


def holder_of_the_edit_link(game) -> Client:
    """A phone without an account that opened the game's edit link (its session remembers it)."""
    phone = Client()
    link = link_renew(game=game, access="edit")
    assert phone.get(reverse("scoring:join", args=[link.token])).status_code == 302
    return phone


@pytest.mark.parametrize(
    ("name", "posted"),
    [("who", {"seat": "2"}), ("name", {"name": "Bruno's phone"})],
    ids=["which player are you", "the holder's name"],
)
def test_a_choice_the_session_cannot_keep_is_answered_as_any_save_the_database_refuses(monkeypatch, name, posted):
    game = game_started("Alice", "Bruno")
    phone = holder_of_the_edit_link(game)

    with sessions_locked(monkeypatch):
        refused = phone.post(reverse(f"scoring:{name}", args=[game.public_id]), posted)

    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    html = refused.content.decode()
    assert "Cannot save right now" in html and "The server cannot save right now" in html
    assert "too big" not in html
    assert refused["X-Frame-Options"] == "DENY" and "default-src 'self'" in refused["Content-Security-Policy"]
    # Once the database writes again, the same choice is kept.
    assert phone.post(reverse(f"scoring:{name}", args=[game.public_id]), posted).status_code == 302


def test_the_pads_script_gets_the_sentence_when_the_session_cannot_be_kept(monkeypatch):
    game = game_started("Alice", "Bruno")
    phone = holder_of_the_edit_link(game)

    with sessions_locked(monkeypatch):
        refused = phone.post(
            reverse("scoring:name", args=[game.public_id]), {"name": "Bruno"}, headers={"HX-Request": "true"}
        )

    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    assert refused["Content-Type"] == "text/plain; charset=utf-8"
    assert refused.content.decode().startswith("The server cannot save right now")


def test_a_new_session_the_database_cannot_store_is_answered_in_words_too(monkeypatch):
    """A first visit that starts a session (a share link opened) while the database refuses to
    write: a 503 in words, not Django's bare 500."""
    game = game_started("Alice", "Bruno")
    link = link_renew(game=game, access="edit")

    with sessions_locked(monkeypatch):
        refused = Client(raise_request_exception=False).get(reverse("scoring:join", args=[link.token]))

    assert refused.status_code == 503 and refused["Retry-After"] == "5"
    assert "The server cannot read its database right now" in refused.content.decode()


def test_a_session_ended_meanwhile_is_still_djangos_refusal(monkeypatch):
    """A session deleted while the request ran (signed out in another tab) is no fault of the
    database: Django's own 400 stays."""
    game = game_started("Alice", "Bruno")
    phone = holder_of_the_edit_link(game)
    remember = pad_views.link_name_set

    def remember_as_the_session_ends(request, access, name):
        remember(request, access, name)
        Session.objects.filter(session_key=request.session.session_key).delete()

    monkeypatch.setattr(pad_views, "link_name_set", remember_as_the_session_ends)
    interrupted = phone.post(reverse("scoring:name", args=[game.public_id]), {"name": "Bruno"})

    assert interrupted.status_code == 400

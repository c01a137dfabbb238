"""SQLite as the settings configure it: Django's own backend with WAL (readers go on while one
writer writes), ``synchronous=NORMAL``, and write transactions that take the write lock when they
begin (``BEGIN IMMEDIATE``), so a second writer waits at its start until the first ends; a writer
still waiting after the ``timeout`` gets SQLite's own "database is locked", which the app
answers with a 503 in words.

Most tests open their own connections to a database file of their own, configured by the
settings module run with ``DATABASE_URL`` naming that file, so they run whichever database the
suite runs on. Four processes saving one game at once on SQLite are ``tests/test_concurrency.py``;
a database that refuses writes for another reason (a full disk) is ``tests/site/test_production.py``."""

from __future__ import annotations

import runpy
import threading
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.db.utils import ConnectionHandler
from django.test import Client
from django.urls import reverse

from tests.support.factories import game_started

SETTINGS = Path(__file__).resolve().parents[2] / "apiary_site" / "settings.py"


@pytest.fixture
def sqlite_settings(tmp_path, monkeypatch) -> dict:
    """The settings' database for ``DATABASE_URL=sqlite:///<a file of the test's own>``."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'writers.sqlite3'}")
    return runpy.run_path(str(SETTINGS))["DATABASES"]["default"]


@pytest.fixture
def database(sqlite_settings, django_db_blocker):
    """Opens connections to that database (a shorter ``timeout`` where asked); it holds one table."""
    handlers = []

    def connect(timeout: float | None = None):
        options = dict(sqlite_settings["OPTIONS"])
        if timeout is not None:
            options["timeout"] = timeout
        handler = ConnectionHandler({"default": {**sqlite_settings, "OPTIONS": options}})
        handlers.append(handler)
        wrapper = handler["default"]
        wrapper.inc_thread_sharing()  # (a test may hand it to a thread of its own)
        return wrapper

    with django_db_blocker.unblock():  # (pytest-django keeps tests off the database; this is a file of its own)
        first = connect()
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE seat (id integer PRIMARY KEY, points integer)")
            cursor.execute("INSERT INTO seat VALUES (1, 0)")
        yield connect
        for handler in handlers:
            handler.close_all()


def begin(wrapper) -> None:
    """What ``transaction.atomic`` does on entry, on that connection."""
    wrapper.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def end(wrapper, *, commit: bool = True) -> None:
    """What ``transaction.atomic`` does on exit."""
    wrapper.commit() if commit else wrapper.rollback()
    wrapper.set_autocommit(True)


def add_point(wrapper) -> None:
    with wrapper.cursor() as cursor:
        cursor.execute("UPDATE seat SET points = points + 1 WHERE id = 1")


def points(wrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT points FROM seat WHERE id = 1")
        return cursor.fetchone()[0]


def test_sqlite_is_djangos_own_backend_in_wal_with_immediate_transactions(sqlite_settings, database):
    assert sqlite_settings["ENGINE"] == "django.db.backends.sqlite3"
    assert sqlite_settings["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert sqlite_settings["OPTIONS"]["timeout"] == 5  # shorter than the pad's 15 s time-out for a save
    wrapper = database()
    with wrapper.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL


def test_a_reader_goes_on_while_a_writer_holds_the_lock(database):
    writer, reader = database(), database(timeout=0.05)
    begin(writer)
    add_point(writer)
    assert points(reader) == 0  # at once, the last committed value (WAL)
    end(writer)
    assert points(reader) == 1


def test_a_second_writer_waits_at_its_start_and_begins_once_the_first_commits(database):
    first, second = database(), database()
    begin(first)
    add_point(first)
    began = threading.Event()

    def write():
        begin(second)  # BEGIN IMMEDIATE: the write lock, or a wait for it
        began.set()
        add_point(second)
        end(second)

    thread = threading.Thread(target=write)
    thread.start()
    assert not began.wait(0.3), "the second writer began while the first held the lock"
    end(first)
    thread.join(10)
    assert began.is_set() and not thread.is_alive()
    assert points(first) == 2  # both writes kept, one after the other


def test_a_writer_that_waits_longer_than_the_timeout_gets_sqlites_own_error(database):
    first, second = database(), database(timeout=0.05)
    begin(first)
    with pytest.raises(OperationalError, match="database is locked"):
        begin(second)
    assert second.get_autocommit()  # no transaction half begun: the connection is as before
    end(first)
    begin(second)
    end(second)


@pytest.mark.django_db(transaction=True)
def test_a_save_that_cannot_get_the_game_in_time_is_answered_503_in_words(owner):
    """Another worker's save holds the game longer than the database waits (SQLite's write lock,
    or the game's row on PostgreSQL; the wait shortened for the test): the save is answered 503 in
    words, with when to try again, and saved once the lock is free."""
    game = game_started("Ann", "Bob", owner=owner)
    client = Client()
    client.force_login(owner)
    other = ConnectionHandler({"default": dict(connection.settings_dict)})["default"]
    options = connection.settings_dict["OPTIONS"]
    kept = dict(options)
    begin(other)
    with other.cursor() as cursor:  # another worker's save, under way
        cursor.execute("UPDATE scoring_game SET revision = revision WHERE id = %s", [game.pk])
    try:
        connection.close()
        if connection.vendor == "sqlite":
            options["timeout"] = 0.1
        else:
            options["options"] = "-c lock_timeout=100"
        saved = client.post(
            reverse("scoring:save", args=[game.public_id]),
            {"field": "s1-recruits", "value": "3", "version": "0", "page": "p", "seq": "1"},
            headers={"Accept": "text/plain, text/html;q=0.9"},
        )  # as pad.js sends a save
    finally:
        options.clear()
        options.update(kept)
        connection.close()
        end(other, commit=False)
        other.close()
    assert saved.status_code == 503
    assert saved["Retry-After"] == "5"
    assert saved.content.decode().startswith("The server cannot save right now")
    saved = client.post(
        reverse("scoring:save", args=[game.public_id]),
        {"field": "s1-recruits", "value": "3", "version": "0", "page": "p", "seq": "2"},
        headers={"Accept": "text/plain, text/html;q=0.9"},
    )
    assert saved.status_code == 200  # the lock free again, the value typed is saved when sent again

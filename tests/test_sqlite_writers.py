"""The SQLite backend (apiary_site/sqlite): write transactions of every connection queue in a file
lock beside the database, so the next writer begins as soon as the last one ends (instead of
sleeping in SQLite's busy handler), and a writer still gives up after the ``timeout`` option
with SQLite's own "database is locked".

Each test opens its own connections to a database file of its own (not the test database), so
it runs whichever database the suite runs on."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from apiary_site.sqlite.base import writers_path


@pytest.fixture(autouse=True)
def own_connections(django_db_blocker):
    """(pytest-django keeps tests off the database; these connect to files of their own.)"""
    with django_db_blocker.unblock():
        yield


@pytest.fixture
def database(tmp_path):
    path = tmp_path / "writers.sqlite3"
    handlers = []

    def connect(timeout: float = 5):
        handler = ConnectionHandler({"default": {
            "ENGINE": "apiary_site.sqlite", "NAME": str(path),
            "OPTIONS": {"timeout": timeout, "transaction_mode": "IMMEDIATE"},
        }})
        handlers.append(handler)
        wrapper = handler["default"]
        wrapper.inc_thread_sharing()  # (a test may hand it to a thread of its own)
        return wrapper

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


def test_a_second_writer_waits_for_the_first_and_begins_once_it_commits(database):
    first, second = database(), database()
    begin(first)
    add_point(first)
    began = threading.Event()

    def write():
        begin(second)
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


@pytest.mark.parametrize("commit", [True, False], ids=["commit", "rollback"])
def test_the_lock_is_given_back_when_the_transaction_ends(database, commit):
    first, second = database(), database(timeout=0.05)
    begin(first)
    add_point(first)
    end(first, commit=commit)
    begin(second)  # at once: nothing holds it
    add_point(second)
    end(second)
    assert points(second) == (2 if commit else 1)


def test_the_lock_is_given_back_when_the_connection_closes(database):
    first, second = database(), database(timeout=0.05)
    begin(first)
    add_point(first)
    first.close()  # a worker's connection closed mid-transaction: SQLite rolls it back
    begin(second)
    end(second)
    assert points(second) == 0


def test_a_writer_that_waits_longer_than_the_timeout_gets_sqlites_own_error(database):
    first, second = database(), database(timeout=0.05)
    begin(first)
    with pytest.raises(OperationalError, match="database is locked"):
        begin(second)
    assert second.get_autocommit()  # no transaction half begun: the connection is as before
    end(first)
    begin(second)
    end(second)


def test_the_lock_file_lies_beside_the_database(database, tmp_path):
    database()
    assert os.path.exists(writers_path(str(tmp_path / "writers.sqlite3")))


def test_an_in_memory_database_has_no_lock_file(tmp_path):
    handler = ConnectionHandler({"default": {"ENGINE": "apiary_site.sqlite", "NAME": ":memory:"}})
    wrapper = handler["default"]
    begin(wrapper)
    end(wrapper)
    assert wrapper._writers_fd is None
    handler.close_all()

"""Fixtures shared by the whole suite.

``owner`` is the account that owns the games of ``tests/factories.py``; ``owner_client`` is a
test client signed in as that account (the phone of the game's owner). Modules about the pad
itself make their ``client`` that phone (see ``tests/views/conftest.py``); pytest-django's own
``client`` stays an anonymous visitor everywhere else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests import factories


@pytest.fixture
def owner(db):
    """The account that owns the games the factories create."""
    return factories.owner()


@pytest.fixture
def owner_client(owner) -> Client:
    """A phone signed in as the owner of the games."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def other_user(db):
    """A signed-in account that neither owns the games nor holds any of their links."""
    return factories.user("stranger")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Accounts are made by the hundred here: hash their passwords cheaply (tests only)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _sqlite_test_database_files():
    """Django deletes the SQLite test database's file when the run ends (after this fixture's
    start: it ends after), but not the two files WAL keeps beside it while a connection is open
    (a thread's, a live server's): they go too, so no run leaves files behind in the temporary
    folder."""
    yield
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3" and database.get("TEST", {}).get("NAME"):
        for suffix in ("-wal", "-shm"):
            Path(database["TEST"]["NAME"] + suffix).unlink(missing_ok=True)

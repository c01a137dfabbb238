"""Fixtures shared by the whole suite.

``owner`` is the account that owns the games of ``tests/factories.py``; ``owner_client`` is a
test client signed in as that account (the phone of the game's owner). Modules about the pad
itself make their ``client`` that phone (see ``tests/test_views.py``); pytest-django's own
``client`` stays an anonymous visitor everywhere else.
"""

from __future__ import annotations

import pytest
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

"""The phone of the view tests: the games' owner's (``tests/conftest.py``'s ``owner_client``).
These tests are about the pages themselves; who else may reach a game, and what they may do, is
``tests/test_permissions.py``."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def client(owner_client) -> Client:
    return owner_client

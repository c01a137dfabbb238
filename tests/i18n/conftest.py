"""Fixtures of the tests of the two languages: every test starts in English, and ``french`` is
the owner's phone, whose browser asks for French.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.i18n.helpers import FR


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A French request leaves French active in the test's thread: every test after it (of this
    package or another) starts in English again."""
    yield
    translation.deactivate()


@pytest.fixture
def french(owner) -> Client:
    """The owner's phone, whose browser asks for French."""
    client = Client(**FR)
    client.force_login(owner)
    return client

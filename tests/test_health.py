"""``/healthz`` answers 200 while the database answers, and 503 (in words) when it does not."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_healthz_answers_while_the_database_does(client, django_assert_num_queries):
    with django_assert_num_queries(1):  # one row read, no session, no account
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode().startswith("ok")
    assert "no-cache" in response["Cache-Control"]


def test_healthz_says_503_when_the_database_does_not_answer(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(self, sql, params=None):
        raise DatabaseError("the disk is gone")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert "the database does not answer" in response.content.decode()


def test_healthz_takes_no_post(client):
    assert client.post(reverse("healthz")).status_code == 405

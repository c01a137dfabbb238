"""``/healthz`` answers 200 while the database answers, and 503 (in words) when it does not;
HEAD asks it (and any page) without a body."""

from __future__ import annotations

import io
from contextlib import contextmanager

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, close_old_connections
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


@contextmanager
def database_kept():
    """As Django's test client does: the end of a request must not close the test's connection
    (and its transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def served(method: str, path: str) -> tuple[str, dict[str, str], bytes]:
    """The site's answer as a WSGI server gets it from the application (status, headers, every
    byte of the body it is handed to send), before any server's own handling of HEAD."""
    started = {}

    def start_response(status, headers, exc_info=None):
        started.update(status=status, headers=dict(headers))

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "192.0.2.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
    }
    with database_kept():
        result = WSGIHandler()(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            result.close()
    return started["status"], started["headers"], body


@pytest.mark.parametrize("name", ["healthz", "login"])
def test_head_sends_no_body_whatever_server_runs_the_site(name):
    get, head = served("GET", reverse(name)), served("HEAD", reverse(name))
    assert get[0] == head[0] == "200 OK"
    assert len(get[2]) > 0
    assert head[2] == b""
    assert head[1]["Content-Length"] == get[1]["Content-Length"]  # what GET would send
    assert head[1]["Content-Type"] == get[1]["Content-Type"]

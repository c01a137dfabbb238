"""The site's log (apiary_site/logs.py, ``LOGGING`` in the settings): every logger writes through
the one filter, so a refusal is one line, an outage one line a request, and a share link's token
is never written down, whoever logs it.

What is read here is what the log's handler writes (the settings' ``console``), as an operator
reads it: not the records pytest keeps."""

from __future__ import annotations

import io
import logging
from urllib.parse import urlencode

import pytest
from django.db import DatabaseError, OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

from scoring.services.sharing import link_renew, link_revoke
from scoring.views import sharing
from tests.support.factories import game_started

pytestmark = pytest.mark.django_db


@pytest.fixture
def log():
    """The lines the settings' log handler writes during the test."""
    handler = logging.getHandlerByName("console")
    written = io.StringIO()
    previous = handler.setStream(written)

    def lines() -> list[str]:
        return written.getvalue().splitlines()

    yield lines
    handler.setStream(previous)


@pytest.fixture
def server_log():
    """The lines the development server's request log (``runserver``'s ``django.server``) writes."""
    handler = logging.getHandlerByName("django.server")
    assert handler is not None, "the settings give the development server's log a handler of their own"
    written = io.StringIO()
    previous = handler.setStream(written)
    yield lambda: written.getvalue().splitlines()
    handler.setStream(previous)


# ---------------------------------------------------------------------------------------------
# A share link's token is never written down


def test_a_share_links_token_is_never_written_in_the_request_log(log, owner):
    game = game_started("Ann", owner=owner)
    link = link_renew(game=game, access="edit")
    link_revoke(game=game, access="edit")  # the link opened after it was revoked: a 404

    gone = Client().get(reverse("scoring:join", args=[link.token]))
    unknown = Client().get("/join/a-token-that-never-was/")

    assert gone.status_code == unknown.status_code == 404
    assert log() == ["Not Found: /join/…/", "Not Found: /join/…/"]


def test_a_database_fault_on_a_share_link_writes_no_token(log, owner, monkeypatch):
    """SQLite locked, or PostgreSQL gone, while a link is opened: the line that says so keeps the
    link's secret, and is the only line of that request."""
    game = game_started("Ann", owner=owner)
    link = link_renew(game=game, access="edit")

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(sharing, "link_open", locked)
    refused = Client().get(reverse("scoring:join", args=[link.token]))

    assert refused.status_code == 503
    assert log() == ["The database refused GET /join/…/: database is locked"]


@pytest.mark.parametrize("name", ["scoring.anywhere", "django.db.backends", "gunicorn.error"])
def test_every_logger_writes_through_the_filter(log, name):
    logging.getLogger(name).warning("opened /join/%s/ at last", "a-secret-token")

    assert log() == ["opened /join/…/ at last"]


def test_the_development_servers_request_log_writes_no_token_either(server_log):
    logging.getLogger("django.server").info('"%s" %s %s', "GET /join/a-secret-token/ HTTP/1.1", "302", "0")

    [line] = server_log()
    assert "a-secret-token" not in line and '"GET /join/…/ HTTP/1.1" 302 0' in line


def test_a_password_reset_links_token_is_never_written_either(server_log):
    """A reset link sets a new password: its token goes, the account's part and the page it leads
    on to (which holds no secret) stay."""
    server = logging.getLogger("django.server")
    server.info('"%s" %s %s', "GET /accounts/reset/MQ/cx3k2a-0123abcd/ HTTP/1.1", "302", "0")
    server.info('"%s" %s %s', "GET /accounts/reset/MQ/set-password/ HTTP/1.1", "200", "9")

    first, then = server_log()
    assert "cx3k2a-0123abcd" not in first and '"GET /accounts/reset/MQ/…/ HTTP/1.1" 302 0' in first
    assert '"GET /accounts/reset/MQ/set-password/ HTTP/1.1" 200 9' in then


def test_a_traceback_written_for_a_fault_of_the_site_keeps_the_token_out(log):
    try:
        raise RuntimeError("while opening /join/a-secret-token/")
    except RuntimeError:
        logging.getLogger("scoring.anywhere").exception("a bug")

    written = "\n".join(log())
    assert "Traceback" in written and "a-secret-token" not in written and "/join/…/" in written


# ---------------------------------------------------------------------------------------------
# A refusal is one line, without a traceback


def test_a_view_link_holders_refused_save_is_one_line(log, owner):
    game = game_started("Ann", "Bob", owner=owner)
    link = link_renew(game=game, access="view")
    mate = Client()
    mate.get(reverse("scoring:join", args=[link.token]))

    refused = mate.post(
        reverse("scoring:save", args=[game.public_id]), {"field": "s1-farms", "value": "3", "version": "0"}
    )

    assert refused.status_code == 403
    assert log() == [f"Forbidden (Permission denied): /games/{game.public_id}/save/"]


def test_a_request_for_another_host_is_one_line(log):
    refused = Client().get(reverse("login"), headers={"host": "evil.example"})

    assert refused.status_code == 400
    [line] = log()
    assert line.startswith("Invalid HTTP_HOST header: 'evil.example'.")


def test_a_body_over_the_limit_is_one_line(log):
    refused = Client().post(
        reverse("login"),
        urlencode({"username": "x" * (300 * 1024), "password": "y"}),
        content_type="application/x-www-form-urlencoded",
    )

    assert refused.status_code == 413
    assert log() == ["Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."]


def test_too_many_fields_is_one_line(settings, log):
    refused = Client().post(reverse("login"), {f"f{n}": "x" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)})

    assert refused.status_code == 400
    assert log() == ["The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS."]


# ---------------------------------------------------------------------------------------------
# An outage is one line a request


def test_healthz_during_an_outage_is_one_line_a_check(log, monkeypatch):
    def gone(self, sql, params=None):
        raise DatabaseError("connection to server failed: Connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", gone)
    for _ in range(3):
        assert Client().get(reverse("healthz")).status_code == 503

    assert log() == ["healthz: the database does not answer: connection to server failed: Connection refused"] * 3

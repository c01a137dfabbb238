"""The site's one server (``apiary_site/server.py``), run as docs/operations.md and ``make run``
run it, with 2 workers on a database of its own:

- slow clients, sending a request's headers or a form's body a byte at a time, hold no worker:
  granian reads headers on its own event loop, and asgiref's front reads a body whole before the
  site sees it; ``/healthz`` answers while two of them are at work, and while two for every
  worker are;
- its access log writes neither a share link's token nor a password-reset link's, and its own
  log no more.

Nothing here is timed: ``/healthz`` is given a generous 10 s, and a slow client would take a
minute to send its whole request.
"""

from __future__ import annotations

import json
import logging
import logging.config
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path

import pytest

from apiary_site import server as site_server
from tests.support.deployment import ROOT, free_port, manage, production_env, wait_until_serving

WORKERS = 2
BYTE_PAUSE = 0.02  # a slow client sends a byte every 20 ms...
PADDING = 3000  # ...of a request this much longer than it needs: a minute to send it all
HEALTHZ_TIMEOUT = 10
CSRF_SECRET = "s" * 32  # a client may choose its CSRF cookie; the same in the header passes Django's check
SETUP = """
import json
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from scoring.services.games import PlayerSetup, game_create
from scoring.services.sharing import link_renew
owner = User.objects.create_user("club", email="club@example.org", password="a-long-pass-phrase-serving")
game = game_create(players=[PlayerSetup("Alice")], sectors=[], owner=owner)
print(json.dumps({
    "share_token": link_renew(game=game, access="edit").token,
    "reset_account": urlsafe_base64_encode(force_bytes(owner.pk)),
    "reset_token": default_token_generator.make_token(owner),
}))
"""


@dataclass
class Served:
    host: str
    port: int
    access_log: Path
    share_token: str
    reset_account: str
    reset_token: str


def served_env(folder: Path) -> dict[str, str]:
    """The production settings on a SQLite database of ``folder``, the server's workers as the
    tests count them, its access log on."""
    return {
        **production_env(database_url=f"sqlite:///{folder / 'site.sqlite3'}", static_root=folder / "static"),
        "SERVER_WORKERS": str(WORKERS),
        "ACCESS_LOG": "true",
        # The reset mail goes to a loopback port where nothing listens: refused at once, and said.
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(free_port()),
    }


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    """The documented command, ``python -m apiary_site.server``, with 2 workers, what it writes
    (its log and its access log) in a file; an account with a game and its edit link."""
    folder = tmp_path_factory.mktemp("served")
    (folder / "static").mkdir()
    env = served_env(folder)
    manage(env, "migrate", "-v", "0")
    made = json.loads(manage(env, "shell", "-c", SETUP))
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as written:
        process = subprocess.Popen(
            [sys.executable, "-m", "apiary_site.server", "127.0.0.1", str(port)],
            cwd=ROOT,
            env=env,
            stdout=written,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_serving(process, log, port, workers=WORKERS, within=60)
        yield Served("127.0.0.1", port, log, **made)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)


def healthz_status(port: int, timeout: float = HEALTHZ_TIMEOUT) -> int | None:
    """``/healthz``'s status, or None when it did not answer within ``timeout``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout) as answer:
            return answer.status
    except OSError:
        return None


# ---------------------------------------------------------------------------------------------
# Slow clients


class SlowClient(threading.Thread):
    """A client that sends ``at_once``, then ``by_byte`` a byte at a time, and says how it ended:
    "cut off" when the server answered or hung up before the request was all sent, "sent" when
    the whole of it went through, "stopped" when the test ended it first."""

    def __init__(self, served: Served, at_once: bytes, by_byte: bytes):
        super().__init__(daemon=True)
        self.address = (served.host, served.port)
        self.at_once, self.by_byte = at_once, by_byte
        self.outcome = ""
        self.under_way = threading.Event()  # set once it has sent its first few bytes a byte at a time
        self.stopping = threading.Event()

    def run(self) -> None:
        with socket.create_connection(self.address, timeout=HEALTHZ_TIMEOUT) as connection:
            self.outcome = self._send(connection)
        self.under_way.set()  # (whatever happened: nobody waits for it in vain)

    def _send(self, connection: socket.socket) -> str:
        connection.sendall(self.at_once)
        for sent, byte in enumerate(self.by_byte):
            answered, _, _ = select.select([connection], [], [], 0)
            if answered:
                return "cut off"
            try:
                connection.send(bytes([byte]))
            except OSError:
                return "cut off"
            if sent == 20:
                self.under_way.set()
            if self.stopping.wait(BYTE_PAUSE):
                return "stopped"
        return "sent"


def headers_by_byte(served: Served) -> SlowClient:
    """A request whose line and headers come a byte at a time."""
    head = f"GET /healthz HTTP/1.1\r\nHost: {served.host}\r\nX-Padding: {'x' * PADDING}\r\n\r\n"
    return SlowClient(served, b"", head.encode())


def body_by_byte(served: Served) -> SlowClient:
    """A form (the language switch's, which Django reads for its CSRF check first) whose headers
    come at once and whose body comes a byte at a time."""
    body = f"language=fr&next=/&padding={'x' * PADDING}".encode()
    head = (
        f"POST /i18n/setlang/ HTTP/1.1\r\nHost: {served.host}\r\n"
        f"Cookie: csrftoken={CSRF_SECRET}\r\nX-CSRFToken: {CSRF_SECRET}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return SlowClient(served, head.encode(), body)


@contextmanager
def at_work(clients: list[SlowClient]) -> Iterator[None]:
    """The slow clients started and under way (each sending a byte at a time); stopped after."""
    for client in clients:
        client.start()
    try:
        for client in clients:
            assert client.under_way.wait(HEALTHZ_TIMEOUT), "a slow client could not start sending"
        yield
    finally:
        for client in clients:
            client.stopping.set()
        for client in clients:
            client.join(HEALTHZ_TIMEOUT)


def test_two_slow_clients_leave_healthz_answering(served):
    """The review's attack: one client sends a request's headers a byte at a time, another a
    form's body. Each would hold a worker that reads its request itself (a sync worker, until its
    30 s time-out); here they wait on the server's event loop, and ``/healthz`` answers."""
    with at_work([headers_by_byte(served), body_by_byte(served)]):
        assert healthz_status(served.port) == 200


def test_two_slow_clients_for_every_worker_leave_healthz_answering(served):
    """As many slow clients as a worker has threads would stall a threaded worker: here neither
    headers nor bodies coming a byte at a time hold any, however many there are."""
    clients = [(headers_by_byte if number % 2 else body_by_byte)(served) for number in range(2 * WORKERS)]
    with at_work(clients):
        assert healthz_status(served.port) == 200
        assert healthz_status(served.port) == 200
    assert "stopped" in {client.outcome for client in clients}  # (still sending when the test ended them)


# ---------------------------------------------------------------------------------------------
# After the answer


def test_a_password_reset_mails_once_its_answer_has_left(served):
    """The reset form's answer comes first; its mail is sent when the server closes the answer
    (PEP 3333's ``close()``, ``SendAfterAnswer``): here the mail server refuses, and Django's log
    says so, which it could only do once the answer was closed."""
    body = "email=club%40example.org"
    connection = HTTPConnection(served.host, served.port, timeout=HEALTHZ_TIMEOUT)
    try:
        connection.request(
            "POST",
            "/accounts/password_reset/",
            body=body,
            headers={
                "Cookie": f"csrftoken={CSRF_SECRET}",
                "X-CSRFToken": CSRF_SECRET,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        assert connection.getresponse().status == 302
    finally:
        connection.close()
    assert "Failed to send password reset email" in access_log_once_it_says(
        served, "Failed to send password reset email"
    )


# ---------------------------------------------------------------------------------------------
# No token in the server's logs


def access_log_once_it_says(served: Served, *parts: str) -> str:
    """The access log once it says each of ``parts`` (the server writes a request's line once its
    answer has left)."""
    deadline = time.monotonic() + HEALTHZ_TIMEOUT
    while not all(part in (written := served.access_log.read_text(encoding="utf-8")) for part in parts):
        if time.monotonic() > deadline:
            return written
        time.sleep(0.1)
    return written


def get(served: Served, path: str, **headers: str) -> int:
    """A GET's status, its redirect not followed."""
    connection = HTTPConnection(served.host, served.port, timeout=HEALTHZ_TIMEOUT)
    try:
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_access_log_writes_no_share_link_nor_reset_link_token(served):
    """A share link opened, a password-reset link opened (which leads on to the page that sets
    a new password): each has its line, the tokens masked as Django's own log masks them."""
    reset_link = f"/accounts/reset/{served.reset_account}/{served.reset_token}/"

    assert get(served, f"/join/{served.share_token}/") == 302
    assert get(served, reset_link) == 302

    lines = ('"GET /join/…/ HTTP/1.1" 302', f'"GET /accounts/reset/{served.reset_account}/…/ HTTP/1.1" 302')
    written = access_log_once_it_says(served, *lines)
    assert served.share_token not in written and served.reset_token not in written
    for line in lines:
        assert line in written


@pytest.fixture
def granians_own_loggers():
    """granian's two loggers as they are, put back after the test (they are this process's)."""
    loggers = [logging.getLogger("_granian"), logging.getLogger("granian.access")]
    kept = [(log.handlers[:], log.filters[:], log.level, log.propagate, log.disabled) for log in loggers]
    yield
    for log, (handlers, filters, level, propagate, disabled) in zip(loggers, kept, strict=True):
        log.handlers[:], log.filters[:], log.level, log.propagate, log.disabled = (
            handlers,
            filters,
            level,
            propagate,
            disabled,
        )


def test_the_servers_own_log_writes_no_token_either(capsys, granians_own_loggers):
    """An error about a request may name its path: granian's log, as the server configures it,
    passes the settings' one filter."""
    from granian.log import LOGGING_CONFIG

    logging.config.dictConfig({**LOGGING_CONFIG, **site_server.log_config()})

    logging.getLogger("_granian").error("Error handling request %s", "/join/a-secret-token/")
    logging.getLogger("granian.access").info("%(path)s", {"path": "/accounts/reset/MQ/a-secret-token/"})

    written = capsys.readouterr().out
    assert "a-secret-token" not in written
    assert "Error handling request /join/…/" in written and "/accounts/reset/MQ/…/" in written

"""The server's front (``apiary_site.server.Front``): each request read whole on the event loop,
answered in the site's one thread, sent, then closed in that thread. The server it runs in is
run for real in tests/site/test_serving.py."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from apiary_site.server import Front, environ_of

SCOPE = {
    "type": "http",
    "http_version": "1.1",
    "method": "POST",
    "scheme": "http",
    "path": "/games/é/save/",
    "query_string": b"player=2",
    "root_path": "",
    "server": ("192.168.1.23", 8000),
    "client": ("192.168.1.40", 51000),
    "headers": [
        (b"host", b"192.168.1.23:8000"),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"content-length", b"11"),
        (b"accept", b"text/html"),
        (b"accept", b"text/plain"),
    ],
}


class Site:
    """A WSGI site that keeps what it was asked, in which thread, and when its answer closed."""

    def __init__(self, fail: bool = False):
        self.asked: list[dict[str, Any]] = []
        self.threads: list[str] = []
        self.fail = fail
        self.events: list[str] = []

    def __call__(self, environ, start_response):
        self.asked.append({**environ, "body": environ["wsgi.input"].read()})
        self.threads.append(threading.current_thread().name)
        start_response("200 OK", [("Content-Type", "text/plain")])
        site = self

        class Body:
            def __iter__(self):
                if site.fail:
                    raise RuntimeError("broken answer")
                yield b"saved"

            def close(self):
                site.threads.append(threading.current_thread().name)
                site.events.append("closed")

        return Body()


def served(front: Front, messages: list[dict[str, Any]], scope: dict[str, Any] = SCOPE) -> list[dict[str, Any]]:
    """What ``front`` sent for a request whose body comes as ``messages``."""
    sent: list[dict[str, Any]] = []
    waiting = list(messages)

    async def receive():
        await asyncio.sleep(0)  # (each part comes later, as over a slow network)
        return waiting.pop(0)

    async def send(message):
        sent.append(message)
        front.application.events.append(message["type"])

    run_apart(front(scope, receive, send))
    return sent


def run_apart(coroutine) -> None:
    """``coroutine`` run to its end on an event loop of its own thread, as granian's worker runs
    the front (this test's thread may hold Playwright's loop, which the browser tests leave)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def parts(*chunks: bytes) -> list[dict[str, Any]]:
    return [
        {"type": "http.request", "body": chunk, "more_body": number < len(chunks) - 1}
        for number, chunk in enumerate(chunks)
    ]


def test_the_site_sees_the_body_whole_and_the_request_as_wsgi_says():
    site = Site()
    sent = served(Front(site), parts(b"value", b"=7", b"&x=1"))

    asked = site.asked[0]
    assert asked["body"] == b"value=7&x=1"
    assert asked["REQUEST_METHOD"] == "POST" and asked["QUERY_STRING"] == "player=2"
    assert asked["PATH_INFO"] == "/games/é/save/".encode().decode("latin1")  # (PEP 3333: bytes as latin-1)
    assert asked["CONTENT_LENGTH"] == "11" and asked["CONTENT_TYPE"] == "application/x-www-form-urlencoded"
    assert asked["HTTP_HOST"] == "192.168.1.23:8000" and asked["HTTP_ACCEPT"] == "text/html,text/plain"
    assert asked["REMOTE_ADDR"] == "192.168.1.40" and asked["wsgi.url_scheme"] == "http"
    assert sent[0] == {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
    assert sent[1] == {"type": "http.response.body", "body": b"saved"}


def test_the_answer_is_closed_once_sent_in_the_sites_own_thread():
    """PEP 3333's ``close()`` after the last byte: Django's end of the request, and the mail a
    password reset sends then, in the thread that made the answer."""
    site = Site()
    served(Front(site), parts(b"value=7&x=1"))

    assert site.events == ["http.response.start", "http.response.body", "closed"]
    assert site.threads[0] == site.threads[1] != threading.current_thread().name


def test_every_request_of_a_front_is_answered_in_its_one_thread():
    site, front = Site(), None
    front = Front(site)
    for _ in range(3):
        served(front, parts(b"value=7&x=1"))
    assert len(set(site.threads)) == 1


def test_a_body_longer_than_any_the_site_takes_is_left_unread_for_the_site_to_refuse_by_its_length():
    site = Site()
    scope = {**SCOPE, "headers": [(b"content-length", b"5000")]}
    served(Front(site, max_body=1000), [{"type": "http.request", "body": b"x" * 1000, "more_body": True}], scope)

    assert site.asked[0]["CONTENT_LENGTH"] == "5000" and site.asked[0]["body"] == b""


def test_a_body_without_a_length_that_runs_past_the_limit_is_refused_before_the_site():
    site = Site()
    scope = {**SCOPE, "headers": []}
    sent = served(Front(site, max_body=10), parts(b"x" * 8, b"x" * 8, b"x"), scope)

    assert sent[0]["status"] == 413 and site.asked == []


def test_a_client_gone_before_its_body_ends_is_not_answered():
    site = Site()
    sent = served(Front(site), [*parts(b"val", b"ue")[:1], {"type": "http.disconnect"}])

    assert sent == [] and site.asked == []


def test_a_broken_answer_is_closed_and_said():
    site = Site(fail=True)
    with pytest.raises(RuntimeError, match="broken answer"):
        served(Front(site), parts(b"value=7&x=1"))
    assert site.events == ["closed"]


def test_an_environ_without_a_client_or_a_length():
    environ = environ_of({**SCOPE, "client": None, "headers": []}, b"", None)
    assert environ["REMOTE_ADDR"] == "" and "CONTENT_LENGTH" not in environ

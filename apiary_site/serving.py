"""gunicorn's side of the site, named by ``gunicorn.conf.py``: a threaded worker that a slow client
cannot hold, and gunicorn's own logs through the site's one filter.

A worker thread reads a request with blocking reads: a client that sends its headers or its body
a byte at a time holds that thread for as long as it goes on (gunicorn's ``timeout`` is the
worker's heartbeat, which the worker's main loop keeps beating meanwhile). ``ThreadWorker`` gives
each request ``REQUEST_WAIT_SECONDS`` of waiting on the client, in all, for its request line, its
headers and its body; a request that needs more is cut off (its connection closed), and the
thread serves the next. Only the time spent waiting counts: a request whose bytes are all there
reads at once, however long the site worked before reading them (a body read after a slow
database), and a request queued while every thread was busy starts with its whole allowance. Only
the request is bounded, not the answer: a client slow to read its answer holds a thread too, as
it does in every gunicorn worker; the reverse proxy in front answers slow clients for the site
(docs/operations.md).
"""

from __future__ import annotations

import os
import socket
import time

from gunicorn import glogging
from gunicorn.http.errors import NoMoreData
from gunicorn.workers import gthread

from apiary_site.logs import RequestLogFilter

REQUEST_WAIT_SECONDS = float(os.environ.get("GUNICORN_REQUEST_WAIT") or 5)

_ONE_FILTER = RequestLogFilter()  # (one instance: gunicorn sets its logs up again on a reload, adding nothing twice)


class ClientTooSlow(NoMoreData):
    """The client has used up its waiting time before its request was all there. gunicorn takes it
    as a client gone (it closes the connection, and writes a debug line at most); in the site's
    code, reading a body, it is an ``OSError``, as a broken connection is (Django's
    ``UnreadablePostError``)."""

    def __str__(self) -> str:
        return f"the request did not arrive within {REQUEST_WAIT_SECONDS:g} s of waiting"


class WaitingSocket(socket.socket):
    """A client's connection whose reads, together, wait at most ``waiting_left`` seconds for the
    client. A read that finds bytes already there returns them at once and costs nothing."""

    waiting_left = REQUEST_WAIT_SECONDS

    @classmethod
    def taking_over(cls, connection: socket.socket) -> WaitingSocket:
        timeout = connection.gettimeout()
        taken = cls(fileno=connection.detach())
        taken.settimeout(timeout)  # (blocking or not, as gunicorn left it)
        return taken

    def recv(self, size: int, flags: int = 0) -> bytes:
        timeout = self.gettimeout()  # (None while a worker thread reads; gunicorn's own limits otherwise)
        allowed = max(self.waiting_left, 0.0) if timeout is None else min(timeout, max(self.waiting_left, 0.0))
        started = time.monotonic()
        self.settimeout(allowed)
        try:
            return super().recv(size, flags)
        except (TimeoutError, BlockingIOError):
            if timeout is not None and allowed == timeout:
                raise  # gunicorn's own limit ran out first: what it expects
            raise ClientTooSlow() from None
        finally:
            self.waiting_left -= time.monotonic() - started
            self.settimeout(timeout)


class ThreadWorker(gthread.ThreadWorker):
    """gunicorn's threaded worker (``gthread``), each request allowed ``REQUEST_WAIT_SECONDS`` of
    waiting on its client. The allowance is given whenever a connection is handed to a thread for a
    request: a new connection, a kept-alive one that sends its next request, one that had sent
    nothing at first. gunicorn reads a request through ``recv`` only; its own TLS (``certfile``)
    would wrap the connection anew and read around the allowance: the proxy terminates HTTPS."""

    def enqueue_req(self, conn: gthread.TConn) -> None:
        if not isinstance(conn.sock, WaitingSocket):
            conn.sock = WaitingSocket.taking_over(conn.sock)
        conn.sock.waiting_left = REQUEST_WAIT_SECONDS
        super().enqueue_req(conn)


class Logger(glogging.Logger):
    """gunicorn's logs (its error log and its access log) through the site's one filter
    (``apiary_site.logs``), as Django's own are: an access line never writes a share link's token
    nor a password-reset link's, whichever atom holds it (the request line, the path, the
    referrer), and neither does an error line about a request."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_ONE_FILTER)

"""The site's one server, for a table's laptop (``make run``) and for a deployment alike:
``python -m apiary_site.server`` serves the site with granian, as this file configures it.

Why this shape (docs/performance.md, "One server for a table and a club", has the figures):

- **granian** reads and writes the network in Rust, on its own event loop: a client that sends
  its headers a byte at a time waits there, never on Python, and is cut off after
  ``HEADER_READ_MS``. Its HTTP costs less of a worker's time than gunicorn's Python parser did.
- **An asynchronous front, a synchronous site** (``Front``): granian's ASGI interface reads each
  request's body whole on the event loop, then the site (Django's WSGI application) answers it
  in the worker's one thread, one request after the other. A client sending its body a byte at a
  time holds a coroutine, never the thread. One request at a time in a process is what SQLite and
  the GIL want: a save never waits on SQLite's sleeping busy wait for another thread of its own
  process, and never hands the GIL back and forth. The answer is handed back to the event loop
  whole, so the thread takes the next request while the loop sends it; then the answer is closed
  in the thread (PEP 3333's ``close()``: Django's end of a request, and the mail a password reset
  sends once its answer has left, ``scoring/views/accounts.py``). asgiref's ``WsgiToAsgi`` reads
  the body the same way but waits in the thread for each part of the answer to be sent, three
  times a request, and never closes it.
- **Two worker processes** by default (``SERVER_WORKERS``): the machines are measured with two
  cores, and two processes are the most that share SQLite's one write lock without queueing on
  it; PostgreSQL (``DATABASE_URL``) is the answer when one server outgrows that.

Only the settings' log filter is added to granian's logs (``apiary_site.logs``): its access log
(``ACCESS_LOG=true``) never writes a share link's or a password-reset link's token.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from apiary_site.environment import env_bool
from apiary_site.logs import FILTERS

# A client whose headers are not all there after this long is cut off (granian's own limit).
HEADER_READ_MS = 10_000
# The largest body read before the site sees it: more than any request the site takes (a game
# file of 2 MB and its form), so that the site refuses a bigger one itself, in words, by its
# Content-Length (Django's limits, apiary_site/bodies.py), its body left unread. A body that says
# no length and runs longer is refused here.
MAX_BODY_BYTES = 4 * 1024 * 1024

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
WSGIApplication = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass
class Answer:
    """What the site answered, whole, and how to end it (the response's ``close``)."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    close: Callable[[], None] | None


def environ_of(scope: Scope, body: bytes, length: str | None) -> dict[str, Any]:
    """The WSGI environ of an ASGI request (PEP 3333 as asgiref's ``WsgiToAsgi`` builds it):
    ``body`` read whole, ``length`` its Content-Length as the client said it."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope["query_string"].decode("latin1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "REMOTE_ADDR": client[0] if client else "",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    for raw_name, raw_value in scope["headers"]:
        name, value = raw_name.decode("latin1").lower(), raw_value.decode("latin1")
        if name == "content-length":
            continue
        key = "CONTENT_TYPE" if name == "content-type" else "HTTP_" + name.upper().replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def answer_of(application: WSGIApplication, environ: dict[str, Any]) -> Answer:
    """The site's answer to ``environ``, whole (in the site's thread)."""
    started: list[tuple[int, list[tuple[bytes, bytes]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        if exc_info and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [
            (int(status.split(" ", 1)[0]), [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers])
        ]

    response = application(environ, start_response)
    close = getattr(response, "close", None)
    try:
        body = b"".join(response)
    except BaseException:
        if close is not None:
            close()
        raise
    status, headers = started[0]
    return Answer(status, headers, body, close)


class Front:
    """The ASGI front of a WSGI site: each request read whole on the event loop, answered in one
    thread of the site's, one at a time, sent by the loop, then closed in that thread."""

    def __init__(self, application: WSGIApplication, *, max_body: int = MAX_BODY_BYTES):
        self.application = application
        self.max_body = max_body
        self.site = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        length = next(
            (value.decode("latin1") for name, value in scope["headers"] if name.lower() == b"content-length"), None
        )
        if length is not None and length.isdigit() and int(length) > self.max_body:
            body = b""  # (the site refuses it by its length, unread)
        else:
            read = await self._body(receive)
            if read is None:
                return  # the client has gone
            if len(read) > self.max_body:
                await _plain(send, 413, b"Request body too large.")
                return
            body = read
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.site, answer_of, self.application, environ_of(scope, body, length))
        try:
            await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
            await send({"type": "http.response.body", "body": answer.body})
        finally:
            if answer.close is not None:
                await loop.run_in_executor(self.site, answer.close)

    async def _body(self, receive: Receive) -> bytes | None:
        """The request's body, read whole (a little past ``max_body`` at most); None when the
        client went away first."""
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            part = message.get("body", b"")
            parts.append(part)
            size += len(part)
            if not message.get("more_body") or size > self.max_body:
                return b"".join(parts)


async def _plain(send: Send, status: int, text: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": text})


def application_factory() -> Front:
    """Django's WSGI application behind the front (the ``--factory`` target granian imports in
    each worker: each worker has its own thread)."""
    from apiary_site.wsgi import application

    return Front(application)


def log_config() -> dict[str, Any]:
    """granian's logging, its handlers through the site's one filter."""
    from granian.log import LOGGING_CONFIG

    granians: dict[str, dict[str, Any]] = LOGGING_CONFIG["handlers"]  # type: ignore[assignment]
    handlers = {name: {**handler, "filters": ["request_log"]} for name, handler in granians.items()}
    return {"filters": FILTERS, "handlers": handlers}


def server(*, host: str, port: int) -> Any:
    """The granian server of the site on ``host``:``port``, configured from the environment."""
    from granian import Granian
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings

    return Granian(
        "apiary_site.server:application_factory",
        factory=True,
        address=host,
        port=port,
        interface=Interfaces.ASGINL,  # (no lifespan: the site has nothing to start or stop)
        workers=int(os.environ.get("SERVER_WORKERS") or 2),
        runtime_threads=1,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_READ_MS),
        log_dictconfig=log_config(),
        log_access=env_bool("ACCESS_LOG", False),
        respawn_failed_workers=True,
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m apiary_site.server [HOST] [PORT]``: HOST and PORT from the environment otherwise
    (127.0.0.1 and 8000: a deployment's proxy reaches it there)."""
    args = sys.argv[1:] if argv is None else argv
    host = args[0] if args else os.environ.get("HOST") or "127.0.0.1"
    port = int(args[1] if len(args) > 1 else os.environ.get("PORT") or 8000)
    server(host=host, port=port).serve()


if __name__ == "__main__":
    main()

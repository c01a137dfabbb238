"""The site's one server, for a table's laptop (``make run``) and for a deployment alike:
``python -m apiary_site.server`` serves the site with granian, as this file configures it.

Why this shape (docs/performance.md, "One server for a table and a club", has the figures):

- **granian** reads and writes the network in Rust, on its own event loop: a client that sends
  its headers a byte at a time waits there, never on Python, and is cut off after
  ``HEADER_READ_MS``. Its HTTP costs less of a worker's time than gunicorn's Python parser did.
- **An asynchronous front, a synchronous site**: granian's ASGI interface, with asgiref's
  ``WsgiToAsgi`` (Django's own dependency) around Django's WSGI application. ``WsgiToAsgi`` reads
  each request's body whole on the event loop before the site sees it, so a client sending its
  body a byte at a time holds a coroutine, not a thread; then it runs Django in the worker's
  one thread (asgiref's thread-sensitive thread), one request after the other. One request at a
  time in a process is what SQLite and the GIL want: a save never waits on SQLite's sleeping
  busy wait for another thread of its own process, and never hands the GIL back and forth.
- **Two worker processes** by default (``SERVER_WORKERS``): the machines are measured with two
  cores, and two processes are the most that share SQLite's one write lock without queueing on
  it; PostgreSQL (``DATABASE_URL``) is the answer when one server outgrows that.

Only the settings' log filter is added to granian's logs (``apiary_site.logs``): its access log
(``ACCESS_LOG=true``) never writes a share link's or a password-reset link's token.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from asgiref.wsgi import WsgiToAsgi

from apiary_site.environment import env_bool

# A client whose headers are not all there after this long is cut off (granian's own limit).
HEADER_READ_MS = 10_000

_LOG_FILTER = {"request_log": {"()": "apiary_site.logs.RequestLogFilter"}}


def application_factory() -> WsgiToAsgi:
    """Django's WSGI application behind asgiref's front (the ``--factory`` target granian imports
    in each worker): the body read whole first, then the site run in the worker's one thread."""
    from apiary_site.wsgi import application

    return WsgiToAsgi(application)


def log_config() -> dict[str, Any]:
    """granian's logging, its handlers through the site's one filter."""
    from granian.log import LOGGING_CONFIG

    granians: dict[str, dict[str, Any]] = LOGGING_CONFIG["handlers"]  # type: ignore[assignment]
    handlers = {name: {**handler, "filters": ["request_log"]} for name, handler in granians.items()}
    return {"filters": _LOG_FILTER, "handlers": handlers}


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

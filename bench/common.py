"""What every part of the benchmark shares: the project's root, summaries of samples, where the
figures came from (machine, versions, commit) and the throw-away database.

Nothing here asserts on time: the benchmark reports figures, it never fails on speed.
"""

from __future__ import annotations

import contextlib
import os
import platform
import secrets
import sqlite3
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def summary(samples: list[float]) -> dict:
    """Median, 95th and 99th percentiles (and the rest) of timings in milliseconds."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)
    if len(ordered) >= 2:
        cuts = statistics.quantiles(ordered, n=100, method="inclusive")
        p95, p99 = cuts[94], cuts[98]
    else:
        p95 = p99 = ordered[0]
    return {
        "n": len(ordered),
        "median": statistics.median(ordered),
        "p95": p95,
        "p99": p99,
        "mean": statistics.fmean(ordered),
        "min": ordered[0],
        "max": ordered[-1],
    }


def machine() -> dict:
    """The machine and the versions the figures came from."""
    model, count = "unknown", os.cpu_count() or 0
    with contextlib.suppress(OSError):
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
        if models:
            model, count = models[0], len(models)
    load = None
    with contextlib.suppress(OSError):
        load = Path("/proc/loadavg").read_text().split()[:3]
    import django

    return {
        "cpu_model": model,
        "cpu_count": count,
        "load_average_at_start": load,
        "python": sys.version.split()[0],
        "django": django.get_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def git() -> dict:
    """The commit measured, and whether the code under measure differed from it."""

    def run(*argv: str) -> str:
        try:
            return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return ""

    changed = run("status", "--porcelain", "--", "scoring", "templates", "static", "apiary_site")
    return {
        "commit": run("rev-parse", "--short", "HEAD").strip() or "unknown",
        "subject": run("log", "-1", "--format=%s").strip()[:120],
        "uncommitted_changes": [line[3:] for line in changed.splitlines() if len(line) > 3],  # "XY path"
    }


# ---------------------------------------------------------------------------------------------
# The throw-away database


class ThrowawayDatabase:
    """SQLite in a temporary folder by default. With DATABASE_URL set to a PostgreSQL server, a
    new database ``apiary_bench_<random>`` on that server (made through its ``postgres``
    maintenance database, dropped at the end): the database DATABASE_URL names is never opened.

    ``url`` is the throw-away database's URL, for this process and for gunicorn's."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.given = os.environ.get("DATABASE_URL", "").strip()
        self.url = ""
        self.kind = ""
        self.name = ""
        self._server: dict = {}

    def __enter__(self) -> Self:
        if not self.given:
            self.kind = "sqlite"
            self.name = str(self.folder / "bench.sqlite3")
            self.url = f"sqlite:///{self.name}"
            return self
        import dj_database_url

        config = dj_database_url.parse(self.given)
        if config["ENGINE"] != "django.db.backends.postgresql":
            raise SystemExit(f"bench: DATABASE_URL must be PostgreSQL (or unset for SQLite), not {config['ENGINE']}")
        self.kind = "postgresql"
        self.name = f"apiary_bench_{secrets.token_hex(4)}"
        if self.name == config.get("NAME"):
            raise SystemExit("bench: refusing to use the database of DATABASE_URL")
        # Connection options of the URL's query (host=/run/..., sslmode=...) go to psycopg as Django
        # gives them; Django's own options of the backend do not.
        django_only = {"pool", "server_side_binding", "isolation_level", "assume_role", "cursor_factory"}
        self._server = {
            **{key: value for key, value in (config.get("OPTIONS") or {}).items() if key not in django_only},
            "user": config.get("USER") or None,
            "password": config.get("PASSWORD") or None,
        }
        self._server.setdefault("host", config.get("HOST") or None)
        self._server.setdefault("port", config.get("PORT") or None)
        if not self._server["host"]:
            self._server["host"] = config.get("HOST") or None
        with self._maintenance() as connection:
            connection.execute(f'CREATE DATABASE "{self.name}"')
        parts = urlsplit(self.given)
        self.url = urlunsplit((parts.scheme, parts.netloc, "/" + self.name, parts.query, parts.fragment))
        return self

    def _maintenance(self):
        import psycopg

        server = {key: value for key, value in self._server.items() if value is not None}
        last = None
        for dbname in ("postgres", "template1"):
            try:
                return psycopg.connect(dbname=dbname, autocommit=True, connect_timeout=10, **server)
            except psycopg.OperationalError as error:
                last = error
        raise SystemExit(f"bench: cannot reach the PostgreSQL server's maintenance database: {last}")

    def __exit__(self, *exc) -> None:
        if self.kind != "postgresql":
            return
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        try:
            with self._maintenance() as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        except Exception as error:  # noqa: BLE001 - say it, never hide a leftover database
            print(f"bench: could not drop the throw-away database {self.name}: {error}", file=sys.stderr)

    def describe(self) -> str:
        return "SQLite (a file in a temporary folder)" if self.kind == "sqlite" else f"PostgreSQL ({self.name})"

"""A private PostgreSQL cluster for the tests that start servers or processes of their own on
PostgreSQL (``tests/test_concurrency.py``'s phones, ``tests/browser/test_two_servers.py``), and
``manage``, a management command run in a child process against a database's URL.

The rest of the suite runs on PostgreSQL through scripts/test.sh's second part (its own cluster,
``DATABASE_URL``): the migrations (the test database is made by them), the constraints, the
imports and exports and every test that faces the database. The fixture starts its cluster under
a temporary folder (Debian’s postgresql package; the README's test command installs it) and stops
it after. Where PostgreSQL is not installed it skips, except under CI=true, where it fails: CI
must prove the PostgreSQL path.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_postgres(argv: list[str]) -> list[str]:
    """Run server tools as the postgres user when we are root (PostgreSQL refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


@pytest.fixture(scope="module")
def postgres_url():
    bin_dir = _pg_bin()
    if bin_dir is None:
        message = "PostgreSQL (Debian’s postgresql package) is not installed"
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; CI must run the PostgreSQL test")
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="apiary-pg-"))
    data, socket_dir = folder / "data", folder
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    run = lambda argv: subprocess.run(_as_postgres(argv), check=True, capture_output=True, text=True)  # noqa: E731
    port = "54329"
    try:
        run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        run(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-w",
                "-l",
                str(folder / "log"),
                "-o",
                f"-k {socket_dir} -p {port} -c listen_addresses=''",
                "start",
            ]
        )
        run([str(bin_dir / "createdb"), "-h", str(socket_dir), "-p", port, "-U", "postgres", "apiary"])
        yield f"postgres://postgres@/apiary?host={socket_dir}&port={port}"
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


def manage(url: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``manage.py`` run with ``args`` in a child process on the database at ``url`` (its streams
    read as UTF-8, whatever the shell's language)."""
    env = {**os.environ, "DATABASE_URL": url, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
    )

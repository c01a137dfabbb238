"""The site as a deployment runs it, in child processes: its production settings on a database
of the test's (``production_env``), ``manage.py`` run with them (``manage``), a free loopback
port for its server (``free_port``), and the wait until that server answers with all its workers
(``wait_until_serving``). Each test starts the server its own way."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def production_env(*, database_url: str, static_root: Path) -> dict[str, str]:
    """This process's environment with the production settings: DEBUG off, served on 127.0.0.1
    over plain HTTP, the static files collected into ``static_root``; the server's own settings
    (SERVER_*) left to its defaults unless the test adds them."""
    inherited = {key: value for key, value in os.environ.items() if not key.startswith("SERVER_")}
    return {
        **inherited,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "HTTPS": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(static_root),
        "SECRET_KEY": "deployment-test-secret-key-long-enough-for-django-checks-0123456789",
    }


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py`` with ``args`` under ``env``, which must succeed: the last line it printed
    ("" when none)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def wait_until_serving(process: subprocess.Popen, log: Path, port: int, *, workers: int, within: float) -> None:
    """Wait until the server ``process`` started, writing to ``log``, answers ``/healthz`` on
    ``port`` and has said each of its ``workers`` started (granian's "Started worker"); fail with
    the end of its log if it exits first or is not there ``within`` seconds."""
    deadline = time.monotonic() + within
    while log.read_text(errors="replace").count("Started worker") < workers or not _answers(port):
        written = log.read_text(errors="replace")[-3000:]
        assert process.poll() is None, f"the server exited:\n{written}"
        assert time.monotonic() < deadline, f"the server did not start within {within:g} s:\n{written}"
        time.sleep(0.2)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False

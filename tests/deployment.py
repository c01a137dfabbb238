"""The site as a deployment runs it, in child processes: its production settings on a database
of the test's (``production_env``), ``manage.py`` run with them (``manage``), and a free loopback
port for its gunicorn (``free_port``). Each test starts gunicorn its own way."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def production_env(*, database_url: str, static_root: Path) -> dict[str, str]:
    """This process's environment with the production settings: DEBUG off, served on 127.0.0.1
    over plain HTTP, the static files collected into ``static_root``; gunicorn's own settings
    (GUNICORN_*) left to the shipped configuration's defaults unless the test adds them."""
    inherited = {key: value for key, value in os.environ.items() if not key.startswith("GUNICORN")}
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

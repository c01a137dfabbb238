"""Four phones save one game at once, through the real views, on SQLite and on PostgreSQL: afterwards
the stored game is exactly what the answers acknowledged.

Each phone (a process; the owner's, signed in, or one that opened the game's edit link) types
values against the version it last saw, sometimes sends a value from a stale page of its own (an
old tab: another page id, the field's first version; it must be refused: a 409, nothing written),
and taps + on steppers that the other phones tap too. Every field then holds the value of its
acknowledged save with the highest version, every stepped field holds exactly the number of
acknowledged taps, every acknowledged write is recorded as exactly one change, and the game's
revision counts exactly the saves (each locks the game by moving its revision on, conflicts and
values already stored included). ``tests/concurrency_driver.py`` does the work in child processes
with DATABASE_URL pointing at the database under test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.postgres import manage, postgres_url  # noqa: F401 - the fixture, shared

ROOT = Path(__file__).resolve().parent.parent
# Run as a module from the project (``-m``): a script's own folder would come first on its path,
# and tests/selectors/ would hide the standard library's selectors.
DRIVER = "tests.concurrency_driver"


def run_driver(url: str) -> dict:
    migrate = manage(url, "migrate", "--no-input")
    assert migrate.returncode == 0, migrate.stderr
    result = subprocess.run(
        [sys.executable, "-m", DRIVER],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def check(outcome: dict) -> None:
    assert outcome["problems"] == []
    assert outcome["mismatches"] == {}
    counts = outcome["counts"]
    assert counts["saved"] > 100 and counts["steps"] > 5, counts  # the test really raced a few hundred saves
    assert counts["stale_refused"] > 10, counts  # stale pages were sent, and every one refused (else a problem)
    # The revision moves with what is written (a value, or only a page's save number remembered),
    # at most once a save: a save that wrote nothing rolled back.
    assert outcome["writes"] <= outcome["revision"] <= outcome["requests"], outcome
    authors = outcome["authors"]
    assert authors["all"] == outcome["writes"], "every acknowledged write, and nothing else, is recorded as one change"
    assert authors["owner"] + authors["link"] == authors["all"] and authors["owner"] > 0 and authors["link"] > 0


def test_phones_saving_one_game_at_once_on_sqlite(tmp_path):
    check(run_driver(f"sqlite:///{tmp_path / 'phones.sqlite3'}"))


def test_phones_saving_one_game_at_once_on_postgresql(postgres_url):  # noqa: F811
    check(run_driver(postgres_url))

"""The shared deployment's database: the migrations, constraints and the game file round trip
on a real PostgreSQL server (DATABASE_URL), not only on the embedded SQLite.

The test starts a private cluster under a temporary folder (Debian's postgresql package; the
README's test command installs it), runs the commands in a child process with DATABASE_URL
pointing at it, and stops the cluster. Where PostgreSQL is not installed it skips, except
under CI=true, where it fails: CI must prove the PostgreSQL path.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


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
        message = "PostgreSQL (Debian's postgresql package) is not installed"
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
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
    )


def account(url: str, username: str) -> None:
    """The account exists in that database (the games imported there belong to it)."""
    script = (
        "from django.contrib.auth.models import User; "
        f"User.objects.filter(username={username!r}).exists() or User.objects.create_user({username!r})"
    )
    result = manage(url, "shell", "-c", script)
    assert result.returncode == 0, result.stderr


def test_migrations_apply_and_match_the_models_on_postgresql(postgres_url):
    migrate = manage(postgres_url, "migrate", "--no-input")
    assert migrate.returncode == 0, migrate.stderr
    check = manage(postgres_url, "makemigrations", "--check", "--dry-run")
    assert check.returncode == 0, check.stdout + check.stderr


def test_import_export_round_trip_on_postgresql_matches_sqlite(postgres_url, tmp_path):
    assert manage(postgres_url, "migrate", "--no-input").returncode == 0
    account(postgres_url, "owner")
    manage(postgres_url, "shell", "-c", "from scoring.models import Game; Game.objects.all().delete()")
    imported = manage(postgres_url, "import_games", str(DATA / "multi_game.json"), "--owner", "owner")
    assert imported.returncode == 0, imported.stderr
    first = manage(postgres_url, "export_games")
    assert first.returncode == 0, first.stderr

    manage(postgres_url, "shell", "-c", "from scoring.models import Game; Game.objects.all().delete()")
    (tmp_path / "first.json").write_text(first.stdout, encoding="utf-8")
    assert manage(postgres_url, "import_games", str(tmp_path / "first.json"), "--owner", "owner").returncode == 0
    second = manage(postgres_url, "export_games")
    assert second.stdout == first.stdout

    sqlite_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert manage(sqlite_url, "migrate", "--no-input").returncode == 0
    account(sqlite_url, "owner")
    assert manage(sqlite_url, "import_games", str(DATA / "multi_game.json"), "--owner", "owner").returncode == 0
    assert json.loads(manage(sqlite_url, "export_games").stdout) == json.loads(first.stdout)


def test_import_and_export_for_one_owner_on_postgresql(postgres_url):
    assert manage(postgres_url, "migrate", "--no-input").returncode == 0
    manage(postgres_url, "shell", "-c", "from scoring.models import Game; Game.objects.all().delete()")
    account(postgres_url, "owner")
    account(postgres_url, "ann")
    assert manage(postgres_url, "import_games", str(DATA / "multi_game.json"), "--owner", "owner").returncode == 0
    assert manage(postgres_url, "import_games", str(DATA / "example.json"), "--owner", "ann").returncode == 0

    anns = manage(postgres_url, "export_games", "--owner", "ann")
    assert anns.returncode == 0, anns.stderr
    assert json.loads(anns.stdout) == json.loads((DATA / "example.json").read_text(encoding="utf-8"))
    owners = manage(postgres_url, "export_games", "--owner", "owner")
    assert len(json.loads(owners.stdout)["games"]) == 3
    assert len(json.loads(manage(postgres_url, "export_games").stdout)["games"]) == 4

    unknown = manage(postgres_url, "import_games", str(DATA / "example.json"), "--owner", "ghost")
    assert unknown.returncode == 1
    assert 'there is no user "ghost"' in unknown.stderr
    assert len(json.loads(manage(postgres_url, "export_games").stdout)["games"]) == 4  # nothing stored


def test_postgresql_enforces_names_unique_ignoring_case_and_the_ranges(postgres_url):
    assert manage(postgres_url, "migrate", "--no-input").returncode == 0
    script = """
from django.db import IntegrityError, transaction
from scoring.models import Game, Seat
game = Game.objects.create()
Seat.objects.create(game=game, number=1, name="Émile")
for bad in (dict(number=2, name="émile"), dict(number=1, name="Bruno"), dict(number=2, name="Bruno", farms=100)):
    try:
        with transaction.atomic():
            Seat.objects.create(game=game, **bad)
    except IntegrityError:
        print("refused")
    else:
        print("stored")
game.delete()
"""
    result = manage(postgres_url, "shell", "--no-imports", "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["refused", "refused", "refused"]

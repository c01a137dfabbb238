"""Benchmark: a big game file imported while a table plays (issue 18's budget).

Reports figures, never asserts on time. On a throw-away database (SQLite in a temporary folder,
or a new database of the PostgreSQL server DATABASE_URL names), with production's settings:

1. gunicorn (2 workers, as ``make bench``): an account uploads a file of ``--games`` games
   (10,000 by default, each a small 2-player game, all different), adds them from the page as a
   browser with htmx does (*Add*, then each step as the last one arrives), while the phones of
   another table (``--phones`` phones, each saving a value every ``--every`` s) save into their
   game. Measured: every save's time (p50, p99, max) and its errors (anything but 200), each
   step's time, the import's whole time, and whether every game arrived;
2. in-process (the import service, as each step calls it): ``--added`` games (20,000) imported
   into an empty account, then as many others into an account that already holds ``--stored``
   games (80,000) of the same dates: the cost per game of each, and their ratio (the work alone:
   without the pause by which SQLite's write lock is given back between batches).

Run: ``make bench ARGS=--import`` (``scripts/bench.sh --import``), or
``.venv/bin/python bench/bench_import.py [--games N] [--stored N] [--added N]``; on PostgreSQL
``scripts/with-postgres.sh .venv/bin/python bench/bench_import.py``. It prints the figures as the
table of docs/performance.md ("A big import while a table plays") and writes them as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import ThrowawayDatabase, git, machine, summary  # noqa: E402

STARTED = time.monotonic()
BUDGET_SAVE_P99_MS = 200.0
BUDGET_RATIO = 1.5


def hidden_input(html: str, name: str) -> str:
    """The value of a page's hidden input ``name`` (a form's CSRF token, the import's token)."""
    found = re.search(rf'name="{re.escape(name)}" value="([^"]+)"', html)
    if found is None:
        raise SystemExit(f"the page has no input {name!r}:\n{html[:2000]}")
    return found.group(1)


def say(message: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/bench_import.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games of the file imported from the page")
    parser.add_argument("--phones", type=int, default=4, help="phones of the other table, saving meanwhile")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two saves of one phone")
    parser.add_argument("--stored", type=int, default=80_000, help="games the second account already holds")
    parser.add_argument("--added", type=int, default=20_000, help="games imported into each account in-process")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "import.json")
    return parser.parse_args(argv)


def document(count: int, offset: int = 0) -> dict:
    """``count`` small games, all different (their farms and their dates), over 2,000 days."""
    games = []
    for number in range(offset, offset + count):
        games.append(
            {
                "played_on": (date(2020, 1, 1) + timedelta(days=number % 2000)).isoformat(),
                "players": [
                    {
                        "name": "Ann",
                        "seat": 1,
                        "during": {"starting_vp": 1, "farm_income": number // 2000 % 60},
                        "end": {"farms": number // 120_000 % 12},
                    },
                    {"name": "Ben", "seat": 2, "during": {"starting_vp": 2}},
                ],
            }
        )
    return {"format": "apiary-scorepad", "version": 1, "games": games}


def upload_body(text: str, csrf: str) -> tuple[bytes, str]:
    boundary = "----WebKitFormBoundary" + secrets.token_hex(8)
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{csrf}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\n'
            f"Content-Type: application/json\r\n\r\n"
        ).encode()
        + text.encode()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def from_the_page(args, server_env: dict, folder: Path) -> dict:
    """Part 1: the import from the page under gunicorn, a table saving meanwhile."""
    from django.contrib.auth.models import User
    from django.db import connections
    from django.test import Client

    from bench import load
    from bench.inprocess import game_for
    from bench.pad_client import save_encoding
    from scoring.models import Game

    def session_of(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    importer = User.objects.create_user("bench-importer")
    table = User.objects.create_user("bench-table")
    game = game_for(table, 4, 20)
    encoding = save_encoding()
    phones = [
        load.TablePhone(
            game_id=game.public_id,
            session=session_of(table),
            seat=seat % 4 + 1,
            encoding=encoding,
            page=secrets.token_hex(8),
        )
        for seat in range(args.phones)
    ]
    session = session_of(importer)
    text = json.dumps(document(args.games), separators=(",", ":"))
    connections.close_all()

    with load.Gunicorn(server_env, folder, workers=2) as server:
        host, port = "127.0.0.1", server.port
        for phone in phones:
            load.prepare(host, port, phone)
        page = load.wire(host, port, "GET", "/data/", {"Cookie": f"sessionid={session}"})
        csrf_cookie = load.cookies(page)["csrftoken"]
        csrf = hidden_input(page.text(), "csrfmiddlewaretoken")
        cookie = f"sessionid={session}; csrftoken={csrf_cookie}"
        origin = {"Origin": f"https://{host}:{port}", "Referer": f"https://{host}:{port}/data/"}

        body, content_type = upload_body(text, csrf)
        say(f"uploading a file of {args.games} games ({len(text) / 1e6:.2f} MB)")
        uploaded = load.wire(
            host, port, "POST", "/data/import/", {"Cookie": cookie, "Content-Type": content_type, **origin}, body
        )
        if uploaded.status != 302:
            raise SystemExit(f"the upload answered {uploaded.status}:\n{uploaded.text()[:2000]}")
        shown = load.wire(host, port, "GET", "/data/import/", {"Cookie": cookie})
        token = hidden_input(shown.text(), "token")

        saves: list[tuple[float, int]] = []  # (ms, status)
        stop = threading.Event()

        def phone_saves(phone, index: int) -> None:
            source = f"127.0.{10 + index}.1"
            next_at = time.monotonic() + index * args.every / max(1, len(phones))
            value = 0
            while not stop.is_set():
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += args.every
                value = value % 30 + 1
                began = time.monotonic()
                try:
                    status = load.wire_save(host, port, phone, source, value=str(value)).status
                except OSError:
                    status = 0
                saves.append(((time.monotonic() - began) * 1000, status))

        threads = [
            threading.Thread(target=phone_saves, args=(phone, index), daemon=True) for index, phone in enumerate(phones)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2)  # the table saves a little before the import starts
        say(f"adding them from the page while {len(phones)} phones save every {args.every:g} s")
        steps: list[tuple[float, int]] = []
        form = f"csrfmiddlewaretoken={csrf}&token={token}".encode()
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", **origin}
        began = time.monotonic()
        answer = load.wire(host, port, "POST", "/data/import/confirm/", headers, form)  # the first step, then
        steps.append(((time.monotonic() - began) * 1000, answer.status))  # to the progress page (302)
        while (
            answer.status in (200, 302)
            and not answer.header("HX-Redirect")
            and not answer.header("Location").endswith("/data/")
        ):
            step_began = time.monotonic()
            answer = load.wire(host, port, "POST", "/data/import/continue/", {**headers, "HX-Request": "true"}, form)
            steps.append(((time.monotonic() - step_began) * 1000, answer.status))
        whole = time.monotonic() - began
        time.sleep(2)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        log_tail = server.log_tail(20)

    arrived = Game.objects.filter(owner=importer).count()
    save_ms = [ms for ms, status in saves]
    errors = sum(1 for _ms, status in saves if status != 200)
    say(
        f"{arrived} of {args.games} games arrived in {whole:.1f} s ({len(steps)} requests); "
        f"saves: p99 {summary(save_ms)['p99']:.1f} ms, {errors} errors of {len(saves)}"
    )
    return {
        "games": args.games,
        "file_bytes": len(text),
        "arrived": arrived,
        "import_seconds": whole,
        "steps": {
            "count": len(steps),
            "statuses": sorted({status for _ms, status in steps}),
            "ms": summary([ms for ms, _status in steps]),
        },
        "saves": {
            "count": len(saves),
            "errors": errors,
            "ms": summary(save_ms),
            "phones": args.phones,
            "every_s": args.every,
        },
        "log_tail": log_tail,
    }


def per_game(owner, count: int, offset: int) -> float:
    """Milliseconds a game, importing ``count`` games (from ``offset``) as the page's steps do."""
    from scoring.gamefile import read_document
    from scoring.services import imports as storing
    from scoring.services.imports import games_import

    games = read_document(document(count, offset))
    storing.SQLITE_LOCK_GIVEN_BACK = 0  # the work itself: no table waits here for the lock to come back
    began = time.perf_counter()
    result = games_import(games, owner=owner)
    elapsed = time.perf_counter() - began
    if result.added != count:
        raise SystemExit(f"expected {count} games added, {result.added} were")
    return elapsed * 1000 / count


def into_a_full_account(args) -> dict:
    """Part 2: the cost of a game imported into an empty account and into one of ``--stored`` games."""
    from django.contrib.auth.models import User

    from scoring.gamefile import read_document
    from scoring.services.imports import games_store

    say(f"in-process: {args.added} games into an empty account")
    empty = per_game(User.objects.create_user("bench-empty"), args.added, 0)
    full = User.objects.create_user("bench-full")
    say(f"in-process: storing {args.stored} games into another account (same dates)")
    for start in range(0, args.stored, 1000):
        games_store(
            read_document(document(min(1000, args.stored - start), args.added + start)), finished=True, owner=full
        )
    say(f"in-process: {args.added} other games into the account of {args.stored}")
    into_full = per_game(full, args.added, 0)
    return {
        "added": args.added,
        "stored": args.stored,
        "empty_ms_per_game": empty,
        "full_ms_per_game": into_full,
        "ratio": into_full / empty,
    }


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    folder = Path(tempfile.mkdtemp(prefix="apiary-bench-import-"))
    try:
        with ThrowawayDatabase(folder) as database:
            from bench.run import configure

            server_env = configure(database.url)
            import django

            django.setup()
            from django.core.management import call_command

            say(f"migrating the throw-away database ({database.describe()})")
            call_command("migrate", verbosity=0)
            call_command("createcachetable", verbosity=0)
            call_command("collectstatic", "--no-input", verbosity=0)
            results = {
                "machine": machine(),
                "git": git(),
                "database": database.describe(),
                "page": from_the_page(args, server_env, folder),
                "account": into_a_full_account(args),
            }
            from django.db import connections

            connections.close_all()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(table(results))
    print(f"\nJSON: {args.json}")
    return 0


def table(results: dict) -> str:
    page, account = results["page"], results["account"]
    p99 = page["saves"]["ms"]["p99"]
    rows = [
        (
            "saves of another game while the import runs, p99",
            f"{p99:.0f} ms",
            f"≤ {BUDGET_SAVE_P99_MS:.0f} ms",
            p99 <= BUDGET_SAVE_P99_MS,
        ),
        ("… their errors", f"{page['saves']['errors']} of {page['saves']['count']}", "0", page["saves"]["errors"] == 0),
        (
            f"games that arrived, of {page['games']:,}",
            f"{page['arrived']:,}",
            f"{page['games']:,}",
            page["arrived"] == page["games"],
        ),
        (
            f"a game imported into an account of {account['stored']:,} / into an empty one",
            f"{account['full_ms_per_game']:.2f} / {account['empty_ms_per_game']:.2f} ms = {account['ratio']:.2f}x",
            f"≤ {BUDGET_RATIO}x",
            account["ratio"] <= BUDGET_RATIO,
        ),
    ]
    info = [
        ("saves, p50 / max", f"{page['saves']['ms']['median']:.0f} / {page['saves']['ms']['max']:.0f} ms"),
        (
            "the import from the page, whole",
            f"{page['import_seconds']:.1f} s in {page['steps']['count']} requests "
            f"(p50 {page['steps']['ms']['median']:.0f} ms, max {page['steps']['ms']['max']:.0f} ms)",
        ),
        ("the file", f"{page['file_bytes'] / 1e6:.2f} MB"),
    ]
    lines = [f"Database: {results['database']}", "", "| figure | measured | budget | met? |", "|---|---|---|---|"]
    lines += [
        f"| {name} | {measured} | {budget} | {'yes' if met else '**no**'} |" for name, measured, budget, met in rows
    ]
    lines += [f"| {name} | {measured} | (information) | |" for name, measured in info]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

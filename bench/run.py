"""The benchmark of "Speed: what a table feels": `make bench` (scripts/bench.sh runs this file).

Every figure of the tracker issue's budget (and issue 9's earlier figures, as information), with
DEBUG off, on a throw-away database (SQLite in a temporary folder; a new PostgreSQL database
``apiary_bench_<random>``, dropped at the end, when DATABASE_URL names a PostgreSQL server):

1. in-process (Django's test client, the whole middleware), at each ``--games`` size (the
   owner's stored, finished games): the htmx field save, a stepper step, the pad page with 4 and
   5 players, a live poll that finds nothing new (304), one that finds something new (the
   first phone of its table to ask, and the others at the same revision) and the history page,
   each interleaved with ``/healthz``; the pad page's HTML and a poll's before compression;
   the SQL statements of a save and of a step in a 1-player (solo) and a 5-player game; the
   history, players and statistics pages of issue 8's benchmark (the budget compares 100,000
   games with 1,000);
2. the site's server (``python -m apiary_site.server``, granian as docs/operations.md runs it, 2
   workers, on a free loopback port, the static files collected as production does; the results'
   key still says "gunicorn", its old name): Lighthouse's mobile run of the home page, a pad, the
   results and the table view (bench/lighthouse.py; ``--no-lighthouse`` leaves it out); the
   answers' bytes as sent, the pad's first load with every
   static file; then the club night, an open loop (``--club-phones`` phones at
   ``--club-tables`` tables, one game per table, each phone typing a value into its own seat's
   fields every ``--club-interval`` s ± ``--club-jitter`` and polling every 2 s as pad.js does,
   each request at its scheduled time, for ``--club-seconds``: latency from the scheduled
   time), and the large club night the same way (``--large-club-tables`` tables of 4 phones:
   24, 96 phones), every phone of a night from one address (127.0.0.1: a club's router) under
   the production save limit per address; then the closed loop at saturation (``--clients``
   phones, ``--per-table`` at each table's game, each sending its next save when the last is
   answered, for ``--seconds``), with
   /healthz under the same load as the baseline, and the workers' CPU time from /proc.

It prints the table figure | measured | baseline | ratio | budget | met? (grouped: club night,
headroom, kept, information), writes it with every detail as JSON (``--json``), and with
``--docs docs/performance.md`` puts the table in that document. It never fails on speed (the
exit status says only whether the benchmark itself ran), and nothing in the test suite times
anything.

    make bench                                   # the default (each club night: 60 s)
    make bench ARGS="--club-seconds 20 --no-browser --games 10 --seconds 5"   # a short look
    make bench ARGS="--no-club"                  # everything but the club nights
    make bench ARGS="--large-club-tables 0"      # the 8-table night alone (not the 24-table one)
    make bench ARGS="--history"                  # issue 8's history benchmark alone (1,000 / 100,000)
    make bench ARGS="--import"                   # issue 18's import benchmark alone
"""

from __future__ import annotations

import argparse
import atexit
import math
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import ThrowawayDatabase, git, machine, summary  # noqa: E402 (the project's root on the path first)

STARTED = time.monotonic()
# The club nights' one address: every phone of the room behind one router, as a club plays.
CLUB_ADDRESS = "127.0.0.1"


def say(message: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


def sizes(text: str) -> list[int]:
    try:
        values = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"a comma-separated list of numbers, not {text!r}") from None
    if not values or values[0] < 0:
        raise argparse.ArgumentTypeError("at least one size, none negative")
    return values


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="make bench ARGS=...",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--games",
        type=sizes,
        default="10,1000,100000",
        metavar="N,N",
        help="stored (finished) games of the account, one in-process pass at each size",
    )
    parser.add_argument(
        "--samples", type=int, default=200, help="samples of each in-process timing (and as many of its baseline)"
    )
    parser.add_argument("--warmup", type=int, default=20, help="requests before each in-process timing, not counted")
    parser.add_argument(
        "--history-samples",
        type=int,
        default=20,
        help="samples of each history, players and statistics page (0: leave them out)",
    )
    parser.add_argument(
        "--sectors", type=int, default=20, help="sectors of each game's comb (the start form takes up to 20)"
    )
    parser.add_argument("--clients", type=int, default=32, help="closed loop (saturation): phones saving at once")
    parser.add_argument(
        "--per-table", type=int, default=4, help="closed loop: phones at each table (one game per table)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="closed loop: measured seconds (for the saves and again for /healthz)",
    )
    parser.add_argument(
        "--load-warmup", type=float, default=2.0, help="club night and closed loop: seconds of load before measuring"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--club-phones",
        type=int,
        default=32,
        help="club night (open loop): phones, each typing into its own seat's fields",
    )
    parser.add_argument(
        "--club-tables",
        type=int,
        default=8,
        help="club night: tables, one game each (4 players; 5 when a table has 5 phones)",
    )
    parser.add_argument(
        "--large-club-tables",
        type=int,
        default=24,
        help="the large club night, run after the first: tables, each of 4 phones at its own "
        "4-player game, each phone as the first night's (0: leave it out)",
    )
    parser.add_argument(
        "--club-seconds", type=float, default=60.0, help="club night: measured seconds (after --load-warmup)"
    )
    parser.add_argument(
        "--club-interval",
        type=float,
        default=2.0,
        help="club night: seconds between a phone's saves (each poll as often as the pad's htmx trigger on #live)",
    )
    parser.add_argument(
        "--club-jitter",
        type=float,
        default=0.5,
        help="club night: each gap between a phone's saves is --club-interval ± this (uniform)",
    )
    parser.add_argument("--no-club", action="store_true", help="leave out the club nights")
    parser.add_argument(
        "--poll",
        action="store_true",
        help="closed loop: a third run where each phone also polls every 2 s as pad.js does (for comparison)",
    )
    parser.add_argument("--no-gunicorn", action="store_true", help="in-process only (sizes are then estimated)")
    parser.add_argument(
        "--no-browser",
        action="store_true",
        help="leave out the browser figure (a whole 4-player game typed in Chromium)",
    )
    parser.add_argument(
        "--no-lighthouse",
        action="store_true",
        help="leave out Lighthouse's mobile run of the home page, a pad, the results and the table view",
    )
    parser.add_argument(
        "--one-address",
        action="store_true",
        help="the closed loop's and the in-process clients on 127.0.0.1 too, as the club nights' phones always "
        "are: the save limit then refuses what is over it (counted as errors)",
    )
    parser.add_argument(
        "--json", type=Path, default=ROOT / "bench" / "results" / "latest.json", help="where to write the results"
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=None,
        help="put the figures table into this Markdown file, between its bench:figures markers",
    )
    parser.add_argument(
        "--from-json",
        type=Path,
        default=None,
        metavar="PATH",
        help="measure nothing: print the table of an earlier run's JSON (and put it into --docs)",
    )
    parser.add_argument(
        "--history",
        action="store_true",
        help="run issue 8's history benchmark alone (bench/bench_history.py: 1,000 and 100,000 games) and stop",
    )
    parser.add_argument(
        "--import",
        dest="import_",
        action="store_true",
        help="run issue 18's import benchmark alone (bench/bench_import.py: 10,000 games from the page "
        "while a table saves; 20,000 games into an account of 80,000) and stop",
    )
    args = parser.parse_args(argv)
    if args.samples < 1 or args.clients < 1 or args.per_table < 1 or args.seconds <= 0:
        parser.error("--samples, --clients and --per-table must be at least 1, --seconds more than 0")
    if not 1 <= args.sectors <= 20:
        parser.error("--sectors must be from 1 to 20")
    if not args.no_club:
        if args.club_phones < 1 or args.club_tables < 1 or args.club_seconds <= 0:
            parser.error("--club-phones and --club-tables must be at least 1, --club-seconds more than 0")
        if args.large_club_tables < 0:
            parser.error("--large-club-tables must be 0 (left out) or more")
        if math.ceil(args.club_phones / args.club_tables) > 5:
            parser.error("--club-phones / --club-tables: at most 5 phones at a table (a game has at most 5 seats)")
        if args.club_interval <= 0 or not 0 <= args.club_jitter < args.club_interval:
            parser.error("--club-interval must be more than 0, --club-jitter from 0 to below --club-interval")
    return args


def _static_root() -> str:
    folder = tempfile.mkdtemp(prefix="apiary-bench-static-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def configure(database_url: str) -> dict:
    """The environment of the run (this process and gunicorn): production's, on the throw-away database."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",  # production's, the per-session limits lifted
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": "bench-" + secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1",
            # As behind the TLS proxy of a deployment: every request of the benchmark says
            # X-Forwarded-Proto: https (HTTPS is on without DEBUG: HSTS, secure cookies, no redirect).
            "PROXY_SSL_HEADER": "X-Forwarded-Proto",
            # collectstatic's files for this run only (never the project's staticfiles/, which a
            # development server would otherwise serve stale)
            "STATIC_ROOT": _static_root(),
        }
    )
    server_env = dict(os.environ)
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1"  # the test client's host, in this process only
    os.environ["LOG_LEVEL"] = "ERROR"  # this process only: no warning per 404 of a probe
    return server_env


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    if args.history:
        return subprocess.call([sys.executable, str(ROOT / "bench" / "bench_history.py")], cwd=ROOT)
    if args.import_:
        return subprocess.call([sys.executable, str(ROOT / "bench" / "bench_import.py")], cwd=ROOT)
    if args.from_json:
        import json

        return publish(json.loads(args.from_json.read_text(encoding="utf-8")), args, write_json=False)

    def stop(signum, frame):
        raise SystemExit(f"bench: stopped by signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    folder = Path(tempfile.mkdtemp(prefix="apiary-bench-"))
    try:
        with ThrowawayDatabase(folder) as database:
            server_env = configure(database.url)
            results = measure(args, database, folder, server_env)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return publish(results, args)


def publish(results: dict, args: argparse.Namespace, write_json: bool = True) -> int:
    """The table printed, the JSON written, the figures put into --docs."""
    from bench import report

    results["figures"] = report.figures(results)
    print()
    report.print_table(results["figures"])
    report.print_history(results)
    if write_json:
        report.write_json(results, args.json)
        print(f"\nJSON: {args.json}")
    if args.docs:
        if report.update_docs(results, args.docs):
            print(f"Figures written into {args.docs}")
        else:
            print(f"{args.docs} has no {report.DOCS_BEGIN} … {report.DOCS_END} markers: not changed", file=sys.stderr)
    met = [r["met"] for r in results["figures"] if r["met"] is not None]
    print(f"{sum(met)} of {len(met)} budgeted figures within budget; the benchmark never fails on speed.")
    return 0


def measure(args: argparse.Namespace, database: ThrowawayDatabase, folder: Path, server_env: dict) -> dict:
    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from bench.pad_client import Addresses, save_encoding

    say(f"migrating the throw-away database ({database.describe()}), collecting the static files")
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", "--no-input", verbosity=0)  # into STATIC_ROOT, as production does

    limit = (getattr(settings, "RATE_LIMITS", {}) or {}).get("save", {}).get("address")
    per_address = max(1, int(limit[0] * 0.8)) if limit else 10**9
    addresses = Addresses(per_address, fixed=CLUB_ADDRESS if args.one_address else None)
    said = f"{limit[0]} per {limit[1]} s per address" if limit else "none per address"
    how = (
        f"settings.RATE_LIMITS['save'] = {said}, unchanged: the club nights' phones all save and poll from "
        f"{CLUB_ADDRESS}, as a club's behind one router (a save the limit refuses is an error of the night); "
    )
    if args.one_address:
        how += "the closed loop's and the in-process clients too (saves over the limit refused, counted as errors)"
    else:
        how += (
            f"the closed loop's and the in-process clients (saturation, far faster than any room types) each from "
            f"its own loopback address (127.x.y.z), a fresh one every {per_address} saves, so the limit counts "
            f"every save and refuses none"
        )
    how += "; the per-phone and per-account limits are lifted (bench/settings.py), each save still counted by them"
    encoding = save_encoding()
    results: dict[str, Any] = {
        "machine": machine(),
        "git": git(),
        "database": database.describe(),
        "command": " ".join(["bench/run.py", *(sys.argv[1:] if __name__ == "__main__" else [])]).strip(),
        "options": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "save_encoding": encoding,
        "rate_limit": {"save": limit, "how": how, "club_address": CLUB_ADDRESS},
    }
    results["inprocess"], bench = in_process(args, encoding, addresses)
    if not args.no_gunicorn:
        results["gunicorn"] = under_gunicorn(args, encoding, addresses, folder, server_env, bench)
    results["rate_limit"]["addresses_used"] = addresses.taken
    from django.db import connections

    connections.close_all()
    return results


def in_process(args: argparse.Namespace, encoding: str, addresses):
    """The in-process figures, and the account and games they used (gunicorn's section reuses them)."""
    from bench import inprocess
    from bench.bench_history import PAGES, store_games
    from scoring.models import Player

    say("in-process: games with 1 (solo), 4 and 5 players")
    bench = inprocess.InProcess(sectors=args.sectors, encoding=encoding, addresses=addresses)
    out: dict = {"sizes": {}}
    history: dict[str, Any] = {"sizes": [str(s) for s in args.games], "pages": {}, "baseline": {}}
    stored = 0
    for size in args.games:
        if size > stored:
            say(f"in-process: storing {size - stored:,} finished games (up to {size:,})")
            store_games(bench.owner, size - stored, stored)
            stored = size
        say(f"in-process at {size:,} stored games: SQL statements")
        found: dict = {"statements": {}}
        for kind in ("save", "step"):
            for players in (1, 5):
                found["statements"][f"{kind}_{players}p"] = bench.statements(players, kind)
        say(f"in-process at {size:,} stored games: timings ({args.samples} samples each, interleaved with /healthz)")
        found["timings"] = bench.timings(args.samples, args.warmup)
        if args.history_samples:
            say(f"in-process at {size:,} stored games: history, players and statistics pages")
            pages = dict(PAGES)
            alice = Player.objects.filter(owner=bench.owner, name="Alice").first()
            if alice:
                pages["a player's page"] = f"/players/{alice.pk}/"
            found["history_pages"] = {}
            base_all = []
            for name, url in pages.items():
                try:
                    measured, base = inprocess.interleaved(
                        lambda url=url: bench._get(url), bench.healthz, args.history_samples, 2
                    )
                except AssertionError as problem:  # a page that does not exist at this size (page 40 of 10 games)
                    found["history_pages"][name] = {"url": url, "skipped": str(problem)}
                    continue
                base_all += base
                found["history_pages"][name] = {"url": url, "measured": summary(measured), "baseline": summary(base)}
                history["pages"].setdefault(name, {})[str(size)] = summary(measured)["median"]
            history["baseline"][str(size)] = summary(base_all)["median"] if base_all else None
        out["sizes"][str(size)] = found
    if args.history_samples:
        out["history"] = history
    say("in-process: the poll's statements, request bodies, answer sizes, the engine")
    out["poll"] = bench.poll_statements()
    out["bodies"] = bench.request_bodies()
    out["html"] = bench.page_bytes()
    out["estimates"] = bench.sent_estimates()
    out["engine"] = inprocess.engine(max(args.samples, 200) * 5)
    out["fields"] = {"typed": bench.fields(4)[0], "stepper": bench.fields(4)[1]}
    return out, bench


def typed_in_browser(server_env: dict, folder: Path, args, session: str, game_id: str) -> dict:
    """bench/browser.py's figure, against a gunicorn of its own with HTTPS=false (a browser on
    loopback speaks plain HTTP, as a LAN pad does)."""
    from bench import browser, load

    say("gunicorn with HTTPS=false: a whole 4-player game typed in Chromium, its requests counted")
    with load.Gunicorn({**server_env, "HTTPS": "false"}, folder, workers=args.workers) as server:
        found = browser.typed_game(f"http://127.0.0.1:{server.port}", session, game_id, 4, args.sectors)
    if "skipped" in found:
        say(f"browser figure not measured: {found['skipped']}")
    return found


def lighthouse_run(server_env: dict, folder: Path, args, session: str, games) -> dict:
    """bench/lighthouse.py's figures: Lighthouse's mobile run of the four pages a table opens (the
    home page as a newcomer sees it; a 4-player pad in progress, the results of a finished game and
    its table view, each opened with its owner's session), against a server of its own with
    HTTPS=false (a LAN pad over plain HTTP, as the phones at the table see it)."""
    from bench import lighthouse, load

    in_progress, finished = games
    pages = {
        "home": ("/", None),
        "pad": (f"/games/{in_progress}/", session),
        "results": (f"/games/{finished}/results/", session),
        "table": (f"/games/{finished}/table/", session),
    }
    say("the site's server with HTTPS=false: Lighthouse's mobile run of the home page, a pad, the results, the table")
    with load.Gunicorn({**server_env, "HTTPS": "false"}, folder, workers=args.workers) as server:
        found = lighthouse.figures(f"http://127.0.0.1:{server.port}", pages)
    if "skipped" in found:
        say(f"Lighthouse figures not measured: {found['skipped']}")
    return found


def under_gunicorn(args, encoding: str, addresses, folder: Path, server_env: dict, bench) -> dict:
    from django.contrib.auth.models import User
    from django.db import connections
    from django.test import Client

    from bench import load
    from bench.inprocess import game_for, games_finished_for
    from bench.pad_client import Addresses

    def session_of(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    tables = math.ceil(args.clients / args.per_table)
    say(
        f"gunicorn: {tables} tables of {args.per_table} phones ({args.clients} clients), each table's own 4-player game"
    )
    phones: list[load.TablePhone] = []
    for table in range(tables):
        user = User.objects.create_user(f"bench-table-{table + 1}")
        game = game_for(user, 4, args.sectors)
        for seat in range(args.per_table):
            if len(phones) < args.clients:
                phones.append(
                    load.TablePhone(
                        game_id=game.public_id,
                        session=session_of(user),
                        seat=seat % 4 + 1,
                        encoding=encoding,
                        page=secrets.token_hex(8),
                    )
                )

    def club_phones(phones: int, tables: int, name: str) -> list:
        """A club night's own tables (fresh games, none of another load's saves in them): the
        phones spread over the tables, each typing into its own seat."""
        per_table = math.ceil(phones / tables)
        users = [User.objects.create_user(f"bench-{name}-{table + 1}") for table in range(tables)]
        games = [game_for(user, 5 if per_table == 5 else 4, args.sectors) for user in users]
        return [
            load.TablePhone(
                game_id=games[i % tables].public_id,
                session=session_of(users[i % tables]),
                seat=i // tables + 1,
                encoding=encoding,
                page=secrets.token_hex(8),
            )
            for i in range(phones)
        ]

    nights: dict[str, list] = {}
    if not args.no_club:
        nights["club"] = club_phones(args.club_phones, args.club_tables, "club")
        if args.large_club_tables:
            nights["club_large"] = club_phones(4 * args.large_club_tables, args.large_club_tables, "club-large")
    typist = User.objects.create_user("bench-browser")
    typed_game = game_for(typist, 4, args.sectors)
    typist_session = session_of(typist)
    owner, games = bench.owner, bench.games
    owner_phone = load.TablePhone(
        game_id=games[4].public_id, session=session_of(owner), seat=4, encoding=encoding, page=secrets.token_hex(8)
    )
    first_session = session_of(owner)
    lighthouse_user = User.objects.create_user("bench-lighthouse")
    lighthouse_games = (
        game_for(lighthouse_user, 4, args.sectors).public_id,
        games_finished_for(lighthouse_user, 4, args.sectors).public_id,
    )
    lighthouse_session = session_of(lighthouse_user)
    connections.close_all()  # the server has the database to itself

    out: dict = {"workers": args.workers}
    if not args.no_browser:
        out["browser"] = typed_in_browser(server_env, folder, args, typist_session, typed_game.public_id)
    if not args.no_lighthouse:
        out["lighthouse"] = lighthouse_run(server_env, folder, args, lighthouse_session, lighthouse_games)
    say(f"gunicorn: starting {args.workers} workers")
    with load.Gunicorn(server_env, folder, workers=args.workers) as server:
        out["command"] = "gunicorn " + " ".join(server.command[1:-2])
        host, port = "127.0.0.1", server.port
        say(f"gunicorn on port {port}: answers as sent, the pad's first load")
        load.prepare(host, port, owner_phone)
        holder = addresses.holder()
        sizes = {}
        save = load.wire_save(host, port, owner_phone, holder.use(), value="12")
        step = load.wire_save(host, port, owner_phone, holder.use(), step=1)
        cookie = {"Cookie": f"sessionid={owner_phone.session}; csrftoken={owner_phone.csrf_cookie}"}
        pad4 = load.wire(host, port, "GET", f"/games/{games[4].public_id}/", cookie)
        pad5 = load.wire(host, port, "GET", f"/games/{games[5].public_id}/", cookie)
        live = f"/games/{games[4].public_id}/live/"
        etag = load.wire(host, port, "GET", live, {**cookie, "HX-Request": "true"}).header("ETag")
        poll = load.wire(host, port, "GET", live, {**cookie, "HX-Request": "true", "If-None-Match": etag})
        health = load.wire(host, port, "GET", "/healthz")
        for name, answer in (
            ("save", save),
            ("step", step),
            ("pad4_html", pad4),
            ("pad5_html", pad5),
            ("poll", poll),
            ("healthz", health),
        ):
            sizes[name] = {
                "status": answer.status,
                "bytes": answer.sent,
                "head": len(answer.head),
                "body": len(answer.body),
                "content_encoding": answer.header("Content-Encoding"),
                "headers": answer.head.decode("latin-1").strip().splitlines(),
            }
        out["sizes"] = sizes
        out["first_load"] = load.first_load(host, port, f"/games/{games[4].public_id}/", first_session)

        for key, club in nights.items():
            for phone in club:
                load.prepare(host, port, phone)
            every = load.poll_interval(pad4.text())
            tables = len({phone.game_id for phone in club})
            say(
                f"gunicorn: club night, open loop: {len(club)} phones at {tables} tables, each saving every "
                f"{args.club_interval:g} s (± {args.club_jitter:g}) and polling every {every:g} s, for "
                f"{args.load_warmup:g} + {args.club_seconds:g} s"
            )
            router = Addresses(10**9, fixed=CLUB_ADDRESS)  # (every phone of the room behind one address)
            out[key] = load.club_night(
                host,
                port,
                club,
                [router.holder() for _ in club],
                seconds=args.club_seconds,
                warmup=args.load_warmup,
                interval=args.club_interval,
                jitter=args.club_jitter,
                poll_every=every,
                server=server,
            )
        for phone in phones:
            load.prepare(host, port, phone)
        holders = [addresses.holder() for _ in phones]
        out["load"] = {}
        say(f"gunicorn: /healthz under {args.clients} clients for {args.seconds:g} s (the baseline)")
        out["load"]["healthz"] = load.run_load(server, phones, "healthz", args.seconds, args.load_warmup, holders)
        say(f"gunicorn: saves from {args.clients} clients for {args.seconds:g} s")
        out["load"]["save"] = load.run_load(server, phones, "save", args.seconds, args.load_warmup, holders)
        if args.poll:
            every = load.poll_interval(pad4.text())
            say(f"gunicorn: saves from {args.clients} clients, each polling every {every:g} s, for {args.seconds:g} s")
            out["load"]["save_poll"] = load.run_load(
                server, phones, "save", args.seconds, args.load_warmup, holders, poll_every=every
            )
        out["log_tail"] = server.log_tail(20)
    say("gunicorn: stopped")
    return out


if __name__ == "__main__":
    sys.exit(main())

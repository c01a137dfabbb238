"""Benchmark: the history, players and statistics pages at 1,000 and at 100,000 stored games.

Reports figures, never asserts on time. Each page is measured on the same account with 1,000
games, then again once 99,000 more are stored, and the two are printed side by side with their
ratio (the pages read stored outcomes, a page of games at a time, and aggregates: the ratio
should stay near 1). A plain page of the same middleware (the start form) is the baseline.

Run: `make bench ARGS=--history` (this file alone, on a throw-away SQLite database; filling it
takes a minute or two), or `.venv/bin/python bench/bench_history.py`. `make bench` itself
measures these pages at each of its `--games` sizes (bench/run.py imports ``store_games`` and
``PAGES`` from here).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import warnings
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup() -> None:
    """Django on a throw-away SQLite database (or DATABASE_URL's), DEBUG off: for running this
    file by itself. bench/run.py imports ``store_games`` and ``PAGES`` after its own set-up."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "apiary_site.settings")
    os.environ.setdefault("DEBUG", "true")  # development mode's key for a run by itself; DEBUG off below
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench-history.sqlite3")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    warnings.filterwarnings("ignore", message="No directory at")

    import django

    django.setup()
    from django.conf import settings

    settings.DEBUG = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


NAMES = ("Alice", "Bruno", "Carla", "Dario", "Emma", "Farid", "Gaia", "Hugo")


def store_games(owner, count: int, start: int) -> None:
    """``count`` finished three-player games with their outcomes and player records, in batches,
    then the tallies computed from them (as the migration that made them does)."""
    from django.db import transaction

    from scoring.models import Game, Player, Seat
    from scoring.rules.categories import FACTIONS
    from scoring.services.tallies import tallies_rebuild

    players = {player.name: player for player in Player.objects.filter(owner=owner)}
    for name in NAMES:
        if name not in players:
            players[name] = Player.objects.create(owner=owner, name=name, name_key=name.casefold())
    for first in range(start, start + count, 5000):
        numbers = range(first, min(first + 5000, start + count))
        with transaction.atomic():
            games = Game.objects.bulk_create(
                Game(
                    owner=owner, played_on=date(2000, 1, 1) + timedelta(days=n % 9000), finished_at="2020-01-01T00:00Z"
                )
                for n in numbers
            )
            Seat.objects.bulk_create(
                Seat(
                    game=game,
                    number=seat,
                    name=NAMES[(n + seat) % len(NAMES)],
                    player=players[NAMES[(n + seat) % len(NAMES)]],
                    name_key=NAMES[(n + seat) % len(NAMES)].casefold(),
                    faction=FACTIONS[(n + seat) % len(FACTIONS)],
                    farm_income=(n * seat) % 30,
                    recruits=(n + seat) % 20,
                    score_total=40 + (n * seat) % 60,
                    rank=seat,
                    is_winner=seat == 1,
                )
                for game, n in zip(games, numbers, strict=True)
                for seat in (1, 2, 3)
            )
    tallies_rebuild(owner)


def timed(client, url: str, repeat: int = 20) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return samples


PAGES = {
    "history, first page": "/",
    "history, player search": "/?player=arl",
    "history, filtered": "/?faction=Ana&players=3&status=finished&since=2001-01-01",
    "history, page 40": "/?page=40",
    "players": "/players/",
    "statistics": "/statistics/",
}


def main() -> None:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from scoring.models import Player

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench", password="a-long-bench-pass-phrase")
    client = Client()
    client.force_login(owner)
    store_games(owner, 1000, 0)
    PAGES["a player's page"] = f"/players/{Player.objects.get(owner=owner, name='Alice').pk}/"
    baseline = statistics.median(timed(client, "/games/new/"))
    small = {name: statistics.median(timed(client, url)) for name, url in PAGES.items()}
    store_games(owner, 99_000, 1000)
    large = {name: statistics.median(timed(client, url, repeat=10)) for name, url in PAGES.items()}
    print(
        f"Apiary Scorepad history benchmark (Python {sys.version.split()[0]}, SQLite); "
        f"baseline (the start form) {baseline:.2f} ms"
    )
    print(f"{'page':<26} {'1,000 games':>12} {'100,000 games':>14} {'ratio':>6}")
    for name in PAGES:
        print(f"{name:<26} {small[name]:>9.2f} ms {large[name]:>11.2f} ms {large[name] / small[name]:>6.2f}")


if __name__ == "__main__":
    setup()
    main()

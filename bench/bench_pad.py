"""Benchmark: how long the pad takes to save one field and answer with every figure.

Reports figures, never asserts on time. Each measurement is compared in the same run with a
baseline on the same machine, so the figures mean something on a busy shared host:

- the engine scoring a full 5-player, 20-sector game, against the subtotals alone (no comb,
  no ranking);
- an htmx field save (parse, write under the field's version, re-score, render the status and
  the out-of-band partials), a stepper step, the pad page and a live poll that finds nothing new
  (a 304), each against a plain GET of the owner's history page with no game (the same
  middleware, session and account look-ups).

Run: `make bench` (uses a throw-away SQLite database).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "apiary_site.settings")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ["ALLOWED_HOSTS"] = "testserver"
warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise: no collectstatic here

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

settings.DEBUG = False  # as in production: no query log (static files stay unhashed, as in the tests)
# The save limit counts as it does in production, but never refuses the benchmark's own saves.
settings.RATE_LIMITS = {**settings.RATE_LIMITS, "save": {"address": (10**9, 60)}}

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from scoring import services  # noqa: E402
from scoring.categories import CATEGORIES  # noqa: E402
from scoring.engine import PlayerSheet, Sector, category_vp, score_game  # noqa: E402


def timed(function, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def report(name: str, samples: list[float], baseline: list[float]) -> None:
    median, base = statistics.median(samples), statistics.median(baseline)
    p90 = statistics.quantiles(samples, n=10)[-1]
    print(f"{name:<34} median {median:8.3f} ms   p90 {p90:8.3f} ms   baseline {base:8.3f} ms   x{median / base:6.1f}")


def main() -> None:
    call_command("migrate", verbosity=0)
    sectors = [Sector(9 + i % 5, i % 4) for i in range(20)]
    sheets = [
        PlayerSheet(
            entries={c.key: (True if c.is_flag else (i + 3) % (c.maximum + 1)) for c in CATEGORIES},
            active_workers=i % 5,
            tokens=[(i + s) % 2 for s in range(20)][:7] + [0] * 13,
        )
        for i in range(5)
    ]
    engine = timed(lambda: score_game(sectors, sheets), 2000)
    engine_base = timed(lambda: [category_vp(sheet.entries) for sheet in sheets], 2000)

    owner = User.objects.create_user("bench", password="a-long-bench-pass-phrase")
    client = Client()
    client.force_login(owner)
    history_base = timed(lambda: client.get("/"), 200)
    game = services.game_create(
        players=[services.PlayerSetup(name) for name in ("Alice", "Bruno", "Carla", "Dmitri", "Eve")],
        sectors=[(s.first, s.second) for s in sectors], owner=owner,
    )
    values = iter(range(1, 10**6))

    def save():
        seq = next(values)
        response = client.post(
            f"/games/{game.public_id}/save/",
            {"field": "s3-farm_income", "value": f"{seq % 50}+2", "page": "bench", "seq": seq},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200, response.status_code

    def step():
        seq = next(values)
        response = client.post(
            f"/games/{game.public_id}/save/", {"field": "s2-t0", "step": 1 if seq % 2 else -1, "page": "bench", "seq": seq},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200, response.status_code

    save_samples = timed(save, 200)
    step_samples = timed(step, 200)
    pad_samples = timed(lambda: client.get(f"/games/{game.public_id}/"), 100)
    etag = client.get(f"/games/{game.public_id}/live/")["ETag"]
    poll_samples = timed(lambda: client.get(f"/games/{game.public_id}/live/", headers={"If-None-Match": etag}), 500)

    print(f"Apiary Scorepad benchmark (Python {sys.version.split()[0]}, SQLite)")
    report("engine: score 5 players, 20 sectors", engine, engine_base)
    report("htmx field save + 8 partials", save_samples, history_base)
    report("htmx stepper step (comb tokens)", step_samples, history_base)
    report("pad page, 5 players, 20 sectors", pad_samples, history_base)
    report("live poll, nothing new (304)", poll_samples, history_base)


if __name__ == "__main__":
    main()

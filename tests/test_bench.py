"""The benchmark (`make bench`, bench/run.py) still runs, at a tiny size, and writes its JSON.

Nothing here times anything or looks at a figure: the benchmark reports figures, it never
fails on speed, and neither does the suite. This only keeps the harness working as the code it
measures changes (a renamed field, a new header, a moved URL): one run with five samples, one
second of load from four clients, gunicorn and all (about 15 seconds).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from scoring.categories import CATEGORIES

ROOT = Path(__file__).resolve().parent.parent


def test_the_benchmark_runs_at_a_tiny_size_and_writes_valid_json(tmp_path):
    output = tmp_path / "bench.json"
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--games", "3", "--samples", "5", "--warmup", "1",
         "--history-samples", "1", "--clients", "4", "--seconds", "1", "--load-warmup", "0.2", "--sectors", "2",
         "--json", str(output)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    results = json.loads(output.read_text(encoding="utf-8"))

    assert {"machine", "git", "database", "inprocess", "gunicorn", "figures"} <= set(results)
    timings = results["inprocess"]["sizes"]["3"]["timings"]
    assert set(timings) == {"save", "step", "pad4", "pad5", "poll", "history"}
    assert all(line["measured"]["n"] == 5 and line["baseline"]["n"] == 5 for line in timings.values())
    assert set(results["inprocess"]["sizes"]["3"]["statements"]) == {"save_1p", "save_5p", "step_1p", "step_5p"}
    load = results["gunicorn"]["load"]
    assert load["save"]["answers"] > 0 and load["healthz"]["answers"] > 0
    assert load["save"]["clients_still_running"] == 0
    typed = results["gunicorn"]["browser"]  # a whole game typed in Chromium: one save per value
    if os.environ.get("CI") == "true" or "skipped" not in typed:
        assert typed.get("values") == 4 * (len(CATEGORIES) + 2 + 1) and typed["saves"] == typed["values"], typed
    figures = results["figures"]
    assert figures and all({"figure", "measured", "baseline", "ratio", "budget", "met"} <= set(f) for f in figures)
    assert "figure" in result.stdout and "met?" in result.stdout

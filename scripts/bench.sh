#!/usr/bin/env bash
# Prints the benchmark figures (see bench/bench_pad.py). Never fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt
# The save path, then the history pages at 1,000 and 100,000 games.
.venv/bin/python bench/bench_pad.py
exec .venv/bin/python bench/bench_history.py

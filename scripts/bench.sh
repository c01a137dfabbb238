#!/usr/bin/env bash
# Prints the benchmark figures (see bench/bench_pad.py). Never fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt
exec .venv/bin/python bench/bench_pad.py

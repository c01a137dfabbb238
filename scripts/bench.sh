#!/usr/bin/env bash
# The benchmark of issue 9, "Fast at the table" (bench/run.py; docs/performance.md says what each
# figure means and its budget). Arguments go to bench/run.py, e.g.
#   scripts/bench.sh --games 1000,100000 --samples 500 --clients 32 --seconds 30
#   scripts/bench.sh --history        # issue 8's history benchmark alone
#   scripts/bench.sh --help           # every option
# On SQLite in a temporary folder, or on a throw-away database of the PostgreSQL server that
# DATABASE_URL names. It collects the static files into staticfiles/ (git-ignored), as production
# does, for gunicorn. It never fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt
exec .venv/bin/python bench/run.py "$@"

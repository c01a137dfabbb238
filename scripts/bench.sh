#!/usr/bin/env bash
# The benchmark of "Speed: what a table feels" (bench/run.py; docs/performance.md says what each
# figure means). Arguments go to bench/run.py, e.g.
#   scripts/bench.sh                  # everything, the club night (open loop) for 60 s
#   scripts/bench.sh --games 10 --samples 30 --history-samples 0 --no-browser --club-seconds 20 --seconds 5
#   scripts/bench.sh --history        # issue 8's history benchmark alone
#   scripts/bench.sh --help           # every option
# On SQLite in a temporary folder, or on a throw-away database of the PostgreSQL server that
# DATABASE_URL names. It collects the static files into staticfiles/ (git-ignored), as production
# does, for the server. It never fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt
exec .venv/bin/python bench/run.py "$@"

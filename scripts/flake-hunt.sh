#!/usr/bin/env bash
# The flake hunt: runs the browser journeys (or the tests named) RUNS times each, in a random
# order, on two processes as make test does, beside a busy-loop processor hog, and prints how
# often each test failed, with the first failure's words. Exits 1 when any run failed.
#
# Usage: scripts/flake-hunt.sh [RUNS] [pytest arguments...]
#   RUNS            how many times each test runs (20 unless told)
#   pytest args     which tests (tests/browser unless told), e.g. tests/browser/test_offline.py -k copy
# Environment:
#   HOGS=1          busy loops beside the run (0: none; the machines have two cores)
#   SEED=12345      the order's seed (a new one each hunt unless told; the report names it)
#   CHROMIUM_PATH   another Chromium (the suite's conftest reads it), e.g. an older version's binary
# The whole report is kept in artifacts/flake-hunt.txt, the runs' own in artifacts/flake-hunt.xml.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt

runs=${1:-20}
[ $# -gt 0 ] && shift
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/browser)
seed=${SEED:-$RANDOM}
hogs=${HOGS:-1}

hog_pids=()
stop_hogs() { [ ${#hog_pids[@]} -eq 0 ] || kill "${hog_pids[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for _ in $(seq 1 "$hogs"); do
    (while :; do :; done) &
    hog_pids+=($!)
done

mkdir -p artifacts
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
version=$("$chromium" --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -n 1 || echo "?")
echo "flake-hunt: ${tests[*]}, $runs runs each, seed $seed, $hogs hog(s), Chromium $version" >&2
started=$SECONDS
# (CI=true: a browser that cannot start fails, as on CI, rather than skipping every run)
CI=true .venv/bin/python -m pytest -n 2 --dist worksteal -q -p no:cacheprovider \
    --count "$runs" --random-order-bucket=global --random-order-seed "$seed" \
    --junitxml artifacts/flake-hunt.xml "${tests[@]}" >artifacts/flake-hunt.log 2>&1 || true
stop_hogs
.venv/bin/python scripts/flake_report.py artifacts/flake-hunt.xml --runs "$runs" \
    --about "seed $seed, $hogs hog(s), Chromium $version, $((SECONDS - started)) s" | tee artifacts/flake-hunt.txt

#!/usr/bin/env bash
# Runs the whole test suite: makes .venv, installs the test requirements, makes sure Debian's
# Chromium is there for the browser journeys, checks the migrations, then runs pytest.
# Extra arguments go to pytest (scripts/test.sh -k engine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt

chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "test: installing Debian's chromium for the browser journeys" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    elif [ "${CI:-}" = true ]; then
        echo "test: $chromium is missing and cannot be installed here; CI must run the browser journeys." >&2
        exit 1
    else
        echo "test: $chromium is missing; the browser journeys will be skipped (install Debian's chromium)." >&2
    fi
fi

.venv/bin/python manage.py makemigrations --check --dry-run -v 0 || {
    echo "test: the models have changes that no migration records (run manage.py makemigrations)." >&2
    exit 1
}
exec .venv/bin/python -m pytest "$@"

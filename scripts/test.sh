#!/usr/bin/env bash
# Runs the whole test suite: makes .venv, installs the test requirements, makes sure Debian's
# Chromium (browser journeys) and PostgreSQL (the shared-deployment database test) are there,
# checks the migrations, then runs pytest.
# Extra arguments go to pytest (scripts/test.sh -k engine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt

missing=()
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$chromium" ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "test: installing Debian's ${missing[*]} for the browser and PostgreSQL tests" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    elif [ "${CI:-}" = true ]; then
        echo "test: ${missing[*]} missing and cannot be installed here; CI must run those tests." >&2
        exit 1
    else
        echo "test: ${missing[*]} missing; those tests will be skipped (install Debian's packages)." >&2
    fi
fi

.venv/bin/python manage.py makemigrations --check --dry-run -v 0 || {
    echo "test: the models have changes that no migration records (run manage.py makemigrations)." >&2
    exit 1
}
exec .venv/bin/python -m pytest "$@"

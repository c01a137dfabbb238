#!/usr/bin/env bash
# Runs the whole test suite: makes .venv, installs the test requirements, makes sure Debian's
# Chromium (browser journeys), PostgreSQL and gettext (the catalogue tests run makemessages, which
# needs xgettext, and msgfmt, msgattrib, msgexec and msgcmp) are there, checks the migrations, then
# runs pytest on SQLite and again on PostgreSQL (scripts/with-postgres.sh).
# Extra arguments go to pytest (scripts/test.sh -k engine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements-test.txt

missing=()
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$chromium" ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
{ command -v xgettext && command -v msgfmt; } >/dev/null 2>&1 || missing+=(gettext)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "test: installing Debian's ${missing[*]} for the browser, PostgreSQL and catalogue tests" >&2
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
# The whole suite on SQLite (the embedded default), then again on PostgreSQL (a shared
# deployment's database): a private cluster on loopback, started for the run and stopped after.
status=0
echo "test: the suite on SQLite" >&2
.venv/bin/python -m pytest "$@" || status=$?
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; then
    echo "test: the suite on PostgreSQL" >&2
    PYTHON=.venv/bin/python scripts/with-postgres.sh .venv/bin/python -m pytest "$@" || status=$?
elif [ "${CI:-}" = true ]; then
    echo "test: PostgreSQL is missing; CI must run the suite on it." >&2
    status=1
else
    echo "test: PostgreSQL is missing: the suite did not run on it (install Debian's postgresql)." >&2
fi
exit "$status"

#!/usr/bin/env bash
# Runs the whole test suite: makes .venv, installs the test requirements, makes sure Debian's
# Node.js and npm (the phone side's style and unit tests), Chromium (browser journeys), PostgreSQL
# and gettext (the catalogue tests run makemessages, which needs xgettext, and msgfmt, msgattrib,
# msgexec and msgcmp) are there, checks the migrations, then runs four parts, one after the other:
#   0. the code's style: ruff check and ruff format --check (pyproject.toml says what they check),
#      and its types: mypy with django-stubs (pyproject.toml's [tool.mypy]); the templates' layout
#      (djade: scripts/template-style.sh), the layers (import-linter); then the phone side's:
#      Biome's format and lint checks (scripts/js-style.sh, biome.jsonc);
#   1. the phone side's unit tests: node --test tests/js/ (about a second);
#   2. the whole pytest suite on SQLite, browser journeys included, its coverage printed;
#   3. pytest on PostgreSQL (scripts/with-postgres.sh), the tests that face the database only:
#      with TEST_DATABASE_FACING_ONLY=1, tests/conftest.py deselects the browser journeys and the
#      tests that use no database, which part 2 has run (and says how many).
# Each pytest part spreads its tests over two processes (pytest-xdist, -n 2: the machines have two
# cores; each process has its own test database and its own Chromium); an idle process takes
# tests queued for the other (--dist worksteal), so neither ends long before the other.
# Extra arguments go to pytest, in parts 2 and 3 (scripts/test.sh -k engine; -n 0 runs in one
# process). A part that the arguments leave without a test says so and does not fail.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBUG=true  # development mode, asked for (the settings default to production's; tests/settings.py)
scripts/bootstrap.sh requirements-test.txt

have_chromium() { local chromium=${CHROMIUM_PATH:-/usr/bin/chromium}; [ -x "$chromium" ]; }
have_postgresql() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; }
have_gettext() { command -v xgettext >/dev/null && command -v msgfmt >/dev/null; }
have_nodejs() { command -v node >/dev/null; }
have_npm() { command -v npm >/dev/null; }  # (NodeSource's nodejs has it; Debian's comes in its npm package)

missing=()
have_nodejs || missing+=(nodejs)
have_npm || missing+=(npm)
have_chromium || missing+=(chromium)
have_postgresql || missing+=(postgresql)
have_gettext || missing+=(gettext)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "test: installing Debian's ${missing[*]} for the phone side's, browser, PostgreSQL and catalogue tests" >&2
        { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } \
            || echo "test: apt-get could not install ${missing[*]}." >&2
    fi
    still=()
    for package in "${missing[@]}"; do "have_$package" || still+=("$package"); done
    if [ ${#still[@]} -gt 0 ]; then
        if [ "${CI:-}" = true ]; then
            echo "test: ${still[*]} missing and cannot be installed here; CI must run those tests." >&2
            exit 1
        fi
        echo "test: ${still[*]} missing; those tests will be skipped (install Debian's packages)." >&2
    fi
fi

.venv/bin/python manage.py makemigrations --check --dry-run -v 0 || {
    echo "test: the models have changes that no migration records (run manage.py makemigrations)." >&2
    exit 1
}

status=0
results=()
# part NAME COMMAND...: runs one part, says which, and keeps its result for the summary. pytest's
# exit status 5 (no test collected or all deselected) is no failure when arguments chose the tests.
part() {
    local name=$1 started=$SECONDS code=0
    shift
    echo "test: ── $name ──" >&2
    "$@" || code=$?
    local result="passed"
    if [ "$code" = 5 ] && [ "$pytest_args" -gt 0 ]; then
        result="nothing to run (the arguments chose no test of this part)"
    elif [ "$code" != 0 ]; then
        result="FAILED (exit status $code)"
        status=1
    fi
    results+=("$name: $result, $((SECONDS - started)) s")
}
pytest_args=$#
pytest=(.venv/bin/python -m pytest -n 2 --dist worksteal --durations=10)

# The code's style as pyproject.toml declares it (ruff, pinned in requirements-test.txt): a few seconds.
code_style() { .venv/bin/ruff check --quiet . && .venv/bin/ruff format --check --quiet .; }
part "the code's style (ruff check, ruff format --check)" code_style
part "the code's types (mypy)" .venv/bin/mypy
part "the templates' layout (djade)" scripts/template-style.sh
part "the layers (import-linter: pyproject.toml's contracts)" scripts/layers.sh
if have_nodejs && have_npm; then
    part "the phone side's style (Biome: format, lint; lines of at most 110)" scripts/js-style.sh
else
    results+=("the phone side's style: skipped (Node.js or npm is missing)")
fi

if have_nodejs; then
    part "the phone side's unit tests (node --test tests/js/)" node --test --test-reporter=spec tests/js/
else
    results+=("the phone side's unit tests: skipped (Node.js is missing)")
fi

# The whole suite on SQLite (the embedded default), then the tests that face the database again on
# PostgreSQL (a shared deployment's database): a private cluster on loopback, started for the run
# and stopped after.
# The whole suite measures what it reaches (coverage.py through pytest-cov, branches included:
# pyproject.toml's [tool.coverage]), prints the modules not wholly covered and fails below the
# figure written there; a run of chosen tests (arguments) measures nothing.
coverage=()
[ "$pytest_args" -eq 0 ] && coverage=(--cov --cov-report=term)
part "the suite on SQLite, browser journeys included" "${pytest[@]}" "${coverage[@]}" "$@"
if have_postgresql; then
    part "the database-facing tests on PostgreSQL" env TEST_DATABASE_FACING_ONLY=1 PYTHON=.venv/bin/python \
        scripts/with-postgres.sh "${pytest[@]}" "$@"
else  # (with CI=true, a missing PostgreSQL has already stopped the run above)
    results+=("the database-facing tests on PostgreSQL: skipped (install Debian's postgresql)")
fi

echo "test: ── results ──" >&2
for result in "${results[@]}"; do echo "test: $result" >&2; done
exit "$status"

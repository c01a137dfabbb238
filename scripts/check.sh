#!/usr/bin/env bash
# The fast checks, in seconds, beside the whole suite (make test runs them too): the code's style
# (ruff check, ruff format --check), its types (mypy), the templates' layout (djade:
# scripts/template-style.sh), the layers a request reads down (import-linter: scripts/layers.sh),
# the phone side's style (Biome: scripts/js-style.sh, when Node and npm are installed), the
# migrations against the models, Django's system checks and the phone side's unit tests (node
# --test tests/js/, when Node is installed).
# Stops at the first that fails, saying which.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBUG=true  # development mode, asked for (the settings default to production's)
scripts/bootstrap.sh requirements-test.txt >/dev/null

step() {
    local name=$1 started=$SECONDS
    shift
    if "$@"; then
        echo "check: $name: passed, $((SECONDS - started)) s" >&2
    else
        echo "check: $name: FAILED" >&2
        exit 1
    fi
}
step "the code's style (ruff check, ruff format --check)" \
    sh -c '.venv/bin/ruff check --quiet . && .venv/bin/ruff format --check --quiet .'
step "the code's types (mypy)" .venv/bin/mypy
step "the templates' layout (djade)" scripts/template-style.sh
step "the layers (import-linter: pyproject.toml's contracts)" scripts/layers.sh
if command -v node >/dev/null && command -v npm >/dev/null; then
    step "the phone side's style (Biome: format, lint; lines of at most 110)" scripts/js-style.sh
else
    echo "check: Node or npm is not installed: the phone side's style is left to make test" >&2
fi
step "the migrations match the models" .venv/bin/python manage.py makemigrations --check --dry-run -v 0
step "Django's system checks" sh -c '.venv/bin/python manage.py check --fail-level WARNING >/dev/null'
if command -v node >/dev/null; then
    step "the phone side's unit tests (node --test tests/js/)" node --test --test-reporter=dot tests/js/
else
    echo "check: Node is not installed: the phone side's unit tests are left to make test" >&2
fi

#!/usr/bin/env bash
# The layers a request reads down (docs/architecture.md), kept by import-linter against the
# contracts of pyproject.toml's [tool.importlinter]: quiet when they are kept, the broken
# contracts and the imports that break them otherwise. A step of make check and make test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! report=$(.venv/bin/lint-imports --no-logo --no-cache 2>&1); then
    echo "$report" >&2
    exit 1
fi

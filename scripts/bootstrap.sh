#!/usr/bin/env bash
# Makes .venv/ ready: a Python 3.12+ virtual environment with the given requirements file installed.
# Re-installs only when the requirements change. Usage: scripts/bootstrap.sh requirements.txt
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=${1:-requirements.txt}
venv=.venv

if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
    echo "bootstrap: $venv is older than Python 3.12; making it again." >&2
    rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
    python=$(scripts/find-python.sh)
    echo "bootstrap: creating $venv with $python ($("$python" --version))" >&2
    "$python" -m venv "$venv"
fi

# The stamp records what was installed, so an unchanged setup starts at once.
stamp="$venv/.installed-$(basename "$requirements")"
wanted=$(cat requirements*.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "bootstrap: installing $requirements" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" > "$stamp"
fi

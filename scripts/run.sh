#!/usr/bin/env bash
# Runs the app on 127.0.0.1:${PORT:-8000}: makes .venv, installs requirements, migrates SQLite
# and makes the cache table (a game file waiting for its import, settings.CACHES).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements.txt
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py createcachetable -v 0
port=${PORT:-8000}
echo "Apiary Scorepad: http://127.0.0.1:$port/  (Ctrl-C stops it)"
exec .venv/bin/python manage.py runserver "127.0.0.1:$port"

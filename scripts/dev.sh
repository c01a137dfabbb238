#!/usr/bin/env bash
# Development mode: Django's runserver on 127.0.0.1:${PORT:-8000}, DEBUG on, reloading on every
# change of the code, the development key. Not for the table: `make run` serves the phones.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBUG=true  # development mode, asked for (the settings default to production's)
scripts/bootstrap.sh requirements.txt
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py createcachetable -v 0
port=${PORT:-8000}
echo "Apiary Scorepad, development mode: http://127.0.0.1:$port/  (Ctrl-C stops it)"
exec .venv/bin/python manage.py runserver "127.0.0.1:$port"

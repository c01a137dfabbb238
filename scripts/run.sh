#!/usr/bin/env bash
# Serves the table: the app as it runs for real, for the phones on this network (apiary_site/table.py
# says what it does: its own key, kept; production's settings over plain HTTP; the address and
# QR code to open on the phones). Makes .venv and installs the requirements first.
#   HOST=127.0.0.1 make run    # this machine only (default: every interface)
#   PORT=8001 make run         # another port (default: 8000)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh requirements.txt
exec .venv/bin/python -m apiary_site.table

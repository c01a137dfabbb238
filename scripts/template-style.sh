#!/usr/bin/env bash
# The templates' layout: djade (pinned in requirements-test.txt) formats their Django syntax as
# Django's own style guide writes it (spacing inside tags, the blank line after {% extends %} and
# {% load %}, named {% endblock %}s). The bytes a phone receives are the minifier's business
# (apiary_site/compression.py), never the layout's.
# Usage: scripts/template-style.sh (check, as make test and make check do); scripts/template-style.sh
# --write (format the templates).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--check)
[ "${1:-}" = "--write" ] && mode=()
mapfile -t templates < <(git ls-files 'templates/*.html' 'scoring/templates/*.html' 2>/dev/null || find templates -name '*.html')
exec .venv/bin/djade --target-version 6.1 "${mode[@]}" "${templates[@]}"

#!/usr/bin/env bash
# The templates' layout: laid out for people, one element a line, no line of markup longer than
# 120 characters (a {# comment #} line aside: it says why, in one line); and formatted by djade
# (pinned in requirements-test.txt), which writes their Django syntax as Django's own style guide
# does (spacing inside tags, the blank line after {% extends %} and {% load %}, named
# {% endblock %}s). The bytes a phone receives are the minifier's business
# (apiary_site/compression.py), never the layout's.
# Usage: scripts/template-style.sh (check, as make test and make check do); scripts/template-style.sh
# --write (format the templates; the long lines are left to lay out by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--check)
[ "${1:-}" = "--write" ] && mode=()
mapfile -t templates < <(git ls-files 'templates/*.html' 'scoring/templates/*.html' 2>/dev/null || find templates -name '*.html')
long=$(awk 'length($0) > 120 && $0 !~ /^[ \t]*\{#.*#\}[ \t]*$/ { print FILENAME ":" FNR ": " length($0) " characters" }' \
    "${templates[@]}")
if [ -n "$long" ]; then
    echo "template-style: lines of markup longer than 120 characters (one element a line; a message as" >&2
    echo "{% blocktranslate trimmed %} over several lines):" >&2
    echo "$long" >&2
    [ "${mode[*]}" = "--check" ] && exit 1
fi
exec .venv/bin/djade --target-version 6.1 "${mode[@]}" "${templates[@]}"

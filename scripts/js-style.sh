#!/usr/bin/env bash
# The phone side's style: Biome checks the formatting, the order of the imports and the lint
# rules of biome.jsonc (a function of at most 80 lines among them) on the script modules
# (static/scoring/) and their unit tests (tests/js/), and no line of them is longer than 110
# characters (the formatter's width: it breaks code, never a comment or a string).
# Biome is pinned exactly (package.json, package-lock.json) and comes from the npm registry, its
# Linux binary inside the package (no build): `npm ci` installs it into node_modules/ (ignored by
# git) when the lock changed since the last install, as scripts/bootstrap.sh does for .venv.
# Needs Node.js and npm (scripts/test.sh installs Debian's when they are missing).
# Usage: scripts/js-style.sh (check, as make test and make check do); scripts/js-style.sh --write
# (format the files and apply the safe fixes).
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.installed-lock
wanted=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "js-style: installing Biome (npm ci)" >&2
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    echo "$wanted" > "$stamp"
fi

colors=()
[ -t 2 ] || colors=(--colors=off)  # (a log, not a terminal)
if [ "${1:-}" = --write ]; then
    exec node_modules/.bin/biome check --write "${colors[@]}"
fi
node_modules/.bin/biome ci --error-on-warnings "${colors[@]}"
long=$(LC_ALL=C.UTF-8 grep -rn --include='*.js' '.\{111,\}' static/scoring tests/js || true)
if [ -n "$long" ]; then
    echo "js-style: lines longer than 110 characters (split them where they say two things):" >&2
    echo "$long" | cut -c1-160 >&2
    exit 1
fi

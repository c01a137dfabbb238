#!/usr/bin/env bash
# Prints the path of a Python 3.12 or newer interpreter: PATH first, then pyenv's versions.
# Exits 1 with a clear message on standard error when there is none.
set -u

runs_312_plus() {
    # A candidate counts only if it really runs (pyenv shims may refuse) and is 3.12+.
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

for name in python3.14 python3.13 python3.12 python3 python; do
    candidate=$(command -v "$name" 2>/dev/null) || continue
    if runs_312_plus "$candidate"; then
        echo "$candidate"
        exit 0
    fi
done

pyenv_root=${PYENV_ROOT:-}
if [ -z "$pyenv_root" ] && command -v pyenv >/dev/null 2>&1; then
    pyenv_root=$(pyenv root 2>/dev/null)
fi
[ -n "$pyenv_root" ] || pyenv_root="$HOME/.pyenv"
if [ -d "$pyenv_root/versions" ]; then
    # Newest first: 3.13.x before 3.12.x.
    for candidate in $(ls -d "$pyenv_root"/versions/3.*/bin/python3 2>/dev/null | sort -V -r); do
        if runs_312_plus "$candidate"; then
            echo "$candidate"
            exit 0
        fi
    done
fi

cat >&2 <<'MSG'
error: Apiary Scorepad needs Python 3.12 or newer, and none was found.
Looked on PATH (python3.14, python3.13, python3.12, python3, python) and under pyenv's versions/.
Install one (for example `pyenv install 3.12`, or your system's python3.12 package) and run again.
MSG
exit 1

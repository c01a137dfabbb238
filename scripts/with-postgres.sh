#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a private PostgreSQL cluster on loopback, made
# under a temporary folder for it and stopped (and deleted) afterwards, whatever the command does.
# Usage: scripts/with-postgres.sh .venv/bin/python -m pytest
set -euo pipefail

initdb=$(compgen -G "/usr/lib/postgresql/*/bin/initdb" | sort -V | tail -n 1 || true)
[ -n "$initdb" ] || initdb=$(command -v initdb || true)
if [ -z "$initdb" ]; then
    echo "with-postgres: PostgreSQL is not installed (Debian's postgresql package)." >&2
    exit 1
fi
bin=$(dirname "$initdb")
folder=$(mktemp -d -t apiary-pg-XXXXXX)
as_postgres=()
if [ "$(id -u)" = 0 ]; then  # PostgreSQL refuses to run as root
    chown postgres:postgres "$folder"
    as_postgres=(runuser -u postgres --)
fi
port=$("${PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as_postgres[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

"${as_postgres[@]}" "$bin/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_postgres[@]}" "$bin/pg_ctl" -D "$folder/data" -w -l "$folder/log" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c max_connections=200 -c fsync=off" start >/dev/null
"${as_postgres[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres apiary
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $NF}') on 127.0.0.1:$port (and its socket in $folder)" >&2

# (by the cluster's Unix socket in its folder: a round trip a little shorter than loopback TCP's)
export DATABASE_URL="postgres://postgres@${folder//\//%2F}:$port/apiary"
"$@"

#!/usr/bin/env bash
# Starts a throwaway Postgres cluster for tests/exactly_once_postgres.rs
# and prints its URL: the distribution's server (installed from apt when
# missing), a cluster in target/postgres owned by the `postgres` user,
# listening on 127.0.0.1 with trust authentication, on the first free port
# from 54329. Run again, it
# starts a new one; `--stop` stops it and removes it. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA="$PWD/target/postgres"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ "${1:-}" != "--stop" ] && { [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; }; then
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_postgres() { runuser -u postgres -- "$@"; }
if [ -f "$DATA/postmaster.pid" ]; then
    as_postgres "$bin/pg_ctl" -D "$DATA" -m fast stop >/dev/null 2>&1 || true
fi
rm -rf "$DATA"
if [ "${1:-}" = "--stop" ]; then
    exit 0
fi
# The first port nothing listens on (a connection attempt fails).
PORT=54329
while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
    PORT=$((PORT + 1))
done
mkdir -p "$DATA"
chown postgres "$DATA"
as_postgres "$bin/initdb" -D "$DATA" -U postgres --auth=trust >/dev/null
as_postgres "$bin/pg_ctl" -D "$DATA" -l "$DATA/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DATA" -w start >/dev/null
echo "postgres://postgres@127.0.0.1:$PORT/postgres"

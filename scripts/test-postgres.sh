#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the database tests and prints its URL.
# Used by .ci/run; locally: `export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)`.
# `stop` stops it. The data folder is under /tmp so the postgres user can reach it wherever the
# checkout lives.
set -euo pipefail
PORT=${TEST_PG_PORT:-54329}
PGDATA=${TEST_PGDATA:-/tmp/setpoint-test-pgdata}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL server binaries not found; install Debian's postgresql package." >&2
  exit 1
fi
if [ "${1:-}" = "stop" ]; then
  su postgres -c "$PGBIN/pg_ctl -D $PGDATA stop -m fast" >/dev/null 2>&1 || true
  exit 0
fi
if ! su postgres -c "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1; then
  rm -rf "$PGDATA"
  install -d -o postgres -g postgres "$PGDATA"
  su postgres -c "$PGBIN/initdb -D $PGDATA -U postgres --auth=trust -E UTF8 --no-locale" >/dev/null
  su postgres -c "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -w -o '-h 127.0.0.1 -p $PORT -k $PGDATA -c fsync=off' start" >/dev/null
  su postgres -c "$PGBIN/createdb -h 127.0.0.1 -p $PORT -U postgres setpoint_test"
fi
echo "postgres://postgres@127.0.0.1:$PORT/setpoint_test"

#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the database tests and prints its URL.
# `npm test` in CI starts one through this; locally:
# `export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)`. `stop` stops it; `status` exits 0
# when it runs. The data folder is under /tmp so the postgres user can reach it wherever the
# checkout lives. As root the server runs as the postgres user (initdb refuses root); otherwise
# as the user running this.
set -euo pipefail
PORT=${TEST_PG_PORT:-54329}
PGDATA=${TEST_PGDATA:-/tmp/setpoint-test-pgdata}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL server binaries not found: install them with \`sudo apt-get install -y postgresql\`." >&2
  exit 1
fi
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else bash -c "$1"; fi
}
case "${1:-start}" in
  stop)
    as_server_user "$PGBIN/pg_ctl -D $PGDATA stop -m fast" >/dev/null 2>&1 || true
    exit 0
    ;;
  status)
    as_server_user "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1
    exit
    ;;
esac
if ! as_server_user "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1; then
  rm -rf "$PGDATA"
  if [ "$(id -u)" -eq 0 ]; then install -d -o postgres -g postgres "$PGDATA"; else mkdir -p "$PGDATA"; fi
  as_server_user "$PGBIN/initdb -D $PGDATA -U postgres --auth=trust -E UTF8 --no-locale" >/dev/null
  as_server_user "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -w -o '-h 127.0.0.1 -p $PORT -k $PGDATA -c fsync=off' start" >/dev/null
  as_server_user "$PGBIN/createdb -h 127.0.0.1 -p $PORT -U postgres setpoint_test"
fi
echo "postgres://postgres@127.0.0.1:$PORT/setpoint_test"

#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server: initdb + pg_ctl into a temp dir on a free port,
# DATABASE_URL exported for the command, everything removed afterwards. Installs PostgreSQL with apt-get
# when its binaries are missing. Usage: scripts/with-postgres.sh <command...>
# WITH_POSTGRES_OPTIONS adds server settings, e.g. "-c shared_preload_libraries=pg_stat_statements" (bench:api's
# BENCH_TRACE=1 then reports the database's own execution time per request).
set -euo pipefail

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  return 1
}

PGBIN=$(find_bin || true)
if [ -z "$PGBIN" ]; then
  echo "[with-postgres] PostgreSQL binaries missing: installing with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  PGBIN=$(find_bin)
fi

PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
DIR=$(mktemp -d /tmp/rr-pg.XXXXXX)
RUN_AS=()
if [ "$(id -u)" = "0" ]; then
  # initdb refuses to run as root.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown -R postgres "$DIR"
  RUN_AS=(runuser -u postgres --)
fi

cleanup() {
  "${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT

"${RUN_AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U postgres -A trust --no-sync -E UTF8 >/dev/null
"${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB ${WITH_POSTGRES_OPTIONS:-}" \
  start >/dev/null

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "[with-postgres] PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on port $PORT" >&2
"$@"

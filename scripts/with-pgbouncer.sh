#!/usr/bin/env bash
# Runs a command through PgBouncer in transaction pooling mode, in front of the PostgreSQL server in DATABASE_URL
# (e.g. the one scripts/with-postgres.sh starts): DATABASE_URL is pointed at PgBouncer and DATABASE_PREPARE=false is
# exported unless the caller set it. Installs pgbouncer with apt-get when missing; its config, pid and log live in
# a temp dir. Usage: scripts/with-postgres.sh scripts/with-pgbouncer.sh <command...>
set -euo pipefail

: "${DATABASE_URL:?with-pgbouncer needs DATABASE_URL (run it under scripts/with-postgres.sh)}"

if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  echo "[with-pgbouncer] pgbouncer missing: installing with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null
fi
PGBOUNCER=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)

read -r PG_HOST PG_PORT PG_USER < <(node -e "const u=new URL(process.env.DATABASE_URL);console.log(u.hostname,u.port||5432,decodeURIComponent(u.username)||'postgres')")
PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
DIR=$(mktemp -d /tmp/rr-pgbouncer.XXXXXX)
RUN_AS=()
if [ "$(id -u)" = "0" ]; then
  # pgbouncer refuses to run as root.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$DIR"
  RUN_AS=(runuser -u postgres --)
fi

# Every database name is passed through (the tests create one per file); the throwaway server trusts local users.
# `options` is the startup parameter the app sends only with named statements on (plan_cache_mode).
cat >"$DIR/pgbouncer.ini" <<INI
[databases]
* = host=$PG_HOST port=$PG_PORT user=$PG_USER

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,options
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
INI

cleanup() {
  [ -f "$DIR/pgbouncer.pid" ] && kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true
  sleep 0.2
  rm -rf "$DIR"
}
trap cleanup EXIT

"${RUN_AS[@]}" "$PGBOUNCER" -d "$DIR/pgbouncer.ini"
for _ in $(seq 1 50); do
  node -e "require('net').connect($PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" && break
  sleep 0.1
done

# A transaction-mode pooler cannot hold a LISTEN: the LISTEN connection goes to PostgreSQL itself (docs/deploy.md).
export DATABASE_LISTEN_URL="${DATABASE_LISTEN_URL:-$DATABASE_URL}"
export DATABASE_URL="postgres://$PG_USER@127.0.0.1:$PORT/${DATABASE_URL##*/}"
export DATABASE_PREPARE="${DATABASE_PREPARE:-false}"
echo "[with-pgbouncer] PgBouncer $("$PGBOUNCER" --version | awk 'NR==1{print $2}') (transaction pooling) on port $PORT, DATABASE_PREPARE=$DATABASE_PREPARE" >&2
"$@"

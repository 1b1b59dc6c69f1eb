#!/usr/bin/env bash
# Two instances of the built app on one throwaway PostgreSQL behind nginx (round robin), as a small production
# deployment: both instances start at the same moment on the empty database (the migration lock decides who
# migrates), trust one proxy hop, and serve the client. nginx speaks HTTPS with HTTP/2 to its clients, as in
# docs/deploy.md, with the test certificate for localhost and 127.0.0.1 (src/server/test/fixtures), which the command
# trusts through NODE_EXTRA_CA_CERTS. Exports for the command:
#   CLUSTER_PROXY_URL      the nginx front (what users reach): https://127.0.0.1:port
#   CLUSTER_INSTANCE_URLS  the two instances directly, comma-separated
#   CLUSTER_DATABASE_URL   their database
# Installs nginx with apt-get when missing; its config, pid, logs and temp files live in a temp dir.
# Usage: scripts/with-cluster.sh [command...]   (default: npx vitest run --project cluster)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${RR_CLUSTER_PG:-}" ]; then
  RR_CLUSTER_PG=1 exec bash scripts/with-postgres.sh bash "$0" "$@"
fi
[ $# -gt 0 ] || set -- npx vitest run --project cluster

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "[with-cluster] nginx missing: installing with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq nginx >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# The instances run the build, as `npm start` does; build what is missing or stale.
node scripts/prestart.mjs

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
PORTS=("$(free_port)" "$(free_port)")
PROXY_PORT=$(free_port)
DIR=$(mktemp -d /tmp/rr-cluster.XXXXXX)
PIDS=()
NGINX_PID=""

cleanup() {
  local status=$?
  [ -f "$DIR/nginx/nginx.pid" ] && kill "$(cat "$DIR/nginx/nginx.pid")" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && wait "$NGINX_PID" 2>/dev/null || true
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" != 0 ]; then
    for f in "$DIR"/instance-*.log "$DIR"/nginx-error.log; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -n 40 "$f" >&2; }
    done
  fi
  rm -rf "$DIR"
}
trap cleanup EXIT

# Both at the same moment, on the empty database.
for i in 0 1; do
  env NODE_ENV=production PORT="${PORTS[$i]}" HOST=127.0.0.1 TRUST_PROXY_HOPS=1 DATABASE_URL="$DATABASE_URL" \
    AUTH_PER_IP_MAX="${AUTH_PER_IP_MAX:-1000}" \
    node dist/server/main.js >"$DIR/instance-$((i + 1)).log" 2>&1 &
  PIDS+=($!)
done

# The nginx configuration of docs/deploy.md, plus what a throwaway, unprivileged run needs: its own paths, and the
# answering instance in X-Upstream so the tests can see the round robin.
mkdir -p "$DIR/nginx"
CERT=src/server/test/fixtures/localhost-cert.pem
cp "$CERT" "$DIR/nginx/cert.pem"
cp src/server/test/fixtures/localhost-key.pem "$DIR/nginx/key.pem"
cat >"$DIR/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $DIR/nginx/body;
  proxy_temp_path $DIR/nginx/proxy;
  fastcgi_temp_path $DIR/nginx/fastcgi;
  uwsgi_temp_path $DIR/nginx/uwsgi;
  scgi_temp_path $DIR/nginx/scgi;

  upstream ruralroute {
    server 127.0.0.1:${PORTS[0]};
    server 127.0.0.1:${PORTS[1]};
    keepalive 32;
  }
  server {
    listen 127.0.0.1:$PROXY_PORT ssl http2;
    ssl_certificate     $DIR/nginx/cert.pem;
    ssl_certificate_key $DIR/nginx/key.pem;
    ssl_protocols       TLSv1.2 TLSv1.3;
    client_max_body_size 1m;
    location / {
      proxy_pass http://ruralroute;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      add_header X-Upstream \$upstream_addr always;
    }
    location = /api/events {
      proxy_pass http://ruralroute;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_buffering off;
      proxy_read_timeout 1h;
      add_header X-Upstream \$upstream_addr always;
    }
  }
}
CONF
RUN_AS=()
if [ "$(id -u)" = "0" ]; then
  # Not as root: a throwaway proxy needs no privileges (the postgres user exists: with-postgres.sh made it).
  touch "$DIR/nginx-error.log"
  chown postgres "$DIR" "$DIR/nginx-error.log"
  chown -R postgres "$DIR/nginx"
  RUN_AS=(runuser -u postgres --)
fi
"${RUN_AS[@]}" "$NGINX" -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx-error.log" &
NGINX_PID=$!

wait_for() {
  local url=$1 pid=$2
  for _ in $(seq 1 600); do
    node -e "fetch('$url').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && return 0
    kill -0 "$pid" 2>/dev/null || { echo "[with-cluster] $url: process $pid exited" >&2; return 1; }
    sleep 0.2
  done
  echo "[with-cluster] $url did not answer in 120 s" >&2
  return 1
}
wait_for "http://127.0.0.1:${PORTS[0]}/api/health" "${PIDS[0]}"
wait_for "http://127.0.0.1:${PORTS[1]}/api/health" "${PIDS[1]}"
export NODE_EXTRA_CA_CERTS="$PWD/$CERT"
wait_for "https://127.0.0.1:$PROXY_PORT/api/health" "$NGINX_PID"

export CLUSTER_PROXY_URL="https://127.0.0.1:$PROXY_PORT"
export CLUSTER_INSTANCE_URLS="http://127.0.0.1:${PORTS[0]},http://127.0.0.1:${PORTS[1]}"
export CLUSTER_DATABASE_URL="$DATABASE_URL"
echo "[with-cluster] nginx $CLUSTER_PROXY_URL -> $CLUSTER_INSTANCE_URLS" >&2
"$@"

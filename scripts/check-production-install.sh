#!/usr/bin/env bash
# `npm ci --omit=dev && npm start` on a built tree: copies the project with its dist/ (no node_modules) to a temp
# dir, installs production dependencies only, starts it and checks that the API and a page answer.
# Run after `npm run build`. Usage: scripts/check-production-install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/server/main.js ] && [ -f dist/client/index.html ] || { echo "build first: npm run build" >&2; exit 1; }

DIR=$(mktemp -d /tmp/rr-prod.XXXXXX)
PID=""
cleanup() {
  # npm start runs in its own process group (setsid): stop npm, its shell and the server together. Waiting for npm
  # is not enough: the server may still be closing its database (PGlite writes pg_wal as it shuts down), and rm
  # would race it ("Directory not empty"), so wait until the whole group has exited (at most 15 s).
  if [ -n "$PID" ]; then
    kill -- "-$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    for _ in $(seq 1 75); do
      kill -0 -- "-$PID" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL -- "-$PID" 2>/dev/null || true
  fi
  rm -rf "$DIR" 2>/dev/null || { sleep 1; rm -rf "$DIR"; } || true
}
trap cleanup EXIT

# tar keeps modification times, so the copied build stays newer than its sources.
tar --exclude=./node_modules --exclude=./.git --exclude=./data --exclude=./.e2e-data -cf - . | tar -xf - -C "$DIR"
cd "$DIR"
npm ci --omit=dev --no-audit --no-fund
for tool in tsx vite esbuild; do
  [ ! -e "node_modules/$tool" ] || { echo "[prod-install] $tool was installed: it should be a devDependency" >&2; exit 1; }
done

PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
NODE_ENV=production PORT=$PORT HOST=127.0.0.1 DATA_DIR="$DIR/data" setsid npm start >"$DIR/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 300); do
  if node -e "fetch('http://127.0.0.1:$PORT/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    node -e "fetch('http://127.0.0.1:$PORT/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
    echo "[prod-install] npm start without devDependencies: $(grep 'listening on' "$DIR/server.log")"
    exit 0
  fi
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.2
done
cat "$DIR/server.log" >&2
exit 1

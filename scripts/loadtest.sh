#!/usr/bin/env bash
# Load test of goita serve on loopback (tests/e2e/load.js): a fresh server and database, 4 x
# TABLES clients playing at full speed for SECONDS. Prints one JSON line of figures.
# Usage: scripts/loadtest.sh [TABLES=250] [SECONDS=30]   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-250}
seconds=${2:-30}
tmp=$(mktemp -d)
port=$(node tests/e2e/free-port.js)
build/goita serve --port "$port" --db "$tmp/load.db" --round-pause 0 >"$tmp/serve.out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
node tests/e2e/load.js "ws://127.0.0.1:$port/" "$tables" "$seconds" "$server"

#!/usr/bin/env bash
# The browser client's offline play and analysis (tests/e2e/offline.js) in Chromium, with the
# WebAssembly build (scripts/wasm.sh, which scripts/test.sh runs first) served by goita serve.
# Usage: offline.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
web=$(cd "$(dirname "$0")/../../web" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$web/wasm/goita.wasm" ] || fail "web/wasm/goita.wasm is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/offline.db" --round-pause 300 >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  # and a server of the client without its WebAssembly build
  mkdir "$tmp/web" && cp "$web"/*.* "$tmp/web/"
  port2=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port2" --db "$tmp/bare.db" --web "$tmp/web" >"$tmp/serve2.out" 2>&1 &
  server2=$!
  trap 'kill $server $server2 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && grep -q "goita serve: http" "$tmp/serve2.out" && break; sleep 0.1; done
  node "$e2e/offline.js" "http://127.0.0.1:$port/" "http://127.0.0.1:$port2/" ||
    fail "an offline game to the end with its analysis, desktop and phone; a replay's analysis; no engine reported"
fi
finish offline

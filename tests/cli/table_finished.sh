#!/usr/bin/env bash
# The table finished (tests/e2e/table-finished.js) in Chromium: seated on create, filled with
# computers in one click, an online round's biggest mistakes and analysis from the WebAssembly
# build, the analysis's words, the offline deal after the pause and a missing game's page.
# Usage: table_finished.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
web=$(cd "$(dirname "$0")/../../web" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$web/wasm/goita.wasm" ] || fail "web/wasm/goita.wasm is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/finished.db" --round-pause 1000 >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
  timeout 200 node "$e2e/table-finished.js" "http://127.0.0.1:$port/" || fail "the table finished"
fi
finish table_finished

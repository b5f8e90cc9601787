#!/usr/bin/env bash
# The browser client's tutorial (tests/e2e/tutorial.js) in Chromium: every lesson's exercise
# passed by clicks, checked by the WebAssembly build (scripts/wasm.sh, which scripts/test.sh
# runs first) served by goita serve. Usage: tutorial.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
web=$(cd "$(dirname "$0")/../../web" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$web/wasm/goita.wasm" ] || fail "web/wasm/goita.wasm is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/tutorial.db" >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
  node "$e2e/tutorial.js" "http://127.0.0.1:$port/" ||
    fail "every lesson of the tutorial passed by clicks, desktop and phone, English and Japanese, each rule set"
fi
finish tutorial

#!/usr/bin/env bash
# Learning in the browser client (tests/e2e/learn.js) in Chromium: the puzzle of the day solved
# by clicks, a hint during an offline game (WebAssembly, scripts/wasm.sh) with its reasons and
# the unseen count, at desktop and phone size in English and Japanese.
# Usage: learn.sh PATH_TO_GOITA [SCREENSHOT_DIR]
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
web=$(cd "$(dirname "$0")/../../web" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$web/wasm/goita.wasm" ] || fail "web/wasm/goita.wasm is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/learn.db" >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
  node "$e2e/learn.js" "http://127.0.0.1:$port/" ${2:+"$2"} ||
    fail "the puzzle of the day solved, a hint with its reasons and the unseen count, desktop and phone, both languages"
fi
finish learn

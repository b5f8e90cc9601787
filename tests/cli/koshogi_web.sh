#!/usr/bin/env bash
# Ko shogi in the browser (web/koshogi.html, tests/e2e/koshogi.js) in Chromium at desktop and
# phone size, with libkoshogi's WebAssembly build (scripts/wasm.sh, which scripts/test.sh runs
# first) served by goita serve beside Goita.
# Usage: koshogi_web.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
web=$(cd "$(dirname "$0")/../../web" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$web/wasm/koshogi.wasm" ] || fail "web/wasm/koshogi.wasm is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/koshogi.db" >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
  node "$e2e/koshogi.js" "http://127.0.0.1:$port/" "${GOITA_SCREENSHOT:-}" ||
    fail "a Ko shogi game in the browser to its end (multi-leg move, shot, promotion asked), its record, the help; desktop and phone"
fi
finish koshogi_web

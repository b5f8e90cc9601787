#!/usr/bin/env bash
# Ko shogi in the browser (web/koshogi.html, tests/e2e/koshogi.js) in Chromium at desktop and
# phone size, and in both languages (tests/e2e/koshogi-screens.js), a game between two people
# online with a spectator (tests/e2e/koshogi-online.js), with libkoshogi's
# WebAssembly build (scripts/wasm.sh, which scripts/test.sh runs first) served by goita serve beside Goita; and a server of the page without that build.
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
  mkdir "$tmp/web" && cp "$web"/*.* "$tmp/web/"
  port2=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port2" --db "$tmp/bare.db" --web "$tmp/web" >"$tmp/serve2.out" 2>&1 &
  server2=$!
  trap 'kill $server $server2 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && grep -q "goita serve: http" "$tmp/serve2.out" && break; sleep 0.1; done
  node "$e2e/koshogi.js" "http://127.0.0.1:$port/" "http://127.0.0.1:$port2/" "${GOITA_SCREENSHOT:-}" ||
    fail "a Ko shogi game in the browser to its end (multi-leg move, shot, promotion asked), its record, the help; desktop and phone; no engine reported"
  node "$e2e/koshogi-screens.js" "http://127.0.0.1:$port/" "${GOITA_SCREENSHOT:-}" ||
    fail "the Ko shogi page at 1280 and 390 px in English and Japanese: axe-core, the board's keys and tab stop, piece size, no English left in Japanese"
  node "$e2e/koshogi-online.js" "http://127.0.0.1:$port/" "${GOITA_SCREENSHOT:-}" ||
    fail "Ko shogi online: two people (one at 390 px in Japanese) and a spectator, moves, clocks, a draw declined, the flag decided by the server, the record replayed from its link"
fi
finish koshogi_web

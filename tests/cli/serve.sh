#!/usr/bin/env bash
# goita serve: option errors, a database it cannot open, then the kill-and-restart test
# (tests/e2e/restart.js) and, given "browser", a whole round in four Chromium pages
# (tests/e2e/round.js) and the ways to play: quick match, rematch, invite link, chat
# (tests/e2e/modes.js).
# Usage: serve.sh PATH_TO_GOITA [browser]
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/ws" ] || fail "tools/e2e is not installed (scripts/setup.sh installs it)"

"$goita" serve --port 0 2>"$tmp/err" && fail "--port 0 accepted"
grep -q -- "--port must be from 1 to 65535" "$tmp/err" || fail "--port 0: $(cat "$tmp/err")"
"$goita" serve --colour 2>"$tmp/err" && fail "an unknown option accepted"
grep -q 'unknown option "--colour"' "$tmp/err" || fail "unknown option: $(cat "$tmp/err")"
"$goita" serve --db "$tmp/x.db" --bus nats://127.0.0.1:4222 2>"$tmp/err" && fail "--bus on SQLite accepted"
grep -q -- "--bus needs a PostgreSQL database" "$tmp/err" || fail "--bus on SQLite: $(cat "$tmp/err")"
"$goita" serve --db postgresql:///x --bus redis://127.0.0.1:6379 2>"$tmp/err" && fail "a bus that is not NATS accepted"
grep -q -- '--bus "redis://127.0.0.1:6379": expected nats://HOST:PORT' "$tmp/err" || fail "--bus redis: $(cat "$tmp/err")"
mkdir "$tmp/ro" && chmod 500 "$tmp/ro"
if [ "$(id -u)" != 0 ]; then # root writes anywhere
  "$goita" serve --db "$tmp/ro/x.db" --port "$(node "$e2e/free-port.js")" 2>"$tmp/err" && fail "an unwritable database accepted"
  grep -q "database $tmp/ro/x.db" "$tmp/err" || fail "unwritable database: $(cat "$tmp/err")"
fi
"$goita" serve --db /dev/null/x.db 2>"$tmp/err" && fail "a database under /dev/null accepted"
grep -q "database /dev/null/x.db: .*unable to open" "$tmp/err" || fail "bad database folder: $(cat "$tmp/err")"

node "$e2e/restart.js" "$goita" "$(node "$e2e/free-port.js")" "$tmp/restart.db" || fail "kill and restart"

if [ "${2:-}" = browser ]; then
  port=$(node "$e2e/free-port.js")
  "$goita" serve --port "$port" --db "$tmp/browser.db" --round-pause 1500 >"$tmp/serve.out" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
  node "$e2e/round.js" "http://127.0.0.1:$port/" "${GOITA_SCREENSHOT:-}" || fail "a round in four browsers"
  node "$e2e/modes.js" "http://127.0.0.1:$port/" "${GOITA_SCREENSHOT:-}" || fail "quick match, rematch, invite link and chat in browsers"
  kill -TERM $server
  wait $server || fail "the server did not stop cleanly on SIGTERM (exit $?): $(tail -5 "$tmp/serve.out")"
fi
finish serve

#!/usr/bin/env bash
# goita-load (tools/loadgen/) against a fresh goita serve: a short run of 40 clients at 10
# tables, 2 lobby listeners and a slow create-flood must connect everything, measure moves and
# lobby messages and exit 0. No timing thresholds: the figures are the benchmark's
# (scripts/loadtest.sh, docs/BENCHMARKS.md), not a test's.
# Usage: loadgen.sh PATH_TO_GOITA PATH_TO_GOITA_LOAD
. "$(dirname "$0")/common.sh"
load=$2
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)

"$load" --tables 1 http://127.0.0.1:1/ 2>"$tmp/err"
[ $? = 2 ] || fail "a URL that is not ws:// accepted"
grep -q 'is not a ws://HOST:PORT/ address' "$tmp/err" || fail "bad URL: $(cat "$tmp/err")"

port=$(node "$e2e/free-port.js")
"$load" --tables 1 --listeners 0 --setup-seconds 2 "ws://127.0.0.1:$port/" >"$tmp/out" 2>"$tmp/err" &&
  fail "no server, yet the run succeeded"
grep -q "cannot connect\|connection failed" "$tmp/err" || fail "no server: $(cat "$tmp/err")"

"$goita" serve --port "$port" --db "$tmp/load.db" --round-pause 0 >"$tmp/serve.out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
"$load" --tables 10 --listeners 2 --seconds 5 --flood 10 --server-pid $server "ws://127.0.0.1:$port/" >"$tmp/out" 2>&1 ||
  fail "the run failed: $(cat "$tmp/out")"
cat "$tmp/out"
grep -Eq '^summary clients=40 tables=10 listeners=2 .*moves_per_s=[1-9]' "$tmp/out" || fail "no moves measured"
grep -Eq '^move -> broadcast: .*\([1-9][0-9]* samples' "$tmp/out" || fail "no move latency measured"
grep -Eq '^lobby update: .* [1-9][0-9]* messages' "$tmp/out" || fail "the listeners got no lobby messages"
grep -Eq '^flood: [1-9][0-9]* creates sent, [1-9][0-9]* created' "$tmp/out" || fail "the flooder created nothing"
kill -0 $server || fail "the server died"

# Two URLs: the tables are dealt over both servers, so each makes moves.
port2=$(node "$e2e/free-port.js")
"$goita" serve --port "$port2" --db "$tmp/load2.db" --round-pause 0 >"$tmp/serve2.out" 2>&1 &
server2=$!
trap 'kill $server $server2 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve2.out" && break; sleep 0.1; done
moves() { # a server's goita_moves_total
  node -e "require('$e2e/client').httpGet($1, '/metrics').then((r) => console.log(r.body))" |
    awk '$1 == "goita_moves_total" { print $2 }'
}
before=$(moves "$port") before2=$(moves "$port2")
"$load" --tables 4 --listeners 0 --seconds 2 "ws://127.0.0.1:$port/" "ws://127.0.0.1:$port2/" >"$tmp/out2" 2>&1 ||
  fail "the run over two servers failed: $(cat "$tmp/out2")"
[ "$(moves "$port")" -gt "$before" ] || fail "no moves on the first of two servers"
[ "$(moves "$port2")" -gt "$before2" ] || fail "no moves on the second of two servers: $(cat "$tmp/out2")"
finish loadgen

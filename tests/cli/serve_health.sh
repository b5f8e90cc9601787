#!/usr/bin/env bash
# What an operator sees of one server (docs/SERVER.md "Health and metrics"): goita serve on a
# real PostgreSQL (scripts/postgres.sh) and a real nats-server, with a lease of 60 s so that no
# lease renewal happens during the test. Its log lines carry a UTC timestamp and its name; the
# database stopped under it makes /healthz answer 503 with the reason within a few seconds, with
# no call of its own needed, and 200 again once it is started; the bus stopped and started is
# shown on /healthz (status 200: it still serves its own tables) and logged both ways.
# Usage: serve_health.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
nats=$(command -v nats-server || echo /usr/sbin/nats-server)
[ -x "$nats" ] || { echo "FAIL nats-server is not installed (Debian nats-server; scripts/test-tools.sh installs it)"; exit 1; }
mkdir "$tmp/pg"
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null
  [ -n "${bus:-}" ] && kill "$bus" 2>/dev/null
  wait 2>/dev/null
  "$root/scripts/postgres.sh" stop "$tmp/pg"
  rm -rf "$tmp"
}
trap cleanup EXIT
db=$("$root/scripts/postgres.sh" start "$tmp/pg") || { echo "FAIL PostgreSQL did not start"; exit 1; }
port=$(node "$root/tests/e2e/free-port.js")
nats_port=$(node "$root/tests/e2e/free-port.js")

start_bus() {
  "$nats" -a 127.0.0.1 -p "$nats_port" >>"$tmp/nats.log" 2>&1 &
  bus=$!
}
# GET /healthz: the status code, then the body, on one line.
health() { curl -s -m 2 -w '%{http_code}' "http://127.0.0.1:$port/healthz" | tr '\n' ' '; }
# Waits up to $1 tenths of a second for /healthz to match the extended regular expression $2.
health_until() {
  local _
  for _ in $(seq "$1"); do
    health | grep -Eq "$2" && return 0
    sleep 0.1
  done
  return 1
}
# Whether the server's log has a line "TIMESTAMP h1 TEXT" with TEXT matching $1.
logged() { grep -Eq "^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z h1 $1" "$tmp/serve.err"; }
since='since 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'

start_bus
"$goita" serve --port "$port" --db "$db" --node h1 --lease 60 --bus "nats://127.0.0.1:$nats_port" \
  >"$tmp/serve.out" 2>"$tmp/serve.err" &
server=$!
for _ in $(seq 100); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
grep -q "goita serve: http://127.0.0.1:$port/" "$tmp/serve.out" ||
  { cat "$tmp/serve.out" "$tmp/serve.err"; echo "FAIL the server did not start"; exit 1; }
logged "listening on http://127.0.0.1:$port/, database PostgreSQL, node h1 \(lease 60 s\), bus nats://127.0.0.1:$nats_port\$" ||
  fail "no start line with the address, database, name and bus: $(cat "$tmp/serve.err")"
health_until 50 "^ok bus: connected $since 200$" || fail "/healthz at the start: $(health)"
logged "bus connected$" || fail "no line for the bus connected: $(cat "$tmp/serve.err")"

# 1. PostgreSQL stopped: 503 with the reason, found by the server's own check (no lease renewal
#    or request of a client within the test's 60 s lease)
"$root/scripts/postgres.sh" stop "$tmp/pg"
health_until 50 "^database down $since: .*unreachable.* bus: connected $since 503$" ||
  fail "/healthz with the database stopped: $(health)"
logged "database down: .*unreachable" || fail "no line for the database lost: $(cat "$tmp/serve.err")"
curl -s "http://127.0.0.1:$port/metrics" | grep -qx 'goita_database_up 0' || fail "/metrics does not say the database is down"
sleep 1.5 # a second failed check changes nothing
[ "$(grep -c 'database down' "$tmp/serve.err")" -eq 1 ] || fail "the database's loss logged more than once"

# 2. started again: 200 within a few seconds, and a line saying how long it was away
"$root/scripts/postgres.sh" start "$tmp/pg" >/dev/null || fail "PostgreSQL did not start again"
health_until 50 "^ok bus: connected $since 200$" || fail "/healthz once the database is back: $(health)"
logged "database back after [0-9]+\.[0-9] s$" || fail "no line for the database back: $(cat "$tmp/serve.err")"
curl -s "http://127.0.0.1:$port/metrics" | grep -qx 'goita_database_up 1' || fail "/metrics does not say the database is back"

# 3. the bus stopped: said on /healthz and in the log, status 200; started again: back
kill "$bus"
wait "$bus" 2>/dev/null
health_until 80 "^ok bus: unreachable $since: .+ 200$" || fail "/healthz with the bus stopped: $(health)"
logged "bus down: " || fail "no line for the bus lost: $(cat "$tmp/serve.err")"
start_bus
health_until 80 "^ok bus: connected $since 200$" || fail "/healthz once the bus is back: $(health)"
logged "bus back after [0-9]+\.[0-9] s$" || fail "no line for the bus back: $(cat "$tmp/serve.err")"

kill "$server"
wait "$server" || fail "the server stopped with status $?: $(tail -5 "$tmp/serve.err")"
server=
logged "stopping$" || fail "no line for the stop: $(cat "$tmp/serve.err")"
finish serve_health

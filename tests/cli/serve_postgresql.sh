#!/usr/bin/env bash
# goita serve on a real PostgreSQL (scripts/postgres.sh, under the scratch folder, a Unix socket
# only): the kill-and-restart test (tests/e2e/restart.js) with the database on PostgreSQL, then
# the database stopped mid-game and started again under a running server (tests/e2e/outage.js),
# then two servers on the database, one killed mid-round and its table taken over by the other
# (tests/e2e/failover.js).
# Usage: serve_postgresql.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
e2e=$root/tests/e2e
mkdir "$tmp/pg"
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
trap '"$root/scripts/postgres.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT
db=$("$root/scripts/postgres.sh" start "$tmp/pg") || { echo "FAIL PostgreSQL did not start"; exit 1; }

node "$e2e/restart.js" "$goita" "$(node "$e2e/free-port.js")" "$db" || fail "kill and restart on PostgreSQL"
node "$e2e/outage.js" "$goita" "$(node "$e2e/free-port.js")" "$db" \
  "$root/scripts/postgres.sh stop $tmp/pg" "$root/scripts/postgres.sh start $tmp/pg" || fail "database outage"
node "$e2e/failover.js" "$goita" "$(node "$e2e/free-port.js")" "$(node "$e2e/free-port.js")" "$db" 3 ||
  fail "a node killed and its table taken over"
finish serve_postgresql

#!/usr/bin/env bash
# The deployment of scripts/cluster.sh: `up` with three nodes on PostgreSQL and NATS behind
# HAProxy, every piece healthy in `status`, then the cluster used through the proxy
# (tests/e2e/deploy.js: the page, a game, a node killed, the database stopped), and `down`
# leaving no process of it running.
# Usage: cluster.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cluster=$tmp/cluster
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
trap 'bash "$root/scripts/cluster.sh" down "$cluster" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export GOITA=$goita NODES=3 LEASE=3 SERVE_ARGS="--round-pause 0"

bash "$root/scripts/cluster.sh" up "$cluster" >"$tmp/up.out" 2>&1 || { cat "$tmp/up.out"; echo "FAIL cluster.sh up"; exit 1; }
bash "$root/scripts/cluster.sh" status "$cluster" >"$tmp/status.out" 2>&1 || fail "status after up: $(cat "$tmp/status.out")"
for piece in postgres nats n1 n2 n3 haproxy; do
  grep -q "^$piece *ok" "$tmp/status.out" || fail "status does not show $piece healthy: $(cat "$tmp/status.out")"
done
grep -q '^haproxy *ok n1 UP.*n2 UP.*n3 UP' "$tmp/status.out" || fail "HAProxy does not see the three nodes up"

node "$root/tests/e2e/deploy.js" "$goita" "$root/scripts/cluster.sh" "$cluster" || fail "the cluster through HAProxy"

pids=$(cat "$cluster"/*.pid 2>/dev/null)
bash "$root/scripts/cluster.sh" down "$cluster" || fail "cluster.sh down"
for pid in $pids; do
  [ -e "/proc/$pid/status" ] && ! grep -q '^State:.*zombie' "/proc/$pid/status" && fail "process $pid ($(tr '\0' ' ' </proc/"$pid"/cmdline)) still runs after down"
done
pgrep -f -- "$cluster/" >/dev/null && fail "a process of the cluster still runs after down: $(pgrep -af -- "$cluster/")"
[ -e "$cluster/pg/data/postmaster.pid" ] && fail "PostgreSQL still runs after down"
finish deploy

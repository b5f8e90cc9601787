#!/usr/bin/env bash
# scripts/cluster.sh as an operator uses it (docs/SERVER.md "A cluster on one machine"): `up`
# on the ports given in the environment (HAProxy, PostgreSQL on TCP, NATS, two nodes), each
# kind of piece stopped, started and restarted (`stop|start|restart DIR PIECE`) with the cluster
# serving /healthz 200 through HAProxy after each, the nodes' logs carrying a timestamped line
# with their name for their start, the database lost and back, the bus lost and back and their
# stop, and `down` leaving no process.
# Usage: cluster_script.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cluster=$tmp/cluster
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
cleanup() {
  local c
  for c in "$cluster" "$tmp/other"; do [ -d "$c" ] && bash "$root/scripts/cluster.sh" down "$c" >/dev/null 2>&1; done
  rm -rf "$tmp"
}
trap cleanup EXIT
cl() { bash "$root/scripts/cluster.sh" "$@"; }

# Five distinct free ports of 127.0.0.1.
ports=()
while [ ${#ports[@]} -lt 5 ]; do
  p=$(node "$root/tests/e2e/free-port.js")
  [[ " ${ports[*]} " == *" $p "* ]] || ports+=("$p")
done
export GOITA=$goita LEASE=3 SERVE_ARGS="--round-pause 0" GOITA_PORT=${ports[0]} GOITA_PG_PORT=${ports[1]} \
  GOITA_NATS_PORT=${ports[2]} GOITA_SERVER_PORTS="${ports[3]},${ports[4]}"
proxy=${ports[0]}

# GET http://127.0.0.1:$1$2: the status code, then the body, on one line.
get() { curl -s -m 2 -w '%{http_code}' "http://127.0.0.1:$1$2" | tr '\n' ' '; }
# Waits up to $1 s for `get $2 $3` to match the extended regular expression $4.
get_until() {
  local _
  for _ in $(seq $(($1 * 10))); do
    get "$2" "$3" | grep -Eq "$4" && return 0
    sleep 0.1
  done
  return 1
}
# Whether the cluster serves: /healthz 200 through HAProxy, and the page.
serves() {
  get_until 15 "$proxy" /healthz '200$' || { fail "after $1: /healthz through HAProxy: $(get "$proxy" /healthz)"; return; }
  [[ $(get "$proxy" /) == *'<!doctype html>'*200 ]] || fail "after $1: no page through HAProxy"
}
# Whether node $1's log has a line "TIMESTAMP $1 TEXT" with TEXT matching $2, at least $3 (1) times.
logged() {
  [ "$(grep -cE "^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z $1 $2" "$cluster/$1.log")" -ge "${3:-1}" ]
}
# Waits up to 10 s for each node's own /healthz to match $1 (what it says is logged by then).
nodes_until() {
  local n
  for n in n1 n2; do
    get_until 10 "$(cat "$cluster/$n.port")" /healthz "$1" || fail "$n's /healthz $2: $(get "$(cat "$cluster/$n.port")" /healthz)"
  done
}
expect_logged() {
  local n
  for n in n1 n2; do logged "$n" "$1" "${2:-1}" || fail "no line \"$n $1\" in $n.log: $(cat "$cluster/$n.log")"; done
}

# 1. up on the given ports; NODES is the number of ports in GOITA_SERVER_PORTS
cl up "$cluster" >"$tmp/up.out" 2>&1 || { cat "$tmp/up.out"; echo "FAIL cluster.sh up"; exit 1; }
grep -q "open http://127.0.0.1:$proxy/" "$tmp/up.out" || fail "up does not name HAProxy's port $proxy: $(cat "$tmp/up.out")"
[ "$(cat "$cluster/n1.port") $(cat "$cluster/n2.port")" = "${ports[3]} ${ports[4]}" ] || fail "the nodes' ports are not GOITA_SERVER_PORTS"
[ -e "$cluster/n3.port" ] && fail "a third node without a port given"
(exec 3<>"/dev/tcp/127.0.0.1/${ports[1]}") 2>/dev/null || fail "PostgreSQL does not listen on GOITA_PG_PORT ${ports[1]}"
grep -q "port=${ports[1]}" "$cluster/db" || fail "the nodes' database URI does not name the port: $(cat "$cluster/db")"
serves up
for n in 1 2; do
  start="listening on http://127.0.0.1:${ports[n + 2]}/, database PostgreSQL, node n$n \(lease 3 s\)"
  logged "n$n" "$start, bus nats://127.0.0.1:${ports[2]}\$" ||
    fail "n$n's start line: $(cat "$cluster/n$n.log")"
done
expect_logged "bus connected$"
# a port in use is refused before anything starts
GOITA_PORT=${ports[3]} cl up "$tmp/other" >"$tmp/other.out" 2>&1 && fail "up on a port in use"
grep -q "port ${ports[3]} of 127.0.0.1 is in use" "$tmp/other.out" || fail "the refusal does not say why: $(cat "$tmp/other.out")"

# 2. PostgreSQL stopped: both nodes 503 with the reason, then started again and restarted
cl stop "$cluster" postgresql >/dev/null || fail "stop postgresql"
nodes_until '^database down since .*unreachable.* 503$' "with PostgreSQL stopped"
expect_logged "database down: .*unreachable"
for _ in $(seq 30); do cl status "$cluster" 2>/dev/null | grep -q 'n1 DOWN.*n2 DOWN' && break; sleep 0.5; done
[[ $(get "$proxy" /) == *503 ]] || fail "HAProxy kept a node without its database in the pool"
cl start "$cluster" postgresql >/dev/null || fail "start postgresql"
nodes_until '^ok .*200$' "once PostgreSQL is back"
expect_logged "database back after [0-9.]+ s$"
serves "PostgreSQL started again"
cl restart "$cluster" postgresql >/dev/null || fail "restart postgresql"
(exec 3<>"/dev/tcp/127.0.0.1/${ports[1]}") 2>/dev/null || fail "PostgreSQL restarted on another port"
serves "restart postgresql"

# 3. NATS stopped: the nodes say so and serve on; started again and restarted
cl stop "$cluster" nats >/dev/null || fail "stop nats"
nodes_until 'bus: unreachable since .* 200$' "without the bus"
expect_logged "bus down: "
serves "stop nats"
cl start "$cluster" nats >/dev/null || fail "start nats"
nodes_until 'bus: connected since .* 200$' "with the bus back"
expect_logged "bus back after [0-9.]+ s$"
cl restart "$cluster" nats >/dev/null || fail "restart nats"
serves "restart nats"
nodes_until 'bus: connected since .* 200$' "after restart nats"

# 4. HAProxy restarted: another process on the same port
old=$(cat "$cluster/haproxy.pid")
cl restart "$cluster" haproxy >/dev/null || fail "restart haproxy"
[ "$(cat "$cluster/haproxy.pid")" != "$old" ] || fail "restart haproxy left the same process"
serves "restart haproxy"

# 5. each node restarted (as nK and as serverK), its log going on; one killed and started again
old=$(cat "$cluster/n1.pid")
cl restart "$cluster" n1 >/dev/null || fail "restart n1"
[ "$(cat "$cluster/n1.pid")" != "$old" ] || fail "restart n1 left the same process"
logged n1 "stopping$" || fail "n1's stop is not in its log"
logged n1 "listening on " 2 || fail "n1's log does not go on after its restart: $(cat "$cluster/n1.log")"
serves "restart n1"
cl restart "$cluster" server2 >/dev/null || fail "restart server2"
logged n2 "listening on " 2 || fail "n2 was not restarted as server2"
[ "$(cl pid "$cluster" n2)" = "$(cat "$cluster/n2.pid")" ] || fail "pid n2 is not n2's process"
[ "$(cl pid "$cluster" postgresql)" = "$(head -1 "$cluster/pg/data/postmaster.pid")" ] || fail "pid postgresql"
kill -9 "$(cl pid "$cluster" n2)"
sleep 0.2
cl pid "$cluster" n2 >/dev/null 2>&1 && fail "pid of a killed node"
cl start "$cluster" n2 >/dev/null || fail "start n2 after kill -9"
logged n2 "listening on " 3 || fail "n2 was not started after kill -9"
serves "n2 killed and started"
cl start "$cluster" n2 >/dev/null 2>&1 && fail "start of a node that runs"
cl restart "$cluster" n3 >/dev/null 2>&1; [ $? -eq 2 ] || fail "restart of a piece that is not there"
for _ in $(seq 30); do cl status "$cluster" >"$tmp/status.out" 2>&1 && break; sleep 0.5; done
cl status "$cluster" >"$tmp/status.out" 2>&1 || fail "status after the restarts: $(cat "$tmp/status.out")"

# 6. down stops everything
cl down "$cluster" || fail "cluster.sh down"
pgrep -f -- "$cluster/" >/dev/null && fail "a process of the cluster still runs after down: $(pgrep -af -- "$cluster/")"
finish cluster_script

#!/usr/bin/env bash
# Several goita serve nodes with a message bus (docs/SERVER.md "Several servers"): a real
# PostgreSQL (scripts/postgres.sh, under the scratch folder) and a real NATS server (Debian
# nats-server, started by tests/e2e/cluster.js as the current user on a free loopback port), three
# nodes behind HAProxy (scripts/cluster.sh proxy), the bus stopped and started again mid-game,
# the owning node killed mid-round.
# Usage: serve_cluster.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
nats=$(command -v nats-server || echo /usr/sbin/nats-server)
[ -x "$nats" ] || { echo "FAIL nats-server is not installed (Debian nats-server; scripts/test-tools.sh installs it)"; exit 1; }
mkdir "$tmp/pg"
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
trap '"$root/scripts/postgres.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT
db=$("$root/scripts/postgres.sh" start "$tmp/pg") || { echo "FAIL PostgreSQL did not start"; exit 1; }
node "$root/tests/e2e/cluster.js" "$goita" "$db" "$nats" 3 || fail "three nodes on a bus"
finish serve_cluster

#!/usr/bin/env bash
# Load test of several goita serve nodes on one PostgreSQL, on loopback (docs/BENCHMARKS.md):
# scripts/cluster.sh starts a throwaway PostgreSQL, NATS, NODES nodes (--node n1 ... nN) and
# HAProxy, and one goita-load plays TABLES tables of four clients, dealt over the nodes in turn
# (table i on node i mod NODES), at full speed (or paced by THINK_MS), no listeners, no flood.
# VIA says how the clients connect: direct (the default), each straight to its table's node;
# proxy, through HAProxy to the table's node (ws://PROXY/?node=nK); spread, through HAProxy to
# whichever node leastconn picks (ws://PROXY/), so that a table's four players are on different
# nodes and the bus forwards their requests to the table's owner (its creator's node). NODES=0 runs one node on a SQLite
# file instead, for comparison. Prints the generator's summary, the CPU each piece (the nodes
# together, HAProxy, PostgreSQL, NATS) used over the generator's run (set-up included), and the PostgreSQL transactions per move (pg_stat_database's
# xact_commit over the run, divided by the window's moves).
# LOAD_ARGS adds goita-load options (--setup-seconds 20, say), SERVE_ARGS goita serve options.
# Usage: [VIA=direct|proxy|spread] scripts/loadtest-cluster.sh [NODES=3] [TABLES=60] [SECONDS=20] [THINK_MS=0]
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-3}
tables=${2:-60}
seconds=${3:-20}
think=${4:-0}
build=${GOITA_BUILD:-build}
for program in goita goita-load; do
  [ -x "$build/$program" ] || { echo "loadtest-cluster: no $build/$program: build it first" >&2; exit 2; }
done
tmp=$(mktemp -d)
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
cluster=$tmp/cluster
trap 'scripts/cluster.sh down "$cluster" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
count=$((nodes > 0 ? nodes : 1))
store=$([ "$nodes" -eq 0 ] && echo sqlite || echo postgresql)
# The per-connection and per-player rate limits are lifted: clients at full speed move far
# faster than people (a refused move stalls its table, and the run would measure the limits).
limits="--rate-per-second 100000 --rate-burst 100000 --player-rate-per-second 0"
NODES=$count STORE=$store SERVE_ARGS="--round-pause 0 $limits ${SERVE_ARGS:-}" GOITA=$build/goita scripts/cluster.sh up "$cluster" >"$tmp/up.out" ||
  { cat "$tmp/up.out" >&2; exit 1; }

psql_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/psql
commits() { # the database's committed transactions so far
  [ "$store" = postgresql ] || { echo 0; return; }
  local sql="SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$psql_bin" "$(cat "$cluster/db")" -qtAc "$sql"
  else "$psql_bin" "$(cat "$cluster/db")" -qtAc "$sql"; fi
}
# CPU seconds used so far by the processes "$@" (utime + stime of /proc/PID/stat).
cpu() {
  local pid total=0
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')))
  done
  awk -v t=$total -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}
node_pids=() urls=()
for n in $(seq "$count"); do
  node_pids+=("$(cat "$cluster/n$n.pid")")
  case ${VIA:-direct} in
    direct) urls+=("ws://127.0.0.1:$(cat "$cluster/n$n.port")/") ;;
    proxy) urls+=("ws://127.0.0.1:$(cat "$cluster/haproxy.port")/?node=n$n") ;;
    spread) urls=("ws://127.0.0.1:$(cat "$cluster/haproxy.port")/") ;;
    *) echo "loadtest-cluster: VIA is direct, proxy or spread, not $VIA" >&2; exit 2 ;;
  esac
done
haproxy_pid=$(cat "$cluster/haproxy.pid") nats_pid=$(cat "$cluster/nats.pid")
pg_pids=()
if [ "$store" = postgresql ]; then
  postmaster=$(head -1 "$cluster/pg/data/postmaster.pid")
  mapfile -t pg_pids < <(echo "$postmaster"; pgrep -P "$postmaster")
fi

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
echo "+ $build/goita-load --tables $tables --seconds $seconds --listeners 0 --flood 0 --think-ms $think --threads $count ${urls[*]}"
before=$(commits)
cpu0=("$(cpu "${node_pids[@]}")" "$(cpu "$haproxy_pid")" "$(cpu "${pg_pids[@]}")" "$(cpu "$nats_pid")")
start=$(date +%s.%N)
status=0
# shellcheck disable=SC2086 # LOAD_ARGS is a list of options
"$build/goita-load" --tables "$tables" --seconds "$seconds" --listeners 0 --flood 0 --think-ms "$think" \
  --threads "$count" --server-pid "${node_pids[0]}" ${LOAD_ARGS:-} "${urls[@]}" >"$tmp/load.out" 2>&1 || status=1
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
cpu1=("$(cpu "${node_pids[@]}")" "$(cpu "$haproxy_pid")" "$(cpu "${pg_pids[@]}")" "$(cpu "$nats_pid")")
after=$(commits)
line=$(grep '^summary' "$tmp/load.out") || { cat "$tmp/load.out" >&2; exit 1; }
echo "$line"
cores() { awk -v a="$1" -v b="$2" -v t="$elapsed" 'BEGIN { printf "%.2f", (b - a) / t }'; }
echo "cpu over ${elapsed%.*} s, in cores: nodes $(cores "${cpu0[0]}" "${cpu1[0]}"), haproxy $(cores "${cpu0[1]}" "${cpu1[1]}"), postgresql $(cores "${cpu0[2]}" "${cpu1[2]}"), nats $(cores "${cpu0[3]}" "${cpu1[3]}")"
moves=$(($(sed -E 's/.*moves_per_s=([0-9]+).*/\1/' <<<"$line") * seconds))
[ "$store" = postgresql ] && echo "postgresql: $((after - before)) transactions for about $moves moves:" \
  "$(awk -v t=$((after - before)) -v m=$moves 'BEGIN { printf "%.2f", m ? t / m : 0 }') a move"
exit $status

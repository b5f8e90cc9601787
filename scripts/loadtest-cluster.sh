#!/usr/bin/env bash
# Load test of several goita serve nodes on one PostgreSQL, on loopback (docs/BENCHMARKS.md):
# a throwaway PostgreSQL (scripts/postgres.sh), NODES servers (--node n1 ... nN), and one
# goita-load per node playing TABLES / NODES tables of four clients there at full speed (or
# paced by THINK_MS), no listeners, no flood; every table is owned by the node its players use.
# NODES=0 runs one server on a SQLite file instead, for comparison. Prints each generator's
# summary, the moves a second of all together, and the PostgreSQL transactions per move
# (pg_stat_database's xact_commit over the window, divided by the moves).
# Usage: scripts/loadtest-cluster.sh [NODES=3] [TABLES=60] [SECONDS=20] [THINK_MS=0]
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
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -d "$tmp/pg" ] && scripts/postgres.sh stop "$tmp/pg"
  rm -rf "$tmp"
}
trap cleanup EXIT
if [ "$nodes" -eq 0 ]; then
  db=$tmp/load.db
  count=1
else
  mkdir "$tmp/pg"
  db=$(scripts/postgres.sh start "$tmp/pg")
  count=$nodes
fi
psql_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)/psql
commits() { # the database's committed transactions so far
  [ "$nodes" -eq 0 ] && { echo 0; return; }
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$psql_bin" "$db" -qtAc "$1"; else "$psql_bin" "$db" -qtAc "$1"; fi
}
ports=()
for n in $(seq "$count"); do
  port=$(node tests/e2e/free-port.js)
  node_args=()
  [ "$nodes" -gt 0 ] && node_args=(--node "n$n")
  "$build/goita" serve --port "$port" --db "$db" --round-pause 0 "${node_args[@]}" >"$tmp/serve$n.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve$n.out" && break; sleep 0.1; done
  grep -q "goita serve: http" "$tmp/serve$n.out" || { cat "$tmp/serve$n.out" >&2; exit 1; }
  ports+=("$port")
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
echo "+ $count x $build/goita-load --tables $((tables / count)) --seconds $seconds --listeners 0 --think-ms $think"
stat="SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
before=$(commits "$stat")
for n in $(seq "$count"); do
  "$build/goita-load" --tables $((tables / count)) --seconds "$seconds" --listeners 0 --flood 0 --think-ms "$think" \
    --threads 1 --server-pid "${pids[$((n - 1))]}" "ws://127.0.0.1:${ports[$((n - 1))]}/" >"$tmp/load$n.out" 2>&1 &
done
wait_status=0
for job in $(jobs -p | grep -v -x -F "$(printf '%s\n' "${pids[@]}")"); do wait "$job" || wait_status=1; done
after=$(commits "$stat")
total=0
for n in $(seq "$count"); do
  line=$(grep '^summary' "$tmp/load$n.out") || { cat "$tmp/load$n.out" >&2; exit 1; }
  echo "node $n: $line"
  total=$((total + $(sed -E 's/.*moves_per_s=([0-9]+).*/\1/' <<<"$line")))
done
moves=$((total * seconds))
echo "all nodes: moves_per_s=$total"
[ "$nodes" -gt 0 ] && echo "postgresql: $((after - before)) transactions for about $moves moves:" \
  "$(awk -v t=$((after - before)) -v m=$moves 'BEGIN { printf "%.2f", m ? t / m : 0 }') a move"
exit $wait_status

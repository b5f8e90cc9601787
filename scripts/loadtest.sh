#!/usr/bin/env bash
# Load test of goita serve on loopback with goita-load (tools/loadgen/, docs/BENCHMARKS.md): a
# fresh server and database; 4 x TABLES clients play at full speed, LISTENERS lobby listeners
# follow the table list and, when FLOOD > 0, one more client sends FLOOD create messages a second.
# THINK_MS > 0 paces the clients: each waits about that long before each move (0: full speed).
# Measured for SECONDS after every table has started. Prints the commands, the machine, the
# figures and one "summary" line to paste.
# Usage: scripts/loadtest.sh [TABLES=250] [SECONDS=30] [LISTENERS=50] [FLOOD=2000] [THINK_MS=0]
# Environment: GOITA_BUILD (the build folder, default build), SERVE_ARGS (more goita serve
# options, e.g. limits), LOAD_ARGS (more goita-load options, e.g. "--threads 3").
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-250}
seconds=${2:-30}
listeners=${3:-50}
flood=${4:-2000}
think=${5:-0}
build=${GOITA_BUILD:-build}
for program in goita goita-load; do
  [ -x "$build/$program" ] || { echo "loadtest: no $build/$program: build it first (./run.sh)" >&2; exit 2; }
done

# Every client is a descriptor in the server and one in the generator: the soft limit goes up
# to the hard one when it is too low for the run (both processes inherit it).
need=$((4 * tables + listeners + 256))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$(ulimit -Hn)"
  [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$need" ] ||
    echo "loadtest: warning: ulimit -n is $(ulimit -n), the run needs about $need" >&2
fi

tmp=$(mktemp -d)
port=$(node tests/e2e/free-port.js)
serve=("$build/goita" serve --port "$port" --db "$tmp/load.db" --round-pause 0 ${SERVE_ARGS:-})
echo "+ ${serve[*]}"
"${serve[@]}" >"$tmp/serve.out" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
grep -q "goita serve: http" "$tmp/serve.out" || { cat "$tmp/serve.out" >&2; exit 1; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
     "load average $(cut -d' ' -f1-3 /proc/loadavg) before the run, ulimit -n $(ulimit -n)"
load=("$build/goita-load" --tables "$tables" --seconds "$seconds" --listeners "$listeners" --flood "$flood"
      --think-ms "$think" --server-pid "$server" ${LOAD_ARGS:-} "ws://127.0.0.1:$port/")
echo "+ ${load[*]}"
status=0
"${load[@]}" || status=$?
kill -0 $server 2>/dev/null || { echo "loadtest: the server died:" >&2; tail -20 "$tmp/serve.out" >&2; exit 1; }
exit $status

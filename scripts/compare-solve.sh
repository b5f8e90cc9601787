#!/usr/bin/env bash
# Compares the solver's full-deal times of two or more goita builds on this machine:
#   scripts/compare-solve.sh [-n RUNS] OLD_BINARY NEW_BINARY...
# The builds run `bench solve` in turn, RUNS times each (default 8), pinned to one core when
# taskset is there. Per build, each deal's fastest time is kept and the median (the 11th of
# 20, as the bench's own), mean and max are printed over those. Timing on a shared machine
# drifts between fast and slow phases; a deal's fastest time is its time in a fast phase, so
# every build meets the same machine (docs/BENCHMARKS.md).
set -euo pipefail
runs=8
if [ "${1:-}" = -n ]; then
  runs=$2
  shift 2
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n RUNS] OLD_BINARY NEW_BINARY..." >&2
  exit 2
fi
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 1); fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for ((r = 0; r < runs; r++)); do
  i=0
  for bin in "$@"; do
    "${pin[@]}" "$bin" bench solve | awk '/^solve full/ {print $3, $8}' >>"$dir/$i"
    i=$((i + 1))
  done
done
i=0
for bin in "$@"; do
  sort -k1,1 -k2,2n "$dir/$i" | awk '!seen[$1]++ {print $2}' | sort -n |
    awk -v name="$bin" -v runs="$runs" '{t[NR] = $1; sum += $1}
      END {printf "%s: best of %d runs per deal: median %.2f ms  mean %.2f ms  max %.2f ms\n",
           name, runs, t[int(NR / 2) + 1], sum / NR, t[NR]}'
  i=$((i + 1))
done

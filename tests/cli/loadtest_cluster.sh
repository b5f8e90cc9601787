#!/usr/bin/env bash
# scripts/loadtest-cluster.sh, bounded: three servers on PostgreSQL behind HAProxy (VIA=proxy),
# 12 tables for 5 s. Checks only that the run measured moves across the servers and counted
# PostgreSQL's transactions; the figures are docs/BENCHMARKS.md's, not a test's.
# Usage: loadtest_cluster.sh PATH_TO_GOITA PATH_TO_GOITA_LOAD
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$goita")
[ "$(dirname "$2")" = "$build" ] || { echo "FAIL goita and goita-load are not in one build folder"; exit 1; }
VIA=proxy GOITA_BUILD=$build LOAD_ARGS="--setup-seconds 30" bash "$root/scripts/loadtest-cluster.sh" 3 12 5 >"$tmp/out" 2>&1 ||
  fail "the run failed: $(cat "$tmp/out")"
cat "$tmp/out"
grep -Eq '^summary clients=48 tables=12 .*moves_per_s=[1-9]' "$tmp/out" || fail "no moves measured"
grep -Eq '^cpu over .* nodes ([1-9][0-9]*\.[0-9]+|0\.[0-9]*[1-9])' "$tmp/out" || fail "the servers used no CPU"
grep -Eq '^postgresql: [1-9][0-9]* transactions for about [1-9][0-9]* moves' "$tmp/out" || fail "no transactions counted"
finish loadtest_cluster

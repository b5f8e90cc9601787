#!/usr/bin/env bash
# goita bench compiled to WebAssembly (scripts/wasm.sh) plays the same random rounds and solves
# the same positions, and the fast player (its value network and reading) makes the same
# choices, as the native build: their signature lines (less the time), which change
# with any change of the engine's behaviour, must be equal. Usage: bench.sh PATH_TO_GOITA PATH_TO_GOITA_BENCH_JS
. "$(dirname "$0")/../cli/common.sh"
bench_js=$2
[ -f "$bench_js" ] || fail "$bench_js is missing (scripts/wasm.sh builds it)"
if [ "$failures" -eq 0 ]; then
  for args in "playout --rounds 5000 --seed 3" "solve --count 2 --seed 5 --tt-mb 16" "player --player fast --count 6"; do
    # shellcheck disable=SC2086 # the words of args are separate arguments
    native=$("$goita" bench $args | grep '^signature' | sed 's/  total .*//; s/  mean .*//')
    # shellcheck disable=SC2086
    wasm=$(node "$bench_js" $args | grep '^signature' | sed 's/  total .*//; s/  mean .*//')
    [ -n "$native" ] && [ "$native" = "$wasm" ] || fail "bench $args: native \"$native\", wasm \"$wasm\""
  done
fi
finish wasm_bench

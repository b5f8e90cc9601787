#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (in build-fuzz) and runs each for SECONDS (default
# 30) on its corpus. A finding stops the run; its input is left as fuzz/findings/<target>/crash-*
# and belongs, once fixed, in fuzz/corpus/<target>/ as a regression input.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: history record rules player server koshogi)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(history record rules player server koshogi)

. scripts/packages.sh
ensure_packages clang libclang-rt-14-dev
# the build's output only when it fails (a compiler error goes to ninja's standard output)
mkdir -p build-fuzz
CC=clang scripts/setup.sh build-fuzz -DGOITA_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >build-fuzz/build.log 2>&1 ||
  { cat build-fuzz/build.log >&2; echo "fuzz: the clang build failed (above)" >&2; exit 1; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  work=build-fuzz/corpus-$t
  findings=fuzz/findings/$t
  mkdir -p "$work" "$findings"
  echo "fuzz_$t: ${seconds}s"
  build-fuzz/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$findings/" \
    "$work" "fuzz/corpus/$t" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|.*invariant)" || true
  if [ -n "$(find "$findings" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))" ]; then
    echo "fuzz_$t: finding(s) in $findings" >&2
    exit 1
  fi
done
echo "fuzzing: no finding"

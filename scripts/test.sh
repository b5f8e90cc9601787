#!/usr/bin/env bash
# Builds (after setup.sh has installed the packages) and runs the whole test suite.
# SANITIZE=1 builds in build-sanitize with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SANITIZE:-0}" = 1 ]; then
  build=build-sanitize
  scripts/setup.sh "$build" -DGOITA_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build=build
  scripts/setup.sh "$build"
fi
scripts/test-tools.sh
# The browser client's WebAssembly builds (web/wasm/), which the wasm, offline and koshogi_web
# tests use.
scripts/wasm.sh
ctest --test-dir "$build" --output-on-failure -j 2

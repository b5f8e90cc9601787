#!/usr/bin/env bash
# The shared library's exports: only the public API (goita_ names declared in include/goita/)
# and every function the headers declare. Internal goita__ names and helpers must stay hidden.
# Usage: exports.sh PATH_TO_LIBGOITA_SO INCLUDE_DIR
set -u
lib=$1
include=$2
failures=0
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
[ -n "$exported" ] || fail "nm found no exported symbol in $lib"
while read -r sym; do
  case $sym in
    goita__*) fail "internal symbol exported: $sym" ;;
    goita_*) ;;
    *) fail "symbol outside the API exported: $sym" ;;
  esac
done <<<"$exported"
# Every function declared GOITA_API in the headers is exported (a missing mark would hide it).
declared=$(grep -ho 'GOITA_API[^(]*(' "$include"/goita/*.h | grep -o 'goita_[a-z0-9_]*($' | tr -d '(' | sort -u)
for sym in $declared; do
  grep -qx "$sym" <<<"$exported" || fail "declared but not exported: $sym"
done
[ "$failures" -eq 0 ] && echo "exports: $(wc -l <<<"$exported") symbols, all public"
exit "$failures"

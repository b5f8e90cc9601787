#!/usr/bin/env bash
# The shared libraries' exports: only the public API (goita_ names declared GOITA_API in
# include/goita/), and every function the headers declare. Internal goita__ names and helpers
# stay hidden; libgoita-record exports the record functions only.
# Usage: exports.sh INCLUDE_DIR LIBGOITA_SO LIBGOITA_RECORD_SO
set -u
include=$1
failures=0
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}
exports_of() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u; }
core=$(exports_of "$2")
record=$(exports_of "$3")
[ -n "$core" ] && [ -n "$record" ] || fail "nm found no exported symbol"
while read -r sym; do
  case $sym in
    goita__*) fail "libgoita exports an internal symbol: $sym" ;;
    goita_record_*) fail "libgoita exports a record function: $sym" ;;
    goita_*) ;;
    *) fail "libgoita exports a symbol outside the API: $sym" ;;
  esac
done <<<"$core"
while read -r sym; do
  case $sym in
    goita_record_*) ;;
    *) fail "libgoita-record exports a symbol outside the record API: $sym" ;;
  esac
done <<<"$record"
# Every function declared GOITA_API in the headers is exported (a missing mark would hide it).
declared=$(grep -ho 'GOITA_API[^(]*(' "$include"/goita/*.h | grep -o 'goita_[a-z0-9_]*($' | tr -d '(' | sort -u)
for sym in $declared; do
  grep -qx "$sym" <<<"$core"$'\n'"$record" || fail "declared but not exported: $sym"
done
[ "$failures" -eq 0 ] && echo "exports: $(wc -l <<<"$core") in libgoita, $(wc -l <<<"$record") in libgoita-record, all public"
exit "$failures"

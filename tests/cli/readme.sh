#!/usr/bin/env bash
# The README's example commands (its indented build/goita and build/koshogi lines) are run, so
# that they stay true: each must exit 0, in order, in a scratch folder (replay reads the
# record watch writes). The few that run long (a paused game, a million playouts, a match of
# 100 games) must still be running, with no error, after a few seconds; serve is not started
# (it would take port 8080 of the machine).
# Usage: readme.sh PATH_TO_GOITA PATH_TO_KOSHOGI SOURCE_DIR
. "$(dirname "$0")/common.sh"
goita=$(realpath "$1") koshogi=$(realpath "$2") root=$3

# Commands stopped after a few seconds (exit 124 from timeout) rather than run to the end.
long=(
  'build/goita watch --seed 7 --delay 100'
  'build/goita bench playout --rounds 1000000'
  'build/goita match --games 100 sampler rules'
  'build/goita match sampler "engine:node tools/goita-ai-sample/adapter.js"'
  'build/goita solo --solve'
)
not_run=('build/goita serve')

is_in() { # is_in WORD LIST...
  local w=$1
  shift
  for x in "$@"; do [ "$x" = "$w" ] && return 0; done
  return 1
}

seen=()
mkdir "$tmp/run" "$tmp/home"
ln -s "$root/tools" "$tmp/run/tools" # the reference bot's adapter is named by a relative path
[ -d "$root/tools/goita-ai-sample/node_modules" ] || fail "goita-ai-sample is not installed (scripts/test-tools.sh)"
n=0
while IFS= read -r line; do
  # the command without its comment (two spaces and #) and without the indent
  cmd=$(printf '%s' "$line" | sed -e 's/^    //' -e 's/  *#.*$//')
  is_in "$cmd" "${not_run[@]}" && { seen+=("$cmd"); continue; }
  n=$((n + 1))
  seen+=("$cmd")
  # build/goita and build/koshogi are the programs under test
  run=$(printf '%s' "$cmd" | sed -e 's|^build/goita|"$goita"|' -e 's|^build/koshogi|"$koshogi"|')
  limit=120
  is_in "$cmd" "${long[@]}" && limit=3
  (cd "$tmp/run" && HOME="$tmp/home" XDG_DATA_HOME='' goita=$goita koshogi=$koshogi \
    timeout "$limit" bash -c "$run" </dev/null >"$tmp/out" 2>"$tmp/err")
  status=$?
  if is_in "$cmd" "${long[@]}"; then
    [ "$status" -eq 124 ] || [ "$status" -eq 0 ] || fail "README: $cmd: exit $status: $(head -3 "$tmp/err")"
  else
    [ "$status" -eq 0 ] || fail "README: $cmd: exit $status: $(head -3 "$tmp/err")"
  fi
done < <(grep -E '^    build/(goita|koshogi) ' "$root/README.md")
[ "$n" -ge 20 ] || fail "only $n commands found in the README"
for cmd in "${long[@]}" "${not_run[@]}"; do
  is_in "$cmd" "${seen[@]}" || fail "the README no longer has \"$cmd\": update this test"
done

finish "README ($n commands)"

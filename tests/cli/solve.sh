#!/usr/bin/env bash
# The command-line contract of goita solve (docs/SOLVER.md), end to end.
# Usage: solve.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# Example E4 of docs/RECORDS.md 1.4: go-goita's solver gives 3p -40, 381 -40, 382 -50, 383 -40.
example=11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145,252,3p,4p,124,2p
out=$("$goita" solve --rules king_face_down=allowed "$example")
want='{"value":-40,"moves":[{"move":"3p","value":-40},{"move":"381","value":-40},{"move":"382","value":-50},{"move":"383","value":-40}],'
case $out in
  "$want"*'"nodes":'*'"ms":'*'}') ;;
  *) fail "example: $out" ;;
esac

# Win/loss only: the sign is proven, the value is given as bounds.
out=$("$goita" solve --win-loss --rules king_face_down=allowed "$example")
case $out in
  '{"value":null,"lower":-'*',"upper":-10,"moves":['*) ;;
  *) fail "win-loss: $out" ;;
esac

# A node limit on a full deal: bounds and "complete":false.
out=$("$goita" solve --nodes 2000 12345678,12345679,11112345,11112345,s1)
case $out in
  *'"complete":false}') ;;
  *) fail "node limit: $out" ;;
esac

# Errors: a hidden piece, an illegal move, a bad option; nothing on stdout.
for args in "11244556,12234569,1112337x,11113457,s3" "11244556,12234569,11123378,11113457,s3,399" \
            "--tt-mb 0 $example" "--frobnicate $example" ""; do
  # shellcheck disable=SC2086
  if "$goita" solve $args >"$tmp/out" 2>"$tmp/err"; then
    fail "accepted: $args"
  elif [ -s "$tmp/out" ] || [ ! -s "$tmp/err" ]; then
    fail "error for \"$args\" not on stderr alone"
  fi
done
grep -q "hides pieces" <("$goita" solve 11244556,12234569,1112337x,11113457,s3 2>&1) || fail "hidden message"
grep -q "token 6" <("$goita" solve 11244556,12234569,11123378,11113457,s3,399 2>&1) || fail "illegal move message"

# The solve bench with every move's value: the same positions and values, more nodes searched.
position_only=$("$goita" bench solve --count 2 --tt-mb 8)
every_move=$("$goita" bench solve --count 2 --tt-mb 8 --all-moves)
values() { grep '^solve ' | awk '{print $2, $3, $5}'; }
nodes() { grep '^signature' | awk '{print $5}'; }
[ "$(values <<<"$position_only")" = "$(values <<<"$every_move")" ] || fail "bench --all-moves changed the values"
[ "$(nodes <<<"$every_move")" -gt "$(nodes <<<"$position_only")" ] ||
  fail "bench --all-moves searched no more nodes: $(nodes <<<"$every_move") against $(nodes <<<"$position_only")"

# --threads: the same values whatever the number of threads (a full deal's moves shared among
# three), the nodes summed; the deals bench gives the same nodes per deal (each deal is new to
# whichever thread solves it) and says it timed the wall clock.
deal=11124455,11134457,11223669,11233578,s1
one=$("$goita" solve --tt-mb 8 "$deal")
three=$("$goita" solve --tt-mb 8 --threads 3 "$deal")
[ "${one%%,\"nodes\"*}" = "${three%%,\"nodes\"*}" ] || fail "--threads 3 changed the line: $three against $one"
case $three in
  *'"nodes":0,'*) fail "--threads 3 counted no nodes: $three" ;;
esac
"$goita" solve --threads 0 "$deal" >/dev/null 2>&1 && fail "--threads 0 accepted"
deals_one=$("$goita" bench deals --count 2 --deals 8 --tt-mb 8)
deals_two=$("$goita" bench deals --count 2 --deals 8 --tt-mb 8 --threads 2)
sig() { grep '^signature' | awk '{print $3}'; }
[ "$(sig <<<"$deals_one")" = "$(sig <<<"$deals_two")" ] || fail "bench deals --threads 2 changed the signature"
grep -q '(2 threads, wall time)' <<<"$deals_two" || fail "bench deals --threads 2: $deals_two"
every_two=$("$goita" bench solve --count 2 --tt-mb 8 --all-moves --threads 2)
[ "$(values <<<"$every_two")" = "$(values <<<"$every_move")" ] || fail "bench --all-moves --threads 2 changed the values"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "goita solve: all checks passed"

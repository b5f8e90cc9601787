#!/usr/bin/env bash
# The command-line contract of goita legal / result / replay (docs/RECORDS.md), end to end.
# Usage: records.sh PATH_TO_GOITA
set -u
goita=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect NAME EXPECTED_STATUS EXPECTED_STDOUT COMMAND...
expect() {
  local name=$1 want_status=$2 want_out=$3
  shift 3
  local out status
  out=$("$@" 2>"$tmp/stderr")
  status=$?
  if [ "$status" != "$want_status" ] || [ "$out" != "$want_out" ]; then
    echo "FAIL $name: status $status (want $want_status)"
    echo "  got:  $(echo "$out" | tr '\n' ' ')"
    echo "  want: $(echo "$want_out" | tr '\n' ' ')"
    echo "  stderr: $(cat "$tmp/stderr")"
    failures=$((failures + 1))
  fi
}
# expect_error NAME PATTERN COMMAND...: fails with status 1 and PATTERN on stderr
expect_error() {
  local name=$1 pattern=$2
  shift 2
  if "$@" >"$tmp/out" 2>"$tmp/stderr"; then
    echo "FAIL $name: succeeded"
    failures=$((failures + 1))
  elif ! grep -q -- "$pattern" "$tmp/stderr"; then
    echo "FAIL $name: stderr lacks \"$pattern\": $(cat "$tmp/stderr")"
    failures=$((failures + 1))
  fi
}

deal=12345678,12345679,11112345,11112345
expect legal_answer 0 "$(printf '4p\n431\n432\n434\n435')" "$goita" legal $deal,s1,113,2p,3p
expect legal_lead 0 "$(printf '212\n213\n214\n215\n216\n217\n221\n223\n224\n225\n226\n227\n231\n232\n234\n235\n236\n237\n241\n242\n243\n245\n246\n247\n251\n252\n253\n254\n256\n257\n261\n262\n263\n264\n265\n267\n271\n272\n273\n274\n275\n276')" \
  "$goita" legal 12345678,12345679,11112345,11112345,s2
expect legal_over 0 "" "$goita" legal 12667789,12345543,11112345,11112345,s1,116,2p,3p,4p,126,2p,3p,4p,177,2p,3p,4p,189
expect legal_decide 0 "$(printf '3r\n3g')" "$goita" legal 11111234,12345678,12345679,11123455,s1
expect legal_face_down_king 0 "$(printf '4p\n431\n432\n434\n435')" \
  "$goita" legal --rules king_face_down=allowed $deal,s1,183,2p,3p
expect legal_hidden_view 0 "$(printf '2p\n231\n232\n234\n235\n236\n237\n281\n282\n283\n284\n285\n286\n287')" \
  "$goita" legal 3xxxxxxx,12345679,xxxxxxxx,123xxxxx,s1,1x3
expect_error legal_illegal 'token 9 "441": 銀 cannot answer an attack of 馬' "$goita" legal $deal,s1,113,2p,3p,441
expect_error legal_malformed 'token 7 "2q"' "$goita" legal $deal,s1,113,2q
expect_error legal_hidden_turn 'seat 3 is to move' "$goita" legal 3xxxxxxx,12345679,xxxxxxxx,123xxxxx,s1,1x3,2p
expect_error legal_bad_rules 'king_attak' "$goita" legal --rules king_attak=a_or_b $deal,s1

expect result_open 0 '{"over":false,"winner":null,"points":null,"end":null,"game_over":false}' "$goita" result $deal,s1,113
expect result_double 0 '{"over":true,"winner":1,"points":100,"end":"finish","game_over":false}' \
  "$goita" result 12667789,12345543,11112345,11112345,s1,116,2p,3p,4p,126,2p,3p,4p,177,2p,3p,4p,189
expect result_teyaku 0 '{"over":true,"winner":1,"points":20,"end":"teyaku","game_over":false}' "$goita" result 11111123,12345678,12345679,11234455,s2
expect result_redeal 0 '{"over":true,"winner":null,"points":0,"end":"redeal","game_over":false}' "$goita" result 11111234,12345678,12345679,11123455,s1+3r
# Both partners of one team dealt 5 pawns win the game outright (double_goshi=win), or score.
expect result_double_goshi 0 '{"over":true,"winner":1,"points":0,"end":"double_goshi","game_over":true}' \
  "$goita" result 11111234,23345678,11111567,22344559,s1
expect result_double_goshi_points 0 '{"over":true,"winner":1,"points":50,"end":"double_goshi","game_over":false}' \
  "$goita" result --rules double_goshi=points:50 11111234,23345678,11111567,22344559,s1
expect result_seven_pawns 0 '{"over":true,"winner":2,"points":80,"end":"teyaku","game_over":false}' "$goita" result 12345678,11111117,12233445,12345569,s1
expect result_face_down_king_opts 0 '{"over":true,"winner":2,"points":10,"end":"finish","game_over":false}' \
  "$goita" result --rules king_face_down=allowed 11123568,11122579,23344557,11113446,s3,325,4p,182,227,3p,4p,1p,295,3p,4p,1p,221,3p,411,115,2p,357,4p,1p,2p,333,431,111,211
expect_error result_face_down_king_default 'king may not be placed face-down' \
  "$goita" result 11123568,11122579,23344557,11113446,s3,325,4p,182,227,3p,4p,1p,295,3p,4p,1p,221,3p,411,115,2p,357,4p,1p,2p,333,431,111,211

# A watched game saved as a record replays, and checks; a tampered one does not.
"$goita" watch --seed 11 --record "$tmp/game.json" >/dev/null || { echo "FAIL watch --record"; failures=$((failures + 1)); }
expect replay_check 0 "$("$goita" watch --seed 11 | awk '/^Game over/ {print "rounds " $4}')" \
  sh -c "\"$goita\" replay --check \"$tmp/game.json\" | awk '{print \"rounds \" \$6}'"
"$goita" replay "$tmp/game.json" >"$tmp/replay.txt" || { echo "FAIL replay"; failures=$((failures + 1)); }
grep -q "Game over after" "$tmp/replay.txt" || { echo "FAIL replay shows no result"; failures=$((failures + 1)); }
sed 's/"points": \([0-9]*\)/"points": 1\1/' "$tmp/game.json" >"$tmp/bad.json"
expect_error replay_tampered 'rounds\[[0-9]*\].result' "$goita" replay --check "$tmp/bad.json"
head -c 200 "$tmp/game.json" >"$tmp/cut.json"
expect_error replay_truncated 'line' "$goita" replay --check "$tmp/cut.json"
expect_error replay_missing 'goita replay: cannot read .*none.json: No such file or directory' \
  "$goita" replay --check "$tmp/none.json"
# A folder is named as one, not read as an empty or broken record.
expect_error replay_folder "goita replay: cannot read $tmp: it is a folder" "$goita" replay "$tmp"
expect replay_history_stdin 0 "ok: a round of 4 moves, not finished" \
  sh -c "echo $deal,s1,113,2p,3p,431 | \"$goita\" replay --check -"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all command-line record checks passed"

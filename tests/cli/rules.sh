#!/usr/bin/env bash
# goita rules and the rule options at the command line (docs/RULES.md 3, 8, 10-12): the list
# made from the library's table, errors that name what the user typed, and the French rule
# set's readings of issue 44 seen through legal and result.
# Usage: rules.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# Every option is listed, in 80 columns; --rules shows each option's value under a rule set.
list=$("$goita" rules) || fail "goita rules: exit $?"
for name in preset players teyaku goshi goshi_decision double_goshi goshi_both_teams king_attack \
  king_b king_face_down next_dealer target draw three_player_set_aside scale; do
  printf '%s\n' "$list" | grep -q "^$name = " || fail "goita rules does not list $name"
done
[ -z "$(printf '%s\n' "$list" | awk 'length > 80')" ] || fail "goita rules: a line over 80 columns"
french=$("$goita" rules --rules preset=french,players=3)
for value in goshi=on teyaku=off double_goshi=redeal_or_play king_face_down=allowed target=15; do
  printf '%s\n' "$french" | grep -qx "$value" || fail "the French rules with 3 players lack $value"
done

# An unknown option: the nearest name, or every name (the list was cut at 200 bytes, before
# scale); a number on the ones scale as the user wrote it.
deal=11111234,12345678,12345679,11123455,s1
err=$("$goita" legal --rules TARGET=100 "$deal" 2>&1) && fail "TARGET=100 accepted"
case $err in *'did you mean target?'*) ;; *) fail "TARGET=100: $err" ;; esac
err=$("$goita" legal --rules foo=1 "$deal" 2>&1) && fail "foo=1 accepted"
case $err in *'three_player_set_aside,scale)'*) ;; *) fail "foo=1 does not list every option: $err" ;; esac
err=$("$goita" legal --rules scale=ones,target=10000 "$deal" 2>&1) && fail "target=10000 on ones accepted"
case $err in *100000*) fail "a number never typed: $err" ;; *'from 1 to 1000'*) ;; *) fail "target on ones: $err" ;; esac

# preset=french keeps the 5-pawn rule with 3 players (RULES.md 8): the holder decides.
[ "$("$goita" legal --rules preset=french,players=3 1111112345,1223345678,1234455679,s1 | tr '\n' ' ')" = "1r 1g " ] ||
  fail "French, 3 players: no 5-pawn decision"
# preset=french: 5 pawns on both partners do not win the game (RULES.md 3.2).
case $("$goita" result --rules preset=french 11111234,22334458,11111567,23455679,s1) in
  *'"game_over":false'*) ;; *) fail "French double 5 pawns ended the game" ;; esac
# holder_and_partner, 5 pawns on both teams: the holder's partner before the other team (3.4).
[ "$("$goita" legal --rules goshi_decision=holder_and_partner 11111234,11111567,23456789,22334455,s1+1r | tr '\n' ' ')" = "3r 3g " ] ||
  fail "holder_and_partner: the other team asked before the holder's partner"

# Records keep points in tens under scale=ones (RULES.md 10, RECORDS.md): the decision, kept.
"$goita" watch --seed 3 --rules preset=french --delay 0 --record "$tmp/french.json" >"$tmp/out" ||
  fail "watch: exit $?"
python3 - "$tmp/french.json" <<'PY' || fail "a French record's points are not in tens"
import json, sys
rec = json.load(open(sys.argv[1]))
points = [r["result"]["points"] for r in rec["rounds"] if r["result"]["end"] == "finish"]
assert points and all(p % 10 == 0 for p in points), points
assert max(rec["score"]) >= 150, rec["score"]
PY
finish rules

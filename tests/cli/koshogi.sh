#!/usr/bin/env bash
# koshogi, the command: perft, legal moves of a piece, a short game between computer players
# saved and replayed, the engine protocol with malformed lines, option errors.
# Usage: koshogi.sh PATH_TO_KOSHOGI
. "$(dirname "$0")/common.sh"
koshogi=$goita

out=$("$koshogi" perft 2)
printf '%s\n' "$out" | grep -q '^perft 1 226 ' || fail "perft 1: $out"
printf '%s\n' "$out" | grep -q '^perft 2 50940 ' || fail "perft 2: $out"
"$koshogi" perft 0 2>/dev/null && fail "perft 0 accepted"
# from a position: after CUx19f+ White has 218 moves (KOSHOGI-RULES.md 4.11)
printf '1. CUx19f+\n' >"$tmp/cu.txt"
out=$("$koshogi" perft --record "$tmp/cu.txt" 1)
printf '%s\n' "$out" | grep -q '^perft 1 218 ' || fail "perft after CUx19f+: $out"

# Positions as text (docs/KOSHOGI.md, Positions): board writes them, perft, moves and play read them.
start=$("$koshogi" board --text)
out=$("$koshogi" perft --position "$start" 2)
printf '%s\n' "$out" | grep -q '^perft 2 50940 ' || fail "perft --position (the start): $out"
after=$("$koshogi" board --text --record "$tmp/cu.txt")
case $after in *" w 1") ;; *) fail "board --text after CUx19f+: White's move 1 expected: $after" ;; esac
"$koshogi" board --record "$tmp/cu.txt" | grep -qx "position $after" || fail "board does not end with the position's text"
out=$("$koshogi" perft --position "$after" 1)
printf '%s\n' "$out" | grep -q '^perft 1 218 ' || fail "perft --position after CUx19f+: $out"
"$koshogi" moves --position "${start/agtp/agqp}" 2>"$tmp/err" && fail "a bad position accepted"
grep -q 'moves: --position: ranks: rank a, at character 3: "qpe" starts no piece ID' "$tmp/err" ||
  fail "bad position: $(cat "$tmp/err")"
"$koshogi" perft --position "${start% b 1} b" 1 2>"$tmp/err" && fail "a position without its move number accepted"
grep -q 'move number, at character 431: missing' "$tmp/err" || fail "no move number: $(cat "$tmp/err")"
"$koshogi" moves --position "$start" --record "$tmp/cu.txt" 2>/dev/null && fail "--position with --record accepted"
# match under a node budget: the same games twice, whatever the load (docs/KOSHOGI.md, Strength)
mkdir "$tmp/n1" "$tmp/n2"
for d in n1 n2; do
  "$koshogi" match --games 2 --nodes 300 --limit 24 --records "$tmp/$d" search greedy >"$tmp/$d.json" 2>/dev/null ||
    fail "match --nodes"
done
diff -r "$tmp/n1" "$tmp/n2" >/dev/null || fail "match --nodes 300 played other games the second time"
grep -q '"nodes":300,' "$tmp/n1.json" || fail "match --nodes: $(cat "$tmp/n1.json")"
# selfplay and features, the fitter's data (docs/KOSHOGI.md, "The evaluation's weights"): the same
# lines from the same seed, each position's features and score, and a bad line named
for i in 1 2; do
  "$koshogi" selfplay --games 2 --nodes 40 --limit 30 --opening 6 --skip 8 --seed 3 >"$tmp/self$i" 2>/dev/null ||
    fail "selfplay"
done
cmp -s "$tmp/self1" "$tmp/self2" || fail "selfplay --seed 3 wrote other lines the second time"
grep -qE '^(1|0|0\.5) [a-zA-Z0-9+/]+ [bw] [0-9]+$' "$tmp/self1" || fail "selfplay: $(head -c 200 "$tmp/self1")"
"$koshogi" features <"$tmp/self1" >"$tmp/features" || fail "features"
[ "$(wc -l <"$tmp/features")" -eq $(($(wc -l <"$tmp/self1") + 2)) ] || fail "features: not a line a position"
head -1 "$tmp/features" | grep -q $'^result\tmove\teval\tmaterial G\t.*\ttempo$' ||
  fail "features header: $(head -1 "$tmp/features")"
printf '1 %s\n2 %s\n' "$start" "$start" | "$koshogi" features >/dev/null 2>"$tmp/err" && fail "features: a bad result accepted"
grep -q 'line 2: not a result (1, 0.5 or 0) and a position' "$tmp/err" || fail "features, bad line: $(cat "$tmp/err")"
# help PIECE with its options before or after the ID
"$koshogi" help --white CV >"$tmp/cv1" || fail "help --white CV"
"$koshogi" help CV --white >"$tmp/cv2" || fail "help CV --white"
cmp -s "$tmp/cv1" "$tmp/cv2" && grep -q '^White on 10j' "$tmp/cv1" || fail "help --white CV: $(head -4 "$tmp/cv1")"
# a set-up position where Black has no commanding piece (only MA and DR) is lost already, for the
# right reason, and no move is played in it (KOSHOGI-RULES.md 6.1, 6.2)
lost="19/19/19/19/19/19/19/19/9g9/19/19/19/19/19/19/19/19/19/8DRMA9 b 1"
out=$("$koshogi" play --position "$lost" --black computer --white computer --ms 50) || fail "play a lost position"
printf '%s\n' "$out" | grep -qx "White wins (the loser's commanding pieces are gone) after 0 plies" ||
  fail "play from a lost position: $(printf '%s\n' "$out" | tail -2)"
# a game from a set-up position with White to move: the record keeps the position and replays
"$koshogi" play --position "$after" --black random --white random --limit 9 --record "$tmp/set.txt" >/dev/null ||
  fail "play --position"
grep -qx "\[Position \"$after\"\]" "$tmp/set.txt" || fail "the record lacks the position: $(head -8 "$tmp/set.txt")"
grep -q '^1\.\.\. ' "$tmp/set.txt" || fail "White's first move is not numbered 1...: $(cat "$tmp/set.txt")"
"$koshogi" replay "$tmp/set.txt" >"$tmp/replay.out" || fail "replay of a game from a position"
grep -q '^9 plies\.' "$tmp/replay.out" || fail "replay from a position: $(tail -2 "$tmp/replay.out")"

out=$("$koshogi" moves 9p)
[ "$out" = "CM9p-7o CM9p-11o
2 legal moves of that piece" ] || fail "moves 9p: $out"
"$koshogi" moves 20z 2>/dev/null && fail "a point off the board accepted"

"$koshogi" play --black computer --white random --ms 20 --limit 120 --record "$tmp/game.txt" >"$tmp/play.out" ||
  fail "play: $(tail -2 "$tmp/play.out")"
grep -q "Record saved" "$tmp/play.out" || fail "no record saved"
"$koshogi" replay --ascii "$tmp/game.txt" >"$tmp/replay.out" || fail "replay of a saved game"
plies=$(sed -n 's/^\([0-9]*\) plies\..*/\1/p' "$tmp/replay.out")
grep -q "after $plies plies" "$tmp/play.out" || fail "the replay has $plies plies, the game $(tail -2 "$tmp/play.out")"
printf '1. VG-10h VGx10h 2. CM9p-7o CM-7e\n' >"$tmp/bad.txt"
"$koshogi" replay "$tmp/bad.txt" 2>"$tmp/err" && fail "a bad record replayed"
grep -q 'move 2 (White) "CM-7e": more than one legal move matches' "$tmp/err" || fail "bad record: $(cat "$tmp/err")"

out=$(printf 'usi\nisready\nposition startpos moves VG-10h VGx10h\ngo depth 1\nposition startpos moves ZZ\nposition fen x\nbogus\nmoves\nquit\n' | "$koshogi" engine)
printf '%s\n' "$out" | grep -q '^usiok$' || fail "engine: no usiok"
printf '%s\n' "$out" | grep -q '^readyok$' || fail "engine: no readyok"
printf '%s\n' "$out" | grep -q '^bestmove [A-Z+]' || fail "engine: no bestmove"
printf '%s\n' "$out" | grep -q 'info string error: position: move 1 "ZZ"' || fail "engine: a bad move not reported"
printf '%s\n' "$out" | grep -q 'info string error: unknown command "bogus"' || fail "engine: an unknown command"
[ "$(printf '%s\n' "$out" | grep '^moves ' | wc -w)" -gt 200 ] || fail "engine: the legal moves after VG-10h VGx10h"

# A resignation is recorded and read back, by either side on either turn (as online); a record
# whose result names no winner is refused.
printf 'VG-10h\nresign\n' | "$koshogi" play --white random --record "$tmp/resign.txt" >/dev/null || fail "play, resign"
"$koshogi" replay "$tmp/resign.txt" | grep -qx '2 plies. White wins (resignation)' ||
  fail "resignation not read back: $("$koshogi" replay "$tmp/resign.txt" | tail -1)"
sed 's/^\[Result "0-1"\]/[Result "1-0"]/' "$tmp/resign.txt" >"$tmp/resign2.txt"
"$koshogi" replay "$tmp/resign2.txt" | grep -qx '2 plies. Black wins (resignation)' ||
  fail "a resignation by the side not to move not read back: $("$koshogi" replay "$tmp/resign2.txt" 2>&1 | tail -1)"
sed 's/^\[Result "0-1"\]/[Result "1\/2-1\/2"]/' "$tmp/resign.txt" >"$tmp/resign3.txt"
"$koshogi" replay "$tmp/resign3.txt" 2>"$tmp/err" && fail "a resignation without a winner accepted"
grep -q 'the result must name the winner' "$tmp/err" || fail "resignation error: $(cat "$tmp/err")"

# The rule option burn=enemy: accepted by play (and kept in its record, which replays under
# it), by the engine's setoption, refused when unknown.
"$koshogi" play --black random --white random --limit 40 --rules burn=enemy --record "$tmp/enemy.txt" >/dev/null ||
  fail "play --rules burn=enemy"
grep -q '^\[Rules "burn=enemy"\]$' "$tmp/enemy.txt" || fail "the record does not keep the rule option"
"$koshogi" replay "$tmp/enemy.txt" | grep -q 'Rules: burn=enemy' || fail "the replay does not show the rule option"
"$koshogi" play --rules burn=never 2>"$tmp/err" && fail "an unknown rule option accepted"
grep -q 'unknown rule option "burn=never"' "$tmp/err" || fail "rule option error: $(cat "$tmp/err")"
out=$(printf 'usi\nsetoption name Burn value enemy\nsetoption name Burn value hot\nquit\n' | "$koshogi" engine)
printf '%s\n' "$out" | grep -q '^option name Burn type combo default both var both var enemy$' ||
  fail "engine: the Burn option is not announced"
[ "$(printf '%s\n' "$out" | grep -c 'info string error')" -eq 1 ] || fail "engine setoption: $out"

# Help for every piece: koshogi help PIECE (and koshogi piece PIECE), drawn by the library.
out=$("$koshogi" help CH)
printf '%s\n' "$out" | grep -q '^CH 車  Chariot$' || fail "help CH: $(printf '%s\n' "$out" | head -2)"
printf '%s\n' "$out" | grep -q '^Rule: docs/KOSHOGI-RULES.md 3.4, Foot and line pieces$' || fail "help CH: no rule line"
printf '%s\n' "$out" | grep -q 'alone on an empty board (Black.s forward is up): 20 points$' || fail "help CH: reach"
[ "$(printf '%s\n' "$out" | grep -c '^ [a-s] ')" -eq 19 ] || fail "help CH: the board has not 19 ranks"
[ "$(printf '%s\n' "$out" | grep '^ j ')" = " j   .  .  .  .  *  *  *  *  * CH  *  *  *  *  *  .  .  .  ." ] ||
  fail "help CH: rank j: $(printf '%s\n' "$out" | grep '^ j ')"
printf '%s\n' "$out" | grep -q '^Promotion: to +CH 車総' || fail "help CH: promotion"
[ "$("$koshogi" piece ch)" = "$out" ] || fail "koshogi piece ch differs from koshogi help CH"
"$koshogi" help +EN | tr '\n' ' ' | grep -q -- '- burns the 8 points around where it ends .*(4.8)' || fail "help +EN: burning"
"$koshogi" help FC | grep -q '^Shots: 2 a move, up to 7 points away$' || fail "help FC: shots"
"$koshogi" help SK | grep -q '^- a net: .*(4.9)$' && fail "help SK: the advance guard's promoted face is +AG, not SK"
"$koshogi" help +AG | grep -q '^- a net: .*(4.9)$' || fail "help +AG: the net"
"$koshogi" help PE 2>"$tmp/err" && fail "help of no piece accepted"
grep -q 'unknown command "PE", and no piece has that ID' "$tmp/err" || fail "help PE: $(cat "$tmp/err")"
"$koshogi" help play | grep -q '^usage: koshogi play' || fail "help play is no longer the command's help"
"$koshogi" piece >"$tmp/legend" || fail "koshogi piece (the legend)"
[ "$(grep -c '' "$tmp/legend")" -eq 33 ] || fail "the legend: 65 faces two a line: $(grep -c '' "$tmp/legend") lines"
n=0
for id in $(LC_ALL=C grep -oE '(^| )[+A-Z]{1,3} +[^ -~]' "$tmp/legend" | LC_ALL=C tr -dc '+A-Z\n'); do
  "$koshogi" help "$id" >"$tmp/piece" || fail "help $id"
  [ "$(LC_ALL=C.UTF-8 wc -L <"$tmp/piece")" -le 80 ] || fail "help $id is wider than 80 columns"
  n=$((n + 1))
done
[ "$n" -eq 65 ] || fail "the legend names $n faces, not 65"

# The engine reads the board command's position text ("position sfen"), moves after it, and
# names the field of a malformed one.
start=$("$koshogi" board --text)
out=$(printf 'position sfen %s moves CUx19f+\nd\nposition sfen %s\nquit\n' "$start" "x${start#?}" | "$koshogi" engine)
printf '%s\n' "$out" | grep -q '^White to move' || fail "position sfen, then a move: $out"
printf '%s\n' "$out" | grep -q '^info string error: position sfen: ranks: rank a' || fail "a bad position sfen: $out"

"$koshogi" play --black dragon 2>/dev/null && fail "an unknown player accepted"

# A record that cannot be read is named with the reason; a folder is not an empty record.
for cmd in "replay $tmp" "board --record $tmp" "replay $tmp/none.txt" "moves --record $tmp/none.txt"; do
  # shellcheck disable=SC2086
  "$koshogi" $cmd >/dev/null 2>"$tmp/err" && fail "koshogi $cmd: accepted"
  grep -Eq "^koshogi ${cmd%% *}: cannot read $tmp(/none.txt)?: (it is a folder|No such file or directory)$" "$tmp/err" ||
    fail "koshogi $cmd: $(cat "$tmp/err")"
done
# A record that cannot be written is refused before the game, not found out after it.
"$koshogi" play --black random --white random --limit 4 --record "$tmp/no/x.txt" >"$tmp/out" 2>"$tmp/err" &&
  fail "play --record in a missing folder: accepted"
grep -q -- "--record $tmp/no/x.txt: cannot write it: No such file or directory" "$tmp/err" ||
  fail "play --record in a missing folder: $(cat "$tmp/err")"
grep -q "plies" "$tmp/out" && fail "play --record in a missing folder: the game was played"
"$koshogi" play --black random --white random --limit 4 --record "$tmp" >/dev/null 2>"$tmp/err" &&
  fail "play --record FOLDER: accepted"
grep -q -- "--record $tmp: cannot write it: it is a folder" "$tmp/err" || fail "play --record FOLDER: $(cat "$tmp/err")"
# match --records: a folder that cannot take the records is an error up front (exit 2), and a
# record that could not be written makes the exit status non-zero.
"$koshogi" match --games 1 --limit 4 --records /proc/x random random >/dev/null 2>"$tmp/err" &&
  fail "match --records /proc/x: exit 0"
grep -q -- "--records /proc/x: cannot write in it: No such file or directory" "$tmp/err" ||
  fail "match --records /proc/x: $(cat "$tmp/err")"
mkdir "$tmp/games" && touch "$tmp/games/game-002.txt"
"$koshogi" match --games 2 --limit 4 --records "$tmp/games" random random >/dev/null 2>"$tmp/err"
status=$?
[ "$status" -eq 1 ] || fail "match with a record not written: exit $status"
grep -q "could not write $tmp/games/game-002.txt" "$tmp/err" || fail "match, record not written: $(cat "$tmp/err")"
[ -s "$tmp/games/game-001.txt" ] || fail "match did not write game-001.txt"
finish koshogi

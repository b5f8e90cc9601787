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

"$koshogi" play --black dragon 2>/dev/null && fail "an unknown player accepted"
finish koshogi

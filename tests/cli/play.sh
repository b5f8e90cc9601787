#!/usr/bin/env bash
# goita play in line mode, driven by a script: a whole game typed move by move, the record it
# saves, leaving early, and what the person is shown (never another seat's hidden piece).
# Usage: play.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# Every possible input in turn, again and again: each turn takes the first that is legal.
for cycle in $(seq 1 150); do
  echo p; echo r; echo g
  for b in 1 2 3 4 5 6 7 8; do for a in 1 2 3 4 5 6 7 8; do echo "$b$a"; done; done
done >"$tmp/moves"

out=$("$goita" play --seed 3 --player rules --hint rules --records "$tmp/games" <"$tmp/moves")
case $out in
  *'Game over after '*' rounds: you '*'Game saved to '*) ;;
  *) fail "a whole game: $(printf '%s' "$out" | tail -5)" ;;
esac
record=$(ls "$tmp"/games/game-*-3.json 2>/dev/null | head -1)
[ -n "$record" ] || fail "no record saved"
check=$("$goita" replay --check "$record" 2>&1)
case $check in
  'ok: a game record of '*' rounds, finished'*) ;;
  *) fail "the saved record: $check" ;;
esac
# Others' face-down pieces are never named while a round is played.
leaks=$(printf '%s\n' "$out" | grep -cE '^  seat [0-9] \((partner|opponent)\) led [^a]')
[ "$leaks" -eq 0 ] || fail "$leaks face-down pieces of other seats shown"
# The same seed and moves give the same game.
again=$("$goita" play --seed 3 --player rules --hint rules --records "$tmp/games2" <"$tmp/moves")
[ "$(printf '%s' "$out" | grep -v 'saved to')" = "$(printf '%s' "$again" | grep -v 'saved to')" ] ||
  fail "the same seed and moves gave another game"

# Commands, then leaving: asked, and the game so far saved.
out=$(printf '%s\n' help moves hint record scores 99 quit n quit y |
  "$goita" play --seed 4 --player rules --hint rules --records "$tmp/left")
for want in 'Type a move' '  p   pass' 'Hint (rules' '  why 11: keeps your 馬 for later' 'No round has finished yet.' 'Scores: your team 0' \
            '"99" is not a legal move here' 'Quit and save the game so far? [y/N] n' 'You left the game.'; do
  case $out in *"$want"*) ;; *) fail "session lacks \"$want\"" ;; esac
done
left=$(ls "$tmp"/left/*.json 2>/dev/null | head -1)
check=$("$goita" replay --check "$left" 2>&1)
case $check in
  'ok: a game record of 1 round, not finished'*) ;;
  *) fail "the game so far: $check" ;;
esac
# End of input saves too; bad options are refused.
printf '' | "$goita" play --seed 5 --player rules --records "$tmp/eof" >/dev/null || fail "end of input"
[ -n "$(ls "$tmp"/eof/*.json 2>/dev/null)" ] || fail "nothing saved at the end of input"
"$goita" play --seat 5 </dev/null >/dev/null 2>&1 && fail "--seat 5 accepted"
"$goita" play --player oracle </dev/null >/dev/null 2>&1 && fail "--player oracle accepted"

# A records folder that cannot be made is refused before the game (exit 2, nothing played).
"$goita" play --seed 5 --player rules --records /proc/x </dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "--records /proc/x: exit $status"
grep -q 'Round 1' "$tmp/out" && fail "--records /proc/x: the game was played"
grep -q 'goita play: cannot make the folder /proc/x' "$tmp/err" || fail "--records /proc/x: $(cat "$tmp/err")"

# The record keeps the computer players' full spec, however long.
out=$(printf 'quit\ny\n' | "$goita" play --seed 5 --player expert:samples=8,rollouts=1 --records "$tmp/spec")
spec=$(printf '%s\n' "$out" | sed -n -e 's/.*; computer players: \(.*\)\. Seed 5\..*/\1/p')
[ "${#spec}" -gt 60 ] || fail "a short full spec: \"$spec\""
grep -qF "\"goita $spec\"" "$tmp"/spec/*.json || fail "the record lacks the full spec \"$spec\""

# moves names the king the hand holds: seed 5 gives seat 1 玉, not 王.
out=$(printf 'moves\nquit\ny\n' | LANG=C.UTF-8 "$goita" play --seed 5 --player rules --records "$tmp/king")
case $out in *'Your hand: 玉 '*) ;; *) fail "seed 5 no longer deals 玉 to seat 1: $out" ;; esac
printf '%s\n' "$out" | grep -q '^  81  defend with 玉 king, attack し pawn$' || fail "moves: no 玉 move: $out"
printf '%s\n' "$out" | grep -q '^  [0-9p].*王' && fail "moves names 王, which the hand does not hold"

# The person's teyaku, in the person's grammar (seed 207: seat 1 holds 6 pawns).
out=$(printf 'quit\ny\n' | "$goita" play --seed 207 --player rules --records "$tmp/teyaku")
case $out in *'Teyaku: you hold 6 pawns'*) ;; *) fail "teyaku: $(printf '%s\n' "$out" | grep -i teyaku)" ;; esac

# A move that reads but is not legal is refused with the rule's reason (seed 1: seat 1 holds
# one king, which may attack only on the conditions of RULES.md 4).
out=$(printf '18\nquit\ny\n' | "$goita" play --seed 1 --player rules --records "$tmp/reason")
case $out in
  *'"18" is not a legal move here: a king may attack only when a king is face-up'*) ;;
  *) fail "an illegal king attack: $(printf '%s\n' "$out" | grep -A1 'move> 18')" ;;
esac

# goshi_decision=holder_and_partner (preset=french, seed 3: seat 1 holds 5 pawns): the holder
# is asked to propose, the partner to agree, each in their own words.
out=$(printf 'r\nquit\ny\n' | "$goita" play --plain --seed 3 --rules preset=french --player rules \
  --records "$tmp/goshi1")
case $out in
  *'You hold 5 pawns: you show them.'*'Ask for a redeal, if your partner agrees (r), or play the round (g)?'*'you asked for a redeal'*'seat 3 (partner) agreed to a redeal'*) ;;
  *) fail "the 5-pawn holder: $(printf '%s\n' "$out" | sed -n 4,10p)" ;;
esac
case $out in *'Your partner showed'*) fail "the holder is called the partner" ;; esac
out=$(printf 'r\nquit\ny\n' | "$goita" play --plain --seat 3 --seed 3 --rules preset=french --player rules \
  --records "$tmp/goshi3")
case $out in
  *'seat 1 (partner) asked for a redeal'*'Your partner showed 5 pawns and asks for a redeal. Agree (r) or play the round (g)?'*'you agreed to a redeal'*) ;;
  *) fail "the holder's partner: $(printf '%s\n' "$out" | sed -n 4,10p)" ;;
esac

finish play

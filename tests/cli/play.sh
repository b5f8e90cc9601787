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
for want in 'Type a move' '  p   pass' 'Hint (rules' 'No round has finished yet.' 'Scores: your team 0' \
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

finish play

#!/usr/bin/env bash
# goita solo, driven by a script: a whole game to its score, reproducible by seed, ASCII mode,
# bad input answered and the game going on.
# Usage: solo.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# Every single cell and every pair of cells in turn, again and again: each step of the game
# takes the first input that is legal for it.
cells=()
for r in a b c d; do for c in 1 2 3 4 5 6 7 8; do cells+=("$r$c"); done; done
for cycle in $(seq 1 40); do
  for ((i = 0; i < 32; i++)); do
    echo "${cells[i]}"
    for ((j = i + 1; j < 32; j++)); do echo "${cells[i]} ${cells[j]}"; done
  done
done >"$tmp/input"

out=$("$goita" solo --seed 9 <"$tmp/input")
score=$(printf '%s\n' "$out" | sed -n -e 's/^Game over after [0-9]* turns: \([0-9]*\) points of 76\.$/\1/p')
[ -n "$score" ] && [ "$score" -ge 0 ] && [ "$score" -le 76 ] || fail "a whole game: $(printf '%s' "$out" | tail -3)"
again=$("$goita" solo --seed 9 <"$tmp/input")
[ "$out" = "$again" ] || fail "the same seed and input gave another game"
case $out in *'Not here: '*) ;; *) fail "bad input was not answered" ;; esac
case $out in *'A pair: +'*) ;; *) fail "no pair was ever taken" ;; esac

ascii=$("$goita" solo --seed 9 --ascii <"$tmp/input")
printf '%s' "$ascii" | LC_ALL=C grep -q '[^ -~]' && fail "--ascii wrote a character outside ASCII"
[ "$(printf '%s' "$ascii" | tail -1)" = "$(printf '%s' "$out" | tail -1)" ] || fail "--ascii played another game"

out=$(printf 'a2 a3\n' | "$goita" solo --seed 9)
case $out in *'Left the game with '*' points.') ;; *) fail "end of input: $(printf '%s' "$out" | tail -1)" ;; esac

finish solo

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

# Everything solo prints fits 80 columns, with the longest seed; help at the prompt explains
# the game again (it was answered "Not here: name two cells").
out=$(printf 'help\n?\nquit\n' | "$goita" solo --seed 18446744073709551615)
while IFS= read -r line; do
  [ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)" -le 80 ] || fail "solo: a line over 80 columns: $line"
done <<<"$out"
[ "$(printf '%s\n' "$out" | grep -c '^Each turn, turn two face-down pieces')" -eq 3 ] ||
  fail "help at the prompt: $(printf '%s\n' "$out" | grep -A1 'turn two> help')"
case $out in *'Not here'*) fail "help at the prompt is not a command: $out" ;; esac

out=$(printf 'a2 a3\n' | "$goita" solo --seed 9)
case $out in *'Left the game with '*' points.') ;; *) fail "end of input: $(printf '%s' "$out" | tail -1)" ;; esac

# Following every hint plays a whole game, and well: a perfect memory scores far above chance.
mkfifo "$tmp/to" "$tmp/from"
"$goita" solo --seed 4 --ascii <"$tmp/to" >"$tmp/from" &
exec {to}>"$tmp/to" {from}<"$tmp/from"
# A step that ends the game makes the "hint" after it a write to a closed pipe: not an error.
trap '' PIPE
echo hint >&$to
score=
while read -r line <&$from; do
  case $line in
  *'Hint (perfect memory): '*)
    step=${line#*: }; step=${step%%:*}; step=${step#* } # "turn a2 a3" -> "a2 a3"
    printf '%s\nhint\n' "$step" >&$to 2>/dev/null ;;
  *'Game over after '*)
    score=$(printf '%s' "$line" | sed -n -e 's/.*: \([0-9]*\) points of 76\./\1/p')
    break ;;
  *'Not here: '* | *'No hint: '*) fail "a hint was not playable: $line"; break ;;
  esac
done
exec {to}>&- {from}<&-
wait
trap - PIPE
[ -n "$score" ] && [ "$score" -ge 50 ] || fail "following the hints scored \"$score\""

# --solve: the expected score by sampling, the same on one or two threads, options checked.
one=$("$goita" solo --solve --games 60 --rollouts 8 --seed 3 --jobs 1 2>/dev/null)
two=$("$goita" solo --solve --games 60 --rollouts 8 --seed 3 --jobs 2 2>/dev/null)
[ "$one" = "$two" ] || fail "--solve differs on one and two threads"
json=$(printf '%s\n' "$one" | tail -1)
case $json in '{"games":60,"seed":3,"rollouts":8,"mean":'*',"method":"sampling"}') ;; *) fail "--solve JSON: $json" ;; esac
mean=$(printf '%s' "$json" | sed -e 's/.*"mean":\([0-9.]*\).*/\1/')
awk -v m="$mean" 'BEGIN { exit !(m > 50 && m <= 76) }' || fail "--solve mean $mean"
case $one in *'By sampling: 60 deals'*) ;; *) fail "--solve does not say how it was found" ;; esac
out=$("$goita" solo --solve --games 2 --rollouts 2 --seed 18446744073709551615 2>/dev/null | grep -v '^{')
[ "$(printf '%s\n' "$out" | wc -l)" -ge 3 ] || fail "solo --solve with the longest seed: $out"
while IFS= read -r line; do
  [ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)" -le 80 ] || fail "solo --solve: a line over 80 columns: $line"
done <<<"$out"
"$goita" solo --solve --games 0 2>/dev/null && fail "--games 0 accepted"
"$goita" solo --solve --rollouts x 2>/dev/null && fail "--rollouts x accepted"

finish solo

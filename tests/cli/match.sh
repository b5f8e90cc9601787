#!/usr/bin/env bash
# The command-line contract of goita match, end to end: the JSON line, reproducibility on one
# or two threads, a stronger player winning, and errors.
# Usage: match.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# Drops the timing fields, which differ from run to run.
results() { sed -e 's/,"a_ms_per_move":[0-9.]*,"b_ms_per_move":[0-9.]*//'; }

one=$("$goita" match --games 6 --seed 5 --jobs 1 --quiet rules random | results)
two=$("$goita" match --games 6 --seed 5 --jobs 2 --quiet rules random | results)
case $one in
  '{"a":"rules","b":"random","rounds":'*',"points_per_round":'*',"stderr":'*',"games":6,"a_game_wins":'*'}') ;;
  *) fail "json line: $one" ;;
esac
[ "$one" = "$two" ] || fail "one thread and two differ: $one / $two"
other=$("$goita" match --games 6 --seed 6 --jobs 2 --quiet rules random | results)
[ "$one" != "$other" ] || fail "another seed gives the same match: $other"

# A player behind the protocol (goita engine) plays exactly as the same level in the library:
# it is told the seat's view and the scores, and the same seed.
inner=$("$goita" match --games 6 --seed 5 --quiet sampler:samples=3 rules | results | sed -e 's/.*"rounds"/"rounds"/')
outer=$("$goita" match --games 6 --seed 5 --quiet "engine:$goita engine --player sampler:samples=3" rules | results)
case $outer in
  '{"a":"engine:'*' engine --player sampler:samples=3","b":"rules",'*) ;;
  *) fail "engine spec: $outer" ;;
esac
[ "$(printf '%s' "$outer" | sed -e 's/.*"rounds"/"rounds"/')" = "$inner" ] || fail "engine and library differ: $outer / $inner"
# A program is told only its seat's view: at each round's first move it sees its own hand and
# nothing of the others' (x), apart from 5 pawns a hand announced.
log=$(mktemp)
"$goita" match --games 2 --seed 8 --quiet "engine:tee -a $log | $goita engine --player rules" random >/dev/null
leaks=$(awk -F, '/^position / && NF == 5 {
  sub(/^position /, "", $1); full = 0
  for (i = 1; i <= 4; i++) { if ($i !~ /x/) full++; else if ($i !~ /^(11111)?x+$/) bad++ }
  if (full != 1) bad++
} END { print bad + 0 }' "$log")
firsts=$(grep -c '^position [^,]*,[^,]*,[^,]*,[^,]*,s[1-4][^,]*$' "$log")
rm -f "$log"
[ "$firsts" -gt 0 ] && [ "$leaks" -eq 0 ] || fail "views sent to a program: $leaks bad of $firsts first positions"

# A program that is not a player, and one that dies mid-game, are reported.
err=$("$goita" match --games 2 --quiet "engine:echo hello" rules 2>&1 >/dev/null)
case $err in
  *'player A "engine:echo hello": the program '*'(did it exit?)'*) ;;
  *) fail "not a player: $err" ;;
esac

# A program that stops answering is given --engine-timeout seconds, and the error names the game
# and the position it was asked about.
mute=$(mktemp)
cat >"$mute" <<'MUTE'
while read -r command rest; do
  case $command in
    goita) printf 'id name mute\ngoitaok 1\n' ;;
    isready) echo readyok ;;
    go) sleep 30 >/dev/null 2>&1 ;; # not holding the test's pipe open
  esac
done
MUTE
start=$SECONDS
err=$("$goita" match --games 2 --jobs 1 --quiet --engine-timeout 1 "engine:bash $mute" rules 2>&1 >/dev/null)
rm -f "$mute"
case $err in
  'goita match: game 1: player A, to move after '*',s'[1-4]*': no answer within 1 s') ;;
  *) fail "a mute program: $err" ;;
esac
[ $((SECONDS - start)) -lt 20 ] || fail "the timeout of 1 s was not kept"

# The external reference player (goita-ai-sample's SimpleAI through its adapter) plays a game
# pair, reproducibly for a seed.
adapter=$(dirname "$0")/../../tools/goita-ai-sample/adapter.js
first=$("$goita" match --games 2 --seed 3 --quiet rules "engine:node $adapter" | results)
second=$("$goita" match --games 2 --seed 3 --quiet rules "engine:node $adapter" | results)
case $first in
  '{"a":"rules","b":"engine:node '*'adapter.js","rounds":'*',"games":2,'*) ;;
  *) fail "reference player: $first" ;;
esac
[ "$first" = "$second" ] || fail "the reference player's games differ: $first / $second"

# The sampling player beats random play clearly, even with few samples.
out=$("$goita" match --games 4 --seed 1 --quiet sampler:samples=6,rollouts=1 random)
ppr=$(printf '%s' "$out" | sed -e 's/.*"points_per_round":\([-0-9.]*\).*/\1/')
awk -v x="$ppr" 'BEGIN { exit !(x > 10) }' || fail "sampler against random: $out"
case $out in
  '{"a":"sampler:samples=6,infer=off,solve=24,rollouts=1,policy=rules,temp=0,tt_mb=8,ms=0",'*) ;;
  *) fail "full spec: $out" ;;
esac

# 2 players: one seat each.
out=$("$goita" match --games 2 --quiet --rules players=2 rules random)
case $out in
  *'"games":2,'*) ;;
  *) fail "2 players: $out" ;;
esac

# Errors: a bad level, a bad parameter, one player only, 3 players; nothing on stdout.
for args in "oracle random" "sampler:samples=0 random" "rules" "--rules players=3 rules random" \
            "--games 0 rules random" "--jobs x rules random" "--engine-timeout 0 rules random"; do
  # shellcheck disable=SC2086
  out=$("$goita" match --quiet $args 2>/dev/null)
  status=$?
  [ "$status" -eq 2 ] || fail "exit status $status for: $args"
  [ -z "$out" ] || fail "output on error for: $args"
done
err=$("$goita" match sampler:sample=3 random 2>&1 >/dev/null)
case $err in
  *'player A "sampler:sample=3": level sampler has no parameter "sample"'*) ;;
  *) fail "error message: $err" ;;
esac

# The engine timeout's default is in the help, with its range.
"$goita" match --help | tr -s ' \n' ' ' |
  grep -q -- '--engine-timeout SEC the longest .* (1-86400 seconds; default: 120)' || fail "--engine-timeout in the help"

finish match

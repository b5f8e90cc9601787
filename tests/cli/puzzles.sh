#!/usr/bin/env bash
# goita puzzles: the page's set (web/puzzles.json) is exactly what its documented command makes,
# it checks, and a set with a wrong answer, a tie, a bad line or a bad file is refused.
# Usage: puzzles.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
web=$(cd "$(dirname "$0")/../../web" && pwd)

# The command of README.md, "Puzzles", remakes the committed set byte for byte.
"$goita" puzzles --count 30 --seed 1 --out "$tmp/set.json" 2>"$tmp/err" || fail "making the set: $(cat "$tmp/err")"
cmp -s "$tmp/set.json" "$web/puzzles.json" || fail "web/puzzles.json is not what goita puzzles --count 30 --seed 1 makes"
grep -Eq '^goita puzzles: 30 puzzles from [0-9]+ games \([0-9]+ rounds\) in [0-9.]+ s: [0-9]+ candidate positions tried, [0-9]+ rejected as not unique \([0-9.]+%\)' "$tmp/err" ||
  fail "the figures on stderr: $(cat "$tmp/err")"
out=$("$goita" puzzles --check "$web/puzzles.json") || fail "checking web/puzzles.json: $out"
[ "$out" = "goita puzzles: $web/puzzles.json: 30 puzzles checked, each with one best move" ] || fail "check says: $out"

# Broken copies: each must fail, naming the puzzle and what is wrong.
# broken NAME N PYTHON: applies PYTHON to the set (as d), keeps its first N puzzles (the broken one
# last, so the check is short) and expects --check to fail naming puzzle N.
broken() {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $3; d['puzzles']=d['puzzles'][:$2]; json.dump(d, open(sys.argv[2], 'w'))" \
    "$web/puzzles.json" "$tmp/$1.json"
  if "$goita" puzzles --check "$tmp/$1.json" >"$tmp/out" 2>"$tmp/err"; then fail "$1: accepted"; fi
  grep -q "goita puzzles: $tmp/$1.json: puzzle $2: " "$tmp/err" || fail "$1: $(cat "$tmp/err")"
}
# another legal move given as the answer
broken answer 1 "p=d['puzzles'][0]; m=[x for x in p['moves'] if x['move']!=p['answer']][0]; p['answer']=m['move']"
# a second-best move written as good as the answer
broken tie 2 "p=d['puzzles'][1]; m=[x for x in p['moves'] if x['move']!=p['answer']][0]; m['value']=p['best']"
# the line cut short
broken line 3 "p=d['puzzles'][2]; p['line']=p['line'][:-1]"
# the hands shown not those of the history
broken hands 4 "p=d['puzzles'][3]; p['hands'][0]=p['hands'][1]"
# a grade changed
broken grade 5 "p=d['puzzles'][4]; p['difficulty']=1 if p['difficulty']>1 else 2"
echo '{"format":1' >"$tmp/torn.json"
"$goita" puzzles --check "$tmp/torn.json" 2>"$tmp/err" && fail "a torn file was accepted"
grep -q "torn.json: line" "$tmp/err" || fail "torn file: $(cat "$tmp/err")"
"$goita" puzzles --count 0 2>/dev/null && fail "--count 0 was accepted"
"$goita" puzzles --players nobody --count 1 2>"$tmp/err" && fail "an unknown player was accepted"
grep -q "players" "$tmp/err" || fail "unknown player: $(cat "$tmp/err")"
finish puzzles

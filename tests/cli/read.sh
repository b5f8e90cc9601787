#!/usr/bin/env bash
# goita-read: the default master reads the partner's and the opponents' hands better (lower
# cross-entropy against the true hands) than a master that weighs every deal alike, the same
# command prints the same figures twice, and bad readers are refused with a reason.
# Usage: read.sh PATH_TO_GOITA_READ
. "$(dirname "$0")/common.sh"
read_cmd=$goita

"$read_cmd" --games 2 --deals 64 --seed 2 master master:infer=0 >"$tmp/out" 2>&1 || fail "goita-read: $(cat "$tmp/out")"
grep -q '^[0-9]* choices with more than 20 pieces left' "$tmp/out" || fail "no summary line: $(cat "$tmp/out")"
figures() { sed -nE "s/^$1: partner ([0-9.]+), opponents ([0-9.]+) nats.*/\1 \2/p" "$tmp/out"; }
read -r reads_partner reads_opponents < <(figures master)
read -r blind_partner blind_opponents < <(figures 'master:infer=0')
[ -n "$reads_partner" ] && [ -n "$blind_partner" ] || fail "no figures for both readers: $(cat "$tmp/out")"
awk -v r="$reads_partner" -v b="$blind_partner" 'BEGIN { exit !(r < b - 0.01) }' ||
  fail "reading the moves did not read the partner better than nothing: $(cat "$tmp/out")"
awk -v r="$reads_opponents" -v b="$blind_opponents" 'BEGIN { exit !(r < b - 0.01) }' ||
  fail "reading the moves did not read the opponents better than nothing: $(cat "$tmp/out")"

"$read_cmd" --games 2 --deals 64 --seed 2 master master:infer=0 >"$tmp/again" 2>&1 || fail "goita-read, second run"
cmp -s "$tmp/out" "$tmp/again" || fail "the same command printed other figures: $(diff "$tmp/out" "$tmp/again")"

"$read_cmd" --games 1 expert >"$tmp/bad" 2>&1 && fail "a reader that is not a budgeted level was accepted"
grep -q 'not a budgeted level' "$tmp/bad" || fail "refusing expert as a reader said: $(cat "$tmp/bad")"
"$read_cmd" --games 1 >"$tmp/bad" 2>&1 && fail "no reader was accepted"
grep -q 'give a reader' "$tmp/bad" || fail "no reader: $(cat "$tmp/bad")"
finish read

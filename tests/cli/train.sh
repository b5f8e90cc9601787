#!/usr/bin/env bash
# goita-train: for both models, a short self-play and fit must lower the held-out cross-entropy of the policy
# (the loss the fit minimises), and the same command must write the same weights twice (the
# committed weights are reproduced by the command src/policy_learned.c names).
# Usage: train.sh PATH_TO_GOITA_TRAIN
. "$(dirname "$0")/common.sh"
train=$goita

"$train" --games 4 --iterations 1 --seed 3 --out "$tmp/a.c" >"$tmp/out" 2>&1 || fail "goita-train: $(cat "$tmp/out")"
line=$(grep -m1 '^iteration 1: ' "$tmp/out") || fail "no iteration line: $(cat "$tmp/out")"
read -r before after < <(printf '%s\n' "$line" | sed -E 's/.*held-out cross-entropy ([0-9.]+) -> ([0-9.]+).*/\1 \2/')
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a < b) }' || fail "the held-out loss did not fall: $line"
grep -q '^weights written' "$tmp/out" || fail "no weights written: $(cat "$tmp/out")"

"$train" --games 4 --iterations 1 --seed 3 --out "$tmp/b.c" >/dev/null 2>&1 || fail "goita-train, second run"
cmp -s "$tmp/a.c" "$tmp/b.c" || fail "the same command wrote other weights: $(diff "$tmp/a.c" "$tmp/b.c" | head -5)"
# The inference model: fitted to the moves a (short-budget) master chose in self-play, then to
# the hands it chose them with.
"$train" --model inference --games 16 --iterations 1 --seed 3 --teacher master:ms=5,model=learned \
  --hands-steps 40 --out "$tmp/i.c" >"$tmp/out" 2>&1 || fail "goita-train --model inference: $(cat "$tmp/out")"
line=$(grep -m1 '^iteration 1: ' "$tmp/out") || fail "no iteration line: $(cat "$tmp/out")"
read -r before after < <(printf '%s\n' "$line" | sed -E 's/.*held-out cross-entropy ([0-9.]+) -> ([0-9.]+).*/\1 \2/')
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a < b) }' || fail "the inference model's held-out loss did not fall: $line"
# ... and then to the hands: the true deal's share of the likelihoods among deals the view allows
line=$(grep -m1 'positions; held-out cross-entropy of the true deal' "$tmp/out") || fail "no hands line: $(cat "$tmp/out")"
read -r before after < <(printf '%s\n' "$line" | sed -E 's/.*among [0-9]+: ([0-9.]+) -> ([0-9.]+).*/\1 \2/')
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a < b) }' || fail "the fit to the hands did not lower their held-out loss: $line"
grep -q 'goita__inference_policy' "$tmp/i.c" || fail "the inference model was not written: $(head -12 "$tmp/i.c")"
grep -q 'F_PASS_BLOCKERS' "$tmp/i.c" || fail "the inference model lacks its own features"
! grep -q 'F_PASS_BLOCKERS' "$tmp/a.c" || fail "the playout policy was given the inference model's features"
"$train" --model inference --games 16 --iterations 1 --seed 3 --teacher master:ms=5,model=learned \
  --hands-steps 40 --out "$tmp/j.c" >/dev/null 2>&1 || fail "goita-train --model inference, second run"
cmp -s "$tmp/i.c" "$tmp/j.c" || fail "the same command wrote another inference model"
finish train

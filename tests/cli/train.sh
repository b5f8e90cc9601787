#!/usr/bin/env bash
# goita-train: for the policy models, a short self-play and fit must lower the held-out cross-entropy of the
# policy (the loss the fit minimises); for the value network, the held-out squared error below
# the one of the labels' mean, in floating point and in the fixed point written. The same
# command must write the same weights twice (the committed weights are reproduced by the
# command their file names), whatever the number of threads and from kept positions.
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
# Its header names the model the build held (a teacher that reads with it depends on it) and its
# own, by the fingerprint of their weights as written: FNV-1a over each weight's "%.4f;".
fingerprint() {
  python3 -c 'import re, sys
h = 14695981039346656037
for w in re.findall(r"^ +\[F_[^]]+\] = (-?[0-9.]+),$", open(sys.argv[1]).read(), re.M):
    for c in (w + ";").encode(): h = ((h ^ c) * 1099511628211) % 2**64
print("%016x" % h)' "$1"
}
src=$(cd "$(dirname "$0")/../.." && pwd)/src/policy_inference.c
grep -q "fingerprint $(fingerprint "$src"); these weights' fingerprint is $(fingerprint "$tmp/i.c")\." "$tmp/i.c" ||
  fail "the inference model's header does not name the fingerprints ($(fingerprint "$src"), $(fingerprint "$tmp/i.c")): $(head -7 "$tmp/i.c")"
! grep -q 'F_PASS_BLOCKERS' "$tmp/a.c" || fail "the playout policy was given the inference model's features"
"$train" --model inference --games 16 --iterations 1 --seed 3 --teacher master:ms=5,model=learned \
  --hands-steps 40 --out "$tmp/j.c" >/dev/null 2>&1 || fail "goita-train --model inference, second run"
cmp -s "$tmp/i.c" "$tmp/j.c" || fail "the same command wrote another inference model"
# The value network: positions of rounds of self-play, labelled by playouts. Enough rounds
# that the held-out rounds (every 20th) say something.
"$train" --model value --rounds 400 --epochs 3 --seed 3 --jobs 2 --data "$tmp/v.bin" --out "$tmp/v.c" >"$tmp/out" 2>&1 ||
  fail "goita-train --model value: $(cat "$tmp/out")"
base=$(sed -nE 's/.*held-out squared error of their mean ([0-9.]+).*/\1/p' "$tmp/out")
fitted=$(sed -nE 's/^epoch 3: .*held out ([0-9.]+)$/\1/p' "$tmp/out")
fixed=$(sed -nE 's/^in fixed point: held-out squared error ([0-9.]+) .*/\1/p' "$tmp/out")
[ -n "$base" ] && [ -n "$fitted" ] && [ -n "$fixed" ] || fail "goita-train --model value said: $(cat "$tmp/out")"
awk -v b="$base" -v f="$fitted" -v q="$fixed" 'BEGIN { exit !(f < 0.8 * b && q < 0.8 * b && q < f * 1.02 + 0.01) }' ||
  fail "the value network did not learn: mean $base, fitted $fitted, fixed point $fixed"
grep -q 'goita__value_net_trained' "$tmp/v.c" || fail "the value network was not written: $(head -8 "$tmp/v.c")"
"$train" --model value --rounds 400 --epochs 3 --seed 3 --data "$tmp/v.bin" --out "$tmp/x.c" >"$tmp/out" 2>&1 ||
  fail "goita-train --model value from kept positions: $(cat "$tmp/out")"
grep -q "the positions of 400 rounds from $tmp/v.bin" "$tmp/out" || fail "the kept positions were not read: $(cat "$tmp/out")"
cmp -s "$tmp/v.c" "$tmp/x.c" || fail "the kept positions gave another value network"
# the same positions whatever the threads, and a file of fewer rounds extended with the rounds
# it lacks as if they had been played in one run
"$train" --model value --rounds 30 --epochs 1 --seed 3 --jobs 1 --out "$tmp/a1.c" >/dev/null 2>&1 ||
  fail "goita-train --model value, one thread"
"$train" --model value --rounds 30 --epochs 1 --seed 3 --jobs 2 --out "$tmp/a2.c" >/dev/null 2>&1 ||
  fail "goita-train --model value, two threads"
cmp -s "$tmp/a1.c" "$tmp/a2.c" || fail "one thread and two wrote other value networks"
"$train" --model value --rounds 15 --epochs 1 --seed 3 --data "$tmp/y.bin" --out "$tmp/y.c" >/dev/null 2>&1 ||
  fail "goita-train --model value, 15 rounds"
"$train" --model value --rounds 30 --epochs 1 --seed 3 --data "$tmp/y.bin" --out "$tmp/y.c" >"$tmp/out" 2>&1 ||
  fail "goita-train --model value, extended to 30 rounds: $(cat "$tmp/out")"
grep -q "the positions of 15 rounds from $tmp/y.bin" "$tmp/out" || fail "the 15 rounds kept were not read: $(cat "$tmp/out")"
cmp -s "$tmp/a1.c" "$tmp/y.c" || fail "15 rounds kept and 15 more played gave another value network"
# Its header names the network the build held (a teacher or labeller valuing deals by it depends
# on it) and its own, by the fingerprint of their integer weights as written: FNV-1a over "%d;".
net_fingerprint() {
  python3 -c 'import re, sys
text = open(sys.argv[1]).read()
h = 14695981039346656037
for w in re.findall(r"(?<![\w.])-?[0-9]+", text[text.index("goita__value_net_trained = {"):]):
    for c in (w + ";").encode(): h = ((h ^ c) * 1099511628211) % 2**64
print("%016x" % h)' "$1"
}
src_net=$(cd "$(dirname "$0")/../.." && pwd)/src/value_net.c
grep -q "fingerprint $(net_fingerprint "$src_net"); these weights' fingerprint is $(net_fingerprint "$tmp/a1.c")\." "$tmp/a1.c" ||
  fail "the value network's header does not name the fingerprints ($(net_fingerprint "$src_net"), $(net_fingerprint "$tmp/a1.c")): $(head -7 "$tmp/a1.c")"
# Labelled by a level's playouts instead (fast: every seat choosing from its own view): other
# positions' labels, kept apart from the policy's in the data file, the same whatever the threads.
"$train" --model value --rounds 30 --epochs 1 --seed 3 --jobs 1 --labeller fast --data "$tmp/y.bin" --out "$tmp/l1.c" \
  >"$tmp/out" 2>&1 || fail "goita-train --model value --labeller fast: $(cat "$tmp/out")"
! grep -q "the positions of" "$tmp/out" || fail "the policy's labels were read for the labeller's: $(cat "$tmp/out")"
grep -q "^ \*   goita-train --model value --rounds 30 --epochs 1 --seed 3 --teacher fast --labeller fast$" "$tmp/l1.c" ||
  fail "the labeller is not in the command written: $(head -5 "$tmp/l1.c")"
! cmp -s "$tmp/a1.c" "$tmp/l1.c" || fail "the labeller changed nothing"
"$train" --model value --rounds 30 --epochs 1 --seed 3 --jobs 2 --labeller fast --out "$tmp/l2.c" >/dev/null 2>&1 ||
  fail "goita-train --model value --labeller fast, two threads"
cmp -s "$tmp/l1.c" "$tmp/l2.c" || fail "one thread and two wrote other networks with a labeller"
# a labeller that is no level, or one for another model, is refused with the reason
! "$train" --model value --rounds 5 --labeller grandmaster --out "$tmp/z.c" >"$tmp/out" 2>&1 &&
  grep -q 'labeller: unknown player level "grandmaster"' "$tmp/out" || fail "a bad labeller: $(cat "$tmp/out")"
! "$train" --model inference --labeller fast --out "$tmp/z.c" >"$tmp/out" 2>&1 &&
  grep -q -- '--labeller is for --model value' "$tmp/out" || fail "a labeller for the inference model: $(cat "$tmp/out")"
[ ! -e "$tmp/z.c" ] || fail "a refused command wrote $tmp/z.c"
finish train

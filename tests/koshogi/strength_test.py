#!/usr/bin/env python3
"""How strength is measured (docs/KOSHOGI.md, "Strength"): the Elo interval is computed over
pairs of games on one opening, not over games; and a match under a node budget plays the same
games whatever the machine's load (the referee run twice gives the same moves).
Usage: strength_test.py PATH_TO_KOSHOGI. Exits with the number of failed checks."""
import json
import os
import subprocess
import sys

from pair_stats import pair_stats

koshogi = sys.argv[1]
failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL {what}", flush=True)


# Every pair split 1-1 (each side won with the colour the opening favoured): an even match,
# and, over pairs, no doubt about it; over games it would look like a coin tossed 8 times.
even = pair_stats([1, 1, 1, 1])
check(even["elo"] == 0 and even["elo_low"] == 0 and even["elo_high"] == 0, f"four 1-1 pairs: {even}")
check(even["pentanomial"]["1"] == 4 and even["pairs"] == 4, f"four 1-1 pairs counted: {even}")
# Pairs won 2-0 and lost 0-2 in turn: the same mean, an interval too wide for finite bounds.
swing = pair_stats([2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0])
check(swing["elo"] == 0 and swing["elo_low"] < -100 and swing["elo_high"] > 100, f"2-0, 0-2 pairs: {swing}")
check(pair_stats([2, 0, 2, 0])["elo_low"] is None, "4 such pairs: the interval reaches a score of 0")
# A known case: 3 pairs 2-0, 1 pair 1.5, 3 pairs 1-1, 1 pair 0.5: mean 0.6875, +137 Elo.
known = pair_stats([2, 1, 1.5, 1, 2, 0.5, 1, 2])
check(abs(known["score"] - 0.6875) < 1e-9 and abs(known["elo"] - 136.97) < 0.01, f"a known case: {known}")
check(known["elo_low"] < 0 < known["elo_high"] and abs(known["elo_low"] + 9.95) < 0.01, f"its interval: {known}")
# Every pair won 2-0: no finite Elo.
check(pair_stats([2, 2])["elo"] is None, "all won: no finite Elo")

referee = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "referee.py"), "--koshogi",
           koshogi, "--a", f"{koshogi} engine", "--b", f"{koshogi} engine", "--limit", "14", "--openings", "4",
           "--seed", "3", "--go", "nodes 400"]


def run(extra):
    done = subprocess.run(referee + extra, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


# A node budget: the same games twice, each move within the budget, and the interval over pairs.
reports = []
for _ in range(2):
    code, out, err = run(["--games", "4"])
    check(code == 0, f"referee: exit {code}: {err[-300:]}")
    reports.append(json.loads(out) if code == 0 else {})
if all(reports):
    first, second = reports
    check(first["moves_digest"] == second["moves_digest"], f"two runs, other games: {first} {second}")
    check(first["pairs"] == 2 and sum(first["pentanomial"].values()) == 2, f"pairs: {first}")
    check(0 < first["a_mean_nodes"] <= 400 and 0 < first["b_mean_nodes"] <= 400, f"nodes a move: {first}")
# An odd number of games cannot be paired.
code, out, err = run(["--games", "3"])
check(code == 2 and "an even number of games" in err, f"--games 3: exit {code}, {err[-200:]}")
sys.exit(failures)

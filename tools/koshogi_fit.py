#!/usr/bin/python3
"""Fits the Ko shogi evaluation's weights on self-play games (the Texel method).

    build/koshogi selfplay --games 600 --nodes 1000 --seed 1 > games.txt
    /usr/bin/python3 tools/koshogi_fit.py --koshogi build/koshogi games.txt [--write src/koshogi/search.c]

The positions' features come from `koshogi features`, the same code ks_evaluate runs, so what is
fitted is what the search plays by (the script checks that the features times today's weights give
ks_evaluate's score for every position). The win probability of a position for the side to move
is modelled as sigmoid(eval / K): K is fitted first with today's weights, then the weights with K
held, by Newton's method on the log-loss plus a penalty that pulls them towards today's (each
weight's change relative to the weight). The games,
not the positions, are split: a fifth held out to report the fit on, a fifth to choose the
penalty's strength, the rest to fit on. The commanding pieces' material (G, GV) stays as it is:
a position that lacks one is nearly always lost already, and the data say little about it.
No piece's value goes below half a pawn.

With --write, the fitted weights (rounded to integers) replace the table ks__eval_weights in the
C source. docs/KOSHOGI.md, "The evaluation's weights, fitted on games", has the run that made
today's weights.
"""
import argparse
import io
import re
import subprocess
import sys

import numpy as np

FROZEN = ("material G", "material +MA")  # the general and the governor (+MA)
FLOOR = 50  # no piece is worth less than half a pawn
PENALTIES = (0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03)


def load(koshogi, paths):
    """The columns' names, today's weights, and per position its result, game, eval and features."""
    text = b"".join(open(p, "rb").read() for p in paths)
    out = subprocess.run([koshogi, "features"], input=text, stdout=subprocess.PIPE, check=True).stdout
    lines = out.decode().split("\n", 2)
    names = lines[0].split("\t")[3:]
    weights = np.array([int(x) for x in lines[1].split("\t")[3:]], dtype=np.float64)
    rows = np.loadtxt(io.StringIO(lines[2]), delimiter="\t", dtype=np.float64, ndmin=2)
    result, move, evals, features = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3:]
    game = np.concatenate([[0], np.cumsum(move[1:] < move[:-1])])  # a smaller move number starts a game
    return names, weights, result, game, evals, features


def log_loss(result, evals, k):
    p = 1 / (1 + np.exp(-np.clip(evals / k, -40, 40)))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(result * np.log(p) + (1 - result) * np.log(1 - p)))


def fit_k(result, evals):
    """The K of least log-loss for these evals, by golden-section search on log K."""
    lo, hi = np.log(20.0), np.log(20000.0)
    g = (np.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if log_loss(result, evals, np.exp(a)) < log_loss(result, evals, np.exp(b)):
            hi = b
        else:
            lo = a
    return float(np.exp((lo + hi) / 2))


def fit_weights(x, result, w0, k, free, strength):
    """Weights of least log-loss(sigmoid(x w / K)) + strength * sum(((w_j - w0_j) / s_j)^2), the
    weights not free held at w0: Newton's method with a step halved until it helps. s_j is the
    weight itself (doubling a weight or making it 0 costs strength), or for a weight of 0 the one
    that moves the evaluation by 50 on average: a rare piece's value moves as little as a common
    one's, though the data say less about it."""
    typical = np.maximum(np.mean(np.abs(x), axis=0), 1.0)
    s = np.where(w0 != 0, np.abs(w0), 50 / typical) / k
    w = w0.copy()
    xs = x[:, free]
    fixed = x[:, ~free] @ w0[~free] / k
    v = w0[free] / k  # the free weights in units of K
    v0 = v.copy()
    pen = strength / s[free] ** 2
    n = len(result)

    def objective(u):
        z = np.clip(xs @ u + fixed, -40, 40)
        return float(np.mean(np.logaddexp(0, z) - result * z) + np.sum(pen * (u - v0) ** 2))

    current = objective(v)
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(xs @ v + fixed, -40, 40)))
        grad = xs.T @ (p - result) / n + 2 * pen * (v - v0)
        hess = (xs * (p * (1 - p))[:, None]).T @ xs / n + np.diag(2 * pen)
        step = np.linalg.solve(hess, grad)
        t = 1.0  # a Newton step, halved until the objective goes down
        while t > 1e-6 and objective(v - t * step) > current:
            t /= 2
        if t <= 1e-6:
            break
        v = v - t * step
        current = objective(v)
        if np.max(np.abs(t * step)) < 1e-10:
            break
    w[free] = v * k
    return w


def fit_floored(x, result, w0, k, free, material, strength):
    """fit_weights with every piece's value at least FLOOR: a value fitted below it is held
    there and the rest fitted again, until none is (a piece worth less than nothing would be
    given away for nothing)."""
    start, free = w0.copy(), free.copy()
    while True:
        w = fit_weights(x, result, start, k, free, strength)
        low = free & material & (w < FLOOR)
        if not low.any():
            return w
        start[low], free[low] = FLOOR, False


def c_table(names, weights):
    """The C source of ks__eval_weights, as search.c has it."""
    material = [n[len("material "):] for n in names if n.startswith("material ")]
    positional = [n for n in names if not n.startswith("material ")]
    values = [str(int(v)) for v in weights]
    out = ["/* The evaluation's weights by feature (internal.h), in hundredths of a pawn: the material of",
           " * each face in the order of ks_face, then the positional features. Written by",
           " * tools/koshogi_fit.py (docs/KOSHOGI.md, \"The evaluation's weights, fitted on games\"). */",
           "const int ks__eval_weights[KS_EVAL_FEATURES] = {"]
    out += wrap("    /* material:", material, "     *", " */")
    out += ["    " + ", ".join(values[i:i + 13]) + "," for i in range(0, len(material), 13)]
    out += wrap("    /*", [p + "," for p in positional[:-1]] + [positional[-1]], "     *", " */")
    out.append("    " + ", ".join(values[len(material):]) + "};")
    return "\n".join(out) + "\n"


def wrap(first, words, more, end):
    lines, line = [], first
    for word in words:
        if len(line) + 1 + len(word) > 100:
            lines.append(line)
            line = more
        line += " " + word
    lines.append(line + end)
    return lines


def write_table(path, names, weights):
    source = open(path).read()
    pattern = re.compile(r"/\* The evaluation's weights by feature.*?};\n", re.S)
    if not pattern.search(source):
        sys.exit(f"koshogi_fit.py: {path} has no table ks__eval_weights to replace")
    open(path, "w").write(pattern.sub(lambda _: c_table(names, weights), source, count=1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--koshogi", default="build/koshogi", help="the koshogi command whose features are read")
    ap.add_argument("--write", metavar="SOURCE", help="write the fitted weights into this C file (search.c)")
    ap.add_argument("--penalty", type=float, action="append",
                    help="the penalty's strength (given more than once: the one of least log-loss on the "
                         f"games set aside to choose it; default {', '.join(map(str, PENALTIES))})")
    ap.add_argument("data", nargs="+", help="koshogi selfplay's output")
    args = ap.parse_args()
    names, w0, result, game, evals, x = load(args.koshogi, args.data)
    if not np.array_equal(x @ w0, evals):
        sys.exit("koshogi_fit.py: the features times the weights are not ks_evaluate's score")
    part = game % 10
    test, valid, train = part < 2, (part == 2) | (part == 3), part > 3
    print(f"positions {len(result)} in {game[-1] + 1} games: fit {train.sum()}, choose {valid.sum()}, "
          f"held out {test.sum()}; results for the side to move: {np.mean(result == 1):.3f} won, "
          f"{np.mean(result == 0.5):.3f} drawn")
    k = fit_k(result[train], evals[train])
    print(f"K {k:.1f}: log-loss with today's weights: fit {log_loss(result[train], evals[train], k):.5f}, "
          f"held out {log_loss(result[test], evals[test], k):.5f}")
    free = np.array([n not in FROZEN for n in names])
    material = np.array([n.startswith("material ") for n in names])
    best = None
    for strength in args.penalty or PENALTIES:
        w = np.round(fit_floored(x[train], result[train], w0, k, free, material, strength))
        loss = log_loss(result[valid], x[valid] @ w, k)
        print(f"penalty {strength}: log-loss fit {log_loss(result[train], x[train] @ w, k):.5f}, "
              f"choice {loss:.5f} (today's {log_loss(result[valid], evals[valid], k):.5f})")
        if best is None or loss < best[0]:
            best = (loss, strength, w)
    _, strength, w = best
    print(f"chosen penalty {strength}; held out: log-loss {log_loss(result[test], evals[test], k):.5f} "
          f"with today's weights, {log_loss(result[test], x[test] @ w, k):.5f} with the fitted ones")
    for name, before, after in zip(names, w0, w):
        if before != after:
            print(f"  {name:18} {int(before):6} -> {int(after):6}")
    if args.write:
        write_table(args.write, names, w)
        print(f"written into {args.write}")


if __name__ == "__main__":
    main()

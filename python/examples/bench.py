#!/usr/bin/env python3
"""Measures the binding on one core: random-play steps per second through goita.env.GoitaEnv
(observe + action_mask + step every step), and solver calls per second on positions of 12-16
pieces in hand. Every figure comes from fixed seeds, so runs are comparable.

    GOITA_LIBRARY_PATH=build PYTHONPATH=python python3 python/examples/bench.py env --steps 500000
    GOITA_LIBRARY_PATH=build PYTHONPATH=python python3 python/examples/bench.py solve --count 200
"""

import argparse
import itertools
import random
import time

import goita
from goita.env import NUM_ACTIONS, GoitaEnv

ACTIONS = range(NUM_ACTIONS)


def bench_env(steps, rules, with_policy):
    """Plays round episodes of seeds 1, 2, ... until steps steps; returns (steps, seconds)."""
    env = GoitaEnv(rules)
    rng = random.Random(1)
    choice, compress = rng.choice, itertools.compress
    observe, action_mask, step = env.observe_bytes, env.action_mask, env.step
    done = episodes = 0
    start = time.perf_counter()
    while done < steps:
        episodes += 1
        env.reset(seed=episodes)
        terminations = env.terminations
        while True:
            agent = env.agent_selection
            if terminations[agent]:
                break
            observe(agent)
            mask = action_mask(agent)
            # The cheapest random policy over the mask, or a fixed one to time the env alone.
            step(choice(list(compress(ACTIONS, mask))) if with_policy else mask.index(1))
            done += 1
    return done, time.perf_counter() - start, episodes


def positions(count, low, high):
    """Rounds dealt from seeds 1, 2, ... and played at random until 12-16 pieces are in hand."""
    out, rng, seed = [], random.Random(7), 0
    while len(out) < count:
        seed += 1
        r = goita.Round.deal(seed, dealer=seed % 4)
        while not r.over and sum(r.sizes) > high:
            r.apply(rng.choice(r.legal_moves()))
        if not r.over and low <= sum(r.sizes) <= high and r.phase == goita.PHASE_PLAY:
            out.append(r)
    return out


def bench_solve(count, table_mb, all_moves, low, high):
    rounds = positions(count, low, high)
    solver = goita.Solver(table_mb=table_mb)
    nodes = 0
    start = time.perf_counter()
    for r in rounds:
        nodes += solver.solve(r, all_moves=all_moves).nodes
    return len(rounds), time.perf_counter() - start, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("env", "solve"))
    ap.add_argument("--steps", type=int, default=500000)
    ap.add_argument("--rules", default="")
    ap.add_argument("--no-policy", action="store_true", help="take the first legal action (the env's cost alone)")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--tt-mb", type=int, default=16)
    ap.add_argument("--pieces", default="12-16", help="pieces in hand (all seats) of the solved positions")
    ap.add_argument("--root-only", action="store_true", help="solve the value only, not every move's")
    args = ap.parse_args()
    if args.what == "env":
        n, s, episodes = bench_env(args.steps, args.rules, not args.no_policy)
        print("env  steps %d  episodes %d  %.3f s  %.1fk steps/s  (observe + action_mask + step%s)"
              % (n, episodes, s, n / s / 1e3, "" if args.no_policy else " + random choice"))
    else:
        low, high = (int(x) for x in args.pieces.split("-"))
        n, s, nodes = bench_solve(args.count, args.tt_mb, not args.root_only, low, high)
        print("solve  positions %d (%s pieces in hand)  %.3f s  %.0f solves/s  %.0f nodes/solve  (%s)"
              % (n, args.pieces, s, n / s, nodes / n, "value only" if args.root_only else "every move's value"))


if __name__ == "__main__":
    main()

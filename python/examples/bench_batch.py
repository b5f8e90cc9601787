#!/usr/bin/env python3
"""Measures goita.batch.BatchEnv on one core: steps per second (wall clock and CPU time) with
random actions drawn in C (step_random), and with random legal actions drawn in numpy from the
mask and passed to step. Seeds are fixed, so runs are comparable.

    GOITA_LIBRARY_PATH=build PYTHONPATH=python python3 python/examples/bench_batch.py --steps 3000000
"""

import argparse
import time

import numpy as np

from goita.batch import BatchEnv


def timed(run, steps, games):
    """Calls run() until steps steps over games games; returns (steps, wall s, CPU s)."""
    calls = -(-steps // games)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        run()
    return calls * games, time.perf_counter() - wall, time.process_time() - cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3000000, help="steps of each measure, over all games")
    ap.add_argument("--games", type=int, default=1024)
    ap.add_argument("--rules", default="", help='rule option text, e.g. "king_face_down=allowed"')
    args = ap.parse_args()

    envs = BatchEnv(args.games, args.rules)
    envs.reset(seed=1)
    done, wall, cpu = timed(envs.step_random, args.steps, args.games)
    print("batch python, actions drawn in C   %d steps  %.3f s  %.2fM steps/s  %.2fM steps/CPU-s"
          % (done, wall, done / wall / 1e6, done / cpu / 1e6))

    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    noise = np.empty(envs.mask.shape, dtype=np.float32)

    def numpy_policy():
        # A uniformly random legal action: legal actions get noise in [1, 2), the others in
        # [0, 1), and the largest wins.
        rng.random(dtype=np.float32, out=noise)
        np.add(noise, envs.mask, out=noise)
        envs.step(noise.argmax(axis=1).astype(np.int32))

    done, wall, cpu = timed(numpy_policy, args.steps, args.games)
    print("batch python, actions from numpy   %d steps  %.3f s  %.2fM steps/s  %.2fM steps/CPU-s"
          % (done, wall, done / wall / 1e6, done / cpu / 1e6))


if __name__ == "__main__":
    main()

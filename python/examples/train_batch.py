#!/usr/bin/env python3
"""Trains a tiny linear agent with the batched environment (goita.batch.BatchEnv) and measures it
against random players, with a 95% confidence interval.

The agent is one step of policy iteration: it learns, by ridge regression, the value of each
action after a random player takes it (Q(s, a) = w_a . features(s), from the round's reward of
the seat that acted), then plays the legal action of highest value. Playing greedily on the
values of the random policy can only improve on it, and it does by a wide margin.

    GOITA_LIBRARY_PATH=build PYTHONPATH=python python3 python/examples/train_batch.py
    ... train_batch.py --train-steps 100000 --eval-episodes 3000 --min-z 4   # seconds: the CTest smoke test

The evaluation plays round episodes: the agent holds seats 0 and 2 (one team), random players
seats 1 and 3. A round's reward is the team's points minus the other team's, times 0.1, so
random against random scores 0 on average. With --min-z Z it exits 1 unless the agent's mean
reward lies more than Z standard errors above 0.
"""

import argparse
import math
import sys
import time

import numpy as np

from goita.batch import NUM_ACTIONS, BatchEnv

KINDS = np.arange(1, 9, dtype=np.uint8)


def features(obs):
    """The agent's view of a position, from the observations (n, 88) -> (n, F) float32: own
    pieces per kind, the kind to answer, pieces in each hand, what lies face-up per kind, the
    phase, and a constant."""
    n = obs.shape[0]
    o = obs.astype(np.float32)
    marks = obs[:, 17:65]
    marks = np.where(marks == 9, 8, marks)
    shown = (marks[:, :, None] == KINDS).sum(axis=1).astype(np.float32)  # face-up pieces per kind
    attack = np.zeros((n, 9), np.float32)
    attack[np.arange(n), obs[:, 69]] = 1.0
    phase = np.zeros((n, 3), np.float32)
    phase[np.arange(n), np.minimum(obs[:, 71], 2)] = 1.0
    return np.concatenate([
        np.ones((n, 1), np.float32),
        o[:, 0:8] / 2.0,            # own hand per kind
        o[:, 8:9],                  # own physical kings
        attack,                     # kind to answer (0: leading)
        o[:, 9:13] / 8.0,           # pieces in each hand, from the agent on
        o[:, 70:71], o[:, 72:73],   # passes, kings face-up
        shown / 4.0,
        phase,
    ], axis=1)


NUM_FEATURES = features(np.zeros((1, 88), np.uint8)).shape[1]


def train(steps, games, seed, ridge=1.0):
    """Plays random games for steps steps and fits one weight vector per action; returns the
    weights (NUM_ACTIONS, F) and the number of samples."""
    envs = BatchEnv(games)
    envs.reset(seed=seed)
    xtx = np.zeros((NUM_ACTIONS, NUM_FEATURES, NUM_FEATURES), np.float64)
    xty = np.zeros((NUM_ACTIONS, NUM_FEATURES), np.float64)
    chunk = []  # (features, actions, rewards) of finished episodes, added up per action now and then

    def add_up():
        x = np.concatenate([c[0] for c in chunk]).astype(np.float64)
        a = np.concatenate([c[1] for c in chunk])
        y = np.concatenate([c[2] for c in chunk]).astype(np.float64)
        for action in np.unique(a):
            xa, ya = x[a == action], y[a == action]
            xtx[action] += xa.T @ xa
            xty[action] += xa.T @ ya
        chunk.clear()

    # Each game's moves of the current episode, until its reward is known (a round has at most
    # 64 moves).
    limit = 64
    pend_phi = np.zeros((games, limit, NUM_FEATURES), np.float32)
    pend_act = np.zeros((games, limit), np.int64)
    pend_seat = np.zeros((games, limit), np.int64)
    count = np.zeros(games, np.int64)
    rows = np.arange(games)
    samples = pending = 0
    for _ in range(-(-steps // games)):
        phi = features(envs.obs)
        seat = envs.seat.astype(np.int64)
        actions = envs.step_random()
        pend_phi[rows, count], pend_act[rows, count], pend_seat[rows, count] = phi, actions, seat
        count += 1
        done = np.flatnonzero(envs.terminated)
        if done.size:
            valid = np.arange(limit)[None, :] < count[done][:, None]
            rewards = np.take_along_axis(envs.rewards[done], pend_seat[done], axis=1)
            chunk.append((pend_phi[done][valid], pend_act[done][valid], rewards[valid]))
            pending += int(valid.sum())
            count[done] = 0
            if pending > 100000:
                samples += pending
                pending = 0
                add_up()
    if chunk:
        samples += pending
        add_up()
    eye = ridge * np.eye(NUM_FEATURES)
    weights = np.stack([np.linalg.solve(xtx[a] + eye, xty[a]) for a in range(NUM_ACTIONS)])
    return weights.astype(np.float32), samples


def evaluate(weights, episodes, games, seed):
    """Plays round episodes (at least `episodes`, as many in each game), the agent in seats 0
    and 2 against random players; returns the rewards of the agent's team, one per episode."""
    envs = BatchEnv(games)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    # The same number of episodes from every game: stopping at the first `episodes` to end
    # would favour short rounds.
    per_game = -(-episodes // games)
    played = np.zeros(games, np.int64)
    returns = []
    while played.min() < per_game:
        mask = envs.mask.astype(bool)
        values = np.einsum("nf,af->na", features(envs.obs), weights)
        greedy = np.where(mask, values, -np.inf).argmax(axis=1)
        noise = rng.random(mask.shape, dtype=np.float32) + mask
        random_choice = noise.argmax(axis=1)
        agent = envs.seat % 2 == 0
        envs.step(np.where(agent, greedy, random_choice).astype(np.int32))
        done = np.flatnonzero(envs.terminated)
        done = done[played[done] < per_game]
        played[done] += 1
        returns.extend(envs.rewards[done, 0].tolist())
    return np.array(returns, np.float64)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train-steps", type=int, default=3000000, help="random-play steps to learn from")
    ap.add_argument("--eval-episodes", type=int, default=50000, help="rounds against random players")
    ap.add_argument("--games", type=int, default=1024, help="games stepped at once")
    ap.add_argument("--seed", type=int, default=1, help="seed of the training games (evaluation: seed + 10^9)")
    ap.add_argument("--min-z", type=float, default=None,
                    help="exit 1 unless the mean reward is more than this many standard errors above 0")
    args = ap.parse_args()

    start = time.perf_counter()
    weights, samples = train(args.train_steps, args.games, args.seed)
    trained = time.perf_counter()
    returns = evaluate(weights, args.eval_episodes, args.games, args.seed + 10 ** 9)
    mean = returns.mean()
    se = returns.std(ddof=1) / math.sqrt(len(returns))
    wins = (returns > 0).mean()
    print("trained on %d samples in %.1f s; evaluated %d rounds in %.1f s"
          % (samples, trained - start, len(returns), time.perf_counter() - trained))
    print("linear agent vs random: mean reward %+.3f per round, 95%% CI [%+.3f, %+.3f], z = %.1f; "
          "rounds won %.1f%% (random vs random: 0 on average)"
          % (mean, mean - 1.96 * se, mean + 1.96 * se, mean / se, 100 * wins))
    if args.min_z is not None and not mean > args.min_z * se:
        print("FAIL: the agent does not beat random by %.1f standard errors" % args.min_z)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

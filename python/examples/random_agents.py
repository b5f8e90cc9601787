#!/usr/bin/env python3
"""Random agents in goita.env.GoitaEnv: N seeded episodes, the mean reward per team.

    GOITA_LIBRARY_PATH=build PYTHONPATH=python python3 python/examples/random_agents.py --episodes 1000
"""

import argparse
import random
import time

from goita.env import NUM_ACTIONS, GoitaEnv


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1, help="seed of episode 0 (episode i uses seed + i)")
    ap.add_argument("--rules", default="", help='rule option text, e.g. "king_face_down=allowed"')
    ap.add_argument("--episode", choices=("round", "game"), default="round", help="one round or a whole game")
    args = ap.parse_args()

    env = GoitaEnv(rules=args.rules, episode=args.episode)
    rng = random.Random(args.seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    start = time.perf_counter()
    for i in range(args.episodes):
        env.reset(seed=args.seed + i)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            total[agent] += reward  # what the agent earned since it last acted
            if termination or truncation:
                action = None
            else:
                mask = env.action_mask(agent)
                action = rng.choice([a for a in range(NUM_ACTIONS) if mask[a]])
                steps += 1
            env.step(action)
    seconds = time.perf_counter() - start
    sides = {}
    for s, agent in enumerate(env.possible_agents):
        sides.setdefault(env.rules.side_of(s), []).append(agent)
    for side, agents in sorted(sides.items()):
        mean = sum(total[a] for a in agents) / len(agents) / args.episodes
        print("side %d (%s): mean reward %+.3f per episode" % (side, " ".join(agents), mean))
    print("%d episodes, %d steps in %.2f s (%.0f steps/s with last() observing each step)"
          % (args.episodes, steps, seconds, steps / seconds))


if __name__ == "__main__":
    main()

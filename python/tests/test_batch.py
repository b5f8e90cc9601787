"""goita.batch.BatchEnv: the same observations, masks and rewards as goita.env.GoitaEnv for the
same seeds and actions, arrays written in place, seeding per game, and clear errors."""

import os
import random
import subprocess
import sys

import pytest

import goita
from goita import env as single
from goita.batch import NUM_ACTIONS, OBS_SIZE, BatchEnv

np = pytest.importorskip("numpy")


def _single_obs(env, agent):
    """The single environment's observation and mask of agent, as bytes (it gives bytes, or a
    dict of numpy arrays with the mask inside)."""
    obs = env.observe(agent)
    if isinstance(obs, dict):
        return bytes(np.asarray(obs["observation"], dtype=np.uint8)), bytes(np.asarray(obs["action_mask"], dtype=np.uint8))
    return bytes(obs), bytes(env.action_mask(agent))


@pytest.mark.parametrize("rules,episode", [("", "round"), ("", "game"), ("players=3", "round"), ("players=2", "game"),
                                           ("king_face_down=allowed,goshi_decision=holder_and_partner", "round")])
def test_the_batch_shows_what_the_single_environment_shows(rules, episode):
    n = 6
    batch = BatchEnv(n, rules, episode)
    batch.reset(seed=[11 * i + 3 for i in range(n)])
    envs = [single.GoitaEnv(rules, episode) for _ in range(n)]
    # Episode sums of each seat's rewards: a round decided at a game's first deal may be paid
    # by the single environment's reset or with its first step, by the batch with the first step.
    single_sum = np.zeros((n, 4))
    batch_sum = np.zeros((n, 4))

    def start(i):
        envs[i].reset(seed=batch.game(i).seed)
        single_sum[i] = [envs[i].rewards.get(a, 0.0) for a in envs[i].possible_agents] + [0.0] * (4 - envs[i].players)
        batch_sum[i] = 0

    for i in range(n):
        start(i)
    rng = random.Random(5)
    compared = episodes = 0
    for step in range(400):
        actions = []
        for i, env in enumerate(envs):
            agent = env.agent_selection
            obs, mask = _single_obs(env, agent)
            assert agent == "seat_%d" % batch.seat[i], (step, i)
            assert bytes(batch.obs[i]) == obs, (step, i)
            assert bytes(batch.mask[i]) == mask, (step, i)
            compared += 1
            actions.append(rng.choice([a for a in range(NUM_ACTIONS) if mask[a]]))
        batch.step(np.array(actions, dtype=np.int32))
        for i, env in enumerate(envs):
            env.step(actions[i])
            ended = all(env.terminations.get(a, True) for a in env.possible_agents)
            assert bool(batch.terminated[i]) == ended, (step, i)
            for s, a in enumerate(env.possible_agents):
                single_sum[i][s] += env.rewards.get(a, 0.0)
                if episode == "round":
                    assert batch.rewards[i][s] == pytest.approx(env.rewards.get(a, 0.0), abs=1e-5), (step, i, s)
            batch_sum[i] += batch.rewards[i]
            if ended:
                episodes += 1
                assert batch_sum[i] == pytest.approx(single_sum[i], abs=1e-4), (step, i)
                start(i)
    assert compared == 400 * n
    assert episodes >= (50 if episode == "round" else 3)


def test_arrays_are_numpy_views_written_in_place():
    batch = BatchEnv(5)
    obs, mask, rewards = batch.obs, batch.mask, batch.rewards
    assert (obs.shape, obs.dtype) == ((5, OBS_SIZE), np.uint8)
    assert (mask.shape, mask.dtype) == ((5, NUM_ACTIONS), np.uint8)
    assert (rewards.shape, rewards.dtype) == ((5, 4), np.float32)
    assert batch.terminated.shape == (5,) and batch.seat.dtype == np.int8
    batch.reset(seed=1)
    before = obs.copy()
    legal = mask.copy()
    actions = batch.step_random()
    assert all(legal[i, a] for i, a in enumerate(actions))
    assert batch.obs is obs and not np.array_equal(before, obs)
    assert mask.sum(axis=1).min() >= 1


def test_each_game_follows_its_own_seed():
    a, b = BatchEnv(4), BatchEnv(2)
    a.reset(seed=[7, 8, 9, 10])
    b.reset(seed=[9, 7])
    c = BatchEnv(4)
    c.reset(seed=7)  # 7, 8, 9, 10
    for _ in range(200):
        acts = a.step_random()
        b.step_random()
        c.step(acts)
        assert np.array_equal(a.obs[2], b.obs[0]) and np.array_equal(a.obs[0], b.obs[1])
        assert np.array_equal(a.obs, c.obs) and np.array_equal(a.rewards, c.rewards)
    assert not np.array_equal(a.obs[0], a.obs[1])


def test_wrong_calls_say_what_is_wrong():
    batch = BatchEnv(3)
    with pytest.raises(ValueError, match="reset"):
        batch.step_random()
    batch.reset(seed=2)
    legal = [int(np.flatnonzero(batch.mask[i])[0]) for i in range(3)]
    illegal = int(np.flatnonzero(batch.mask[1] == 0)[0])
    before = batch.obs.copy()
    with pytest.raises(goita.IllegalMove, match="game 1"):
        batch.step([legal[0], illegal, legal[2]])
    assert np.array_equal(before, batch.obs)
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(legal[:2])
    with pytest.raises(TypeError, match="integers"):
        batch.step([3.0, 3.0, 3.0])
    with pytest.raises(ValueError, match="0..66"):
        batch.step(np.array([legal[0], legal[1], 2 ** 32 + legal[2]], dtype=np.int64))
    with pytest.raises(ValueError, match="one seed per game"):
        batch.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="episode"):
        BatchEnv(2, episode="match")
    with pytest.raises(ValueError, match="num_games"):
        BatchEnv(0)
    with pytest.raises(goita.UnknownOption):
        BatchEnv(2, rules="players=4,kingattack=a_or_b")
    batch.step(legal)
    batch.close()
    with pytest.raises(ValueError, match="closed"):
        batch.step(legal)


def test_without_numpy_the_arrays_are_memoryviews():
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from goita.batch import BatchEnv\n"
            "b = BatchEnv(3); b.reset(seed=4)\n"
            "for _ in range(50):\n"
            "    acts = list(b.step_random())\n"
            "b.step([[a for a in range(67) if b.mask[i, a]][0] for i in range(3)])\n"
            "assert isinstance(b.obs, memoryview) and b.obs.shape == (3, 88) and b.rewards.format == 'f'\n"
            "print(sum(b.obs.tolist()[0]) > 0, b.seat[0] in range(4))\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(goita.__file__)))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]

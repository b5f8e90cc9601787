"""GoitaEnv against PettingZoo's AEC contract, clause by clause, as PettingZoo documents it
(the AEC API page and the checks of pettingzoo.test.api_test and seed_test; the classic games
are the model). PettingZoo itself is not needed: each clause is written out here."""

import copy
import pickle
import random
import subprocess
import sys

import pytest

import goita
from goita.env import NUM_ACTIONS, OBS_FIELDS, OBS_SIZE, GoitaEnv

np = pytest.importorskip("numpy")

# Teyaku is on by default with 4 players only; target=50 lets a first deal win the game.
CONFIGS = [("", "round"), ("", "game"), ("target=50", "game"), ("players=3,teyaku=on", "round"),
           ("players=3,teyaku=on", "game"), ("players=2,teyaku=on", "game")]


def choose(env, agent, obs, rng):
    """A random legal action from the observation's own mask (as api_test does)."""
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def deal_decided_seeds(rules, count):
    """Seeds whose first round is decided at the deal (teyaku or double 5 pawns)."""
    seeds = [s for s in range(6000) if goita.Game(rules, seed=s).round.over][:count]
    assert seeds, "no deal-decided first round in 6000 seeds"
    return seeds


@pytest.mark.parametrize("rules,episode", CONFIGS)
def test_rewards_hold_the_last_step_only(rules, episode):
    """api_test's play_test: summing env.rewards after every step (the dead steps too) gives,
    for each agent, what last() returns when its turn comes; the dicts' keys are the agents."""
    env = GoitaEnv(rules, episode)
    rng = random.Random(1)
    seeds = list(range(25)) + deal_decided_seeds(rules, 5)
    for seed in seeds:
        env.reset(seed=seed)
        accumulated = dict.fromkeys(env.agents, 0.0)
        finished = set()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert reward == pytest.approx(accumulated[agent], abs=1e-9), (seed, agent)
            accumulated[agent] = 0.0
            assert agent not in finished
            if term or trunc:
                finished.add(agent)
                action = None
            else:
                action = choose(env, agent, obs, rng)
            assert env.step(action) is None
            for a, r in env.rewards.items():
                accumulated[a] += r
            for d in (env.rewards, env.terminations, env.truncations, env.infos):
                assert set(d) == set(env.agents)
            assert env.num_agents == len(env.agents)
        assert finished == set(env.possible_agents)


@pytest.mark.parametrize("rules,episode", CONFIGS)
def test_no_agent_is_terminated_after_reset(rules, episode):
    env = GoitaEnv(rules, episode)
    for seed in range(1500):
        env.reset(seed=seed)
        assert env.agents == env.possible_agents
        assert not any(env.terminations.values()) and not any(env.truncations.values()), seed
        assert not any(env.rewards.values()) and not any(env._cumulative_rewards.values()), seed
        assert env.round().phase != goita.PHASE_OVER


def test_a_game_pays_a_deal_decided_round_in_the_first_step():
    env = GoitaEnv("", "game", reward_scale=1.0)
    paid = 0
    for seed in deal_decided_seeds("", 10):
        game = goita.Game("", seed=seed)
        if game.over:
            continue  # a first deal that wins the game is replaced, as in round episodes
        env.reset(seed=seed)
        assert env.scores == game.scores  # scored at the deal (observations show it) ...
        assert env.infos["seat_0"]["result"] == game.round.result
        assert env.round().phase != goita.PHASE_OVER  # ... the next round is dealt ...
        agent = env.agent_selection
        env.step(choose(env, agent, env.observe(agent), random.Random(0)))
        own = game.scores[0] - game.scores[1]  # ... and paid with the first step's rewards
        assert env.rewards == {"seat_0": own, "seat_1": -own, "seat_2": own, "seat_3": -own}
        paid += own != 0
    assert paid


@pytest.mark.parametrize("rules,episode", [("", "round"), ("players=3,teyaku=on", "round"),
                                           ("players=2,teyaku=on", "round"), ("target=50", "game")])
def test_an_episode_replaces_a_deal_that_would_end_it(rules, episode):
    """The documented redeal: the same dealer, hands of goita_round_deal with the seed
    goita_seed_mix(seed + k) for k = 1, 2, ... until a deal leaves the round to play."""
    env = GoitaEnv(rules, episode)
    for seed in deal_decided_seeds(rules, 5):
        game = goita.Game(rules, seed=seed)
        if episode == "game" and not game.over:
            continue
        env.reset(seed=seed)
        k = 1
        while True:
            redealt = goita.Round.deal(goita.env.redeal_seed(seed, k), game.round.dealer, rules)
            if not redealt.over:
                break
            k += 1
        assert env.round().hands == redealt.hands and env.round().dealer == game.round.dealer
        assert env.scores == [0] * env.rules.sides


def test_spaces_are_stable_seeded_objects():
    env = GoitaEnv()
    env.reset(seed=4)
    agent = env.agent_selection
    obs_space, act_space = env.observation_space(agent), env.action_space(agent)
    assert obs_space is env.observation_space(agent) and act_space is env.action_space(agent)
    assert env.observation_spaces[agent] is obs_space and env.action_spaces[agent] is act_space
    obs = env.observe(agent)
    mask = obs["action_mask"]
    assert obs_space.contains(obs) and act_space.contains(int(np.flatnonzero(mask)[0]))
    assert not act_space.contains(NUM_ACTIONS) and not act_space.contains(-1)
    bad = {"observation": obs["observation"], "action_mask": np.full(NUM_ACTIONS, 2, np.int8)}
    assert not obs_space.contains(bad)
    legal = set(np.flatnonzero(mask).tolist())
    act_space.seed(7)
    first = [act_space.sample(mask) for _ in range(400)]
    assert set(first) <= legal and len(set(first)) == len(legal)
    act_space.seed(7)
    assert [act_space.sample(mask) for _ in range(400)] == first
    assert obs_space.contains(obs_space.sample())


def test_spaces_are_gymnasium_spaces_when_gymnasium_is_there():
    gymnasium = pytest.importorskip("gymnasium")
    env = GoitaEnv()
    assert isinstance(env.action_space("seat_0"), gymnasium.spaces.Discrete)
    assert isinstance(env.observation_space("seat_0"), gymnasium.spaces.Dict)


def test_observations_are_dicts_of_numpy_arrays():
    env = GoitaEnv()
    env.reset(seed=5)
    agent = env.agent_selection
    obs = env.observe(agent)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].dtype == np.uint8 and obs["observation"].shape == (OBS_SIZE,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
    assert bytes(obs["observation"]) == env.observe_bytes(agent)
    assert bytes(obs["action_mask"].astype(np.uint8)) == env.action_mask(agent)
    assert env.last()[0]["observation"].tolist() == obs["observation"].tolist()
    assert env.last(observe=False)[0] is None


def test_observations_are_bytes_without_numpy():
    """A Python that cannot import numpy (None in sys.modules makes the import fail)."""
    code = ("import sys; sys.modules['numpy'] = None; sys.modules['gymnasium'] = None\n"
            "from goita.env import GoitaEnv\n"
            "env = GoitaEnv(); env.reset(seed=5); a = env.agent_selection; o = env.observe(a)\n"
            "assert type(o['observation']) is bytes and type(o['action_mask']) is bytes, o\n"
            "assert env.observation_space(a).contains(o)\n"
            "env.action_space(a).seed(1); assert o['action_mask'][env.action_space(a).sample(o['action_mask'])]\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=_child_env(), check=False)
    assert out.stdout.strip() == "ok", out.stderr


def _child_env():
    import os
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(goita.__file__))
    return env


def test_clear_errors_before_reset_and_after_the_end():
    env = GoitaEnv()
    for call in (lambda: env.step(0), lambda: env.last(), lambda: env.agent_selection,
                 lambda: list(env.agent_iter())):
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            call()
    env.reset(seed=1)
    rng = random.Random(1)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else choose(env, agent, obs, rng))
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), lambda: env.last()):
        with pytest.raises(RuntimeError, match="over"):
            call()
    assert list(env.agent_iter()) == []
    with pytest.raises(ValueError, match="seat_9"):
        env.observe("seat_9")


def test_non_integer_actions_are_refused():
    env = GoitaEnv()
    env.reset(seed=2)
    agent = env.agent_selection
    action = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    before = env.render()
    for bad in (float(action), True, str(action), np.float64(action), [action], None):
        with pytest.raises((TypeError, ValueError), match="action"):
            env.step(bad)
    assert env.render() == before
    env.step(np.int32(action))  # numpy integers are integers (api_test's test_action_flexibility)
    assert env.render() != before


def play_from(env, actions_rng_seed):
    """Plays env to its end from where it is; returns everything seen."""
    rng = random.Random(actions_rng_seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else choose(env, agent, obs, rng)
        trace.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), reward, term,
                      dict(env.rewards), repr(info), action))
        env.step(action)
    return trace


@pytest.mark.parametrize("episode", ["round", "game"])
def test_state_clone_pickle_and_deepcopy_restore_an_episode(episode):
    env = GoitaEnv("players=3" if episode == "game" else "", episode)
    for seed, cut in ((3, 7), (11, 40), (12, 0)):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(cut):
            agent = env.agent_selection
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else choose(env, agent, obs, rng))
            if not env.agents:
                break
        state = env.state()
        copies = [env.clone(), pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
        expected = play_from(env, seed)
        for other in copies:
            assert play_from(other, seed) == expected
        env.restore(state)
        assert play_from(env, seed) == expected
        fresh = GoitaEnv(env.rules, episode)
        fresh.restore(state)
        assert play_from(fresh, seed) == expected
    with pytest.raises(ValueError, match="rules"):
        GoitaEnv("players=2").restore(state)


def score_field(obs):
    offset, length = OBS_FIELDS["score"]
    return obs["observation"][offset:offset + length].tolist()


@pytest.mark.parametrize("rules", ["", "players=3"])
def test_every_observation_shows_the_current_score(rules):
    env = GoitaEnv(rules, "game")
    for seed in range(4):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            seat = env.possible_agents.index(agent)
            side = env.rules.side_of(seat)
            sides = env.rules.sides
            want = [min(255, env.scores[(side + r) % sides] // 10) for r in range(sides)]
            assert score_field(obs)[:sides] == want, (seed, agent)
            if term:
                assert max(env.scores) >= env.rules.target
            env.step(None if term or trunc else choose(env, agent, obs, rng))

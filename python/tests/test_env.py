"""goita.env.GoitaEnv: determinism, masks, the observation's encoding, hidden information,
rewards and the AEC protocol."""

import ctypes
import random

import pytest

import goita
from goita.env import (NUM_ACTIONS, OBS_FIELDS, OBS_SIZE, GoitaEnv, action_move, move_action)


def field(obs, name):
    offset, length = OBS_FIELDS[name]
    return list(obs[offset:offset + length])


def play(env, seed, rng_seed=0, check=None):
    """Random play of one episode; returns what every step saw."""
    rng = random.Random(rng_seed)
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last(observe=False)
        obs = env.observe_bytes(agent)
        if term or trunc:
            trace.append((agent, obs, reward))
            env.step(None)
            continue
        mask = env.action_mask(agent)
        if check:
            check(env, agent, obs, mask)
        action = rng.choice([a for a in range(NUM_ACTIONS) if mask[a]])
        trace.append((agent, obs, mask, action, dict(env.rewards)))
        env.step(action)
    return trace


@pytest.mark.parametrize("rules,episode", [("", "round"), ("", "game"), ("players=3", "round"),
                                           ("players=2", "game"), ("king_face_down=allowed,goshi_decision=holder_and_partner", "round")])
def test_the_same_seed_gives_the_same_episode(rules, episode):
    a, b = GoitaEnv(rules, episode), GoitaEnv(rules, episode)
    for seed in range(5):
        assert play(a, seed, 1) == play(b, seed, 1)
    assert play(a, 1, 1) != play(a, 2, 1)


def test_observations_are_fixed_size_bytes():
    env = GoitaEnv()
    env.reset(seed=3)
    obs = env.observe_bytes(env.agent_selection)
    assert isinstance(obs, bytes) and len(obs) == OBS_SIZE
    assert env.observation_space("seat_0")["observation"].shape == (OBS_SIZE,)
    assert env.action_space("seat_0").n == NUM_ACTIONS
    assert list(env.observe_float("seat_1")) == list(env.observe_bytes("seat_1"))
    assert OBS_SIZE == max(o + n for o, n in OBS_FIELDS.values())


def check_masks(env, agent, obs, mask):
    round = env.round()
    assert env.possible_agents[round.turn] == agent
    assert {move_action(m) for m in round.legal_moves()} == {a for a in range(NUM_ACTIONS) if mask[a]}
    for other in env.agents:
        if other != agent:
            assert not any(env.action_mask(other))


@pytest.mark.parametrize("rules", ["", "players=3", "players=2", "king_face_down=allowed,king_attack=a_or_b"])
def test_masks_are_exactly_the_legal_moves(rules):
    env = GoitaEnv(rules, episode="game")
    for seed in range(3):
        play(env, seed, seed, check_masks)


def test_actions_and_moves_correspond():
    for a in range(NUM_ACTIONS):
        assert move_action(action_move(a, 2)) == a
    assert str(action_move(3 + 8 * 0 + 2, 0)) == "113"


def check_encoding(env, agent, obs, mask):
    seat = env.possible_agents.index(agent)
    view = env.view(agent)
    n = env.players
    assert field(obs, "hand") == view.hand
    assert field(obs, "hand_size")[:n] == [view.sizes[(seat + r) % n] for r in range(n)]
    rows = view.rows
    for r in range(n):
        s = (seat + r) % n
        blocks = field(obs, "block_row")[6 * r:6 * r + 6]
        attacks = field(obs, "attack_row")[6 * r:6 * r + 6]
        assert [(b, a) for b, a in zip(blocks, attacks)][:len(rows[s])] == rows[s]
    assert field(obs, "turn") == [0]  # the agent to move observes its own turn
    assert field(obs, "attack") == [view.attack] and field(obs, "phase") == [view.phase]
    attacker = view.attacker
    assert field(obs, "attacker") == [255 if attacker < 0 else (attacker - seat) % n]
    assert field(obs, "dealer") == [(view.dealer - seat) % n]


def test_the_encoding_follows_the_view():
    env = GoitaEnv(episode="game")
    play(env, 8, 8, check_encoding)
    env3 = GoitaEnv("players=3")
    for seed in range(3):
        play(env3, seed, seed, check_encoding)


def check_hidden(env, agent, obs, mask):
    """Every other agent's observation and mask stay the same when the pieces it cannot see
    are dealt again (goita_view_sample: a full round with the same view for that seat)."""
    game_round = env._game.round
    saved = bytes(game_round)
    for viewer in env.agents:
        before = (env.observe_bytes(viewer), env.action_mask(viewer))
        for k in range(3):
            other = env.view(viewer).sample(seed=k + 1)
            ctypes.memmove(ctypes.addressof(game_round), ctypes.addressof(other._c), ctypes.sizeof(other._c))
            env._vstep = -1  # forget the cached view
            assert (env.observe_bytes(viewer), env.action_mask(viewer)) == before
            check_hidden.redealt += bytes(other._c) != saved
        ctypes.memmove(ctypes.addressof(game_round), saved, len(saved))
        env._vstep = -1


def test_an_observation_shows_nothing_of_what_the_agent_cannot_see():
    check_hidden.redealt = 0
    for rules in ("", "king_face_down=allowed", "players=3"):
        env = GoitaEnv(rules)
        for seed in range(4):
            play(env, seed, seed, check_hidden)
    assert check_hidden.redealt > 100  # the re-deals did change the hidden pieces


def test_rewards_are_team_points_and_zero_sum():
    env = GoitaEnv()
    seen = 0
    for seed in range(30):
        trace = play(env, seed, seed)
        final = {t[0]: t[2] for t in trace if len(t) == 3}
        assert abs(sum(final.values())) < 1e-9
        assert final["seat_0"] == final["seat_2"] == -final["seat_1"]
        result = env.infos  # emptied as agents leave
        assert result == {}
        seen += final["seat_0"] != 0
    assert seen > 20


def test_a_game_episode_plays_to_the_target():
    env = GoitaEnv(episode="game", reward_scale=1.0)
    trace = play(env, 5, 5)
    totals = {}
    for t in trace:
        if len(t) == 3:
            totals[t[0]] = t[2]
    steps = [t for t in trace if len(t) == 5]
    rewards_seen = sum(t[4]["seat_0"] for t in steps) + totals["seat_0"]
    assert max(env.scores) >= 150
    diff = env.scores[0] - env.scores[1]
    assert rewards_seen == pytest.approx(diff)


def test_illegal_and_bad_actions_raise_and_change_nothing():
    env = GoitaEnv()
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.action_mask(agent)
    illegal = next(a for a in range(NUM_ACTIONS) if not mask[a])
    before = env.render()
    with pytest.raises(goita.GoitaError) as e:
        env.step(illegal)
    assert e.value.message
    for bad in (-1, NUM_ACTIONS, "3", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.render() == before and env.agent_selection == agent


def test_a_five_pawn_decision_is_an_action():
    env = GoitaEnv()
    for seed in range(2000):
        env.reset(seed=seed)
        if field(env.observe_bytes(env.agent_selection), "phase") == [goita.PHASE_DECIDE]:
            break
    else:
        pytest.fail("no 5-pawn deal in 2000 seeds")
    mask = env.action_mask(env.agent_selection)
    assert [a for a in range(NUM_ACTIONS) if mask[a]] == [1, 2]
    obs = env.observe_bytes(env.agent_selection)
    assert field(obs, "goshi") != [0] and field(obs, "deciders") == [1]

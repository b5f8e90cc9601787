"""goita.env's information-state encoding: a function of the information set (what the seat
has seen), and different information sets never share an encoding."""

import random

import pytest

from goita.env import NUM_ACTIONS, GoitaEnv
from goita.infostate import INFO_FIELDS, INFO_SIZE


def information_sets(env, seed, playouts):
    """(encoding, information set) of every agent at every step of many random playouts of
    the same deal, so that histories share long prefixes and differ by single moves. The
    information set is the seat, its view (compared with goita_view_same), the scores and
    the round index."""
    for playout in range(playouts):
        rng = random.Random(playout)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last(observe=False)
            for viewer in env.agents:
                view = env.view(viewer)
                yield bytes(env.information_state(viewer)), (viewer, view)
            if term or trunc:
                env.step(None)
            else:
                mask = env.action_mask(agent)
                env.step(rng.choice([a for a in range(NUM_ACTIONS) if mask[a]]))


def same_information_set(a, b):
    (seat_a, view_a), (seat_b, view_b) = a, b
    return (seat_a == seat_b and view_a.same(view_b) and view_a.scores == view_b.scores
            and view_a.round_index == view_b.round_index)


@pytest.mark.parametrize("rules,episode", [("", "game"), ("king_face_down=allowed", "round"),
                                           ("players=3", "round")])
def test_different_information_sets_never_share_an_encoding(rules, episode):
    env = GoitaEnv(rules, episode)
    by_encoding, by_history = {}, {}
    count = 0
    for seed in (1, 2, 46):
        for encoding, info in information_sets(env, seed, 25):
            count += 1
            assert len(encoding) == INFO_SIZE
            first = by_encoding.setdefault(encoding, info)
            assert same_information_set(first, info), (first[1], info[1])
            # ... and the same information set always gets the same encoding.
            key = (info[0], info[1].history(), tuple(info[1].scores), info[1].round_index)
            assert by_history.setdefault(key, encoding) == encoding
    assert count > 4000 and len(by_encoding) > 1000


def test_the_encoding_shows_nothing_the_seat_cannot_see():
    """Dealing again the pieces a seat cannot see (goita_view_sample) leaves its encoding."""
    env = GoitaEnv()
    env.reset(seed=9)
    rng = random.Random(9)
    changed = 0
    while not env.terminations[env.agent_selection]:
        for viewer in env.agents:
            before = bytes(env.information_state(viewer))
            seat = env.possible_agents.index(viewer)
            for k in range(3):
                other = env.view(viewer).sample(seed=k + 1)
                changed += other.hands != env.round().hands
                assert encode_of(other.view(seat), env) == before
        mask = env.action_mask(env.agent_selection)
        env.step(rng.choice([a for a in range(NUM_ACTIONS) if mask[a]]))
    assert changed > 50


def encode_of(view, env):
    """The encoding of a round view carrying the game's scores and round index."""
    from goita import infostate
    c = view._c
    c.score[:] = env._game.score[:]
    c.round_index = env._game.round_index
    return infostate.encode(c)


def test_the_layout_covers_the_encoding():
    ends = sorted((offset, offset + length) for offset, length in INFO_FIELDS.values())
    assert ends[0][0] == 0 and ends[-1][1] == INFO_SIZE
    assert all(a[1] == b[0] for a, b in zip(ends, ends[1:]))

"""A seeded multi-agent Goita environment in the style of PettingZoo's AEC API, with no
third-party package.

    env = GoitaEnv(rules="king_face_down=allowed")      # episode="round" or "game"
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = env.action_mask(agent)
            action = random.choice([a for a in range(NUM_ACTIONS) if mask[a]])
        env.step(action)

Observations and masks come only from the C library's view of the observing seat
(goita_game_view, goita_view_legal_moves), so they cannot hold another seat's hidden pieces.
An observation is OBS_SIZE bytes (unsigned, bytes object) laid out as OBS_LAYOUT says, every
seat counted relative to the observer (0 = the observer, 1 = next in turn, ...); the
encoding, the action layout and the rewards are documented in docs/PYTHON.md.

The hot path keeps the game in a preallocated ctypes struct and builds each observation
with a handful of bytes.translate() gathers over the view's bytes, so one step with observe
and action_mask costs a few microseconds.
"""

import array
import ctypes
import os
from typing import NamedTuple

from . import _lib
from .errors import raise_for
from .move import GO, PASS, PLAY, REDEAL, Move
from .round import PHASE_OVER, Round, RoundResult, _result
from .rules import as_rules

# ---------------------------------------------------------------------------------------------
# Actions: 0 pass, 1 redeal, 2 play on (the 5-pawn decisions), then every (block, attack) pair
# of kinds: 3 + 8 * (block - 1) + (attack - 1), kinds 1 (pawn) ... 8 (king).

ACTION_PASS, ACTION_REDEAL, ACTION_GO, ACTION_PLAY0 = 0, 1, 2, 3
NUM_ACTIONS = 3 + 8 * 8


def play_action(block, attack):
    """The action of a play: block and attack are kinds (or marks; 9 counts as the king 8)."""
    return ACTION_PLAY0 + 8 * (min(block, 8) - 1) + (min(attack, 8) - 1)


def action_move(action, seat):
    """The Move an action stands for when seat makes it."""
    if action == ACTION_PASS:
        return Move(PASS, seat)
    if action in (ACTION_REDEAL, ACTION_GO):
        return Move(REDEAL if action == ACTION_REDEAL else GO, seat)
    if not ACTION_PLAY0 <= action < NUM_ACTIONS:
        raise ValueError("action %r is not in 0..%d" % (action, NUM_ACTIONS - 1))
    b, a = divmod(action - ACTION_PLAY0, 8)
    return Move(PLAY, seat, b + 1, a + 1)


def move_action(move):
    """The action of a Move."""
    if move.type == PLAY:
        return play_action(move.block, move.attack)
    return {PASS: ACTION_PASS, REDEAL: ACTION_REDEAL, GO: ACTION_GO}[move.type]


# A move's code, one byte: 16 * block + attack + type (a play's block is at least 1, so codes
# of plays, 17..137, never meet those of pass 0, redeal 2 and play-on 3). _ACTION_CODE[a] is
# the code of action a; the mask is built by marking the legal codes in a 256-byte table
# (bytes.maketrans) and gathering it in action order (bytes.translate): no Python loop.
_ACTION_CODE = bytes([0, REDEAL, GO] + [16 * b + a + PLAY for b in range(1, 9) for a in range(1, 9)])
_MARK = b"\xff" * _lib.MAX_LEGAL
_IS_MARKED = bytes(255) + b"\x01"
_NO_ACTIONS = bytes(NUM_ACTIONS)

# ---------------------------------------------------------------------------------------------
# Observations: OBS_LAYOUT lists (name, offset, length) of each field.

OBS_LAYOUT = (
    ("hand", 0, 8),              # own pieces per kind 1..8 (pawn .. king)
    ("kings", 8, 1),             # own physical kings: bit 0 王, bit 1 玉
    ("hand_size", 9, 4),         # pieces in hand, per relative seat
    ("plays", 13, 4),            # plays made (pairs placed), per relative seat
    ("block_row", 17, 24),       # 6 per relative seat: marks 1-9, 0 = empty or face-down unseen
    ("attack_row", 41, 24),      # 6 per relative seat: marks 1-9, 0 = empty
    ("face_down", 65, 4),        # per relative seat: bit i = block i was placed face-down
    ("attack", 69, 1),           # kind to answer, 0 when the seat to move leads (or no play)
    ("passes", 70, 1),           # passes since the last attack
    ("phase", 71, 1),            # 0 five-pawn decision, 1 play, 2 over
    ("kings_up", 72, 1),         # kings face-up on the table
    ("face_down_count", 73, 4),  # face-down pieces per relative seat
    ("turn", 77, 1),             # relative seat to move
    ("attacker", 78, 1),         # relative seat of the last attack, 255 when none
    ("dealer", 79, 1),           # relative seat of the dealer
    ("goshi", 80, 1),            # bit r: relative seat r showed 5 pawns
    ("deciders", 81, 1),         # bit r: relative seat r still has to decide
    ("redeal_votes", 82, 1),     # bit r: relative seat r chose redeal
    ("go_votes", 83, 1),         # bit r: relative seat r chose to play on
    ("score", 84, 4),            # game score per relative side, in tens of points (capped at 255)
)
OBS_SIZE = 88
OBS_FIELDS = {name: (offset, length) for name, offset, length in OBS_LAYOUT}

_V = _lib.goita_view
_WIN = _V.seat.offset   # the 256-byte window of the view every gather reads
_ZERO = _V.hand.offset  # hand[0] is always 0: the byte that fills absent seats


def _at(field, *index):
    """Offset in the window of a view field (with indexes into its arrays)."""
    off = getattr(_V, field).offset - _WIN
    if field in ("block_row", "attack_row"):
        return off + _lib.MAX_PLAYS * index[0] + index[1]
    return off + (index[0] if index else 0)


def _gathers(seat, players):
    """The index strings of one viewer: for each output byte, which window byte to take."""
    zero = _ZERO - _WIN

    def rel(field, width=None):
        out = []
        for r in range(_lib.MAX_SEATS):
            s = (seat + r) % players if r < players else None
            if width is None:
                out.append(_at(field, s) if s is not None else zero)
            else:
                out += [_at(field, s, i) if s is not None else zero for i in range(width)]
        return out

    plain = ([_at("hand", k) for k in range(1, 9)] + [_at("kings")] + rel("size") + rel("plays")
             + rel("block_row", _lib.MAX_PLAYS) + rel("attack_row", _lib.MAX_PLAYS) + rel("face_down")
             + [_at("attack"), _at("passes"), _at("phase"), _at("kings_up")])
    counts = rel("face_down")
    seats = [_at("turn"), _at("attacker"), _at("dealer")]
    bits = [_at("goshi"), _at("deciders"), _at("redeal_votes"), _at("go_votes")]
    return bytes(plain), bytes(counts), bytes(seats), bytes(bits)


def _seat_table(seat, players):
    """Value map: absolute seat -> relative seat (255 stays 255: no attacker)."""
    t = bytearray(range(256))
    for s in range(players):
        t[s] = (s - seat) % players
    return bytes(t)


def _bits_table(seat, players):
    """Value map: a bit set of absolute seats -> the same set of relative seats."""
    t = bytearray(256)
    for m in range(256):
        out = 0
        for r in range(players):
            if m >> ((seat + r) % players) & 1:
                out |= 1 << r
        t[m] = out
    return bytes(t)


_POPCOUNT = bytes(bin(i).count("1") for i in range(256))


class Space(NamedTuple):
    """A dependency-free stand-in for a gymnasium space: shape, bounds and dtype ("B": uint8;
    "discrete": an integer below n)."""

    shape: tuple
    low: int
    high: int
    dtype: str
    n: int = 0


_G = _lib.goita_game
_PHASE = _G.round.offset + _lib.goita_round.phase.offset
_TURN = _G.round.offset + _lib.goita_round.turn.offset


class GoitaEnv:
    """Goita for reinforcement learning: 2-4 agents ("seat_0" ... by seat), one round
    (episode="round") or a whole game to the target (episode="game") per episode.

    Rewards (per step, in rewards; summed since an agent last acted in _cumulative_rewards,
    which last() returns): nothing until a round ends; then each side's points of the round
    (the change of its game score, so a game won outright by double 5 pawns counts what it
    added) times reward_scale, minus the mean of the other sides' points, so that the sides'
    rewards sum to zero: with 4 players the winning team gets +points * reward_scale and the
    other team the negation. reward_scale defaults to 0.1 (a round of 30 points is 3.0)."""

    metadata = {"name": "goita_v0", "is_parallelizable": False}

    def __init__(self, rules=None, episode="round", reward_scale=0.1):
        if episode not in ("round", "game"):
            raise ValueError('episode must be "round" or "game"')
        self.rules = as_rules(rules)
        self.episode = episode
        self.reward_scale = float(reward_scale)
        c = self.rules._c
        self.players = c.players
        self.possible_agents = ["seat_%d" % s for s in range(self.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._sides = _lib.lib.goita_rules_sides(ctypes.byref(c))
        self._side_of = [_lib.lib.goita_rules_side_of(ctypes.byref(c), s) for s in range(self.players)]

        # The state lives in preallocated buffers; the ctypes structs are views of them.
        self._gbuf = bytearray(ctypes.sizeof(_G))
        self._game = _G.from_buffer(self._gbuf)
        self._vbuf = bytearray(ctypes.sizeof(_V))
        self._view = _V.from_buffer(self._vbuf)
        self._window = memoryview(self._vbuf)[_WIN:_WIN + 256]
        self._mbuf = bytearray(4 * _lib.MAX_LEGAL)
        self._moves = (_lib.goita_move * _lib.MAX_LEGAL).from_buffer(self._mbuf)
        self._gref, self._vref, self._mref = (ctypes.byref(self._game), ctypes.byref(self._view),
                                              ctypes.byref(self._moves))
        self._rules_ref = ctypes.byref(c)
        self._game_view = _lib.fast("goita_game_view")
        self._view_legal = _lib.fast("goita_view_legal_moves")
        self._game_apply = _lib.fast("goita_game_apply")
        # A goita_move per (seat, action), passed by value: built once, never per step.
        self._action_moves = [{a: action_move(a, s)._to_c() for a in range(NUM_ACTIONS)}
                              for s in range(self.players)]
        self._obs_tables = [(*_gathers(s, self.players), _seat_table(s, self.players),
                             _bits_table(s, self.players)) for s in range(self.players)]
        self._vseat = -1
        self._vstep = -1
        self._nsteps = 0
        self.agents = []
        self.seed = None

    # -- PettingZoo's AEC interface -------------------------------------------------------

    def observation_space(self, agent):
        return Space((OBS_SIZE,), 0, 255, "B")

    def action_space(self, agent):
        return Space((), 0, NUM_ACTIONS - 1, "discrete", NUM_ACTIONS)

    def reset(self, seed=None, options=None):
        """Starts an episode: a seeded game (the draw, then round 1 dealt from seed). The same
        seed and rules give the same episode; seed None takes one from os.urandom."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.seed = seed
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_start(self._gref, self._rules_ref, seed, ctypes.byref(err)), err)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewarded = False
        self._nsteps = 0
        self._vstep = -1
        self._new_round()
        self._settle()

    def observe(self, agent):
        """The agent's observation: OBS_SIZE bytes (see OBS_LAYOUT)."""
        seat = self._seat[agent]
        self._game_view(self._gref, seat, self._vref)
        self._vseat, self._vstep = seat, self._nsteps
        w = self._window
        plain, counts, seats, bits, seat_map, bits_map = self._obs_tables[seat]
        return b"".join((plain.translate(w), counts.translate(w).translate(_POPCOUNT),
                         seats.translate(w).translate(seat_map), bits.translate(w).translate(bits_map),
                         self._scores[seat]))

    def observe_float(self, agent):
        """The observation as array('f') (a convenience; it costs a Python loop over 88 values)."""
        return array.array("f", list(self.observe(agent)))

    def action_mask(self, agent):
        """NUM_ACTIONS bytes, 1 for each legal action of agent now (all 0 when not its turn)."""
        seat = self._seat[agent]
        if self._vseat != seat or self._vstep != self._nsteps:
            self._game_view(self._gref, seat, self._vref)
            self._vseat, self._vstep = seat, self._nsteps
        n = self._view_legal(self._vref, self._mref)
        if not n:
            return _NO_ACTIONS
        raw = self._mbuf[:4 * n]
        codes = ((int.from_bytes(raw[2::4], "little") << 4) + int.from_bytes(raw[3::4], "little")
                 + int.from_bytes(raw[0::4], "little")).to_bytes(n, "little")
        return _ACTION_CODE.translate(bytes.maketrans(codes, _MARK[:n])).translate(_IS_MARKED)

    def legal_actions(self, agent):
        """The legal actions as a list of ints (a convenience over action_mask)."""
        mask = self.action_mask(agent)
        return [a for a in range(NUM_ACTIONS) if mask[a]]

    def step(self, action):
        """Applies agent_selection's action (checked by the library: an illegal one raises
        IllegalMove and changes nothing). A terminated agent steps with None to leave."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._dead_step(agent, action)
        seat = self._seat[agent]
        try:
            move = self._action_moves[seat][action]
        except (KeyError, TypeError):
            raise ValueError("action %r is not in 0..%d" % (action, NUM_ACTIONS - 1)) from None
        status = self._game_apply(self._gref, move, None)
        if status:
            self._raise_move(seat, action, status)
        self._nsteps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self._gbuf[_PHASE] == PHASE_OVER:
            self._settle()
        else:
            self.agent_selection = self.possible_agents[self._gbuf[_TURN]]

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info) of agent_selection."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2 ** 63):
        """Yields agent_selection until every agent has left (or max_iter steps)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def close(self):
        pass

    def render(self):
        """The current round as a full-information history string."""
        return self.round().history()

    # -- Beyond the AEC interface -----------------------------------------------------------

    def round(self):
        """A copy of the current round (full information: for analysis, never for agents)."""
        c = _lib.goita_round()
        ctypes.pointer(c)[0] = self._game.round
        return Round(c)

    def view(self, agent):
        """The agent's goita.View of the game (what its observation is built from)."""
        from .round import View
        v = View()
        raise_for(_lib.lib.goita_game_view(self._gref, self._seat[agent], ctypes.byref(v._c)))
        return v

    @property
    def scores(self):
        return list(self._game.score[:self._sides])

    # -- Internals ----------------------------------------------------------------------------

    def _raise_move(self, seat, action, status):
        err = _lib.goita_error()
        status = _lib.lib.goita_game_apply(self._gref, self._action_moves[seat][action], ctypes.byref(err))
        raise_for(status, err)

    def _new_round(self):
        """Caches what changes only between rounds: each viewer's score bytes."""
        score = self._game.score
        per_side = [min(255, max(0, score[i] // 10)) for i in range(self._sides)]
        self._scores = []
        for seat in range(self.players):
            rel = [per_side[self._side_of[(seat + r) % self.players]] for r in range(self._sides)]
            self._scores.append(bytes(rel + [0] * (_lib.MAX_SEATS - len(rel))))

    def _settle(self):
        """After a move or a deal: scores every round that has ended (a deal can end one at
        once), deals the next in game episodes, and ends the episode when it is over."""
        g = self._game
        while g.round.phase == PHASE_OVER:
            self._reward_round()
            if self.episode == "round" or g.over:
                for a in self.agents:
                    self.terminations[a] = True
                self.agent_selection = self.agents[0]
                return
            raise_for(_lib.lib.goita_game_next_round(self._gref, None))
            self._new_round()
        self.agent_selection = self.possible_agents[g.round.turn]

    def _reward_round(self):
        g = self._game
        gained = [g.score[i] - g.score_before[i] for i in range(self._sides)]
        total = sum(gained)
        result = _result(g.round.result)
        if not self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        for s, a in enumerate(self.possible_agents):
            own = gained[self._side_of[s]]
            r = self.reward_scale * (own - (total - own) / (self._sides - 1))
            self.rewards[a] += r
            self._cumulative_rewards[a] += r
            self.infos[a] = {"result": result, "round_index": g.round_index, "scores": self.scores}
        self._rewarded = True

    def _dead_step(self, agent, action):
        if action is not None:
            raise ValueError("a terminated agent steps with None, not %r" % (action,))
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            d.pop(agent, None)
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]

"""A seeded multi-agent Goita environment that keeps PettingZoo's AEC contract, with no
third-party package needed (numpy and gymnasium are used when they can be imported).

    env = GoitaEnv(rules="king_face_down=allowed")      # episode="round" or "game"
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Observations and masks come only from the C library's view of the observing seat
(goita_game_view, goita_view_legal_moves), so they cannot hold another seat's hidden pieces.
An observation is OBS_SIZE values laid out as OBS_LAYOUT says, every seat counted relative
to the observer (0 = the observer, 1 = next in turn, ...); the encoding, the action layout,
the rewards and the contract are documented in docs/PYTHON.md.

The hot path (observe_bytes, action_mask, step) keeps the game in a preallocated ctypes
struct and builds each observation with a handful of bytes.translate() gathers over the
view's bytes, so one step costs a few microseconds.
"""

import array
import copy
import ctypes
import numbers
import os

from . import _lib, infostate, spaces
from .errors import raise_for
from .move import GO, PASS, PLAY, REDEAL, Move
from .round import PHASE_OVER, Round, _result
from .rules import as_rules
from .spaces import np

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


_G = _lib.goita_game
_PHASE = _G.round.offset + _lib.goita_round.phase.offset
_TURN = _G.round.offset + _lib.goita_round.turn.offset


def redeal_seed(seed, k):
    """The seed of the k-th deal (k = 1, 2, ...) that replaces a deal which would end an
    episode before its first step (see GoitaEnv)."""
    return _lib.lib.goita_seed_mix((seed + k) % 2 ** 64)


def _action_index(action):
    """The action as an int; anything but an integer (a float, a bool, a string) is refused."""
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        action = int(action)
        if 0 <= action < NUM_ACTIONS:
            return action
        raise ValueError("action %d is not in 0..%d" % (action, NUM_ACTIONS - 1))
    raise ValueError("an action is an int in 0..%d, not %r (%s)" % (NUM_ACTIONS - 1, action, type(action).__name__))


class EnvState:
    """A snapshot of a GoitaEnv's episode (GoitaEnv.state()), for GoitaEnv.restore(). Full
    information: it holds every hand."""

    __slots__ = ("_fields",)

    def __init__(self, fields):
        self._fields = fields

    def __eq__(self, other):
        return isinstance(other, EnvState) and other._fields == self._fields

    def __reduce__(self):
        return (EnvState, (self._fields,))


class GoitaEnv:
    """Goita for reinforcement learning as a PettingZoo AEC environment: 2-4 agents ("seat_0"
    ... by seat), one round (episode="round") or a whole game to the target (episode="game")
    per episode. docs/PYTHON.md describes the contract; python/tests/test_env_contract.py
    checks it clause by clause.

    Rewards: env.rewards holds the last step's only (every dead step clears it), last()
    returns the sum since the agent last acted. Nothing is paid until a round ends; then each
    side's points of the round (the change of its game score, so a game won outright by
    double 5 pawns counts what it added) times reward_scale, minus the mean of the other
    sides' points, so that the sides' rewards sum to zero: with 4 players the winning team
    gets +points * reward_scale and the other team the negation. reward_scale defaults to 0.1
    (a round of 30 points is 3.0).

    A deal never ends an episode inside reset(): a deal that would (any round decided at the
    deal in round episodes, a deal that wins the game in game episodes) is replaced by the
    hands of goita_round_deal(seed = redeal_seed(seed, k)), k = 1, 2, ..., same dealer; a
    game round decided at the deal that does not end the game is scored (scores and infos
    show it), the next round dealt, and its points paid with the first step's rewards."""

    metadata = {"name": "goita_v1", "is_parallelizable": False, "render_modes": ["ansi"]}

    def __init__(self, rules=None, episode="round", reward_scale=0.1, render_mode=None):
        if episode not in ("round", "game"):
            raise ValueError('episode must be "round" or "game"')
        if render_mode not in (None, "ansi"):
            raise ValueError('render_mode must be None or "ansi"')
        self.rules = as_rules(rules)
        self.episode = episode
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        c = self.rules._c
        self.players = c.players
        self.possible_agents = ["seat_%d" % s for s in range(self.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._sides = _lib.lib.goita_rules_sides(ctypes.byref(c))
        self._side_of = [_lib.lib.goita_rules_side_of(ctypes.byref(c), s) for s in range(self.players)]
        # One space object per agent, the same on every call (seeding a space must stick).
        self.observation_spaces = {a: spaces.observation_dict(OBS_SIZE, NUM_ACTIONS) for a in self.possible_agents}
        self.action_spaces = {a: spaces.discrete(NUM_ACTIONS) for a in self.possible_agents}

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
        self._action_moves = [[action_move(a, s)._to_c() for a in range(NUM_ACTIONS)]
                              for s in range(self.players)]
        self._obs_tables = [(*_gathers(s, self.players), _seat_table(s, self.players),
                             _bits_table(s, self.players)) for s in range(self.players)]
        self._vseat = -1
        self._vstep = -1
        self._nsteps = 0
        self._scores_by_key = {}
        self._started = False
        self.agents = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self._pending = None
        self._rewarded = False
        self.seed = None

    # -- PettingZoo's AEC interface -------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def __getattr__(self, name):
        # Only for attributes not set yet: agent_selection before the first reset().
        if name == "agent_selection":
            raise RuntimeError("GoitaEnv: call reset() before using the environment")
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def reset(self, seed=None, options=None):
        """Starts an episode: a seeded game (the draw, then round 1 dealt from seed). The same
        seed and rules give the same episode; seed None takes one from os.urandom."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.seed = seed
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_start(self._gref, self._rules_ref, seed, ctypes.byref(err)), err)
        self._started = True
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewarded = False
        self._pending = None
        self._nsteps = 0
        self._vstep = -1
        self._first_deal(seed)
        self._update_scores()
        self.agent_selection = self.possible_agents[self._game.round.turn]

    def observe(self, agent):
        """The agent's observation: {"observation": OBS_SIZE values (see OBS_LAYOUT),
        "action_mask": NUM_ACTIONS values, 1 for each legal action}, numpy arrays (uint8 and
        int8) when numpy can be imported, else bytes."""
        obs, mask = self.observe_bytes(agent), self.action_mask(agent)
        if np is None:
            return {"observation": obs, "action_mask": mask}
        return {"observation": np.frombuffer(obs, np.uint8).copy(), "action_mask": np.frombuffer(mask, np.int8).copy()}

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info) of agent_selection."""
        agent = self._live_selection()
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action):
        """Applies agent_selection's action, an int (a numpy integer will do) in
        0..NUM_ACTIONS-1, checked by the library: an illegal one raises IllegalMove and changes
        nothing. A terminated agent steps with None to leave."""
        agent = self._live_selection()
        if self.terminations[agent] or self.truncations[agent]:
            return self._dead_step(agent, action)
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:  # the common case skips the call
            action = _action_index(action)
        move = self._action_moves[self._seat[agent]][action]
        status = self._game_apply(self._gref, move, None)
        if status:
            self._raise_move(move, status)
        self._nsteps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self._pending:
            self._pay(self._pending)
            self._pending = None
        if self._gbuf[_PHASE] == PHASE_OVER:
            self._settle()
        else:
            self.agent_selection = self.possible_agents[self._gbuf[_TURN]]

    def agent_iter(self, max_iter=2 ** 63):
        """Yields agent_selection until every agent has left (or max_iter steps)."""
        if not self._started:
            raise RuntimeError("GoitaEnv: call reset() before agent_iter()")
        return self._agent_iter(max_iter)

    def _agent_iter(self, max_iter):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        """The current round as a full-information history string."""
        return self.round().history()

    def close(self):
        pass

    def state(self):
        """A snapshot of the episode (full information, never for agents), for restore()."""
        if not self._started:
            raise RuntimeError("GoitaEnv: call reset() before state()")
        return EnvState(copy.deepcopy({
            "rules": self.rules.to_text(), "episode": self.episode, "game": bytes(self._gbuf),
            "seed": self.seed, "agents": self.agents, "agent_selection": self.agent_selection,
            "rewards": self.rewards, "cumulative": self._cumulative_rewards, "terminations": self.terminations,
            "truncations": self.truncations, "infos": self.infos, "pending": self._pending,
            "rewarded": self._rewarded, "nsteps": self._nsteps}))

    def restore(self, state):
        """Puts the episode back as state() saw it (in this or another environment with the
        same rules and episode kind)."""
        f = state._fields
        if (f["rules"], f["episode"]) != (self.rules.to_text(), self.episode):
            raise ValueError("the state is of a %s episode under the rules %r, not a %s episode under %r"
                             % (f["episode"], f["rules"], self.episode, self.rules.to_text()))
        f = copy.deepcopy(f)
        self._gbuf[:] = f["game"]
        self.seed, self.agents, self.agent_selection = f["seed"], f["agents"], f["agent_selection"]
        self.rewards, self._cumulative_rewards = f["rewards"], f["cumulative"]
        self.terminations, self.truncations, self.infos = f["terminations"], f["truncations"], f["infos"]
        self._pending, self._rewarded, self._nsteps = f["pending"], f["rewarded"], f["nsteps"]
        self._started = True
        self._vstep = -1
        self._update_scores()

    def clone(self):
        """An independent copy of the environment, its episode and its spaces."""
        return copy.deepcopy(self)

    def __getstate__(self):
        return {"config": (self.rules.to_text(), self.episode, self.reward_scale, self.render_mode),
                "spaces": (self.observation_spaces, self.action_spaces),
                "state": self.state() if self._started else None}

    def __setstate__(self, saved):
        self.__init__(*saved["config"])
        self.observation_spaces, self.action_spaces = saved["spaces"]
        if saved["state"] is not None:
            self.restore(saved["state"])

    # -- Beyond the AEC interface -----------------------------------------------------------

    def observe_bytes(self, agent):
        """The agent's observation as OBS_SIZE bytes (see OBS_LAYOUT)."""
        seat = self._seat.get(agent) if self._started else None
        if seat is None:
            seat = self._seat_of(agent)  # raises, saying why
        self._game_view(self._gref, seat, self._vref)
        self._vseat, self._vstep = seat, self._nsteps
        w = self._window
        plain, counts, seats, bits, seat_map, bits_map = self._obs_tables[seat]
        return b"".join((plain.translate(w), counts.translate(w).translate(_POPCOUNT),
                         seats.translate(w).translate(seat_map), bits.translate(w).translate(bits_map),
                         self._scores[seat]))

    def observe_float(self, agent):
        """The observation as array('f') (a convenience; it costs a Python loop over 88 values)."""
        return array.array("f", list(self.observe_bytes(agent)))

    def action_mask(self, agent):
        """NUM_ACTIONS bytes, 1 for each legal action of agent now (all 0 when not its turn)."""
        seat = self._seat.get(agent) if self._started else None
        if seat is None:
            seat = self._seat_of(agent)  # raises, saying why
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

    def information_state(self, agent):
        """The agent's information state (everything it has seen of the round, its own pieces
        and the game score), INFO_SIZE values laid out as INFO_LAYOUT says: a numpy uint8
        array when numpy can be imported, else bytes. Two different information sets never
        share an encoding."""
        self._seat_of(agent)
        data = infostate.encode(self.view(agent)._c)
        return np.frombuffer(data, np.uint8).copy() if np is not None else data

    def round(self):
        """A copy of the current round (full information: for analysis, never for agents)."""
        self._require_started()
        c = _lib.goita_round()
        ctypes.pointer(c)[0] = self._game.round
        return Round(c)

    def view(self, agent):
        """The agent's goita.View of the game (what its observation is built from)."""
        from .round import View
        v = View()
        raise_for(_lib.lib.goita_game_view(self._gref, self._seat_of(agent), ctypes.byref(v._c)))
        return v

    @property
    def scores(self):
        return list(self._game.score[:self._sides])

    # -- Internals ----------------------------------------------------------------------------

    def _live_selection(self):
        """agent_selection, once reset() has started an episode that is not over."""
        if not self.agents:
            self._require_started()
            raise RuntimeError("GoitaEnv: the episode is over (every agent has left): call reset()")
        return self.agent_selection

    def _require_started(self):
        if not self._started:
            raise RuntimeError("GoitaEnv: call reset() before using the environment")

    def _seat_of(self, agent):
        self._require_started()
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise ValueError("no agent %r: the agents are %s" % (agent, ", ".join(self.possible_agents))) from None

    def _raise_move(self, move, status):
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_apply(self._gref, move, ctypes.byref(err)), err)

    def _update_scores(self):
        """Sets what changes only when a round is scored: each viewer's score bytes (built once
        per score: a few hundred at most)."""
        key = bytes(self._game.score)
        self._scores = self._scores_by_key.get(key)
        if self._scores is None:
            score = self._game.score
            per_side = [min(255, max(0, score[i] // 10)) for i in range(self._sides)]
            self._scores = []
            for seat in range(self.players):
                rel = [per_side[self._side_of[(seat + r) % self.players]] for r in range(self._sides)]
                self._scores.append(bytes(rel + [0] * (_lib.MAX_SEATS - len(rel))))
            self._scores_by_key[key] = self._scores

    def _first_deal(self, seed):
        """Deals until an agent has something to do (the rule in the class comment)."""
        g = self._game
        k = 0
        while g.round.phase == PHASE_OVER:
            if self.episode == "game" and not g.over:
                self._pending = self._points(self._pending)
                self._round_infos()
                raise_for(_lib.lib.goita_game_next_round(self._gref, None))
                continue
            replacement = _lib.goita_round()
            while True:
                k += 1
                raise_for(_lib.lib.goita_round_deal(ctypes.byref(replacement), self._rules_ref, g.round.dealer,
                                                    redeal_seed(seed, k)))
                if replacement.phase != PHASE_OVER:
                    break
            err = _lib.goita_error()
            raise_for(_lib.lib.goita_game_set_deal(self._gref, g.round.dealer, replacement.deal, ctypes.byref(err)), err)

    def _points(self, pending=None):
        """Each agent's reward for the round just scored (added to pending)."""
        g = self._game
        gained = [g.score[i] - g.score_before[i] for i in range(self._sides)]
        total = sum(gained)
        out = list(pending) if pending else [0.0] * self.players
        for s in range(self.players):
            own = gained[self._side_of[s]]
            out[s] += self.reward_scale * (own - (total - own) / (self._sides - 1))
        return out

    def _round_infos(self):
        g = self._game
        result = _result(g.round.result)
        for a in self.agents:
            self.infos[a] = {"result": result, "round_index": g.round_index, "scores": self.scores}

    def _pay(self, points):
        if not self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] += points[s]
            self._cumulative_rewards[a] += points[s]
        self._rewarded = True

    def _settle(self):
        """After a move: scores every round that has ended (a deal can end one at once), deals
        the next in game episodes, and ends the episode when it is over."""
        g = self._game
        while g.round.phase == PHASE_OVER:
            self._pay(self._points())
            self._round_infos()
            self._update_scores()
            if self.episode == "round" or g.over:
                for a in self.agents:
                    self.terminations[a] = True
                self.agent_selection = self.agents[0]
                return
            raise_for(_lib.lib.goita_game_next_round(self._gref, None))
        self.agent_selection = self.possible_agents[g.round.turn]

    def _dead_step(self, agent, action):
        """A terminated agent leaves; as in PettingZoo, every agent's step reward is cleared."""
        if action is not None:
            raise ValueError("a terminated agent steps with None, not %r" % (action,))
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            d.pop(agent, None)
        self.agents.remove(agent)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        if self.agents:
            self.agent_selection = self.agents[0]

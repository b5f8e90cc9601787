"""A batched Goita environment: N seeded games stepped by one call into the C library, for
training at hundreds of thousands of steps a second (include/goita/batch.h does the work).

    envs = BatchEnv(1024, rules="king_face_down=allowed")   # episode="round" or "game"
    envs.reset(seed=1)                    # game i starts from seed 1 + i
    for _ in range(1000):
        actions = my_policy(envs.obs, envs.mask, envs.seat)
        envs.step(actions)                # or envs.step_random()
        learn(envs.rewards, envs.terminated)

Every step moves one seat in every game: the seat to move, envs.seat[i], whose observation
(envs.obs[i], goita.env's encoding, OBS_SIZE bytes) and legal actions (envs.mask[i], 1 for
each legal action of goita.env's action numbering) the arrays hold. envs.rewards[i] holds
each seat's reward of the last step (by absolute seat; zero until a round ends) and
envs.terminated[i] whether that step ended the episode; a finished episode is replaced by the
next at once, so the arrays then already show the next episode's first observation.

The arrays are numpy arrays when numpy is importable (uint8 obs and mask, float32 rewards,
uint8 terminated, int8 seat), else memoryviews of the same shapes. The C library writes them
in place on every call: copy what you keep.
"""

import array
import ctypes
import os

from . import _lib
from .errors import raise_for
from .game import Game
from .rules import as_rules

try:
    import numpy as np
except ImportError:  # the binding works without numpy, more slowly for the caller
    np = None

OBS_SIZE = _lib.OBS_SIZE
NUM_ACTIONS = _lib.NUM_ACTIONS
MAX_SEATS = _lib.MAX_SEATS

_step = _lib.fast("goita_batch_step")
_step_random = _lib.fast("goita_batch_step_random")


def _array(shape, typecode, dtype):
    """A zeroed array the C library can write: numpy when available, else a memoryview."""
    if np is not None:
        return np.zeros(shape, dtype=dtype)
    count = 1
    for d in shape:
        count *= d
    raw = memoryview(bytearray(count * array.array(typecode).itemsize))
    return raw.cast(typecode, shape) if len(shape) > 1 else raw.cast(typecode)


def _address(a):
    if np is not None:
        return a.ctypes.data
    return ctypes.addressof(ctypes.c_char.from_buffer(a))


class BatchEnv:
    """num_games games of Goita (2-4 players as the rules say): one round (episode="round") or
    a whole game to the target (episode="game") per episode, with goita.env's rewards: when a
    round ends, each seat's side gets (its points - the mean of the other sides' points) times
    reward_scale. A deal that would end an episode before its first move is skipped (the next
    seed is taken); in a game episode, a round decided at a later deal is paid with the step
    that led to it."""

    def __init__(self, num_games, rules=None, episode="round", reward_scale=0.1):
        if episode not in ("round", "game"):
            raise ValueError('episode must be "round" or "game", not %r' % (episode,))
        if not isinstance(num_games, int) or isinstance(num_games, bool) or num_games < 1:
            raise ValueError("num_games must be a positive int, not %r" % (num_games,))
        self.rules = as_rules(rules)
        self.episode = episode
        self.num_games = num_games
        self.obs = _array((num_games, OBS_SIZE), "B", "uint8")
        self.mask = _array((num_games, NUM_ACTIONS), "B", "uint8")
        self.rewards = _array((num_games, MAX_SEATS), "f", "float32")
        self.terminated = _array((num_games,), "B", "uint8")
        self.seat = _array((num_games,), "b", "int8")
        self._actions = _array((num_games,), "i", "int32")
        arrays = _lib.goita_batch_arrays(*(_address(a) for a in (self.obs, self.mask, self.rewards,
                                                                  self.terminated, self.seat)))
        options = _lib.goita_batch_options()
        _lib.lib.goita_batch_options_default(ctypes.byref(options))
        options.rules = self.rules._c
        options.episode = _lib.BATCH_GAME if episode == "game" else _lib.BATCH_ROUND
        options.reward_scale = float(reward_scale)
        self._batch = ctypes.c_void_p()
        # Kept here: at interpreter exit __del__ may run after the module's globals are gone.
        self._free = _lib.lib.goita_batch_free
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_batch_new(ctypes.byref(self._batch), ctypes.byref(options), num_games,
                                           ctypes.byref(arrays), ctypes.byref(err)), err)
        self._err = _lib.goita_error()
        self._errref = ctypes.byref(self._err)
        self._actions_ptr = ctypes.c_void_p(_address(self._actions))
        self._started = False

    def reset(self, seed=None):
        """Starts every game: seed an int gives game i the seed seed + i, a sequence gives one
        seed per game, None takes seeds from os.urandom. Game i's first episode is the game
        goita.env.GoitaEnv.reset(seed=its seed) starts (unless skipped, see the class)."""
        n = self.num_games
        if seed is None:
            seeds = [int.from_bytes(os.urandom(8), "little") for _ in range(n)]
        elif isinstance(seed, int) and not isinstance(seed, bool):
            seeds = [(seed + i) % 2 ** 64 for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError("reset needs one seed per game: %d seeds for %d games" % (len(seeds), n))
        try:
            c_seeds = (ctypes.c_uint64 * n)(*seeds)
        except TypeError:
            raise TypeError("seeds must be ints") from None
        raise_for(_lib.lib.goita_batch_reset(self._batch, c_seeds, self._errref), self._err)
        self._started = True

    def step(self, actions):
        """Makes actions[i] (an int, a legal action of goita.env's numbering) in game i for every
        game and updates the arrays. An illegal action raises IllegalMove naming the game, and
        changes nothing."""
        self._check_started()
        if np is not None:
            a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
            if a.dtype != np.int32 or not a.flags.c_contiguous:
                if a.dtype.kind not in "iu":
                    raise TypeError("actions must be integers, not %s" % a.dtype)
                if a.size and (a.min() < 0 or a.max() >= NUM_ACTIONS):
                    raise ValueError("actions must be in 0..%d" % (NUM_ACTIONS - 1))
                a = np.ascontiguousarray(a, dtype=np.int32)
            if a.shape != (self.num_games,):
                raise ValueError("step needs one action per game: shape %s for %d games" % (a.shape, self.num_games))
            ptr = a.ctypes.data
        else:
            a = array.array("i", actions)
            if len(a) != self.num_games:
                raise ValueError("step needs one action per game: %d for %d games" % (len(a), self.num_games))
            ptr = a.buffer_info()[0]
        status = _step(self._batch, ctypes.c_void_p(ptr), self._errref)
        if status:
            raise_for(status, self._err)

    def step_random(self):
        """Steps every game with a uniformly random legal action drawn in C by the game's own
        generator (seeded by reset); returns the actions taken (valid until the next call)."""
        self._check_started()
        _step_random(self._batch, self._actions_ptr)
        return self._actions

    def game(self, i):
        """A copy of game i as a goita.Game (full information: for analysis and tests, never
        for agents)."""
        self._check_started()
        if not 0 <= i < self.num_games:
            raise IndexError("game %r is not in 0..%d" % (i, self.num_games - 1))
        g = Game.__new__(Game)
        g._c = _lib.goita_game()
        ctypes.pointer(g._c)[0] = _lib.lib.goita_batch_game(self._batch, i)[0]
        g._record = None
        return g

    def close(self):
        """Frees the games (also done when the object is collected)."""
        if self._batch:
            self._free(self._batch)
            self._batch = ctypes.c_void_p()

    def __del__(self):
        if getattr(self, "_batch", None):
            self.close()

    def _check_started(self):
        if not self._batch:
            raise ValueError("the environment is closed")
        if not self._started:
            raise ValueError("call reset() before stepping")

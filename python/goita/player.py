"""Computer players (docs/PLAYERS.md): choose a move from a seat's view alone."""

import ctypes
from typing import List, NamedTuple

from . import _lib
from .errors import raise_for
from .move import Move, moves_from_c


class Thought(NamedTuple):
    """What a player reports about one choice: moves considered and their values (points
    for the seat's side; preference scores for heuristic levels), samples, nodes, ms; for
    master and fast, the deals that valued each move and those in which it was a best move."""

    moves: List[Move]
    values: List[float]
    has_values: bool
    samples: int
    nodes: int
    ms: float
    deals: List[int]
    agree: List[int]


class Player:
    """A computer player named by a spec: "random", "rules", "expert",
    "sampler:samples=64,infer=on" (levels() lists them). Its choice depends only on its
    seed and the view, so a seed reproduces it."""

    def __init__(self, spec="expert", seed=0):
        self._p = ctypes.c_void_p()
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_player_new(ctypes.byref(self._p), spec.encode(), ctypes.byref(err)), err)
        self.seed(seed)
        self._move = _lib.goita_move()
        self._info = _lib.goita_player_info()

    def close(self):
        if self._p:
            _lib.lib.goita_player_free(self._p)
            self._p = ctypes.c_void_p()

    def __del__(self):
        self.close()

    @staticmethod
    def levels():
        """The levels, weakest first."""
        return _lib.strings(_lib.lib.goita_player_levels())

    @staticmethod
    def describe(level):
        """A one-line description of a level and its parameters (None for an unknown one)."""
        text = _lib.lib.goita_player_describe(level.encode())
        return text.decode() if text else None

    @property
    def spec(self):
        """The spec written in full, every parameter."""
        return _lib.lib.goita_player_spec(self._p).decode()

    def set(self, setting):
        """Changes one parameter ("samples=64"); raises InvalidValue / ParseError."""
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_player_set(self._p, setting.encode(), ctypes.byref(err)), err)

    def seed(self, seed):
        _lib.lib.goita_player_seed(self._p, seed)

    def choose(self, view, info=False):
        """Chooses a move for the seat of view (a View, whose seat must be to move). Returns
        the Move, or (Move, Thought) with info=True."""
        raise_for(_lib.lib.goita_player_choose(self._p, ctypes.byref(view._c), ctypes.byref(self._move),
                                               ctypes.byref(self._info) if info else None))
        move = Move(self._move.type, self._move.seat, self._move.block, self._move.attack)
        if not info:
            return move
        i = self._info
        return move, Thought(moves_from_c(i.moves, i.nmoves), list(i.value[:i.nmoves]), bool(i.has_values),
                             i.samples, i.nodes, i.ms, list(i.deals[:i.nmoves]), list(i.agree[:i.nmoves]))

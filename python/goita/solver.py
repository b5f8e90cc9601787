"""The exact solver (docs/SOLVER.md): a position's value with every hand known."""

import ctypes
from typing import List, NamedTuple, Optional, Tuple

from . import _lib
from .errors import raise_for
from .move import Move, moves_from_c

EXACT, WIN_LOSS = 0, 1


class Solution(NamedTuple):
    """value: the exact value (None unless proven exactly), from the seat to move's side;
    lower/upper: proven bounds; moves: (Move, lower, upper) for every legal move when asked;
    best: a best Move or None; complete: False when a limit stopped the search."""

    value: Optional[int]
    lower: int
    upper: int
    complete: bool
    moves: List[Tuple[Move, int, int]]
    best: Optional[Move]
    nodes: int
    ms: float

    def move_values(self):
        """{token: value} for the moves solved exactly."""
        return {str(m): lo for m, lo, hi in self.moves if lo == hi}


class Solver:
    """A solver with a transposition table of table_mb MiB, kept between solves of one deal."""

    def __init__(self, table_mb=64):
        self._p = ctypes.c_void_p()
        raise_for(_lib.lib.goita_solver_new(ctypes.byref(self._p), int(table_mb * (1 << 20))))
        self._options = _lib.goita_solve_options()
        self._result = _lib.goita_solve_result()

    def close(self):
        if self._p:
            _lib.lib.goita_solver_free(self._p)
            self._p = ctypes.c_void_p()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def clear(self):
        _lib.lib.goita_solver_clear(self._p)

    @property
    def table_entries(self):
        return _lib.lib.goita_solver_table_entries(self._p)

    def solve(self, round, all_moves=True, win_loss=False, max_nodes=0, max_ms=0.0):
        """Solves a Round (or a full history string) and returns a Solution."""
        if isinstance(round, str):
            from .round import Round
            round = Round.from_history(round)
        o, r = self._options, self._result
        o.mode, o.all_moves, o.max_nodes, o.max_ms = (WIN_LOSS if win_loss else EXACT), int(all_moves), max_nodes, max_ms
        raise_for(_lib.lib.goita_solve(self._p, ctypes.byref(round._c), ctypes.byref(o), ctypes.byref(r)))
        moves = moves_from_c(r.moves, r.nmoves)
        values = [(m, r.move_value[i].lower, r.move_value[i].upper) for i, m in enumerate(moves)]
        lo, hi = r.value.lower, r.value.upper
        return Solution(lo if lo == hi else None, lo, hi, bool(r.complete), values,
                        moves[r.best] if 0 <= r.best < len(moves) else None, r.nodes, r.ms)

    def value(self, round, **limits):
        """The exact value alone (None when a limit stopped the search first)."""
        return self.solve(round, all_moves=False, **limits).value

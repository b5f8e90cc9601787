"""Moves: a play ("113": seat 1 places a pawn, attacks with a knight), a pass ("2p") and the
5-pawn decisions ("3r" redeal, "3g" play on), in the notation of docs/RECORDS.md 1."""

import ctypes
from typing import NamedTuple

from . import _lib
from .errors import raise_for

PASS, PLAY, REDEAL, GO = 0, 1, 2, 3


class Move(NamedTuple):
    """A move of seat (0-based). block and attack are marks 1-9 of a play (9 is the black
    king, 玉; the engine lists kings as 8), 0 otherwise. str(move) is its token with the seat
    written 1-4; Move.parse reads one."""

    type: int
    seat: int
    block: int = 0
    attack: int = 0

    @classmethod
    def parse(cls, text):
        """Reads a token ("113", "2p", "3r", "3g"). Raises ParseError."""
        raw = text.encode()
        c = _lib.goita_move()
        raise_for(_lib.lib.goita_move_parse(raw, len(raw), ctypes.byref(c)))
        return cls._from_c(c)

    @classmethod
    def pass_(cls, seat):
        return cls(PASS, seat)

    @classmethod
    def play(cls, seat, block, attack):
        return cls(PLAY, seat, block, attack)

    @classmethod
    def decide(cls, seat, redeal):
        return cls(REDEAL if redeal else GO, seat)

    @classmethod
    def _from_c(cls, c):
        return cls(c.type, c.seat, c.block, c.attack)

    def _to_c(self):
        return _lib.goita_move(self.type, self.seat, self.block, self.attack)

    def same(self, other):
        """Whether two moves are the same move of the game (kings 8 and 9 compare equal)."""
        return bool(_lib.lib.goita_move_equal(self._to_c(), as_move(other)._to_c()))

    def __str__(self):
        buf = ctypes.create_string_buffer(16)
        raise_for(_lib.lib.goita_move_format(self._to_c(), buf, len(buf)))
        return buf.value.decode()


def as_move(move):
    """Accepts a Move or a token and returns a Move."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    return Move(*move)


def moves_from_c(array, n):
    return [Move(m.type, m.seat, m.block, m.attack) for m in array[:n]]

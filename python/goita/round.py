"""One round (docs/RULES.md 3-5) and what one seat may know of it (a view)."""

import ctypes
from typing import NamedTuple, Optional

from . import _lib
from .errors import raise_for
from .move import as_move, moves_from_c
from .rules import Rules, as_rules

PHASE_DECIDE, PHASE_PLAY, PHASE_OVER = 0, 1, 2
OBSERVER = _lib.OBSERVER
VIEWER_INFER = _lib.VIEWER_INFER
_ENDS = {0: None, 1: "finish", 2: "teyaku", 3: "double_goshi", 4: "redeal"}
_HISTORY_SIZE = 1024


class RoundResult(NamedTuple):
    """How a round ended: end is "finish", "teyaku", "double_goshi" or "redeal"; winner the
    seat (None for a redeal); points what the winner's side scores (always in tens)."""

    end: str
    winner: Optional[int]
    points: int
    doubled: bool
    wins_game: bool


def _result(c):
    if c.end == 0:
        return None
    return RoundResult(_ENDS.get(c.end, str(c.end)), c.winner if c.winner >= 0 else None,
                       c.points, bool(c.doubled), bool(c.wins_game))


def _hands(rows, players):
    return [list(rows[s][1:9]) for s in range(players)]


def _format(fn, ptr):
    buf = ctypes.create_string_buffer(_HISTORY_SIZE)
    raise_for(fn(ptr, buf, len(buf)))
    return buf.value.decode()


class _State:
    """What a round and a view share: the public fields of the table."""

    players = property(lambda self: self._c.players)
    dealer = property(lambda self: self._c.dealer)
    turn = property(lambda self: self._c.turn, doc="seat to move (the deciding seat in a 5-pawn decision)")
    attacker = property(lambda self: self._c.attacker)
    phase = property(lambda self: self._c.phase)
    attack = property(lambda self: self._c.attack, doc="kind to answer; 0 when the seat to move leads")
    passes = property(lambda self: self._c.passes)
    kings_up = property(lambda self: self._c.kings_up)
    over = property(lambda self: self._c.phase == PHASE_OVER)
    result = property(lambda self: _result(self._c.result), doc="a RoundResult once over, else None")
    rules = property(lambda self: Rules._from_c(self._c.rules))

    @property
    def sizes(self):
        return list(self._c.size[:self._c.players])

    @property
    def rows(self):
        """Per seat, the (block, attack) pairs on the table: marks, a block 0 when face-down
        and unseen (views only)."""
        c = self._c
        return [[(c.block_row[s][i], c.attack_row[s][i]) for i in range(c.plays[s])]
                for s in range(c.players)]

    @property
    def moves(self):
        """The moves so far (in a view, others' face-down blocks are 0)."""
        return moves_from_c(self._c.log, self._c.nlog)


class Round(_State):
    """A round with full information: a plain value (copy() is cheap), changed by apply()."""

    __slots__ = ("_c",)

    def __init__(self, c=None):
        self._c = c if c is not None else _lib.goita_round()

    @classmethod
    def deal(cls, seed, dealer=0, rules=None):
        """Shuffles with seed and deals (the same seed and rules give the same hands everywhere)."""
        r = cls()
        raise_for(_lib.lib.goita_round_deal(ctypes.byref(r._c), ctypes.byref(as_rules(rules)._c), dealer, seed))
        return r

    @classmethod
    def setup(cls, hands, dealer=0, rules=None):
        """Deals given hands: per seat a list of marks or a digit string ("11244556")."""
        rules = as_rules(rules)
        rows = ((ctypes.c_uint8 * _lib.MAX_HAND) * _lib.MAX_SEATS)()
        for s, hand in enumerate(hands):
            marks = [int(ch) for ch in hand] if isinstance(hand, str) else list(hand)
            rows[s][:len(marks)] = marks
        r, err = cls(), _lib.goita_error()
        raise_for(_lib.lib.goita_round_setup(ctypes.byref(r._c), ctypes.byref(rules._c), dealer, rows,
                                             ctypes.byref(err)), err)
        return r

    @classmethod
    def from_history(cls, text, rules=None):
        """Reads a full-information history string ("12345678,...,s1,113,2p"), checking every move."""
        r, err = cls(), _lib.goita_error()
        raise_for(_lib.lib.goita_history_parse(ctypes.byref(r._c), ctypes.byref(as_rules(rules)._c),
                                               text.encode(), ctypes.byref(err)), err)
        return r

    def copy(self):
        c = _lib.goita_round()
        ctypes.pointer(c)[0] = self._c
        return Round(c)

    def history(self):
        """The round as a full-information history string."""
        return _format(_lib.lib.goita_history_format, ctypes.byref(self._c))

    def legal_moves(self):
        out = (_lib.goita_move * _lib.MAX_LEGAL)()
        return moves_from_c(out, _lib.lib.goita_round_legal_moves(ctypes.byref(self._c), out))

    def check(self, move):
        """Raises IllegalMove, NotYourTurn or RoundOver (with the library's reason) unless move is legal now."""
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_round_check(ctypes.byref(self._c), as_move(move)._to_c(), ctypes.byref(err)), err)

    def apply(self, move):
        """Applies a Move or token after checking it; on error the round is unchanged. Returns self."""
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_round_apply(ctypes.byref(self._c), as_move(move)._to_c(), ctypes.byref(err)), err)
        return self

    def view(self, seat):
        """What seat (or OBSERVER) may know of the round."""
        v = View()
        raise_for(_lib.lib.goita_round_view(ctypes.byref(self._c), seat, ctypes.byref(v._c)))
        return v

    @property
    def hands(self):
        """Pieces in hand per seat, as counts per kind 1..8 (index 0 is pawns)."""
        return _hands(self._c.hand, self._c.players)

    @property
    def dealt(self):
        """The hands as dealt, as digit strings."""
        size = _lib.lib.goita_rules_hand_size(ctypes.byref(self._c.rules))
        return ["".join(str(m) for m in self._c.deal[s][:size]) for s in range(self._c.players)]

    @property
    def deal_seed(self):
        return self._c.deal_seed

    def __eq__(self, other):
        return isinstance(other, Round) and bytes(self._c) == bytes(other._c)

    def __repr__(self):
        return "Round(%r)" % self.history()


class View(_State):
    """What one seat (or an observer) may know of a round, and nothing more."""

    __slots__ = ("_c",)

    def __init__(self, c=None):
        self._c = c if c is not None else _lib.goita_view()

    @classmethod
    def from_history(cls, text, rules=None, viewer=VIEWER_INFER):
        """Reads a history string as one seat sees it ("3xxxxxxx,12345679,...,1x3"): others'
        hidden pieces as x. viewer is a seat, OBSERVER, or VIEWER_INFER (the default)."""
        v, err = cls(), _lib.goita_error()
        raise_for(_lib.lib.goita_history_parse_view(ctypes.byref(v._c), ctypes.byref(as_rules(rules)._c),
                                                    text.encode(), viewer, ctypes.byref(err)), err)
        return v

    seat = property(lambda self: self._c.seat)
    kings = property(lambda self: self._c.kings)
    scores = property(lambda self: list(self._c.score[:_lib.lib.goita_rules_sides(ctypes.byref(self._c.rules))]))
    round_index = property(lambda self: self._c.round_index)

    @property
    def hand(self):
        """The viewer's hand as counts per kind 1..8 (all zero for an observer)."""
        return list(self._c.hand[1:9])

    def history(self):
        """The view as a history string, hidden pieces as x (goita-core's toHiddenString)."""
        return _format(_lib.lib.goita_history_format_view, ctypes.byref(self._c))

    def legal_moves(self):
        """The viewer's legal moves, computed from the view alone (empty unless it is the viewer's turn)."""
        out = (_lib.goita_move * _lib.MAX_LEGAL)()
        return moves_from_c(out, _lib.lib.goita_view_legal_moves(ctypes.byref(self._c), out))

    def sample(self, seed):
        """A full Round this view could have come from, the hidden pieces dealt at random (seeded)."""
        rng, out, err = _lib.goita_rng(), Round(), _lib.goita_error()
        _lib.lib.goita_rng_seed(ctypes.byref(rng), seed)
        raise_for(_lib.lib.goita_view_sample(ctypes.byref(self._c), ctypes.byref(rng), ctypes.byref(out._c),
                                             ctypes.byref(err)), err)
        return out

    def same(self, other):
        """Whether two views show the same (rules, scores and round index aside)."""
        return bool(_lib.lib.goita_view_same(ctypes.byref(self._c), ctypes.byref(other._c)))

    def __eq__(self, other):
        return isinstance(other, View) and bytes(self._c) == bytes(other._c)

    def __repr__(self):
        return "View(%r)" % self.history()

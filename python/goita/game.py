"""A game: rounds to the target with dealer succession and scores (docs/RULES.md 5-7)."""

import ctypes

from . import _lib
from .errors import raise_for
from .move import as_move
from .round import Round, View
from .rules import Rules, as_rules


class Game:
    """A seeded game: Game(rules, seed) draws the first dealer and deals round 1. apply()
    plays moves of the current round (scoring it when it ends); next_round() deals the next.
    With record=True every round is kept for record() (needs libgoita-record)."""

    def __init__(self, rules=None, seed=0, record=False):
        self._c = _lib.goita_game()
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_start(ctypes.byref(self._c), ctypes.byref(as_rules(rules)._c), seed,
                                            ctypes.byref(err)), err)
        self._record = None
        if record:
            from .record import Record
            self._record = Record._for_game(self)

    rules = property(lambda self: Rules._from_c(self._c.rules))
    seed = property(lambda self: self._c.seed)
    over = property(lambda self: bool(self._c.over))
    winner_side = property(lambda self: self._c.winner_side if self._c.winner_side >= 0 else None)
    round_index = property(lambda self: self._c.round_index)
    first_dealer = property(lambda self: self._c.draw.dealer)

    @property
    def scores(self):
        """Points per side (teams 0 and 1 with 4 players), always in tens."""
        return list(self._c.score[:_lib.lib.goita_rules_sides(ctypes.byref(self._c.rules))])

    @property
    def round(self):
        """A copy of the current round (change the game only through apply())."""
        c = _lib.goita_round()
        ctypes.pointer(c)[0] = self._c.round
        return Round(c)

    def view(self, seat):
        """What seat may know: the round's view plus the scores."""
        v = View()
        raise_for(_lib.lib.goita_game_view(ctypes.byref(self._c), seat, ctypes.byref(v._c)))
        return v

    def legal_moves(self):
        return self.round.legal_moves()

    def apply(self, move):
        """Applies a Move or token to the current round, checked; scores the round when it ends."""
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_apply(ctypes.byref(self._c), as_move(move)._to_c(), ctypes.byref(err)), err)
        if self._record is not None and self._c.round.phase == 2:
            self._record.add_round(self)
        return self

    def next_round(self):
        """Deals the next round after the current one is over. Raises InvalidState before
        that and RoundOver once the game is over."""
        err = _lib.goita_error()
        raise_for(_lib.lib.goita_game_next_round(ctypes.byref(self._c), ctypes.byref(err)), err)
        if self._record is not None and self._c.round.phase == 2:
            self._record.add_round(self)  # decided at the deal (teyaku)
        return self

    def play(self, players):
        """Plays the game to its end with one Player per seat (or one for all); returns the scores."""
        if not isinstance(players, (list, tuple)):
            players = [players] * self._c.rules.players
        while True:
            while self._c.round.phase != 2:
                seat = self._c.round.turn
                self.apply(players[seat].choose(self.view(seat)))
            if self._c.over:
                return self.scores
            self.next_round()

    def record(self, names=None, engines=None):
        """The game so far as a Record (Game(..., record=True) only)."""
        if self._record is None:
            raise ValueError("this game keeps no record: create it with Game(..., record=True)")
        for s, name in enumerate(names or []):
            self._record.set_name(s, name)
        for s, engine in enumerate(engines or []):
            self._record.set_engine(s, engine)
        return self._record

"""Game records as JSON (docs/RECORDS.md), through libgoita-record. Reading a record replays
it: every deal, move and score is checked by the rules engine."""

import ctypes

from . import _lib
from .errors import raise_for
from .round import Round
from .rules import Rules


class Record:
    """A full-game record: rules, seed, players' names and engines, every round."""

    def __init__(self):
        self._lib = _lib.record_lib()
        self._c = _lib.goita_record()

    @classmethod
    def _for_game(cls, game):
        rec = cls()
        rec._lib.goita_record_init(ctypes.byref(rec._c), ctypes.byref(game._c))
        return rec

    @classmethod
    def from_json(cls, text):
        """Reads and replays a JSON record. Raises ParseError / InvalidValue / IllegalMove...
        with the library's message naming the field (e.g. rounds[2].history)."""
        rec = cls()
        raw = text.encode() if isinstance(text, str) else bytes(text)
        err = _lib.goita_error()
        raise_for(rec._lib.goita_record_read_json(ctypes.byref(rec._c), raw, len(raw), ctypes.byref(err)), err)
        return rec

    def to_json(self):
        out = ctypes.c_void_p()
        err = _lib.goita_error()
        raise_for(self._lib.goita_record_write_json(ctypes.byref(self._c), ctypes.byref(out), ctypes.byref(err)), err)
        try:
            return ctypes.string_at(out).decode()
        finally:
            _lib.libc_free(out)

    def add_round(self, game, started=None, finished=None):
        """Appends the game's current round (replacing an unfinished last one)."""
        err = _lib.goita_error()
        raise_for(self._lib.goita_record_add_round(
            ctypes.byref(self._c), ctypes.byref(game._c), started.encode() if started else None,
            finished.encode() if finished else None, ctypes.byref(err)), err)

    def set_name(self, seat, name):
        self._c.name[seat].value = name.encode()[:_lib.RECORD_NAME_SIZE - 1]

    def set_engine(self, seat, engine):
        self._c.engine[seat].value = engine.encode()[:_lib.RECORD_NAME_SIZE - 1]

    rules = property(lambda self: Rules._from_c(self._c.rules))
    seed = property(lambda self: self._c.seed if self._c.seeded else None)
    first_dealer = property(lambda self: self._c.first_dealer)
    over = property(lambda self: bool(self._c.over))
    winner_side = property(lambda self: self._c.winner_side if self._c.winner_side >= 0 else None)

    @property
    def names(self):
        return [self._c.name[s].value.decode() for s in range(self._c.rules.players)]

    @property
    def engines(self):
        return [self._c.engine[s].value.decode() for s in range(self._c.rules.players)]

    @property
    def scores(self):
        return list(self._c.score[:_lib.lib.goita_rules_sides(ctypes.byref(self._c.rules))])

    @property
    def rounds(self):
        """Every round as a Round (copies, full information)."""
        out = []
        for i in range(self._c.nrounds):
            c = _lib.goita_round()
            ctypes.pointer(c)[0] = self._c.rounds[i].round
            out.append(Round(c))
        return out

    def __len__(self):
        return self._c.nrounds

    def close(self):
        if getattr(self, "_c", None) is not None and self._c.rounds:
            self._lib.goita_record_free(ctypes.byref(self._c))

    def __del__(self):
        self.close()

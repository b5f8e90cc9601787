"""goita: Python binding of libgoita (the rules, notation, solver and computer players of the
Japanese team game Goita) through ctypes, and a multi-agent environment (goita.env).

The shared library is found through GOITA_LIBRARY_PATH (or GOITA_LIB), next to an installed
prefix, in this source tree's build directory, or on the system; see docs/PYTHON.md.
"""

from ._lib import version
from .errors import (GoitaError, IllegalMove, InvalidArgument, InvalidDeal, InvalidState, InvalidValue,
                     NoSpace, NotYourTurn, OutOfMemory, ParseError, RoundOver, UnknownOption)
from .game import Game
from .move import GO, PASS, PLAY, REDEAL, Move
from .player import Player, Thought
from .record import Record
from .round import OBSERVER, PHASE_DECIDE, PHASE_OVER, PHASE_PLAY, VIEWER_INFER, Round, RoundResult, View
from .rules import Rules
from .solver import Solution, Solver
from . import env
from . import batch

__all__ = [
    "version", "Rules", "Move", "Round", "View", "RoundResult", "Game", "Record", "Solver", "Solution",
    "Player", "Thought", "env", "GoitaError", "InvalidArgument", "ParseError", "UnknownOption", "InvalidValue",
    "IllegalMove", "NotYourTurn", "RoundOver", "NoSpace", "InvalidDeal", "InvalidState", "OutOfMemory",
    "PASS", "PLAY", "REDEAL", "GO", "OBSERVER", "VIEWER_INFER", "PHASE_DECIDE", "PHASE_PLAY", "PHASE_OVER",
]
__version__ = version()

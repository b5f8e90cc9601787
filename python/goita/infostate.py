"""The information-state encoding: everything one seat knows of a round (its own pieces,
every move as it saw it, five pawns shown, the end) and of the game (score and round
index), for algorithms that need the whole history rather than the observation's summary
(CFR and belief-based methods). GoitaEnv.information_state returns it; docs/PYTHON.md
documents it beside the observation.

It is built from the seat's goita_view only, so it holds nothing the seat cannot see, and it
keeps all of that view: two views that goita_view_same tells apart (or with different
scores, round index or seat) never share an encoding (python/tests/test_infostate.py).
Seats are relative to the viewer as in the observation; the viewer's own seat is stored too,
so the information sets of different seats stay apart.
"""

import ctypes

from . import _lib

INFO_LAYOUT = (
    ("seat", 0, 1),          # the viewer's seat (absolute)
    ("hand", 1, 8),          # own pieces per kind 1..8 now
    ("kings", 9, 1),         # own physical kings: bit 0 王, bit 1 玉
    ("dealer", 10, 1),       # relative seat of the dealer
    ("goshi", 11, 1),        # bit r: relative seat r showed 5 pawns
    ("phase", 12, 1),        # 0 five-pawn decision, 1 play, 2 over
    ("end", 13, 1),          # how the round ended: 0 not yet, 1 finish, 2 teyaku, 3 double 5 pawns, 4 redeal
    ("winner", 14, 1),       # relative seat of the round's winner, 255 when none
    ("teyaku_hand", 15, 12), # the hand shown for a teyaku (marks), 0s otherwise
    ("nlog", 27, 1),         # moves so far
    ("log", 28, 4 * _lib.MAX_LOG),  # per move: type (0 pass, 1 play, 2 redeal, 3 play on), relative
                                    # seat, block mark (0 when face-down and unseen), attack mark
    ("score", 28 + 4 * _lib.MAX_LOG, 8),        # game score per relative side, int16 little-endian, in tens
    ("round_index", 36 + 4 * _lib.MAX_LOG, 2),  # rounds dealt in the game (1 for the first), uint16 little-endian
)
INFO_SIZE = 38 + 4 * _lib.MAX_LOG
INFO_FIELDS = {name: (offset, length) for name, offset, length in INFO_LAYOUT}


def encode(view):
    """The encoding (INFO_SIZE bytes) of a goita_view."""
    players = view.players
    seat = view.seat
    rules = ctypes.byref(view.rules)
    sides = _lib.lib.goita_rules_sides(rules)

    def rel(s):
        return (s - seat) % players

    out = bytearray(INFO_SIZE)
    out[0] = seat
    out[1:9] = bytes(view.hand[1:9])
    out[9] = view.kings
    out[10] = rel(view.dealer)
    out[11] = sum(1 << rel(s) for s in range(players) if view.goshi >> s & 1)
    out[12] = view.phase
    out[13] = view.result.end
    out[14] = rel(view.result.winner) if view.result.winner >= 0 else 255
    out[15:27] = bytes(view.teyaku_hand)
    out[27] = view.nlog
    for i in range(view.nlog):
        m = view.log[i]
        out[28 + 4 * i:32 + 4 * i] = bytes((m.type, rel(m.seat), m.block, m.attack))
    at = INFO_FIELDS["score"][0]
    for r in range(sides):
        side = _lib.lib.goita_rules_side_of(rules, (seat + r) % players)
        out[at + 2 * r:at + 2 * r + 2] = view.score[side].to_bytes(2, "little", signed=True)
    out[INFO_FIELDS["round_index"][0]:] = view.round_index.to_bytes(2, "little")
    return bytes(out)

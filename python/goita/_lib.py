"""Loading libgoita with ctypes, mirrors of its public structs, and the prototypes.

Everything here follows include/goita/*.h; python/tests/test_structs.py compiles a small C
program against those headers and checks every size and offset below, so a header change
cannot silently break the binding.
"""

import ctypes
import ctypes.util
import os
import sys
from ctypes import (POINTER, Structure, c_bool, c_char, c_char_p, c_double, c_int, c_int8,
                    c_int16, c_size_t, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

# The library's ABI this binding mirrors (GOITA_ABI_VERSION in goita.h, docs/ABI.md): checked
# at import with every struct's size, so a library of another build fails loudly.
ABI_VERSION = 1

# Sizes from the headers (rules.h, round.h, piece.h, record.h, draw.h).
MAX_SEATS = 4
MAX_HAND = 12
MAX_PLAYS = MAX_HAND // 2
KIND_SLOTS = 9
MAX_LOG = 64
MAX_LEGAL = 64
RULES_TEXT_SIZE = 512
RECORD_NAME_SIZE = 256
RECORD_TIME_SIZE = 40
DRAW_MAX_ROUNDS = 8
OBSERVER = -1
VIEWER_INFER = -2

# C enums are ints with gcc and clang on every platform the library builds for.
c_enum = c_int


class goita_rules(Structure):
    _fields_ = [
        ("players", c_int),
        ("teyaku", c_bool),
        ("goshi", c_bool),
        ("goshi_decision", c_enum),
        ("double_goshi", c_enum),
        ("double_goshi_points", c_int),
        ("goshi_both_teams", c_enum),
        ("king_attack", c_enum),
        ("king_b", c_enum),
        ("king_face_down", c_enum),
        ("next_dealer", c_enum),
        ("target", c_int),
        ("draw", c_enum),
        ("three_player_set_aside", c_enum),
        ("scale", c_enum),
    ]


class goita_error(Structure):
    _fields_ = [("status", c_int), ("position", c_int), ("message", c_char * 200)]


class goita_rule_option(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("kind", c_enum),
        ("values", POINTER(c_char_p)),
        ("min", c_int),
        ("max", c_int),
        ("scaled", c_bool),
        ("default_value", c_char_p),
        ("section", c_char_p),
        ("seeds", c_char_p),
        ("help", c_char_p),
    ]


class goita_move(Structure):
    _fields_ = [("type", c_uint8), ("seat", c_uint8), ("block", c_uint8), ("attack", c_uint8)]


class goita_round_result(Structure):
    _fields_ = [
        ("end", c_enum),
        ("winner", c_int8),
        ("points", c_int16),
        ("doubled", c_bool),
        ("wins_game", c_bool),
    ]


class goita_round(Structure):
    _fields_ = [
        ("rules", goita_rules),
        ("deal_seed", c_uint64),
        ("players", c_int8),
        ("dealer", c_int8),
        ("turn", c_int8),
        ("attacker", c_int8),
        ("phase", c_uint8),
        ("attack", c_uint8),
        ("passes", c_uint8),
        ("kings_up", c_uint8),
        ("hand", (c_uint8 * KIND_SLOTS) * MAX_SEATS),
        ("held", c_uint16 * MAX_SEATS),
        ("kings", c_uint8 * MAX_SEATS),
        ("size", c_uint8 * MAX_SEATS),
        ("plays", c_uint8 * MAX_SEATS),
        ("block_row", (c_uint8 * MAX_PLAYS) * MAX_SEATS),
        ("attack_row", (c_uint8 * MAX_PLAYS) * MAX_SEATS),
        ("face_down", c_uint8 * MAX_SEATS),
        ("deal", (c_uint8 * MAX_HAND) * MAX_SEATS),
        ("aside", c_uint8 * 8),
        ("goshi", c_uint8),
        ("deciders", c_uint8),
        ("redeal_votes", c_uint8),
        ("go_votes", c_uint8),
        ("nlog", c_uint8),
        ("lead_log", c_uint64),
        ("log", goita_move * MAX_LOG),
        ("result", goita_round_result),
    ]


class goita_view(Structure):
    _fields_ = [
        ("rules", goita_rules),
        ("seat", c_int8),
        ("players", c_int8),
        ("dealer", c_int8),
        ("turn", c_int8),
        ("attacker", c_int8),
        ("phase", c_uint8),
        ("attack", c_uint8),
        ("passes", c_uint8),
        ("kings_up", c_uint8),
        ("hand", c_uint8 * KIND_SLOTS),
        ("kings", c_uint8),
        ("size", c_uint8 * MAX_SEATS),
        ("plays", c_uint8 * MAX_SEATS),
        ("block_row", (c_uint8 * MAX_PLAYS) * MAX_SEATS),
        ("attack_row", (c_uint8 * MAX_PLAYS) * MAX_SEATS),
        ("face_down", c_uint8 * MAX_SEATS),
        ("goshi", c_uint8),
        ("deciders", c_uint8),
        ("redeal_votes", c_uint8),
        ("go_votes", c_uint8),
        ("nlog", c_uint8),
        ("log", goita_move * MAX_LOG),
        ("result", goita_round_result),
        ("teyaku_hand", c_uint8 * MAX_HAND),
        ("score", c_int16 * MAX_SEATS),
        ("round_index", c_int16),
    ]


class goita_rng(Structure):
    _fields_ = [("s", c_uint64 * 4)]


class goita_draw_result(Structure):
    _fields_ = [
        ("method", c_enum),
        ("players", c_int8),
        ("dealer", c_int8),
        ("seat_of", c_int8 * MAX_SEATS),
        ("rounds", c_uint8),
        ("drawn", (c_uint8 * MAX_SEATS) * DRAW_MAX_ROUNDS),
    ]


class goita_game(Structure):
    _fields_ = [
        ("rules", goita_rules),
        ("seed", c_uint64),
        ("rng", goita_rng),
        ("draw", goita_draw_result),
        ("score", c_int16 * MAX_SEATS),
        ("score_before", c_int16 * MAX_SEATS),
        ("round_index", c_int16),
        ("over", c_bool),
        ("winner_side", c_int8),
        ("round", goita_round),
    ]


class goita_solve_options(Structure):
    _fields_ = [
        ("mode", c_enum),
        ("all_moves", c_int),
        ("max_nodes", c_uint64),
        ("max_ms", c_double),
    ]


class goita_solve_bounds(Structure):
    _fields_ = [("lower", c_int), ("upper", c_int)]


class goita_solve_result(Structure):
    _fields_ = [
        ("value", goita_solve_bounds),
        ("complete", c_int),
        ("nmoves", c_int),
        ("moves", goita_move * MAX_LEGAL),
        ("move_value", goita_solve_bounds * MAX_LEGAL),
        ("best", c_int),
        ("nodes", c_uint64),
        ("ms", c_double),
    ]


class goita_player_info(Structure):
    _fields_ = [
        ("nmoves", c_int),
        ("moves", goita_move * MAX_LEGAL),
        ("value", c_double * MAX_LEGAL),
        ("has_values", c_int),
        ("samples", c_int),
        ("deals", c_int * MAX_LEGAL),
        ("agree", c_int * MAX_LEGAL),
        ("nodes", c_uint64),
        ("ms", c_double),
    ]


class goita_record_round(Structure):
    _fields_ = [
        ("round", goita_round),
        ("score_before", c_int16 * MAX_SEATS),
        ("score_after", c_int16 * MAX_SEATS),
        ("started", c_char * RECORD_TIME_SIZE),
        ("finished", c_char * RECORD_TIME_SIZE),
    ]


class goita_record(Structure):
    _fields_ = [
        ("rules", goita_rules),
        ("seeded", c_bool),
        ("seed", c_uint64),
        ("generator", c_int),
        ("first_dealer", c_int),
        ("name", (c_char * RECORD_NAME_SIZE) * MAX_SEATS),
        ("engine", (c_char * RECORD_NAME_SIZE) * MAX_SEATS),
        ("started", c_char * RECORD_TIME_SIZE),
        ("finished", c_char * RECORD_TIME_SIZE),
        ("nrounds", c_int),
        ("capacity", c_int),
        ("rounds", POINTER(goita_record_round)),
        ("score", c_int16 * MAX_SEATS),
        ("over", c_bool),
        ("winner_side", c_int8),
    ]


# Every mirrored struct by its C name, for the layout test.
STRUCTS = {cls.__name__: cls for cls in (
    goita_rules, goita_rule_option, goita_error, goita_move, goita_round_result, goita_round, goita_view, goita_rng,
    goita_draw_result, goita_game, goita_solve_options, goita_solve_bounds, goita_solve_result,
    goita_player_info, goita_record_round, goita_record)}

# ---------------------------------------------------------------------------------------------
# Finding the shared libraries.

_HINT = ("set GOITA_LIBRARY_PATH to the directory that holds libgoita.so.0 (a build directory, "
         "or PREFIX/lib after cmake --install), or to the library file itself")


def _soname(stem):
    if sys.platform == "darwin":
        return ["%s.0.dylib" % stem, "%s.dylib" % stem]
    return ["%s.so.0" % stem, "%s.so" % stem]


def _candidates(stem):
    """Yields the paths to try for lib<stem>, in the documented order."""
    names = _soname(stem)
    for var in ("GOITA_LIBRARY_PATH", "GOITA_LIB"):
        value = os.environ.get(var)
        if not value:
            continue
        for entry in value.split(os.pathsep):
            if os.path.isdir(entry):
                for name in names:
                    yield os.path.join(entry, name)
            elif os.path.basename(entry).startswith(stem + "."):
                yield entry
            else:
                # A path to libgoita itself names the directory of the others too.
                for name in names:
                    yield os.path.join(os.path.dirname(entry), name)
    here = os.path.dirname(os.path.abspath(__file__))
    # Inside the package, where pip install ./python puts the library it builds.
    for name in names:
        yield os.path.join(here, name)
    # Installed under a prefix (PREFIX/lib/python3/dist-packages/goita, PREFIX/share/goita/...):
    # the libraries sit in PREFIX/lib, PREFIX/lib64 or PREFIX/lib/<multiarch>.
    multiarch = getattr(sys.implementation, "_multiarch", None)
    parent = here
    for _ in range(5):
        parent = os.path.dirname(parent)
        for sub in ("lib", "lib64") + ((os.path.join("lib", multiarch),) if multiarch else ()):
            for name in names:
                yield os.path.join(parent, sub, name)
    # This source tree's build directory (python/goita -> build).
    root = os.path.dirname(os.path.dirname(here))
    for build in ("build", "build-release", "build-asan"):
        for name in names:
            yield os.path.join(root, build, name)
    found = ctypes.util.find_library(stem[3:] if stem.startswith("lib") else stem)
    if found:
        yield found


def _load(stem):
    tried = []
    for path in _candidates(stem):
        if path in tried:
            continue
        tried.append(path)
        if os.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried[-1] = "%s (%s)" % (path, e)
    raise ImportError("goita: cannot find %s; %s. Tried: %s"
                      % (_soname(stem)[0], _HINT, ", ".join(tried) or "nothing"))


def check_abi(dll, path, structs=None, abi=ABI_VERSION):
    """Raises ImportError saying what differs when the library at path is not of the ABI
    this binding mirrors: its ABI version, then each mirrored struct's size."""
    structs = STRUCTS if structs is None else structs
    hint = "use the library built from the same source as this package (%s)" % _HINT
    try:
        abi_version, struct_size = dll.goita_abi_version, dll.goita_struct_size
    except AttributeError:
        raise ImportError("goita: %s has no goita_abi_version: it is older than this binding (ABI %d); %s"
                          % (path, abi, hint)) from None
    abi_version.restype, abi_version.argtypes = c_int, []
    struct_size.restype, struct_size.argtypes = c_size_t, [c_char_p]
    version = dll.goita_version
    version.restype, version.argtypes = c_char_p, []
    found = abi_version()
    if found != abi:
        raise ImportError("goita: %s (version %s) has ABI %d, this binding needs ABI %d; %s"
                          % (path, version().decode(), found, abi, hint))
    wrong = ["%s is %d bytes there, %d here" % (name, struct_size(name.encode()), ctypes.sizeof(cls))
             for name, cls in structs.items() if struct_size(name.encode()) != ctypes.sizeof(cls)]
    if wrong:
        raise ImportError("goita: %s (version %s, ABI %d) does not match this binding's structs: %s; %s"
                          % (path, version().decode(), found, "; ".join(wrong), hint))


lib, lib_path = _load("libgoita")
check_abi(lib, lib_path)

_record = None


def record_lib():
    """Returns libgoita-record, loaded on first use (only records need it, and jansson)."""
    global _record
    if _record is None:
        _record, _ = _load("libgoita-record")
        _prototypes(_record, _RECORD_PROTOTYPES)
    return _record


# ---------------------------------------------------------------------------------------------
# Prototypes: name -> (restype, argtypes).

_P = c_void_p
_PROTOTYPES = {
    "goita_version": (c_char_p, []),
    "goita_strerror": (c_char_p, [c_int]),
    "goita_err_name": (c_char_p, [c_int]),
    "goita_kind_value": (c_int, [c_int]),
    "goita_kind_total": (c_int, [c_int]),
    "goita_mark_kind": (c_int, [c_int]),
    "goita_mark_kanji": (c_char_p, [c_int]),
    "goita_mark_english": (c_char_p, [c_int]),
    "goita_rules_default": (None, [_P]),
    "goita_rules_parse": (c_int, [_P, c_char_p, _P]),
    "goita_rules_format": (c_int, [_P, c_char_p, c_size_t]),
    "goita_rules_validate": (c_int, [_P, _P]),
    "goita_rules_preset": (c_char_p, [_P]),
    "goita_rules_preset_names": (POINTER(c_char_p), []),
    "goita_rules_options": (POINTER(goita_rule_option), [POINTER(c_size_t)]),
    "goita_rules_hand_size": (c_int, [_P]),
    "goita_rules_sides": (c_int, [_P]),
    "goita_rules_side_of": (c_int, [_P, c_int]),
    "goita_rules_shown_points": (c_int, [_P, c_int]),
    "goita_round_deal": (c_int, [_P, _P, c_int, c_uint64]),
    "goita_round_setup": (c_int, [_P, _P, c_int, _P, _P]),
    "goita_round_legal_moves": (c_int, [_P, _P]),
    "goita_round_check": (c_int, [_P, goita_move, _P]),
    "goita_round_apply": (c_int, [_P, goita_move, _P]),
    "goita_round_apply_unchecked": (None, [_P, goita_move]),
    "goita_move_equal": (c_bool, [goita_move, goita_move]),
    "goita_round_view": (c_int, [_P, c_int, _P]),
    "goita_view_legal_moves": (c_int, [_P, _P]),
    "goita_move_parse": (c_int, [c_char_p, c_size_t, _P]),
    "goita_move_format": (c_int, [goita_move, c_char_p, c_size_t]),
    "goita_history_parse": (c_int, [_P, _P, c_char_p, _P]),
    "goita_history_parse_view": (c_int, [_P, _P, c_char_p, c_int, _P]),
    "goita_history_format_view": (c_int, [_P, c_char_p, c_size_t]),
    "goita_history_format": (c_int, [_P, c_char_p, c_size_t]),
    "goita_game_start": (c_int, [_P, _P, c_uint64, _P]),
    "goita_game_apply": (c_int, [_P, goita_move, _P]),
    "goita_game_next_round": (c_int, [_P, _P]),
    "goita_game_next_dealer": (c_int, [_P]),
    "goita_game_view": (c_int, [_P, c_int, _P]),
    "goita_rng_seed": (None, [_P, c_uint64]),
    "goita_view_sample": (c_int, [_P, _P, _P, _P]),
    "goita_view_same": (c_bool, [_P, _P]),
    "goita_solve_options_default": (None, [_P]),
    "goita_solver_new": (c_int, [POINTER(c_void_p), c_size_t]),
    "goita_solver_free": (None, [c_void_p]),
    "goita_solver_clear": (None, [c_void_p]),
    "goita_solver_table_entries": (c_size_t, [c_void_p]),
    "goita_solve": (c_int, [c_void_p, _P, _P, _P]),
    "goita_player_new": (c_int, [POINTER(c_void_p), c_char_p, _P]),
    "goita_player_free": (None, [c_void_p]),
    "goita_player_spec": (c_char_p, [c_void_p]),
    "goita_player_set": (c_int, [c_void_p, c_char_p, _P]),
    "goita_player_seed": (None, [c_void_p, c_uint64]),
    "goita_player_choose": (c_int, [c_void_p, _P, _P, _P]),
    "goita_player_levels": (POINTER(c_char_p), []),
    "goita_player_describe": (c_char_p, [c_char_p]),
}

_RECORD_PROTOTYPES = {
    "goita_record_init": (None, [_P, _P]),
    "goita_record_add_round": (c_int, [_P, _P, c_char_p, c_char_p, _P]),
    "goita_record_free": (None, [_P]),
    "goita_record_write_json": (c_int, [_P, POINTER(c_void_p), _P]),
    "goita_record_read_json": (c_int, [_P, c_char_p, c_size_t, _P]),
}


def _prototypes(dll, table):
    for name, (restype, argtypes) in table.items():
        fn = getattr(dll, name)
        fn.restype = restype
        fn.argtypes = argtypes


_prototypes(lib, _PROTOTYPES)

# free(), for the strings goita_record_write_json returns: looked up in the process's own
# namespace, as the dynamic linker resolves it for the library's malloc, so a preloaded
# allocator (AddressSanitizer's in the sanitizer build, or jemalloc) frees what it allocated.
_libc = ctypes.CDLL(None)
libc_free = _libc.free
libc_free.argtypes = [c_void_p]
libc_free.restype = None


def fast(name, restype=c_int):
    """Returns a second handle on a function with no argtypes: ctypes then skips argument
    conversion, which roughly halves the cost of a call. For the environment's hot path only,
    where every argument is already a byref() or a Python int of the right width."""
    fn = lib[name]
    fn.restype = restype
    return fn


def strings(ptr):
    """Returns the strings of a NULL-terminated char* array."""
    out = []
    i = 0
    while ptr[i]:
        out.append(ptr[i].decode())
        i += 1
    return out


def version():
    return lib.goita_version().decode()


# ---------------------------------------------------------------------------------------------
# The batched environment (include/goita/observation.h, include/goita/batch.h).

OBS_SIZE = 88
NUM_ACTIONS = 3 + 8 * 8
BATCH_ROUND, BATCH_GAME = 0, 1


class goita_batch_options(Structure):
    _fields_ = [("rules", goita_rules), ("episode", c_enum), ("reward_scale", ctypes.c_float)]


class goita_batch_arrays(Structure):
    _fields_ = [("obs", c_void_p), ("mask", c_void_p), ("rewards", c_void_p), ("terminated", c_void_p),
                ("seat", c_void_p)]


STRUCTS.update(goita_batch_options=goita_batch_options, goita_batch_arrays=goita_batch_arrays)
_prototypes(lib, {
    "goita_view_observe": (c_int, [_P, _P]),
    "goita_move_action": (c_int, [goita_move]),
    "goita_action_move": (c_int, [c_int, c_int, _P]),
    "goita_batch_options_default": (None, [_P]),
    "goita_batch_new": (c_int, [POINTER(c_void_p), _P, c_int, _P, _P]),
    "goita_batch_free": (None, [c_void_p]),
    "goita_batch_size": (c_int, [c_void_p]),
    "goita_batch_reset": (c_int, [c_void_p, _P, _P]),
    "goita_batch_step": (c_int, [c_void_p, _P, _P]),
    "goita_batch_step_random": (c_int, [c_void_p, _P]),
    "goita_batch_game": (POINTER(goita_game), [c_void_p, c_int]),
})

"""Every mirrored struct has the size and field offsets of the C headers: a small C program
compiled against include/ prints them, so a header change cannot silently break the binding."""

import ctypes
import ctypes.util
import os
import shutil
import subprocess

import pytest

from conftest import ROOT
from goita import _lib


def _checks():
    """(name, python value) of every sizeof and offsetof the C program prints."""
    out = []
    for name, cls in _lib.STRUCTS.items():
        out.append(("sizeof(%s)" % name, ctypes.sizeof(cls)))
        for field, *_ in cls._fields_:
            out.append(("offsetof(%s, %s)" % (name, field), getattr(cls, field).offset))
    return out


def test_sizes_and_offsets_match_the_headers(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler")
    checks = _checks()
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "goita/goita.h"', "int main(void) {"]
    lines += ['  printf("%%zu\\n", (size_t)%s);' % expr for expr, _ in checks]
    lines += ["  return 0;", "}"]
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "include"), str(src), "-o", str(exe)], check=True)
    c_values = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True,
                                               text=True).stdout.split()]
    wrong = ["%s: C %d, Python %d" % (expr, c, py) for (expr, py), c in zip(checks, c_values) if c != py]
    assert len(c_values) == len(checks)
    assert not wrong, "\n".join(wrong)


def test_the_checks_cover_every_struct():
    assert {"goita_rules", "goita_move", "goita_round", "goita_view", "goita_error", "goita_solve_options",
            "goita_solve_result", "goita_player_info", "goita_game", "goita_record"} <= set(_lib.STRUCTS)


def test_the_loaded_library_is_checked_at_import():
    """import goita checked the library's ABI version and struct sizes (check_abi); a library
    of another ABI, with another struct size, or without the check is refused, saying why."""
    _lib.check_abi(_lib.lib, _lib.lib_path)  # what import did
    assert _lib.lib.goita_struct_size(b"goita_round") == ctypes.sizeof(_lib.goita_round)
    with pytest.raises(ImportError, match=r"has ABI %d, this binding needs ABI %d" % (_lib.ABI_VERSION,
                                                                                      _lib.ABI_VERSION + 1)):
        _lib.check_abi(_lib.lib, _lib.lib_path, abi=_lib.ABI_VERSION + 1)

    class goita_round(ctypes.Structure):  # a mirror one byte short
        _fields_ = [("bytes", ctypes.c_uint8 * (ctypes.sizeof(_lib.goita_round) - 1))]

    with pytest.raises(ImportError, match=r"goita_round is %d bytes there, %d here"
                       % (ctypes.sizeof(_lib.goita_round), ctypes.sizeof(goita_round))):
        _lib.check_abi(_lib.lib, _lib.lib_path, structs={"goita_round": goita_round})
    # A library without goita_abi_version (libgoita before it, or any other library).
    libm = ctypes.util.find_library("m")
    with pytest.raises(ImportError, match="%s has no goita_abi_version" % libm):
        _lib.check_abi(ctypes.CDLL(libm), libm)

"""Every mirrored struct has the size and field offsets of the C headers: a small C program
compiled against include/ prints them, so a header change cannot silently break the binding."""

import ctypes
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

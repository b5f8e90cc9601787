"""Shared fixtures: the package from this tree, and the goita command beside the library."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import goita  # noqa: E402  (after the path is set)


def _goita_command():
    """The goita command of the build the library came from (GOITA_BIN overrides)."""
    if os.environ.get("GOITA_BIN"):
        return os.environ["GOITA_BIN"]
    here = os.path.join(os.path.dirname(os.path.realpath(goita._lib.lib_path)), "goita")
    if os.access(here, os.X_OK):
        return here
    return shutil.which("goita")


@pytest.fixture(scope="session")
def cli():
    """Runs the goita command and returns its stdout (skips when there is none)."""
    path = _goita_command()
    if not path:
        pytest.skip("no goita command beside the library (set GOITA_BIN)")

    def run(*args):
        return subprocess.run([path, *args], check=True, capture_output=True, text=True).stdout

    return run

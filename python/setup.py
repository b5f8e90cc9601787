"""pip install ./python: builds libgoita (and libgoita-record) with CMake from this source tree
and installs the goita package with the libraries inside it, so that no PYTHONPATH or
GOITA_LIBRARY_PATH is needed. Offline with Debian's python3-setuptools and python3-wheel:

    pip install --no-build-isolation --no-index ./python

The CMake configure step needs what scripts/setup.sh installs. GOITA_CMAKE_ARGS adds CMake
arguments (e.g. "-DCMAKE_C_COMPILER=clang"). docs/PYTHON.md and docs/ABI.md say more."""

import os
import re
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIBRARIES = {"goita_shared": "libgoita.so.0", "goita_record_shared": "libgoita-record.so.0"}


def version():
    with open(os.path.join(ROOT, "include", "goita", "goita.h"), encoding="utf-8") as f:
        return re.search(r'#define GOITA_VERSION_STRING "([^"]+)"', f.read()).group(1)


class BuildWithLibrary(build_py):
    """Copies the Python files, then builds the shared libraries with CMake into the package."""

    def run(self):
        super().run()
        build_dir = os.path.join(os.path.abspath(self.get_finalized_command("build").build_temp), "cmake")
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        # No test suite (Criterion) and no -Werror: an installer's newer compiler may warn.
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release",
                               "-DGOITA_TESTS=OFF", "-DGOITA_WERROR=OFF",
                               *shlex.split(os.environ.get("GOITA_CMAKE_ARGS", ""))])
        subprocess.check_call(["cmake", "--build", build_dir, "--target", *LIBRARIES])
        package_dir = os.path.join(self.build_lib, "goita")
        for name in LIBRARIES.values():
            # The file itself (the build's libgoita.so.0 is a link to libgoita.so.0.x.y).
            shutil.copyfile(os.path.realpath(os.path.join(build_dir, name)), os.path.join(package_dir, name))


class BinaryDistribution(Distribution):
    """The package holds a compiled library: its wheel is for this platform only."""

    def has_ext_modules(self):
        return True


setup(
    name="goita",
    version=version(),
    description="The Japanese team game Goita: rules, solver, computer players and a PettingZoo-style environment",
    packages=["goita"],
    python_requires=">=3.9",
    cmdclass={"build_py": BuildWithLibrary},
    distclass=BinaryDistribution,
    zip_safe=False,
)

#!/usr/bin/env bash
# pip install ./python, offline, into a fresh venv (Debian's setuptools and wheel through
# --system-site-packages): CMake builds libgoita into the package, and the installed package
# imports and plays with no PYTHONPATH and no GOITA_LIBRARY_PATH, from outside the tree.
# Usage: pip_install.sh SOURCE_DIR PYTHON3
set -euo pipefail
root=$1
python=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$python" -m venv --system-site-packages "$tmp/venv"
# setuptools' build directories in the temporary directory (DIST_EXTRA_CONFIG): nothing left
# in the source tree, and nothing from an earlier build taken for this one.
mkdir "$tmp/egg"
printf '[build]\nbuild_base = %s\n[egg_info]\negg_base = %s\n' "$tmp/build" "$tmp/egg" >"$tmp/setup.cfg"
DIST_EXTRA_CONFIG=$tmp/setup.cfg CMAKE_BUILD_PARALLEL_LEVEL=2 PIP_NO_CACHE_DIR=1 \
  "$tmp/venv/bin/pip" install --quiet --no-build-isolation --no-index "$root/python"

cd "$tmp"
env -u PYTHONPATH -u GOITA_LIBRARY_PATH -u GOITA_LIB -u LD_LIBRARY_PATH -u LD_PRELOAD \
  "$tmp/venv/bin/python" - "$tmp/venv" "$root" <<'PY'
import os, random, re, sys
venv, root = sys.argv[1], sys.argv[2]
import goita
from goita import _lib
from goita.env import GoitaEnv

package = os.path.dirname(goita.__file__)
assert package.startswith(venv), "goita imported from %s, not the venv" % package
assert _lib.lib_path == os.path.join(package, "libgoita.so.0"), _lib.lib_path
header = open(os.path.join(root, "include", "goita", "goita.h")).read()
assert goita.version() == re.search(r'GOITA_VERSION_STRING "([^"]+)"', header).group(1)
env = GoitaEnv(episode="game")
env.reset(seed=3)
rng = random.Random(3)
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
game = goita.Game(seed=3, record=True)
game.play([goita.Player("rules", seed=1)] * 4)
record = goita.Record.from_json(game.record().to_json())  # libgoita-record, from the package too
assert record.scores == game.scores
print("installed goita %s at %s: a game episode and a record round trip" % (goita.version(), package))
PY

#!/usr/bin/env bash
# Sets up (system packages, build) and runs the main job: a seeded game between computer
# players, printed move by move. Arguments go to `goita watch` (e.g. --seed 7 --ascii).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh build >/dev/null
exec build/goita watch "$@"

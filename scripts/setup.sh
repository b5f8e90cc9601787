#!/usr/bin/env bash
# Installs the system packages the project needs (Debian 12), then configures and builds.
# Needs only Debian's packages: the Node.js tools the tests use are set up by test-tools.sh.
# The web client's font is made here from Debian's IPA Gothic (scripts/web-font.sh).
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true

. scripts/packages.sh
ensure_packages build-essential cmake ninja-build pkg-config libcriterion-dev libjansson-dev libedit-dev libncurses-dev tmux libwebsockets-dev libsqlite3-dev libpq-dev libsodium-dev libnats-dev libicu-dev john-data openssl \
  fonts-ipafont-gothic python3-fonttools python3-brotli python3-numpy python3-setuptools python3-wheel python3-venv
scripts/web-font.sh # the browser client's kanji font, cut from IPA Gothic
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build"

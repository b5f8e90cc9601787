#!/usr/bin/env bash
# Installs the system packages the project needs (Debian 12), then configures and builds.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true

. scripts/packages.sh
ensure_packages build-essential cmake ninja-build pkg-config libcriterion-dev libjansson-dev libedit-dev libncurses-dev tmux libwebsockets-dev libsqlite3-dev
# Node.js runs goita-core, the independent engine the differential test compares against,
# and the reference player (the machine's own Node.js when it has one, else Debian's).
command -v node >/dev/null && command -v npm >/dev/null || ensure_packages nodejs npm
if [ ! -d tools/goita-core/node_modules/goita-core ]; then
  (cd tools/goita-core && npm ci --no-audit --no-fund)
fi
# goita-ai-sample's SimpleAI: the external reference player of goita match (docs/STRENGTH.md).
if [ ! -d tools/goita-ai-sample/node_modules/goita-ai-sample ]; then
  (cd tools/goita-ai-sample && npm ci --no-audit --no-fund)
fi

# The server's restart, browser and load tests: ws and playwright-core (no browser download).
if [ ! -d tools/e2e/node_modules/ws ]; then
  (cd tools/e2e && npm ci --no-audit --no-fund)
fi

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build"

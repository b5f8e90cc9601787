#!/usr/bin/env bash
# Installs what only the tests need, beside the build: Node.js (the machine's own when it has
# one, else Debian's) and, from the npm registry, goita-core (the independent engine of the
# differential test), goita-ai-sample (the reference player of the match tests) and ws with
# playwright-core (the server's restart, browser and load tests; no browser download), and
# Debian's Chromium for the browser test, python3-pytest for the Python binding's tests and
# PostgreSQL for the store tests on PostgreSQL (a server started per test run, never the system's), the
# NATS server of the several-servers test (started likewise), HAProxy for the cluster of
# scripts/cluster.sh (Debian's packages also install system services, which the tests never use),
# libfaketime for the clock steps of the fault-injection harness (tests/e2e/chaos.js), and
# emscripten for the WebAssembly build of the browser client's offline play (scripts/wasm.sh).
# ./run.sh never needs any of it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
ensure_packages chromium python3-pytest postgresql-15 nats-server haproxy libfaketime emscripten
command -v node >/dev/null && command -v npm >/dev/null || ensure_packages nodejs npm
for tool in goita-core goita-ai-sample e2e; do
  case $tool in
    e2e) installed=tools/e2e/node_modules/axe-core ;; # the newest of its packages
    *) installed=tools/$tool/node_modules/$tool ;;
  esac
  [ -d "$installed" ] || (cd "tools/$tool" && npm ci --no-audit --no-fund)
done

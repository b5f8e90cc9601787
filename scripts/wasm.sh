#!/usr/bin/env bash
# Builds libgoita as WebAssembly for the browser client's offline play and analysis
# (web/worker.js): build-wasm/goita.js and goita.wasm from the library's sources (the list in
# CMakeLists.txt) and src/wasm/goita_wasm.c, then copies them to web/wasm/, where goita serve
# or any static host serves them. Built, never committed. Does nothing when the output is
# newer than every source. Needs Debian's emscripten (installed here when missing).
# Usage: scripts/wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
ensure_packages emscripten
# Debian's emcc runs its JavaScript tools with the machine's node, which must find Debian's
# node modules (acorn) when it is not Debian's own node.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
out=build-wasm
mkdir -p "$out" web/wasm
mapfile -t sources < <(sed -n '/^set(GOITA_LIB_SOURCES/,/)/p' CMakeLists.txt | tr ' ()' '\n\n\n' | grep '\.c$')
if [ -f "$out/goita.wasm" ] && [ -z "$(find "${sources[@]}" src/wasm include scripts/wasm.sh -newer "$out/goita.wasm")" ]; then
  echo "wasm: $out/goita.wasm is up to date"
else
  start=$(date +%s)
  emcc -std=c11 -O3 -DNDEBUG -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow -Wconversion -Wmissing-prototypes -Werror \
    -Iinclude -Isrc -Isrc/wasm "${sources[@]}" src/wasm/goita_wasm.c -o "$out/goita.js" \
    -sMODULARIZE=1 -sEXPORT_NAME=createGoita -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 \
    -sINITIAL_MEMORY=64MB -sFILESYSTEM=0 -sEXPORTED_RUNTIME_METHODS=ccall
  echo "wasm: built $out/goita.wasm ($(stat -c %s "$out/goita.wasm") bytes) in $(($(date +%s) - start)) s"
fi
cp "$out/goita.js" "$out/goita.wasm" web/wasm/

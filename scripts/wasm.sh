#!/usr/bin/env bash
# Builds libgoita and libkoshogi as WebAssembly with Debian's emscripten (installed here when missing):
# - build-wasm/goita.js + goita.wasm, the library with src/wasm/goita_wasm.c for the browser
#   client's offline play and analysis (web/worker.js), copied to web/wasm/ where goita serve
#   or any static host serves them (built, never committed);
# - build-wasm/koshogi.js + koshogi.wasm, libkoshogi with src/wasm/koshogi_wasm.c for the Ko shogi
#   page (web/koshogi-worker.js), copied to web/wasm/ likewise;
# - build-wasm/goita-bench.js, goita bench for node, to compare the builds (docs/BENCHMARKS.md).
# Sources are the libraries' lists in CMakeLists.txt. Each output is rebuilt only when a source
# is newer. Usage: scripts/wasm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/packages.sh
ensure_packages emscripten
# Debian's emcc runs its JavaScript tools with the machine's node, which must find Debian's
# node modules (acorn) when it is not Debian's own node.
export NODE_PATH=${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs
out=build-wasm
mkdir -p "$out" web/wasm
mapfile -t library < <(sed -n '/^set(GOITA_LIB_SOURCES/,/)/p' CMakeLists.txt | tr ' ()' '\n\n\n' | grep '\.c$')
mapfile -t koshogi < <(sed -n '/^add_library(koshogi_static/,/)/p' CMakeLists.txt | tr ' ()' '\n\n\n' | grep '\.c$')
flags=(-std=c11 -O3 -DNDEBUG -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow -Wconversion -Wmissing-prototypes
  -Werror -Iinclude -Isrc -sALLOW_MEMORY_GROWTH=1)

# build OUTPUT SOURCE... -- EMCC_OPTION...: compiles the sources (a library's and its glue) into
# OUTPUT unless OUTPUT is newer than every source, header and this script.
build() {
  local output=$1 sources=() start
  shift
  while [ "$1" != -- ]; do sources+=("$1"); shift; done
  shift
  if [ -f "$output" ] && [ -z "$(find "${sources[@]}" src include scripts/wasm.sh -newer "$output" -name '*.[ch]' -o -newer "$output" -name wasm.sh)" ]; then
    echo "wasm: $output is up to date"
    return
  fi
  start=$(date +%s)
  emcc "${flags[@]}" "${sources[@]}" -o "$output" "$@"
  echo "wasm: built $output in $(($(date +%s) - start)) s"
}

build "$out/goita.js" "${library[@]}" src/wasm/goita_wasm.c -- -Isrc/wasm -sMODULARIZE=1 -sEXPORT_NAME=createGoita \
  -sENVIRONMENT=web,worker,node -sINITIAL_MEMORY=64MB -sFILESYSTEM=0 -sEXPORTED_RUNTIME_METHODS=ccall
build "$out/goita-bench.js" "${library[@]}" src/wasm/bench_main.c src/cli/bench.c src/cli/cli_util.c src/cli/options.c src/cli/files.c -- -Isrc/cli \
  -sENVIRONMENT=node -sINITIAL_MEMORY=256MB -sSINGLE_FILE=1
build "$out/koshogi.js" "${koshogi[@]}" src/wasm/koshogi_wasm.c -- -Isrc/wasm -sMODULARIZE=1 -sEXPORT_NAME=createKoshogi \
  -sENVIRONMENT=web,worker,node -sINITIAL_MEMORY=16MB -sFILESYSTEM=0 -sEXPORTED_RUNTIME_METHODS=ccall
for name in goita koshogi; do
  echo "wasm: $name.wasm is $(stat -c %s "$out/$name.wasm") bytes, $name.js $(stat -c %s "$out/$name.js") bytes"
  cp "$out/$name.js" "$out/$name.wasm" web/wasm/
done

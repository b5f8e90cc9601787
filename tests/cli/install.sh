#!/usr/bin/env bash
# An installed libgoita used by another program: `cmake --install` into a scratch prefix, then
# a small program (tests/install/example.c) built out of the tree with pkg-config (shared and
# static) and with find_package(goita), each run.
# Usage: install.sh BUILD_DIR SOURCE_DIR (CONSUMER_FLAGS: more compiler flags for the program, as
# a sanitizer build's libraries need)
. "$(dirname "$0")/common.sh" "$1"
build=$1
src=$2
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "cmake --install: $(tail -3 "$tmp/install.log")"
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1 | xargs dirname)
export PKG_CONFIG_PATH=$libdir/pkgconfig

check_run() { # NAME PROGRAM [env...]
  local name=$1 program=$2
  out=$(LD_LIBRARY_PATH=$libdir "$program" 2>&1) || fail "$name: the program failed: $out"
  case $out in "goita "*": "*" moves, first value "*", record written") ;; *) fail "$name: $out" ;; esac
}

# pkg-config, shared libraries: the program needs the SONAMEs at run time.
pkg-config --exists goita goita-record || fail "pkg-config does not find goita: $(pkg-config --errors-to-stdout --print-errors goita)"
cc -std=c11 -Wall -Werror ${CONSUMER_FLAGS:-} -o "$tmp/shared" "$src/tests/install/example.c" \
  $(pkg-config --cflags --libs goita-record goita) 2>"$tmp/cc.log" || fail "pkg-config build: $(cat "$tmp/cc.log")"
check_run pkg-config-shared "$tmp/shared"
readelf -d "$tmp/shared" | grep -q 'NEEDED.*libgoita.so.0' || fail "the program does not need libgoita.so.0"
# libgoita itself needs only the C library (records and jansson are libgoita-record's).
readelf -d "$libdir/libgoita.so.0" | grep -q jansson && fail "libgoita.so needs jansson"

# pkg-config, static libraries.
cc -std=c11 -Wall -Werror ${CONSUMER_FLAGS:-} -o "$tmp/static" "$src/tests/install/example.c" \
  $(pkg-config --cflags goita) "$libdir/libgoita-record.a" "$libdir/libgoita.a" $(pkg-config --libs jansson) -lm \
  2>"$tmp/cc.log" || fail "static build: $(cat "$tmp/cc.log")"
readelf -d "$tmp/static" | grep -q 'libgoita' && fail "the static program still needs a libgoita .so"
check_run pkg-config-static "$tmp/static"

# find_package(goita) from a CMake project outside the tree.
cmake -S "$src/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="${CONSUMER_FLAGS:-}" -DCMAKE_EXE_LINKER_FLAGS="${CONSUMER_FLAGS:-}" >"$tmp/cmake.log" 2>&1 ||
  fail "find_package(goita): $(tail -5 "$tmp/cmake.log")"
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || fail "consumer build: $(tail -5 "$tmp/build.log")"
check_run find_package "$tmp/consumer/example"

finish install

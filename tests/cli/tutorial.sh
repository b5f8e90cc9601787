#!/usr/bin/env bash
# The browser client's tutorial (tests/e2e/tutorial.js) in Chromium: every lesson's exercise
# passed by clicks, checked by the WebAssembly build (scripts/wasm.sh, which scripts/test.sh
# runs first) served by goita serve. Usage: tutorial.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
if serve_web tutorial; then
  node "$e2e/tutorial.js" "$url" ||
    fail "every lesson of the tutorial passed by clicks, desktop and phone, English and Japanese, each rule set"
fi
finish tutorial

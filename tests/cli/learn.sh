#!/usr/bin/env bash
# Learning in the browser client (tests/e2e/learn.js) in Chromium: the puzzle of the day solved
# by clicks, a hint during an offline game (WebAssembly, scripts/wasm.sh) with its reasons and
# the unseen count, at desktop and phone size in English and Japanese.
# Usage: learn.sh PATH_TO_GOITA [SCREENSHOT_DIR]
. "$(dirname "$0")/common.sh"
if serve_web learn; then
  node "$e2e/learn.js" "$url" ${2:+"$2"} ||
    fail "the puzzle of the day solved, a hint with its reasons and the unseen count, desktop and phone, both languages"
fi
finish learn

#!/usr/bin/env bash
# The table finished (tests/e2e/table-finished.js) in Chromium: seated on create, filled with
# computers in one click, an online round's biggest mistakes and analysis from the WebAssembly
# build, the analysis's words, the offline deal after the pause and a missing game's page.
# Usage: table_finished.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
if serve_web finished --round-pause 1000; then
  timeout 200 node "$e2e/table-finished.js" "$url" || fail "the table finished"
fi
finish table_finished

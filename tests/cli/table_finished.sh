#!/usr/bin/env bash
# The table finished (tests/e2e/table-finished.js) in Chromium: seated on create, filled with
# computers in one click, an online round's biggest mistakes and analysis from the WebAssembly
# build, the analysis's words, the lobby's time controls, the career statistics, a seat taken
# over by a spectator, the offline deal after the pause and a missing game's page.
# Usage: table_finished.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
# a grace of 2 s: a person gone that long has a computer standing in, whose seat may be taken over
if serve_web finished --round-pause 1000 --seat-grace 2; then
  timeout 200 node "$e2e/table-finished.js" "$url" || fail "the table finished"
fi
finish table_finished

#!/usr/bin/env bash
# Bots on the server (tests/e2e/bot.js): a bot account made over the WebSocket plays a person in
# Chromium through `goita bot`, marked as a bot at the table, and lands on the bots' leaderboard.
# Usage: bot.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
if serve_web bot --round-pause 300; then
  timeout 120 node "$e2e/bot.js" "$url" "$goita" || fail "a bot playing a person"
fi
finish bot

#!/usr/bin/env bash
# Plays every level against every other and against the reference player (goita-ai-sample's
# SimpleAI), and prints the docs/STRENGTH.md table: one row per match, from its JSON line.
# Usage: scripts/strength.sh [GAMES] [OUT.jsonl]   (GAMES per match, default 480: 2000 rounds or
# more even when one side wins quickly)
# Matches already in OUT.jsonl are not played again, so an interrupted run can go on.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-480}
out=${2:-strength.jsonl}
goita=build/goita
reference="engine:node tools/goita-ai-sample/adapter.js"
levels=(random rules sampler expert fast master_2026_11 master)

touch "$out"
play() {
  # a level's name alone or followed by its parameters ("master" is not "master_2026_11")
  if grep -e "\"a\":\"$1:" -e "\"a\":\"$1\"" -F "$out" | grep -qF -e "\"b\":\"$2:" -e "\"b\":\"$2\""; then return; fi
  echo "match: $1 vs $2" >&2
  # the reference's own solver can take minutes over one move on a loaded machine
  "$goita" match --games "$games" --seed 2026 --engine-timeout 1200 --quiet "$1" "$2" | tee -a "$out"
}
# the strongest levels against the reference first: they are the claims that matter most
play expert "$reference"
play sampler "$reference"
# then every pair, the stronger level as A, the quick levels' matches first
for ((i = 1; i < ${#levels[@]}; i++)); do
  for ((j = i - 1; j >= 0; j--)); do play "${levels[i]}" "${levels[j]}"; done
done
play rules "$reference"
play random "$reference"
# the reference takes up to minutes over a move: the budgeted levels' matches with it come last
play fast "$reference"
play master "$reference"
play master_2026_11 "$reference"

# The table: A, B, rounds, points per round ± SE, A's game wins, ms per move.
echo
echo "| A | B | rounds | A−B points per round | A's game wins | ms per move (A / B) |"
echo "|---|---|---|---|---|---|"
sed -e 's/^{"a":"\([^"]*\)","b":"\([^"]*\)","rounds":\([0-9]*\),"points_per_round":\([-0-9.]*\),"stderr":\([0-9.]*\),"games":\([0-9]*\),"a_game_wins":\([0-9]*\),"a_ms_per_move":\([0-9.]*\),"b_ms_per_move":\([0-9.]*\)}$/\1|\2|\3|\4|\5|\6|\7|\8|\9/' "$out" |
  awk -F'|' '{ a = $1; b = $2; sub(/:.*/, "", a); if (b ~ /^engine:/) b = "SimpleAI (reference)";
               sub(/:.*/, "", b);
               printf "| %s | %s | %d | %+.2f ± %.2f | %d of %d (%.0f%%) | %.1f / %.1f |\n",
                      a, b, $3, $4, $5, $7, $6, 100 * $7 / $6, $8, $9 }'

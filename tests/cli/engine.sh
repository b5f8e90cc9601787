#!/usr/bin/env bash
# goita engine: scripted sessions of the line protocol (docs/PROTOCOL.md), malformed lines
# included; every bad line gets an "error" reply and the session goes on.
# Usage: engine.sh PATH_TO_GOITA
set -u
goita=$1
failures=0

fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

# Runs a session (one command per argument) and prints the replies.
session() { printf '%s\n' "$@" | "$goita" engine --player rules; }

out=$(session goita isready quit)
[ "$out" = "$(printf 'id name goita %s (rules)\nid author the goita project\ngoitaok 1\nreadyok' "$("$goita" version | cut -d' ' -f2)")" ] ||
  fail "handshake: $out"

# Legal moves and a move, from a full position and from the seat's own view.
out=$(session "position 12345678,12345679,11112345,11112345,s1,113" legal)
[ "$out" = "legal 2p 231 232 234 235 236 237 281 282 283 284 285 286 287" ] || fail "legal: $out"
out=$(session "position 1xxxxxxx,12345679,xxxxxxxx,xxxxxxxx,s1,1x3" "go seed 1")
case $out in
  *'info move 2p value '*$'\n''bestmove 2'[0-9p]*) ;;
  *) fail "go from a view: $out" ;;
esac
# The same view from both strings gives the same move.
a=$(session "position 12345678,12345679,11112345,11112345,s1,113" "go seed 9" | tail -1)
b=$(session "position 1xxxxxxx,12345679,xxxxxxxx,xxxxxxxx,s1,1x3" "go seed 9" | tail -1)
[ "$a" = "$b" ] || fail "full and hidden strings: $a / $b"

# Errors are replies, and the engine keeps answering after them.
out=$(session "frobnicate" "rules king_attak=a_or_b" "position 1234" "go" "legal" \
  "position 12345678,xxxxxxxx,xxxxxxxx,xxxxxxxx,s1,113" "go" "go depth 3" "score 10 x" \
  "position 12345678,12345679,11112345,11112345,s1,112,2p,3p,4p,134,2p,3p,4p,156,2p,3p,4p,178" "go" \
  "$(head -c 5000 /dev/zero | tr '\0' a)" isready)
expect=(
  'error unknown command "frobnicate"'
  'error rules: unknown rule option "king_attak"'
  'error position: token 1 "1234"'
  'error go: no position'
  'error legal: no position'
  "error go: the position is seat 1's view, and seat 2 is to move"
  'error go: unknown argument "depth"'
  'error score: "x" is not'
  'error go: the round is over'
  'error line longer than 4096 bytes'
  'readyok'
)
i=0
while IFS= read -r line; do
  case $line in
    "${expect[$i]}"*) ;;
    *) fail "reply $((i + 1)): got \"$line\", wanted \"${expect[$i]}...\"" ;;
  esac
  i=$((i + 1))
done <<<"$out"
[ "$i" -eq "${#expect[@]}" ] || fail "$i replies, wanted ${#expect[@]}: $out"

[ "$failures" -eq 0 ] && echo "engine: all checks passed"
exit "$failures"

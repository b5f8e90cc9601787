#!/usr/bin/env bash
# goita engine: scripted sessions of the line protocol (docs/PROTOCOL.md), malformed lines
# included; every bad line gets an "error" reply and the session goes on.
# Usage: engine.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
# Checks that the replies on standard input begin, in order, with the lines of expect; sets i
# to how many were read. $1 names the check in a failure.
check_replies() {
  i=0
  while IFS= read -r line; do
    case $line in
      "${expect[$i]}"*) ;;
      *) fail "$1reply $((i + 1)): got \"$line\", wanted \"${expect[$i]}...\"" ;;
    esac
    i=$((i + 1))
  done
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
# The master level says, for each move, in how many deals it was valued and was a best move;
# its budget counts work, so "ms" leaves the move reproducible.
out=$(printf '%s\n' "position 1xxxxxxx,12345679,xxxxxxxx,xxxxxxxx,s1,1x3" "go seed 1 ms 3" "go seed 1 ms 3" |
  "$goita" engine --player master)
case $out in
  *'info move 2p value '*' deals '[1-9]*' agree '[0-9]*$'\n'*'bestmove '*) ;;
  *) fail "master's explanations: $out" ;;
esac
[ "$(printf '%s\n' "$out" | grep -c '^bestmove')" = 2 ] &&
  [ "$(printf '%s\n' "$out" | grep '^bestmove' | sort -u | wc -l)" = 1 ] || fail "master, same seed twice: $out"
# The same view from both strings gives the same move.
a=$(session "position 12345678,12345679,11112345,11112345,s1,113" "go seed 9" | tail -1)
b=$(session "position 1xxxxxxx,12345679,xxxxxxxx,xxxxxxxx,s1,1x3" "go seed 9" | tail -1)
[ "$a" = "$b" ] || fail "full and hidden strings: $a / $b"

# A round dealt by the engine, moves played on, views of each seat, the solver, options.
out=$(session "newround seed 5 dealer 2" "moves 213 3p" "view" "view 1" "view observer" "legal" \
  "setoption samples=8" "goita" "solve nodes 50000000")
want_start="position 11235678,11112349,11223345,11445567,s2
view xxxxxxxx,3xxxxxxx,xxxxxxxx,11445567,s2,2x3,3p
view 11235678,3xxxxxxx,xxxxxxxx,xxxxxxxx,s2,2x3,3p
view xxxxxxxx,3xxxxxxx,xxxxxxxx,xxxxxxxx,s2,2x3,3p
legal 4p
error setoption: level rules has no parameter \"samples\""
case $out in
  "$want_start"*'goitaok 1'*'info move 4p value -30'*'info nodes '*' complete 1'$'\n''value -30') ;;
  *) fail "newround, moves, view, solve: $out" ;;
esac
# The solver agrees with goita solve on the same position.
want=$("$goita" solve 11235678,11112349,11223345,11445567,s2,213,3p | sed -e 's/.*"value":\([-0-9]*\),"moves".*/\1/')
[ "$want" = "-30" ] || fail "goita solve gives $want"
# A time budget for a searching level.
out=$(printf '%s\n' "newround seed 5 dealer 2" "go seed 2 ms 30" | "$goita" engine --player sampler:samples=4000 | tail -2)
case $out in
  'info samples '*' ms '*$'\n''bestmove 2'*) ;;
  *) fail "go with ms: $out" ;;
esac
samples=$(printf '%s' "$out" | sed -n -e 's/^info samples \([0-9]*\) .*/\1/p')
[ "$samples" -lt 4000 ] || fail "a 30 ms budget took all $samples samples"

# Errors are replies, and the engine keeps answering after them.
out=$(session "frobnicate" "rules king_attak=a_or_b" "position 1234" "go" "legal" \
  "position 12345678,xxxxxxxx,xxxxxxxx,xxxxxxxx,s1,113" "go" "go depth 3" "score 10 x" \
  "position 12345678,12345679,11112345,11112345,s1,112,2p,3p,4p,134,2p,3p,4p,156,2p,3p,4p,178" "go" \
  "$(head -c 5000 /dev/zero | tr '\0' a)" "moves 999" "view 7" "solve depth 3" "newround dealer 9" \
  "position 1xxxxxxx,12345679,xxxxxxxx,xxxxxxxx,s1,1x3" "view 3" "solve" "setoption level=9" isready)
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
  'error moves: token 19 "999": a move is written as'
  'error view: "7" is not a seat (1-4) or observer'
  'error solve: unknown argument "depth"'
  'error newround: dealer "9" is not a seat'
  "error view: the position is seat 2's view; other views need the full position"
  'error solve: the solver needs a full position'
  'error setoption: level rules has no parameter "level"'
  'readyok'
)
check_replies "" <<<"$out"
[ "$i" -eq "${#expect[@]}" ] || fail "$i replies, wanted ${#expect[@]}: $out"

# A NUL byte costs its own line only (the next command is answered), and what a reply quotes
# is escaped: ESC, a CR inside a line, a backslash and bytes that are not UTF-8 come back as
# \xNN (\\), so a reply is one line of valid UTF-8 that cannot drive a terminal.
printf 'a\000b\nisready\n\033[2Jx\ry\377\303\\\nposition \342\200\224\nquit\n' | "$goita" engine >"$tmp/out"
expect=(
  'error the line has a NUL byte'
  'readyok'
  'error unknown command "\x1B[2Jx\x0Dy\xFF\xC3\\"'
  'error position: '
)
check_replies "escaping, " <"$tmp/out"
[ "$i" -eq "${#expect[@]}" ] || fail "escaping: $i replies, wanted ${#expect[@]}: $(cat -v "$tmp/out")"
iconv -f UTF-8 -t UTF-8 "$tmp/out" >/dev/null 2>&1 || fail "a reply is not valid UTF-8: $(cat -v "$tmp/out")"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out" && fail "a reply has a control character: $(cat -v "$tmp/out")"

finish engine

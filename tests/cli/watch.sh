#!/usr/bin/env bash
# goita watch and goita bench, their options: the pause between moves, the record destination
# checked before the game, "1 round", bench's range errors and --list.
# Usage: watch.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"

# A game of one round, in the singular.
out=$("$goita" watch --seed 1 --rules target=10 --delay 0)
case $out in *$'\n''Game over after 1 round: '*) ;; *) fail "one round: $(printf '%s' "$out" | tail -1)" ;; esac

# The French edition's rule set shows points 1-5 and the game to 15 (docs/RULES.md 10-11);
# the record keeps the rules, so its replay shows the same scale.
french=$("$goita" watch --seed 3 --rules preset=french --delay 0 --record "$tmp/french.json")
# (A game ends at 15 to 24 on that scale: 14 and a doubled king at most.)
case $french in *'wins with '1[5-9]' (target 15)'*|*'wins with '2[0-4]' (target 15)'*) ;;
  *) fail "French scale: $(printf '%s' "$french" | tail -1)" ;; esac
case $french in *'scores 5'$'\n'*|*'scores 4'$'\n'*|*'scores 3'$'\n'*|*'scores 2'$'\n'*|*'scores 1'$'\n'*) ;;
  *) fail "French scale: no round scored 1-5" ;; esac
case $french in *'scores '[1-9]0$'\n'*) fail "French scale: a round scored in tens" ;; esac
won=$(printf '%s\n' "$french" | grep -o 'wins with [0-9]* (target 15)')
case $("$goita" replay "$tmp/french.json") in *"$won"*) ;; *) fail "French replay" ;; esac

# --delay pauses after each move: the game takes at least its moves times the delay (a generous
# upper bound only guards against a pause far too long).
moves=$(printf '%s\n' "$out" | grep -c '^ *[0-9][0-9]*\. ')
start=$(date +%s%N)
"$goita" watch --seed 1 --rules target=10 --delay 40 >"$tmp/slow" || fail "--delay 40: exit $?"
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -ge $((moves * 40)) ] || fail "--delay 40 with $moves moves took $ms ms"
[ "$ms" -lt $((moves * 40 + 30000)) ] || fail "--delay 40 with $moves moves took $ms ms"
cmp -s <(printf '%s\n' "$out") "$tmp/slow" || fail "--delay changed the game"
"$goita" watch --delay 10001 2>"$tmp/err" && fail "--delay 10001 accepted"
grep -q -- '--delay must be from 0 to 10000 ms' "$tmp/err" || fail "--delay 10001: $(cat "$tmp/err")"
"$goita" watch --help | tr -s ' \n' ' ' | grep -q -- '--delay MS .*default: 250 when standard output is a terminal, else 0' ||
  fail "watch --help does not give --delay's default"

# A record that cannot be written is refused before the game: exit 2, nothing played.
"$goita" watch --seed 1 --record /nonexistent/g.json >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "--record /nonexistent/g.json: exit $status"
[ -s "$tmp/out" ] && fail "--record /nonexistent/g.json: a game was played"
grep -q 'goita watch: cannot write /nonexistent/g.json' "$tmp/err" || fail "--record error: $(cat "$tmp/err")"
"$goita" watch --seed 1 --record "$tmp" >/dev/null 2>"$tmp/err" && fail "--record of a folder accepted"
"$goita" watch --seed 1 --rules target=10 --record "$tmp/g.json" >/dev/null || fail "--record to a good path"
[ -s "$tmp/g.json" ] && [ ! -e "$tmp/g.json.tmp" ] || fail "--record: the record, and no check file left"

# goshi_decision=holder_and_partner (preset=french, seed 3): the holder asks, the partner agrees.
out=$("$goita" watch --rules preset=french --seed 3 --delay 0 | sed -n '/^Round 1,/,/^  -> /p')
printf '%s\n' "$out" | grep -q '^    1\. 1r   seat 1 (holds 5 pawns) asks for a redeal$' ||
  fail "the 5-pawn holder: $out"
printf '%s\n' "$out" | grep -q '^    2\. 3r   seat 3 (partner of a 5-pawn hand) agrees to a redeal$' ||
  fail "the holder's partner: $out"
# With the default goshi_decision the partner alone decides (seed 3: seat 3 for seat 1).
"$goita" watch --seed 3 --delay 0 | grep -q '^    1\. 3r   seat 3 (partner of a 5-pawn hand) asks for a redeal$' ||
  fail "the partner's decision: $("$goita" watch --seed 3 --delay 0 | grep -m1 '5-pawn')"

# bench: 0 rounds is an error naming the range; --list lists the cases of every section.
"$goita" bench playout --rounds 0 >"$tmp/out" 2>"$tmp/err" && fail "--rounds 0 accepted"
grep -q -- '--rounds must be from 1 to ' "$tmp/err" || fail "--rounds 0: $(cat "$tmp/err")"
"$goita" bench solve --count 0 2>/dev/null && fail "--count 0 accepted"
out=$("$goita" bench playout --rounds 3 --list)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] || fail "bench playout --list: $out"
printf '%s\n' "$out" | grep -qv $'^deal\t[0-2]\t[1-9x]\\{8\\},' && fail "bench playout --list lines: $out"
for history in $(printf '%s\n' "$out" | cut -f3); do
  "$goita" replay --check - <<<"$history" >/dev/null || fail "a listed deal does not read: $history"
done
[ "$("$goita" bench solve --count 2 --list | wc -l)" -eq 8 ] || fail "bench solve --list: not 4 groups of 2"
# player --list lists its 5 groups of positions (measuring nothing); an option of another
# section is refused, not ignored.
out=$("$goita" bench player --count 2 --list)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 10 ] || fail "bench player --list: not 5 groups of 2: $out"
printf '%s\n' "$out" | grep -qv $'^\(full\|left[0-9]*\)\t[01]\t[1-9]\{8\},' && fail "bench player --list lines: $out"
for args in "player --rounds 5" "playout --count 2" "solve --player fast" "player --tt-mb 8" "playout --all-moves"; do
  # shellcheck disable=SC2086
  "$goita" bench $args >"$tmp/out" 2>"$tmp/err" && fail "bench $args accepted"
  [ -s "$tmp/out" ] && fail "bench $args measured: $(head -1 "$tmp/out")"
  grep -q -- "^goita bench: --[a-z-]* is for [a-z, ]*, not ${args%% *} (try: goita bench --help)$" "$tmp/err" ||
    fail "bench $args: $(cat "$tmp/err")"
done

finish watch

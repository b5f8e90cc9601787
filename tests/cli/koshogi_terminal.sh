#!/usr/bin/env bash
# koshogi play for a person: the board once a turn with the last move marked, help, the legend
# and a piece's help at the prompt, a record never overwritten, and in a real terminal of 80x24
# (tmux) the board in letters within 80 columns with a word saying why.
# Usage: koshogi_terminal.sh PATH_TO_KOSHOGI
. "$(dirname "$0")/common.sh"
koshogi=$goita
sock="$tmp/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# Through a pipe: two generals; Black's (random) has only moves that leave 1s; White types.
two="g18/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/18G b 1"
printf 'help\nlegend\nhelp CH\nposition\nG-18a\nG-7x\nmoves 18a\nquit\n' |
  "$koshogi" play --position "$two" --ascii --black random --white human --record "$tmp/game.txt" >"$tmp/raw" \
    2>"$tmp/err" || fail "play: $(cat "$tmp/err")"
sed 's/^\(White> \)*//' "$tmp/raw" >"$tmp/out" # the prompts, with nothing typed after them in a pipe
boards=$(grep -c '^White to move' "$tmp/out")
[ "$boards" -eq 2 ] || fail "$boards boards for two turns of White (one board a turn)"
grep -q '^Ko shogi. Type help' "$tmp/out" || fail "no word on how to start"
grep -q '^Type a move in the notation' "$tmp/out" || fail "help does not explain the notation"
grep -q '^  help PIECE ' "$tmp/out" || fail "help does not list help PIECE"
grep -q 'CH  車 Chariot' "$tmp/out" || fail "legend: no CH 車 Chariot (the English names)"
grep -q '^CH 車  Chariot$' "$tmp/out" || fail "help CH at the prompt"
grep -q '^Last move: 1\. G-' "$tmp/out" || fail "the last move is not named"
grep -q '^ s .*   o$' "$tmp/out" || fail "the general's old point 1s is not marked o"
grep -q '^ [rs] .*\*G' "$tmp/out" || fail "no * before the general that moved"
grep -q '^Not a legal move: "G-7x"' "$tmp/out" || fail "a bad move: $(grep -A1 'G-7x' "$tmp/out")"
grep -q '^[0-9]* legal moves* of that piece$' "$tmp/out" || fail "moves 18a at the prompt"
[ "$(LC_ALL=C.UTF-8 wc -L <"$tmp/out")" -le 80 ] || fail "play --ascii writes lines wider than 80 columns"
grep -q '^Record saved to ' "$tmp/out" || fail "no record saved"
# "position" at the prompt writes the position, which --position reads: White's general in its corner
typed=$(grep -E '^g18/.* w 1$' "$tmp/out")
[ "$("$koshogi" moves --position "$typed" | tail -1)" = "3 legal moves" ] || fail "position at the prompt: $typed"

# A record is never overwritten: refused before the game starts, the file as it was.
cp "$tmp/game.txt" "$tmp/before.txt"
printf 'quit\n' | "$koshogi" play --record "$tmp/game.txt" >/dev/null 2>"$tmp/err" && fail "an existing record accepted"
grep -q -- '--record .*game.txt: the file exists, and a record never overwrites one' "$tmp/err" ||
  fail "existing record: $(cat "$tmp/err")"
cmp -s "$tmp/game.txt" "$tmp/before.txt" || fail "the existing record was changed"
"$koshogi" play --ascii --kanji 2>/dev/null </dev/null && fail "--ascii with --kanji accepted"

# A real terminal of 80x24.
if ! command -v tmux >/dev/null; then
  echo "FAIL tmux is not installed"
  exit 1
fi
t new-session -d -s play -x 80 -y 24 "LANG=C.UTF-8 $koshogi play --white random; sleep 600"
screen=""
for _ in $(seq 1 100); do
  screen=$(t capture-pane -p -t play 2>/dev/null)
  case $screen in *"Black>"*) break ;; esac
  sleep 0.1
done
case $screen in *"Black>"*) ;; *) fail "no prompt in 80x24: $screen" ;; esac
t send-keys -t play VG-10h Enter
for _ in $(seq 1 100); do
  screen=$(t capture-pane -p -t play 2>/dev/null)
  case $screen in *"Last move: 1..."*"Black>"*) break ;; esac
  sleep 0.1
done
case $screen in *"Last move: 1..."*) ;; *) fail "80x24: no last move after White's reply: $screen" ;; esac
printf '%s\n' "$screen" | grep -q '^ s   AG  SM ' || fail "80x24: the board is not in letters: $screen"
printf '%s\n' "$screen" | grep -q '^     19  18  17' || fail "80x24: the files are not at the top of the screen"
t send-keys -t play quit Enter
t capture-pane -p -S - -t play >"$tmp/screen"
grep -q 'the board is in letters' "$tmp/screen" || fail "80x24: no word on why the board is in letters"
# board and replay draw in kanji when asked for nothing, and say when the terminal is too narrow.
t new-session -d -s board -x 80 -y 24 "LANG=C.UTF-8 $koshogi board; sleep 600"
for _ in $(seq 1 100); do
  t capture-pane -p -S - -t board >"$tmp/screen"
  grep -q 'to move' "$tmp/screen" && break
  sleep 0.1
done
grep -q '^(The kanji board is 117 columns wide, this terminal 80: --ascii draws it in 79.)$' "$tmp/screen" ||
  fail "board in 80 columns: no warning: $(head -3 "$tmp/screen")"
finish koshogi_terminal

#!/usr/bin/env bash
# goita play's table in a real terminal (tmux): drawn in kanji and in ASCII, played by keys
# through whole rounds, a message for a terminal too small, leaving with the game saved.
# Usage: table.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
sock="$tmp/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

if ! command -v tmux >/dev/null; then
  echo "FAIL tmux is not installed"
  exit 1
fi

# A session that stays, so the server does not exit between games.
t new-session -d -s keep -x 80 -y 24 "sleep 600"

# Waits until the screen shows text (up to 10 s); prints the screen.
wait_for() {
  for _ in $(seq 1 100); do
    screen=$(t capture-pane -p -t play 2>/dev/null)
    case $screen in *"$1"*) printf '%s' "$screen"; return 0 ;; esac
    sleep 0.1
  done
  printf '%s' "$screen"
  return 1
}

start() { # start COLS ROWS ARGS...
  local cols=$1 rows=$2
  shift 2
  t kill-session -t play 2>/dev/null
  t new-session -d -s play -x "$cols" -y "$rows" "LANG=C.UTF-8 $goita play --delay 0 --player rules --hint rules $*"
}

# The table in kanji: the person's hand, the territories, the scores.
start 110 30 --seed 3 --records "$tmp/games"
screen=$(wait_for 'Enter: next round>') || fail "no table: $screen"
for want in 'Your hand: 飛 金 金 し し し し し' 'seat 3 (partner)' 'seat 2 (opp)' 'seat 4 (opp)' \
            'you: 8 in hand' 'your team         0 / 150'; do
  case $screen in *"$want"*) ;; *) fail "the table lacks \"$want\"" ;; esac
done
echo "$screen" >"$tmp/kanji.txt"

# Play by keys: every input in turn, each followed by Enter; the first legal one is taken.
keys=()
for i in $(seq 1 12); do
  for k in p 11 12 13 14 15 16 17 18 21 23 24 25 26 27 31 32 33 34 41 43 44 45 51 54 55 61 67 71 76 81 88; do
    keys+=("$k" Enter)
  done
done
t send-keys -t play Enter
for round in 1 2 3; do t send-keys -t play "${keys[@]}" 2>/dev/null; done
t send-keys -t play quit Enter y Enter 2>/dev/null
sleep 1
record=$(ls "$tmp"/games/*.json 2>/dev/null | head -1)
if [ -z "$record" ]; then
  fail "no record saved after quit: $(t capture-pane -p -t play 2>/dev/null | tail -5)"
else
  check=$("$goita" replay --check "$record" 2>&1)
  rounds=$(printf '%s' "$check" | sed -n -e 's/^ok: a game record of \([0-9]*\) rounds.*/\1/p')
  [ -n "$rounds" ] && [ "$rounds" -ge 3 ] || fail "the keys played too little: $check"
  [ -n "${VERBOSE:-}" ] && echo "$check"
fi

# ASCII, and a terminal too small for the table.
start 110 30 --seed 3 --ascii --records "$tmp/ascii"
screen=$(wait_for 'Enter: next round>') || fail "no ASCII table: $screen"
case $screen in *'Your hand:  R  G  G  P  P  P  P  P'*) ;; *) fail "ASCII hand: $screen" ;; esac
printf '%s' "$screen" | LC_ALL=C grep -q '[^ -~]' && fail "--ascii drew a character outside ASCII"
echo "$screen" >"$tmp/ascii.txt"
start 50 12 --seed 3 --records "$tmp/small"
screen=$(wait_for 'too small') || fail "no message for a small terminal: $screen"
t resize-window -t play -x 110 -y 30 2>/dev/null
screen=$(wait_for 'Your hand') || fail "no table after growing the terminal: $screen"

# Ctrl-C asks, and leaving saves the game so far.
start 110 30 --seed 7 --records "$tmp/interrupted"
wait_for 'move>' >/dev/null || fail "no prompt for Ctrl-C"
t send-keys -t play C-c
screen=$(wait_for 'Quit and save the game so far? [y/N]') || fail "Ctrl-C did not ask: $screen"
t send-keys -t play y Enter
sleep 0.5
[ -n "$(ls "$tmp"/interrupted/*.json 2>/dev/null)" ] || fail "nothing saved after Ctrl-C"

# A locale without UTF-8 gets the ASCII letters.
t kill-session -t play 2>/dev/null
t new-session -d -s play -x 110 -y 30 "LANG=C LC_ALL=C $goita play --delay 0 --player rules --seed 7 --records $tmp/c"
screen=$(wait_for 'Your hand:  K  G  N  N  P  P  P  P') || fail "the C locale: $screen"

# The person decides after a partner's 5 pawns, in the person's grammar (seed 15, round 1).
start 110 30 --seed 15 --records "$tmp/decide"
screen=$(wait_for '5 pawns shown: you decide') || fail "the decision after 5 pawns: $screen"
case $screen in *'you decides'*) fail "\"you decides\" on the table" ;; esac

# Screenshots for the README: SCREENSHOTS=DIR keeps them.
if [ -n "${SCREENSHOTS:-}" ]; then cp "$tmp/kanji.txt" "$tmp/ascii.txt" "$SCREENSHOTS/"; fi

finish table

#!/usr/bin/env bash
# goita play's table in a real terminal (tmux): drawn in kanji and in ASCII, played by keys
# through whole rounds, a message for a terminal too small, leaving with the game saved, and
# long output (help, record, hint, moves) whole in the side panel from 72x22 to 120x40, and
# 2 and 3 players at 72x22 and 80x24.
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

# 2 and 3 players at the smallest size and at 80x24 (seed 4): the territories, the whole hand
# in the table's columns (12 pieces with 2 players go under the label), and one line for each
# side's score.
# The panel's text on a screen of $2 rows (the columns from 44, where the table ends; kanji
# take two), without the keys and the prompt.
panel() {
  printf '%s\n' "$1" | head -n "$(($2 - 2))" | perl -CSD -ne 'chomp; my ($col, $out) = (0, "");
    for my $c (split //) { $out .= $c if $col >= 44; $col += $c =~ /[\p{EA=W}\p{EA=F}]/ ? 2 : 1 }
    print "$out\n"'
}
# Waits (up to 10 s) until the panel shows $1 and the last line is the move prompt or a page
# to turn, on a screen of $2 rows; prints the screen.
settle() {
  for _ in $(seq 1 100); do
    screen=$(t capture-pane -p -t play 2>/dev/null)
    case $(printf '%s\n' "$screen" | tail -1) in
      'move>'|'-- more'*) case $(panel "$screen" "$2") in *"$1"*) printf '%s' "$screen"; return 0 ;; esac ;;
    esac
    sleep 0.1
  done
  printf '%s' "$screen"
  return 1
}
table_part() { # the columns before 44, where the panel starts (kanji take two)
  printf '%s\n' "$1" | perl -CSD -ne 'chomp; my ($col, $out) = (0, "");
    for my $c (split //) { $out .= $c if $col < 44; $col += $c =~ /[\p{EA=W}\p{EA=F}]/ ? 2 : 1 }
    $out =~ s/ +$//; print "$out\n"'
}
for players in 2 3; do
  for size in 72x22 80x24; do
    start "${size%x*}" "${size#*x}" --seed 4 --rules players=$players --records "$tmp/players$players"
    screen=$(wait_for 'move>') || { fail "$players players at $size: no table: $screen"; continue; }
    if [ "$players" = 2 ]; then
      hand='飛 角 角 金 金 金 銀 銀 馬 し し し' labels='seat 2 \(opp\) 12'
    else
      hand='角 角 金 金 銀 馬 香 し し し' labels='^seat 3 \(opp\) 10 +seat 2 \(opp\) 10$'
    fi
    table_part "$screen" | grep -qF "$hand" || fail "$players players at $size: the hand is not whole: $screen"
    table_part "$screen" | grep -qE "$labels" || fail "$players players at $size: the territories: $screen"
    lines=$(panel "$screen" 99 | sed -n 2,4p)
    want=$(printf '%-14s %4d / %d\n' you 0 150 'seat 2 (opp)' 0 150)
    [ "$players" = 3 ] && want=$(printf '%s\n%-14s %4d / %d' "$want" 'seat 3 (opp)' 0 150)
    [ "$(printf '%s\n' "$lines" | head -n "$players")" = "$want" ] ||
      fail "$players players at $size: the scores are not one line a side: $screen"
    case $(printf '%s\n' "$screen" | tail -2 | head -1) in
      'Keys: '*quit) ;;
      *) fail "$players players at $size: the keys line is not whole: $screen" ;;
    esac
  done
done

# The header is one line for the round and one a side, with a seed of 20 digits too.
start 72 22 --seed 18446744073709551615 --records "$tmp/bigseed"
screen=$(wait_for 'Keys:') || fail "the longest seed: no table: $screen"
[ "$(panel "$screen" 22 | sed -n 1,3p)" = "$(printf 'Round 1\nyour team         0 / 150\ntheir team        0 / 150')" ] ||
  fail "the header with the longest seed: $screen"

# The hint's header takes at most two of the narrowest panel's rows before the first value,
# with the expert level's long spec (seed 4: seat 1 answers an attack, so p comes first).
start 72 22 --seed 4 --hint expert:samples=16 --records "$tmp/hint"
wait_for '-- more' >/dev/null || fail "hint: the first page of messages is not shown"
t send-keys -t play Enter
wait_for 'move>' >/dev/null || fail "hint: no prompt"
t send-keys -t play hint Enter
screen=$(settle "deals" 22) || fail "hint: no answer: $screen"
header=$(panel "$screen" 22 | awk '/^move> hint$/ { on = 1; next } on && /^ *[1-8p][1-8]? +[-+]?[0-9]/ { exit } on { n++ } END { print n + 0 }')
[ "$header" -ge 1 ] && [ "$header" -le 2 ] || fail "the hint's header takes $header rows of the panel: $screen"

# Long output at the smallest size the table accepts and at common ones: what help, record,
# hint and moves print appears whole in the side panel (wrapped, a page at a time when long),
# as line mode prints it for the same game, and the keys line and the prompt stay whole.
# The person's moves of round 1 come from line mode: the keys above, the legal ones kept.
seed=39
moves=$(printf '%s\n' "${keys[@]}" | grep -vx Enter |
  "$goita" play --plain --seed $seed --delay 0 --player rules --hint rules --records "$tmp/plain" 2>&1 |
  awk '/^Round 2\./ { if (m != "") print m; exit }
  /^move> / { if (m != "") print m; m = substr($0, 7); next } /is not a legal move here/ { m = "" }')
commands=(record help hint moves)
# What line mode prints for the commands in round 2, one line each, without spaces (the panel
# wraps at spaces) and with the hint's time in milliseconds left out (it varies).
strip() { tr -d ' ' | sed -e 's/,[0-9]*ms)/,ms)/'; }
for ascii in '' --ascii; do
  printf '%s\n' $moves "${commands[@]}" quit y | "$goita" play --plain --seed $seed $ascii --delay 0 \
    --player rules --hint rules --records "$tmp/plain" 2>&1 | sed -n -e '/^move> record$/,/^move> quit$/p' |
    sed -e '$d' | grep -v '^$' | strip >"$tmp/expected$ascii.txt"
  [ "$(wc -l <"$tmp/expected$ascii.txt")" -gt 20 ] || fail "line mode printed little: $(cat "$tmp/expected$ascii.txt")"
done
for size in 72x22 80x24 120x40 80x24-ascii; do
  cols=${size%%x*} rows=${size#*x} rows=${rows%-ascii} ascii=
  [ "$size" = 80x24-ascii ] && ascii=--ascii
  start "$cols" "$rows" --seed $seed $ascii --records "$tmp/sizes"
  for m in $moves; do t send-keys -t play "$m" Enter; done
  # Enter through the end of round 1 (and any page) to the first move of round 2.
  ok=
  for _ in $(seq 1 100); do
    screen=$(t capture-pane -p -t play 2>/dev/null)
    case $(printf '%s\n' "$screen" | tail -1) in
      'Enter: next round>'*|'-- more'*) t send-keys -t play Enter; sleep 0.2 ;;
      'move>') case $screen in *'Round 2 '*) ok=1; break ;; esac; sleep 0.1 ;;
      *) sleep 0.1 ;;
    esac
  done
  [ -n "$ok" ] || { fail "$size: no whole move prompt in round 2: $screen"; continue; }
  : >"$tmp/pages.txt"
  for c in "${commands[@]}"; do
    t send-keys -t play "$c" Enter
    screen=$(settle "move> $c" "$rows") || { fail "$size: no answer to $c: $screen"; continue 2; }
    # Every page, turned with Enter, joins the text seen (one line per page).
    for _ in $(seq 1 20); do
      panel "$screen" "$rows" | tr -d '\n' | strip >>"$tmp/pages.txt"
      echo >>"$tmp/pages.txt"
      case $(printf '%s\n' "$screen" | tail -1) in '-- more'*) ;; *) break ;; esac
      t send-keys -t play Enter
      before=$screen
      for _ in $(seq 1 50); do
        screen=$(t capture-pane -p -t play 2>/dev/null)
        [ "$screen" != "$before" ] && break
        sleep 0.1
      done
    done
  done
  while IFS= read -r line; do
    grep -qF -- "$line" "$tmp/pages.txt" || fail "$size: the panel never shows whole: $line"
  done <"$tmp/expected$ascii.txt"
  screen=$(t capture-pane -p -t play)
  [ "$(printf '%s\n' "$screen" | tail -1)" = 'move>' ] || fail "$size: the prompt line is not whole: $screen"
  case $(printf '%s\n' "$screen" | tail -2 | head -1) in
    'Keys: '*quit) ;;
    *) fail "$size: the keys line is not whole: $screen" ;;
  esac
  # Screenshots for the README: SCREENSHOTS=DIR keeps the screens at 80x24.
  if [ -n "${SCREENSHOTS:-}" ] && [ "$cols" = 80 ]; then echo "$screen" >"$SCREENSHOTS/table-$size.txt"; fi
done

finish table

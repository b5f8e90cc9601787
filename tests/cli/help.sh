#!/usr/bin/env bash
# The help of a program made of commands (goita, koshogi): every command answers --help, -h and
# "help CMD" on stdout with exit 0, and its help names every option its parser accepts (the
# hidden --list-options prints the parser's table); the program's help names every command
# (the hidden --list-commands prints the dispatch table). Unknown commands and options are
# named in an error and exit 2.
# Usage: help.sh PATH_TO_PROGRAM
. "$(dirname "$0")/common.sh"
program=$goita
name=$(basename "$program")

"$program" help >"$tmp/help" 2>"$tmp/err" || fail "$name help: exit $?"
"$program" --help >"$tmp/help2" || fail "$name --help: exit $?"
cmp -s "$tmp/help" "$tmp/help2" || fail "$name help and $name --help differ"
commands=$("$program" --list-commands)
[ -n "$commands" ] || fail "$name --list-commands lists nothing"
for cmd in $commands; do
  grep -q "^  $cmd " "$tmp/help" || fail "$name help does not list $cmd"
  out=$("$program" "$cmd" --help 2>"$tmp/err")
  status=$?
  [ "$status" -eq 0 ] || fail "$name $cmd --help: exit $status: $(cat "$tmp/err")"
  [ -s "$tmp/err" ] && fail "$name $cmd --help wrote on stderr: $(cat "$tmp/err")"
  case $out in
    "usage: $name $cmd"*) ;;
    *) fail "$name $cmd --help does not start with its usage line: $(printf '%s' "$out" | head -1)" ;;
  esac
  printf '%s\n' "$out" | grep -q '^examples:$' || fail "$name $cmd --help has no examples"
  [ "$("$program" "$cmd" -h)" = "$out" ] || fail "$name $cmd -h differs from --help"
  [ "$("$program" help "$cmd")" = "$out" ] || fail "$name help $cmd differs from $name $cmd --help"
  # Every option the parser accepts, in the usage line and on a line of its own.
  options=$("$program" "$cmd" --list-options) || fail "$name $cmd --list-options: exit $?"
  usage=$(printf '%s\n' "$out" | sed -n '1,/^$/p')
  for opt in $options; do
    case $opt in -h | --help) continue ;; esac
    printf '%s\n' "$usage" | grep -q -- "\[$opt[] ]" || fail "$name $cmd: $opt is not in the usage line"
    printf '%s\n' "$out" | grep -q -- "^  $opt\( \|$\)" || fail "$name $cmd: $opt is not described in --help"
  done
  printf '%s\n' "$out" | grep -q -- '^  -h, --help ' || fail "$name $cmd: --help is not described"
  # An unknown option is named, with the way to the help, on stderr only.
  "$program" "$cmd" --bogus-option </dev/null >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ "$status" -eq 2 ] || fail "$name $cmd --bogus-option: exit $status"
  [ -s "$tmp/out" ] && fail "$name $cmd --bogus-option wrote on stdout"
  grep -q "^$name $cmd: unknown option \"--bogus-option\" (try: $name $cmd --help)$" "$tmp/err" ||
    fail "$name $cmd --bogus-option: $(cat "$tmp/err")"
done

# Every help text fits a terminal of 80 columns (wc -L counts a kanji as two).
too_wide() { while IFS= read -r line; do
  [ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)" -le 80 ] || printf '%s\n' "$line"
done <"$1"; }
wide=$(too_wide "$tmp/help")
[ -z "$wide" ] || fail "$name help has lines over 80 columns: $wide"
for cmd in $commands; do
  "$program" "$cmd" --help >"$tmp/cmdhelp"
  wide=$(too_wide "$tmp/cmdhelp")
  [ -z "$wide" ] || fail "$name $cmd --help has lines over 80 columns: $wide"
done

# help about help is the program's help; a second word after the command is not ignored.
for args in "help help" "help --help" "help -h" "--help help"; do
  # shellcheck disable=SC2086
  "$program" $args >"$tmp/out" 2>"$tmp/err" || fail "$name $args: exit $?: $(cat "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/help" || fail "$name $args is not $name help"
done
first=$(printf '%s\n' "$commands" | head -1)
"$program" help "$first" extra >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "$name help $first extra: exit $status"
[ -s "$tmp/out" ] && fail "$name help $first extra wrote on stdout"
grep -q "^$name help: one command, please (got a second: \"extra\") (try: $name help)$" "$tmp/err" ||
  fail "$name help $first extra: $(cat "$tmp/err")"

# Unknown commands, and help for one.
"$program" bogus >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "$name bogus: exit $status"
grep -q "unknown command \"bogus\"" "$tmp/err" || fail "$name bogus: $(cat "$tmp/err")"
"$program" help bogus >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] || fail "$name help bogus: exit $status"
grep -q "unknown command \"bogus\"" "$tmp/err" || fail "$name help bogus: $(cat "$tmp/err")"
"$program" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] && [ -s "$tmp/err" ] || fail "$name with no command: exit $status"

# A number out of range and a missing value name the option and the range.
case $name in
  goita)
    "$program" bench --rounds 0 2>"$tmp/err" && fail "bench --rounds 0 accepted"
    grep -q -- '--rounds must be from 1 to ' "$tmp/err" || fail "bench --rounds 0: $(cat "$tmp/err")"
    "$program" match --jobs 2>"$tmp/err" && fail "match --jobs without a value accepted"
    grep -q -- '--jobs needs a value J, from 1 to 64' "$tmp/err" || fail "match --jobs: $(cat "$tmp/err")"
    ;;
  koshogi)
    "$program" play --ms 0 2>"$tmp/err" && fail "play --ms 0 accepted"
    grep -q -- '--ms must be from 1 to 3600000 ms' "$tmp/err" || fail "play --ms 0: $(cat "$tmp/err")"
    "$program" perft 9 2>"$tmp/err" && fail "perft 9 accepted"
    grep -q 'DEPTH must be from 1 to 8' "$tmp/err" || fail "perft 9: $(cat "$tmp/err")"
    ;;
esac

finish "help ($name)"

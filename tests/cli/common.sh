# Sourced by the command-line tests (bash FILE.sh PATH_TO_GOITA): the program under test in
# $goita, a scratch folder $tmp removed at exit, fail to count a failure, finish to end.
set -u
goita=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

# Says whether every check of test $1 passed and exits with the number that failed.
finish() {
  [ "$failures" -eq 0 ] && echo "$1: all checks passed"
  exit "$failures"
}

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

# For the browser tests: checks that playwright (tools/e2e) and the WebAssembly build (web/wasm)
# are there, then starts `goita serve` on a free port with a database named $1 and the options
# that follow; sets $e2e, $port and $url, and stops the server at exit. Returns 1 (after fail)
# when something is missing.
serve_web() {
  local name=$1
  shift
  e2e=$(cd "$(dirname "${BASH_SOURCE[0]}")/../e2e" && pwd)
  local web
  web=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../web" && pwd)
  [ -d "$e2e/../../tools/e2e/node_modules/playwright-core" ] || { fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"; return 1; }
  [ -f "$web/wasm/goita.wasm" ] || { fail "web/wasm/goita.wasm is missing (scripts/wasm.sh builds it)"; return 1; }
  port=$(node "$e2e/free-port.js")
  url="http://127.0.0.1:$port/"
  "$goita" serve --port "$port" --db "$tmp/$name.db" "$@" >"$tmp/serve.out" 2>&1 &
  web_server=$!
  trap 'kill $web_server 2>/dev/null; rm -rf "$tmp"' EXIT
  for _ in $(seq 50); do grep -q "goita serve: http" "$tmp/serve.out" && break; sleep 0.1; done
}

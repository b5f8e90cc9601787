#!/usr/bin/env bash
# goita serve under attack and behind TLS: the abuse tests (tests/e2e/abuse.js: message flood,
# oversized frames, wrong protocol names, cross-origin upgrades, twice the connection cap, a
# slow reader, ulimit -n 64), the network options' errors, and https/wss with a self-signed
# certificate made by openssl (tests/e2e/tls.js).
# Usage: serve_abuse.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/ws" ] || fail "tools/e2e is not installed (scripts/setup.sh installs it)"

"$goita" serve --max-message-bytes 100 2>"$tmp/err" && fail "--max-message-bytes 100 accepted"
grep -q -- "--max-message-bytes must be from 4096 to 1048576 bytes" "$tmp/err" || fail "--max-message-bytes 100: $(cat "$tmp/err")"
"$goita" serve --allow-origin example.org 2>"$tmp/err" && fail "an origin without a scheme accepted"
grep -q -- '--allow-origin "example.org": expected an origin' "$tmp/err" || fail "--allow-origin example.org: $(cat "$tmp/err")"
"$goita" serve --tls-cert "$tmp/none.pem" 2>"$tmp/err" && fail "--tls-cert without --tls-key accepted"
grep -q -- "--tls-cert and --tls-key go together" "$tmp/err" || fail "--tls-cert alone: $(cat "$tmp/err")"
"$goita" serve --db "$tmp/x.db" --tls-cert "$tmp/none.pem" --tls-key "$tmp/none.pem" 2>"$tmp/err" && fail "a missing certificate accepted"
grep -q "cannot read TLS certificate $tmp/none.pem" "$tmp/err" || fail "missing certificate: $(cat "$tmp/err")"
"$goita" serve --help | grep -q -- "--max-connections N" || fail "--help does not list --max-connections"

mkdir "$tmp/abuse"
node "$e2e/abuse.js" "$goita" "$tmp/abuse" || fail "abuse"

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
  2>"$tmp/openssl.err" || fail "openssl could not make a certificate: $(cat "$tmp/openssl.err")"
"$goita" serve --db "$tmp/x.db" --port "$(node "$e2e/free-port.js")" --tls-cert "$tmp/key.pem" --tls-key "$tmp/cert.pem" \
  2>"$tmp/err" && fail "a key given as the certificate accepted"
grep -q "cannot start TLS with" "$tmp/err" || fail "swapped certificate and key: $(cat "$tmp/err")"
node "$e2e/tls.js" "$goita" "$(node "$e2e/free-port.js")" "$tmp/tls.db" "$tmp/cert.pem" "$tmp/key.pem" || fail "tls"
finish serve_abuse

#!/usr/bin/env bash
# Every screen of the browser client at phone and desktop widths, in English and Japanese:
# overflow, overlapping text, untranslated words and axe-core (tests/e2e/screens.js, which runs
# its own goita serve). GOITA_SCREENSHOTS=DIR also saves each screen's screenshots there.
# Usage: serve_screens.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
e2e=$(cd "$(dirname "$0")/../e2e" && pwd)
[ -d "$e2e/../../tools/e2e/node_modules/axe-core" ] || fail "tools/e2e is not installed (scripts/test-tools.sh installs it)"
[ -f "$e2e/../../web/fonts/goita-gothic.woff2" ] || fail "web/fonts is not made (scripts/web-font.sh makes it)"
[ "$failures" -eq 0 ] && { timeout 150 node "$e2e/screens.js" "$goita" "$tmp" "${GOITA_SCREENSHOTS:-}" || fail "the screens of the browser client"; }
finish serve_screens

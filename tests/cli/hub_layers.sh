#!/usr/bin/env bash
# The hub's layering as docs/SERVER.md "The hub's parts" states it, checked against the code:
# the table there (each hub file and the hub headers it includes) must be exactly what the
# files' include lines say, and the table service (hub_table.h) must call none of its callers.
# Usage: hub_layers.sh SOURCE_DIR        (--print: writes the table the code implies)
set -u
root=$1
server=$root/src/server
doc=$root/docs/SERVER.md
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# One row per hub file: | `FILE` | `HEADER`, `HEADER` |, the hub headers it includes, sorted.
actual() {
  for f in "$server"/hub*.c "$server"/hub*.h; do
    local name includes
    name=$(basename "$f")
    includes=$(grep -oE '^#include "hub[a-z_]*\.h"' "$f" | sed -E 's/#include "(.*)"/`\1`/' | sort | paste -sd, - | sed 's/,/, /g')
    echo "| \`$name\` | ${includes:-–} |"
  done
}

if [ "${2:-}" = --print ]; then actual; exit 0; fi

documented=$(awk '/^### The hub.s parts/ {on = 1; next} /^#/ {on = 0} on && /^\| `hub/' "$doc")
[ -n "$documented" ] || fail "docs/SERVER.md has no table under \"### The hub's parts\""
diff <(echo "$documented") <(actual) >"${TMPDIR:-/tmp}/hub_layers.$$" ||
  fail "docs/SERVER.md \"The hub's parts\" differs from the include lines (< doc, > code):
$(cat "${TMPDIR:-/tmp}/hub_layers.$$")"
rm -f "${TMPDIR:-/tmp}/hub_layers.$$"

# The table service is called by the requests, quick match, rematch, restore, invites, the
# routing seam and the bus, and calls none of them.
for f in hub_table.c hub_table_seat.c hub_table.h; do
  for caller in hub_requests.h hub_quick.h hub_rematch.h hub_restore.h hub_invite.h hub_bus.h hub_route.h; do
    grep -q "^#include \"$caller\"" "$server/$f" && fail "$f (the table service) includes $caller, one of its callers"
  done
done
# Nothing outside the hub includes its parts: the network layer and the tests speak hub.h.
for f in "$server"/*.c; do
  case $(basename "$f") in hub*.c) continue ;; esac
  grep -qE '^#include "hub_[a-z_]*\.h"' "$f" && fail "$(basename "$f") includes a part of the hub: $(grep -E '^#include "hub_' "$f" | paste -sd' ' -)"
done
[ "$failures" -eq 0 ] && echo "hub_layers: all checks passed"
exit "$failures"

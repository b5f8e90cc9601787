#!/usr/bin/env bash
# The fault-injection harness, bounded for CI (docs/SERVER.md "The fault-injection harness"):
# the named cases (those of issue 45 and after), then a few random schedules from fixed seeds (SEED, or
# SEED:FAULTS for a schedule of those faults only). Every seed that ever failed is added to
# `seeds` below and stays there.
# Until the ownership epochs of issue 45 are in the server, the cases fail: that is their point.
# Usage: serve_chaos.sh PATH_TO_GOITA
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
for program in nats-server haproxy psql; do
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || { echo "FAIL $program is not installed (scripts/test-tools.sh installs it)"; exit 1; }
done
chmod 711 "$tmp" # as root, PostgreSQL runs as the postgres user, which must reach its folder
seeds="1 3:pause-kill" # 3:pause-kill: stored moves replaced, before issue 45's epochs
# Under the sanitizers (scripts/test.sh with SANITIZE=1) the named cases only: the random
# schedules add nothing a sanitizer would see that the cases do not, at three times the time.
if [ "${SANITIZE:-0}" = 1 ]; then seeds=; fi
node "$root/tests/e2e/chaos.js" case all "$goita" --dir "$tmp/cases" || fail "the named cases"
for entry in $seeds; do
  seed=${entry%%:*} faults=
  [ "$entry" = "$seed" ] || faults=${entry#*:}
  node "$root/tests/e2e/chaos.js" run "$goita" --seed "$seed" --schedules 4 --finish 60 \
    ${faults:+--faults "$faults"} --dir "$tmp/seed-$seed" || fail "random schedule, seed $entry"
done
finish serve_chaos

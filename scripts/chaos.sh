#!/usr/bin/env bash
# The fault-injection harness of docs/SERVER.md ("The fault-injection harness"), by hand: a real
# PostgreSQL, nats-server, three `goita serve` servers under libfaketime and HAProxy, all as the
# current user in a new folder on loopback; scripted people and watchers play while random faults
# from the seed are applied; then every game is played out and the invariants checked
# (tests/e2e/chaos.js). Exit status 0 when no invariant was broken.
#
#   scripts/chaos.sh --minutes 30 --seed 7     # a long run
#   scripts/chaos.sh --schedules 20 --seed 7   # a bounded number of faults
#   scripts/chaos.sh --case all                # the named cases of issue 45 (or one: --case NAME)
#
# More options: --tables N (4 tables played at once), --lease S (3), --finish S (120: how long the
# games may go without a stored move once the faults are healed; five times that in all), --dir DIR (kept afterwards:
# events.log, shown.jsonl, people.log, every piece's log and the database), --faults a,b (only
# these: pause pause-kill kill pg-outage pg-restart nats-outage proxy-kill clock duplicate).
# GOITA names the program (else build/goita). scripts/test-tools.sh installs what it needs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
goita=${GOITA:-$root/${GOITA_BUILD:-build}/goita}
usage() { echo "usage: scripts/chaos.sh [--minutes M | --schedules N | --case NAME|all] [--seed S] [--tables N] [--lease S] [--finish S] [--dir DIR] [--faults a,b]" >&2; exit 2; }
[ -x "$goita" ] || { echo "chaos.sh: no $goita: build it first (or say GOITA=...)" >&2; exit 1; }
for program in nats-server haproxy psql node; do
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || { echo "chaos.sh: $program is not installed: run scripts/test-tools.sh" >&2; exit 1; }
done
ls /usr/lib/x86_64-linux-gnu/faketime/libfaketime*.so.1 >/dev/null 2>&1 ||
  echo "chaos.sh: libfaketime is not installed (scripts/test-tools.sh): the clock steps will do nothing" >&2
[ -d "$root/tools/e2e/node_modules/ws" ] || { echo "chaos.sh: the e2e node modules are missing: run scripts/test-tools.sh" >&2; exit 1; }

mode=run args=()
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) [ $# -ge 2 ] || usage; args+=(--seconds "$(($2 * 60))"); shift 2 ;;
    --case) [ $# -ge 2 ] || usage; mode=case name=$2; shift 2 ;;
    --schedules | --seed | --tables | --lease | --dir | --faults | --seconds | --finish) [ $# -ge 2 ] || usage; args+=("$1" "$2"); shift 2 ;;
    *) usage ;;
  esac
done
if [ "$mode" = case ]; then
  exec node "$root/tests/e2e/chaos.js" case "$name" "$goita" "${args[@]}"
fi
exec node "$root/tests/e2e/chaos.js" run "$goita" "${args[@]}"

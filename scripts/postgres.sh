#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests and scripts/cluster.sh: created with initdb under a
# folder, listening only on a Unix socket in that folder (no TCP port), trust authentication.
# PostgreSQL refuses to run as root: when run by root, the server runs as Debian's `postgres`
# user (made by the postgresql-15 package), which is given the folder.
#
#   scripts/postgres.sh start DIR   # prints the database URI, e.g. postgresql:///goita?host=DIR/run&user=...
#   scripts/postgres.sh stop DIR    # stops it (the folder stays: start again on the same data,
#                                   # or remove it yourself)
#   scripts/postgres.sh status DIR  # whether it accepts connections (pg_isready); exit status 1 if not
#
# GOITA_PG_PORT=PORT at `start` has it listen on 127.0.0.1:PORT too (for psql or a node on
# another user's account; the URI still names the socket, whose name carries the port). The port
# is kept in DIR/port, so that a later `start` uses it again; remove that file to go back to the
# socket alone.
set -euo pipefail
command=${1:-}
dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: scripts/postgres.sh start|stop|status DIR" >&2; exit 2; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres.sh: PostgreSQL is not installed (Debian postgresql-15)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
owner=$(if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi)
dir=$(cd "$dir" && pwd)
data=$dir/data run=$dir/run
if [ "$command" = start ] && [ -n "${GOITA_PG_PORT:-}" ]; then
  [[ $GOITA_PG_PORT =~ ^[0-9]+$ ]] && [ "$GOITA_PG_PORT" -ge 1 ] && [ "$GOITA_PG_PORT" -le 65535 ] ||
    { echo "postgres.sh: GOITA_PG_PORT is a TCP port, not $GOITA_PG_PORT" >&2; exit 2; }
  echo "$GOITA_PG_PORT" >"$dir/port"
fi
port=$(cat "$dir/port" 2>/dev/null || true)
listen="''" port_args=() uri_port=""
if [ -n "$port" ]; then listen="'127.0.0.1'" port_args=(-p "$port") uri_port="&port=$port"; fi
uri="postgresql:///goita?host=$run$uri_port&user=$owner"
case $command in
  start)
    mkdir -p "$run"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres "$dir" "$run"
      runuser -u postgres -- test -x "$dir" ||
        { echo "postgres.sh: the postgres user cannot reach $dir (its parent folders need o+x)" >&2; exit 1; }
    fi
    if [ ! -d "$data" ]; then
      as_owner "$bin/initdb" -D "$data" -U "$owner" --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=$listen -c unix_socket_directories='$run' ${port_args[*]}" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/psql" -h "$run" "${port_args[@]}" -U "$owner" -d postgres -qtAc "SELECT 1 FROM pg_database WHERE datname = 'goita'" |
      grep -q 1 || as_owner "$bin/createdb" -h "$run" "${port_args[@]}" -U "$owner" goita
    echo "$uri" ;;
  stop)
    # (quietly nothing when it is not running)
    if [ -d "$data" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null
    fi ;;
  status)
    as_owner "$bin/pg_isready" -h "$run" "${port_args[@]}" -U "$owner" -d goita ;;
  *) echo "usage: scripts/postgres.sh start|stop|status DIR" >&2; exit 2 ;;
esac

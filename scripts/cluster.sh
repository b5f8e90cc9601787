#!/usr/bin/env bash
# A goita cluster on loopback, as the current user under one folder (docs/SERVER.md, "Several
# servers"): a throwaway PostgreSQL (scripts/postgres.sh), a NATS server (nats-server) for the
# messages between nodes, NODES goita serve nodes (--node n1 ... nN) on the database and the bus,
# and HAProxy in front of them on one port, its configuration made from deploy/haproxy.cfg.
# Every piece listens on 127.0.0.1 only (PostgreSQL on a Unix socket in DIR, unless
# GOITA_PG_PORT is given). It installs what it runs when it is missing (Debian postgresql,
# nats-server, haproxy; with apt-get, through sudo when not root: scripts/packages.sh).
#
#   scripts/cluster.sh up [DIR]     # starts it all; DIR defaults to a new temporary folder.
#                                   # Prints DIR and the address to open in a browser.
#   scripts/cluster.sh status DIR   # each piece's health; exit status 1 if one is not healthy
#   scripts/cluster.sh down DIR     # stops everything it started; DIR (logs, database) stays,
#                                   # and `up DIR` again goes on with the same database
#   scripts/cluster.sh stop DIR PIECE     # stops one piece (SIGTERM, SIGKILL after 5 s): PIECE
#                                         # is postgresql, nats, haproxy or a node, n1..nN (also
#                                         # written server1..serverN)
#   scripts/cluster.sh start DIR PIECE    # starts a stopped piece again, on the same port and
#                                         # data, and waits until it serves (a node: until it
#                                         # listens; HAProxy: until /healthz answers 200)
#   scripts/cluster.sh restart DIR PIECE  # stop, then start
#   scripts/cluster.sh pid DIR PIECE      # prints its pid (PostgreSQL's postmaster); exit status
#                                         # 1 when it does not run. For kill -STOP, kill -9, ...
#   scripts/cluster.sh proxy DIR NAME:PORT...
#                                   # HAProxy alone, in front of nodes started otherwise (named
#                                   # by their --node, on 127.0.0.1:PORT); prints its port.
#                                   # `down DIR` stops it. tests/e2e/cluster.js uses it.
#
# Each piece writes DIR/NAME.log (appended to by every start, so a restart keeps what came
# before; a node's log has its timestamped lines: docs/SERVER.md "Health and metrics") and its
# pid to DIR/NAME.pid (NAME: nats, haproxy, n1..nN; PostgreSQL's is DIR/pg/data/postmaster.pid;
# `pid DIR PIECE` prints either), for signals of one's own (kill -STOP, kill -9: `start DIR
# PIECE` brings a killed piece back).
#
# Environment: NODES (3, or as many as GOITA_SERVER_PORTS names), STORE (postgresql, or sqlite
# for one node on a SQLite file in DIR, to compare), LEASE (each node's --lease, 10 s),
# SERVE_ARGS (more goita serve options, e.g. "--round-pause 0"), GOITA (the program, else
# $GOITA_BUILD/goita, else build/goita). The ports, each a free random one when not given:
# GOITA_PORT (HAProxy's, the one to open), GOITA_STATS_PORT (HAProxy's statistics),
# GOITA_SERVER_PORTS (the nodes', e.g. "8001 8002 8003"), GOITA_NATS_PORT,
# GOITA_NATS_MONITOR_PORT (NATS's /healthz), GOITA_PG_PORT (PostgreSQL on 127.0.0.1 as well as
# its socket; none when not given). `up` reads them; `start` and `restart` use the same ports as
# `up` chose. Run by root, PostgreSQL runs as the postgres user (scripts/postgres.sh) and DIR is
# made reachable to it; everything else runs as root.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-}
dir=${2:-}
PATH=$PATH:/usr/sbin:/sbin # nats-server and haproxy, also for a user whose PATH lacks them
usage() {
  echo "usage: scripts/cluster.sh up [DIR] | status DIR | down DIR | stop|start|restart|pid DIR PIECE |" \
    "proxy DIR NAME:PORT...  (PIECE: postgresql, nats, haproxy, n1..nN)" >&2
  exit 2
}
# shellcheck source=scripts/packages.sh
. "$root/scripts/packages.sh"

# Installs the Debian packages of the programs named (postgresql: its initdb) that are missing.
install_programs() {
  local packages=() program
  for program in "$@"; do
    case $program in
      postgresql) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql) ;;
      *) command -v "$program" >/dev/null || packages+=("$program") ;;
    esac
  done
  [ ${#packages[@]} -eq 0 ] && return 0
  echo "cluster.sh: installing ${packages[*]} (Debian)" >&2
  ensure_packages "${packages[@]}"
}

# Prints a TCP port of 127.0.0.1 that nothing uses now: random, absent from the kernel's socket
# tables (no listener and no connection on it) and not given before by this run (in DIR/ports).
free_port() {
  local port hex
  while :; do
    port=$((20000 + RANDOM % 40000))
    hex=$(printf ':%04X ' "$port")
    grep -qF "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null && continue
    grep -qx "$port" "$dir/ports" 2>/dev/null && continue
    echo "$port" | tee -a "$dir/ports"
    return
  done
}

# Checks the ports given in the environment variable $1 (its value: ports split by spaces or
# commas) and notes them in DIR/ports, so that free_port never gives them.
reserve_ports() {
  local port value=${!1:-}
  for port in ${value//,/ }; do
    [[ $port =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] ||
      { echo "cluster.sh: $1 has $port, not a TCP port" >&2; exit 2; }
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "cluster.sh: $1: port $port of 127.0.0.1 is in use already" >&2
      exit 1
    fi
    echo "$port" >>"$dir/ports"
  done
}

# Writes the port of environment variable $1 (else a free one) to DIR/$2.
choose_port() {
  if [ -n "${!1:-}" ]; then echo "${!1}" >"$dir/$2"; else free_port >"$dir/$2"; fi
}

# GET http://127.0.0.1:PORT/PATH with bash alone (no curl on a bare machine): prints the status
# code, then the body's lines; fails when nothing answers within 2 s.
http_get() {
  local code line
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$2" "$1" >&3
  read -r -t 2 _ code _ <&3 || { exec 3<&-; return 1; }
  echo "$code"
  while read -r -t 2 line <&3 && [ -n "${line%$'\r'}" ]; do :; done # the headers
  while read -r -t 2 line <&3 || [ -n "$line" ]; do echo "${line%$'\r'}"; done
  exec 3<&-
}

# Waits up to $4 s (10) for the log file $2 of process $1 to contain the line pattern $3 after
# its first $5 lines (0: those written before this start).
wait_for_log() {
  local _
  for _ in $(seq $((${4:-10} * 10))); do
    tail -n +$((${5:-0} + 1)) "$2" 2>/dev/null | grep -q "$3" && return 0
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  echo "cluster.sh: $(basename "$2" .log) did not start; its log:" >&2
  tail -n +$((${5:-0} + 1)) "$2" >&2
  return 1
}

# The number of lines of file $1 (0 when there is none).
lines_of() { if [ -e "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# Starts "$@" in the background with its output appended to DIR/NAME.log, in a session of its
# own (a Ctrl-C in the terminal that ran `up` does not reach it), and records its pid in
# DIR/NAME.pid.
start_daemon() {
  local name=$1
  shift
  setsid "$@" </dev/null >>"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

# Writes DIR/haproxy.cfg: deploy/haproxy.cfg with what belongs to one machine replaced (the
# frontend on 127.0.0.1:PROXY_PORT without TLS or its redirect, the stats on STATS_PORT, the
# nodes of this cluster, logs to its own log file, no user, chroot or per-address limit: every
# client here comes from 127.0.0.1; maxconn within what ulimit -n allows, two descriptors each).
write_haproxy_config() {
  local servers="" routes="" n
  for n in "${node_names[@]}"; do
    routes+="    use-server $n if { urlp(node) -m str $n }"$'\n'
    servers+="    server $n 127.0.0.1:$(cat "$dir/$n.port") cookie $n"$'\n'
  done
  local fds
  fds=$(ulimit -Hn)
  [ "$fds" = unlimited ] && fds=65536
  awk -v maxconn=$(((fds - 100) / 2 < 20000 ? (fds - 100) / 2 : 20000)) -v bind="127.0.0.1:$(cat "$dir/haproxy.port")" \
      -v stats="127.0.0.1:$(cat "$dir/haproxy.stats-port")" -v sock="$dir/haproxy.sock" \
      -v servers="$servers" -v routes="$routes" '
    /^[a-z]/ { section = $1; bound = 0 }
    /^ *(user|group|chroot|daemon) / || /redirect scheme https/ || /sc0_conn_cur/ { next }
    /^ *maxconn / { print "    maxconn " maxconn; next }
    /^ *log \/dev\/log/ { print "    log stderr format raw local0 info"; next }
    /^ *stats socket / { print "    stats socket " sock " mode 600 level admin"; next }
    /^ *bind / { if (!bound++) print "    bind " (section == "listen" ? stats : bind); next }
    /^ *use-server / { if (!routed++) printf "%s", routes; next }
    /^ *server / { if (!served++) printf "%s", servers; next }
    { print }' "$root/deploy/haproxy.cfg" >"$dir/haproxy.cfg"
  haproxy -c -q -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 || { cat "$dir/haproxy.log" >&2; false; }
}

# ---- one piece each: started on the ports and data in DIR, waited for ----

# PostgreSQL on the port `up` gave it (GOITA_PG_PORT then, kept in DIR/pg/port), or its socket alone.
start_postgresql() {
  "$root/scripts/postgres.sh" start "$dir/pg" >"$dir/db"
}

start_nats() {
  local before
  before=$(lines_of "$dir/nats.log")
  start_daemon nats nats-server -c "$dir/nats.conf"
  wait_for_log "$(cat "$dir/nats.pid")" "$dir/nats.log" "Server is ready" 10 "$before"
}

# Starts node nK ($1). A node may wait for its name's lease to run out (after a kill -9), so it
# is given the lease and 10 s to listen.
start_node() {
  local name=n$1 before args=()
  before=$(lines_of "$dir/$name.log")
  # Several nodes need PostgreSQL: a SQLite node is one server alone, with no name, lease or bus.
  [ "$STORE" = sqlite ] ||
    args=(--node "$name" --lease "$LEASE" --bus "nats://127.0.0.1:$(cat "$dir/nats.port")")
  # shellcheck disable=SC2086 # SERVE_ARGS is a list of options
  start_daemon "$name" "$GOITA" serve --host 127.0.0.1 --port "$(cat "$dir/$name.port")" --db "$(cat "$dir/db")" \
    "${args[@]}" ${SERVE_ARGS:-}
  wait_for_log "$(cat "$dir/$name.pid")" "$dir/$name.log" "goita serve: http" $((LEASE + 10)) "$before"
}

# Starts HAProxy on DIR/haproxy.cfg and waits until it answers /healthz with 200 for a node.
start_haproxy() {
  local port
  port=$(cat "$dir/haproxy.port")
  start_daemon haproxy haproxy -db -f "$dir/haproxy.cfg"
  for _ in $(seq 50); do [ "$(http_get "$port" /healthz 2>/dev/null | head -1)" = 200 ] && break; sleep 0.2; done
  [ "$(http_get "$port" /healthz 2>/dev/null | head -1)" = 200 ] ||
    { echo "cluster.sh: HAProxy does not answer" >&2; cat "$dir/haproxy.log" >&2; false; }
}

# Starts PostgreSQL (or picks the SQLite file), NATS, the nodes and HAProxy, each waited for.
up() {
  local n var
  [ -x "$GOITA" ] || { echo "cluster.sh: no $GOITA: build it first (or say GOITA=...)" >&2; exit 1; }
  if [ "$STORE" = postgresql ]; then
    install_programs haproxy nats-server postgresql
  else
    install_programs haproxy nats-server
  fi
  [ -n "$dir" ] || dir=$(mktemp -d)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -e "$dir/cluster.env" ] && { echo "cluster.sh: $dir holds a cluster already: down it first" >&2; exit 1; }
  : >"$dir/ports"
  for var in GOITA_PORT GOITA_STATS_PORT GOITA_SERVER_PORTS GOITA_NATS_PORT GOITA_NATS_MONITOR_PORT GOITA_PG_PORT; do
    reserve_ports "$var"
  done
  read -ra server_ports <<<"${GOITA_SERVER_PORTS//,/ }"
  [ ${#server_ports[@]} -eq 0 ] || [ ${#server_ports[@]} -ge "$NODES" ] ||
    { echo "cluster.sh: GOITA_SERVER_PORTS names ${#server_ports[@]} port(s) for NODES=$NODES" >&2; exit 2; }
  trap 'echo "cluster.sh: up failed; stopping what started" >&2; down' ERR
  # what start and restart need later, read back by every other command
  printf 'STORE=%q NODES=%q LEASE=%q SERVE_ARGS=%q GOITA=%q\n' "$STORE" "$NODES" "$LEASE" "${SERVE_ARGS:-}" "$GOITA" \
    >"$dir/cluster.env"
  if [ "$STORE" = sqlite ]; then
    [ "$NODES" -eq 1 ] || { echo "cluster.sh: STORE=sqlite serves one node only (NODES=1)" >&2; exit 1; }
    echo "$dir/sqlite/server.db" >"$dir/db" # the nodes' --db
  else
    chmod 711 "$dir" # as root, PostgreSQL runs as the postgres user, which must reach its folder
    mkdir -p "$dir/pg"
    rm -f "$dir/pg/port" # GOITA_PG_PORT of this `up`, or none
    start_postgresql # DIR/db: the nodes' --db, for psql, or another node started by hand
  fi

  choose_port GOITA_NATS_PORT nats.port
  choose_port GOITA_NATS_MONITOR_PORT nats.http-port
  printf 'listen: 127.0.0.1:%s\nhttp: 127.0.0.1:%s\nserver_name: goita-bus\n' "$(cat "$dir/nats.port")" \
    "$(cat "$dir/nats.http-port")" >"$dir/nats.conf"
  start_nats
  for n in $(seq "$NODES"); do
    if [ ${#server_ports[@]} -gt 0 ]; then echo "${server_ports[n - 1]}" >"$dir/n$n.port"; else free_port >"$dir/n$n.port"; fi
    start_node "$n"
  done

  mapfile -t node_names < <(seq -f 'n%g' "$NODES")
  choose_port GOITA_PORT haproxy.port
  choose_port GOITA_STATS_PORT haproxy.stats-port
  write_haproxy_config
  start_haproxy
  trap - ERR
  echo "cluster in $dir: $NODES node(s) on $STORE; NATS at nats://127.0.0.1:$(cat "$dir/nats.port")"
  echo "open http://127.0.0.1:$(cat "$dir/haproxy.port")/ (HAProxy; its view of the nodes:" \
    "http://127.0.0.1:$(cat "$dir/haproxy.stats-port")/stats)"
  echo "stop it with: scripts/cluster.sh down $dir"
}

# HAProxy alone in DIR in front of the nodes NAME:PORT given: prints its port.
proxy() {
  local arg
  install_programs haproxy
  [ $# -gt 0 ] || usage
  : >>"$dir/ports"
  reserve_ports GOITA_PORT
  reserve_ports GOITA_STATS_PORT
  node_names=()
  for arg in "$@"; do
    [[ $arg =~ ^[A-Za-z0-9_-]+:[0-9]+$ ]] || { echo "cluster.sh: proxy wants NAME:PORT, not $arg" >&2; exit 2; }
    node_names+=("${arg%%:*}")
    echo "${arg#*:}" >"$dir/${arg%%:*}.port"
    echo "${arg#*:}" >>"$dir/ports"
  done
  choose_port GOITA_PORT haproxy.port
  choose_port GOITA_STATS_PORT haproxy.stats-port
  write_haproxy_config
  start_haproxy
  cat "$dir/haproxy.port"
}

# Prints "NAME ok|FAILING DETAIL" for piece $1 (healthy when $2 is 0), and notes a failing one.
report() {
  printf '%-8s %s %s\n' "$1" "$([ "$2" -eq 0 ] && echo ok || echo FAILING)" "$3"
  [ "$2" -eq 0 ] || failing=1
}

# Reports piece $1 by GET /healthz on port $2: healthy when it answers 200.
report_healthz() {
  local line healthy=0
  line=$(http_get "$2" /healthz 2>/dev/null | paste -sd ' ') || true
  [[ $line == 200* ]] || healthy=1
  report "$1" "$healthy" "/healthz ${line:-no answer}"
}

# Prints one line per piece and fails if one is not healthy.
status() {
  local failing=0 line n healthy
  [ -e "$dir/cluster.env" ] || { echo "cluster.sh: no cluster in $dir" >&2; exit 1; }
  if [ "$STORE" = postgresql ]; then
    healthy=0
    line=$("$root/scripts/postgres.sh" status "$dir/pg" 2>&1) || healthy=1
    report postgres "$healthy" "$line"
  fi
  report_healthz nats "$(cat "$dir/nats.http-port")"
  for n in $(seq "$NODES"); do report_healthz "n$n" "$(cat "$dir/n$n.port")"; done
  # HAProxy's own view, from its CSV stats: each server's status (field 18) and last check (37).
  line=$(http_get "$(cat "$dir/haproxy.stats-port")" '/stats;csv' 2>/dev/null |
    awk -F, '$1 == "goita" && $2 ~ /^n[0-9]/ { printf "%s%s %s (%s)", sep, $2, $18, $37; sep = ", " }') || true
  healthy=0
  [ -n "$line" ] && [[ $line != *DOWN* ]] || healthy=1
  report haproxy "$healthy" "${line:-no answer}"
  return "$failing"
}

# Whether process $1 runs (a zombie, ended and not yet reaped by init, does not).
alive() {
  [ -e "/proc/$1/status" ] && ! grep -q '^State:.*zombie' "/proc/$1/status" 2>/dev/null
}

# Stops the process of DIR/$1.pid: SIGTERM, SIGKILL after 5 s (SIGCONT first: it may be stopped).
stop_daemon() {
  local pid
  [ -e "$dir/$1.pid" ] || return 0
  pid=$(cat "$dir/$1.pid")
  kill "$pid" 2>/dev/null || true
  kill -CONT "$pid" 2>/dev/null || true
  for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 20); do alive "$pid" || break; sleep 0.1; done
  rm -f "$dir/$1.pid"
}

# Stops HAProxy, the nodes, NATS and PostgreSQL, in that order, and checks that none is left.
down() {
  local name left=""
  for name in haproxy $(seq -f 'n%g' "$NODES") nats; do stop_daemon "$name"; done
  [ -d "$dir/pg" ] && "$root/scripts/postgres.sh" stop "$dir/pg"
  rm -f "$dir/cluster.env"
  left=$(pgrep -f -- "$dir/" | grep -v -x "$$" || true)
  [ -z "$left" ] || { echo "cluster.sh: still running after down: $left" >&2; return 1; }
}

# The piece named $1 as this cluster calls it (postgresql, nats, haproxy, nK), or a usage error.
piece_name() {
  case $1 in
    postgresql | postgres | pg) [ "$STORE" = postgresql ] && { echo postgresql; return; } ;;
    nats | haproxy) echo "$1"; return ;;
    n[0-9]* | server[0-9]*)
      local k=${1#n}
      k=${k#server}
      if [[ $k =~ ^[1-9][0-9]*$ ]] && [ "$k" -le "$NODES" ]; then echo "n$k"; return; fi ;;
  esac
  echo "cluster.sh: no piece $1 in this cluster: $([ "$STORE" = sqlite ] || echo "postgresql, ")nats, haproxy or n1..n$NODES" >&2
  exit 2
}

# Whether piece $1 runs now.
piece_runs() {
  if [ "$1" = postgresql ]; then
    [ -e "$dir/pg/data/postmaster.pid" ] && alive "$(head -1 "$dir/pg/data/postmaster.pid")"
  else
    [ -e "$dir/$1.pid" ] && alive "$(cat "$dir/$1.pid")"
  fi
}

# stop DIR PIECE, start DIR PIECE, restart DIR PIECE.
stop_piece() {
  [ $# -eq 1 ] || usage
  [ -e "$dir/cluster.env" ] || { echo "cluster.sh: no cluster in $dir" >&2; exit 1; }
  local piece
  piece=$(piece_name "$1")
  if [ "$piece" = postgresql ]; then "$root/scripts/postgres.sh" stop "$dir/pg"; else stop_daemon "$piece"; fi
  echo "cluster.sh: $piece stopped"
}

start_piece() {
  [ $# -eq 1 ] || usage
  [ -e "$dir/cluster.env" ] || { echo "cluster.sh: no cluster in $dir" >&2; exit 1; }
  local piece
  piece=$(piece_name "$1")
  piece_runs "$piece" && { echo "cluster.sh: $piece runs already: stop it first, or restart it" >&2; exit 1; }
  unset GOITA_PG_PORT # the ports are those up chose
  case $piece in
    n[0-9]*) start_node "${piece#n}" ;;
    *) "start_$piece" ;;
  esac
  echo "cluster.sh: $piece started"
}

restart_piece() {
  stop_piece "$@"
  start_piece "$@"
}

pid_piece() {
  [ $# -eq 1 ] || usage
  [ -e "$dir/cluster.env" ] || { echo "cluster.sh: no cluster in $dir" >&2; exit 1; }
  local piece
  piece=$(piece_name "$1")
  piece_runs "$piece" || { echo "cluster.sh: $piece does not run" >&2; exit 1; }
  if [ "$piece" = postgresql ]; then head -1 "$dir/pg/data/postmaster.pid"; else cat "$dir/$piece.pid"; fi
}

[ -n "$command" ] || usage
case $command in
  up) ;;
  status | down | proxy | stop | start | restart | pid)
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then usage; fi
    dir=$(cd "$dir" && pwd) ;;
  *) usage ;;
esac
GOITA_SERVER_PORTS=${GOITA_SERVER_PORTS:-}
read -ra given_ports <<<"${GOITA_SERVER_PORTS//,/ }"
[ ${#given_ports[@]} -gt 0 ] && default_nodes=${#given_ports[@]} || default_nodes=3
NODES=${NODES:-$default_nodes} STORE=${STORE:-postgresql} LEASE=${LEASE:-10}
GOITA=${GOITA:-$root/${GOITA_BUILD:-build}/goita}
# shellcheck source=/dev/null # the other commands read what up chose
[ "$command" = up ] || [ ! -e "$dir/cluster.env" ] || . "$dir/cluster.env"
case $STORE in postgresql | sqlite) ;; *) echo "cluster.sh: STORE is postgresql or sqlite, not $STORE" >&2; exit 2 ;; esac
case $command in
  stop | start | restart | pid) "${command}_piece" "${@:3}" ;;
  *) "$command" "${@:3}" ;;
esac

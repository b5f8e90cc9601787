#!/usr/bin/env bash
# A goita cluster on loopback, as the current user under one folder (docs/SERVER.md, "Several
# servers"): a throwaway PostgreSQL (scripts/postgres.sh), a NATS server (nats-server) for the
# messages between nodes, NODES goita serve nodes (--node n1 ... nN) on the database and the bus,
# and HAProxy in front of them on one port, its configuration made from deploy/haproxy.cfg.
# Every piece listens on 127.0.0.1 only (PostgreSQL on a Unix socket in DIR).
#
#   scripts/cluster.sh up [DIR]     # starts it all; DIR defaults to a new temporary folder.
#                                   # Prints DIR and the address to open in a browser.
#   scripts/cluster.sh status DIR   # each piece's health; exit status 1 if one is not healthy
#   scripts/cluster.sh down DIR     # stops everything it started; DIR (logs, database) stays,
#                                   # and `up DIR` again goes on with the same database
#   scripts/cluster.sh proxy DIR NAME:PORT...
#                                   # HAProxy alone, in front of nodes started otherwise (named
#                                   # by their --node, on 127.0.0.1:PORT); prints its port.
#                                   # `down DIR` stops it. tests/e2e/cluster.js uses it.
#
# Environment: NODES (3), STORE (postgresql, or sqlite for one node on a SQLite file in DIR,
# to compare), LEASE (each node's --lease, 10 s), SERVE_ARGS (more goita serve options, e.g.
# "--round-pause 0"), GOITA (the program, else $GOITA_BUILD/goita, else build/goita).
# Run by root, PostgreSQL runs as the postgres user (scripts/postgres.sh) and DIR is made
# reachable to it; everything else runs as root.
set -Eeuo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-}
dir=${2:-}
usage() { echo "usage: scripts/cluster.sh up [DIR] | status DIR | down DIR | proxy DIR NAME:PORT..." >&2; exit 2; }

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

# Waits up to 10 s for the log file $2 of process $1 to contain the line pattern $3.
wait_for_log() {
  local _
  for _ in $(seq 100); do
    grep -q "$3" "$2" 2>/dev/null && return 0
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  echo "cluster.sh: $(basename "$2" .log) did not start; its log:" >&2
  cat "$2" >&2
  return 1
}

# Starts "$@" in the background with its output in DIR/NAME.log, in a session of its own (a
# Ctrl-C in the terminal that ran `up` does not reach it), and records its pid in DIR/NAME.pid.
start_daemon() {
  local name=$1
  shift
  setsid "$@" </dev/null >"$dir/$name.log" 2>&1 &
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
  awk -v maxconn=$(((fds - 100) / 2 < 20000 ? (fds - 100) / 2 : 20000)) -v bind="127.0.0.1:$proxy_port" -v stats="127.0.0.1:$stats_port" -v sock="$dir/haproxy.sock" \
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
}

# Starts PostgreSQL (or picks the SQLite file), NATS, the nodes and HAProxy, each waited for.
up() {
  local goita=${GOITA:-$root/${GOITA_BUILD:-build}/goita} db n port cluster name
  [ -x "$goita" ] || { echo "cluster.sh: no $goita: build it first (or say GOITA=...)" >&2; exit 1; }
  for program in haproxy nats-server; do
    command -v "$program" >/dev/null ||
      { echo "cluster.sh: $program is not installed (Debian package $program)" >&2; exit 1; }
  done
  [ -n "$dir" ] || dir=$(mktemp -d)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -e "$dir/cluster.env" ] && { echo "cluster.sh: $dir holds a cluster already: down it first" >&2; exit 1; }
  trap 'echo "cluster.sh: up failed; stopping what started" >&2; down' ERR
  if [ "$STORE" = sqlite ]; then
    [ "$NODES" -eq 1 ] || { echo "cluster.sh: STORE=sqlite serves one node only (NODES=1)" >&2; exit 1; }
    db=$dir/sqlite/server.db
  else
    chmod 711 "$dir" # as root, PostgreSQL runs as the postgres user, which must reach its folder
    mkdir -p "$dir/pg"
    db=$("$root/scripts/postgres.sh" start "$dir/pg")
  fi
  echo "STORE=$STORE NODES=$NODES" >"$dir/cluster.env"
  : >"$dir/ports"
  echo "$db" >"$dir/db" # the nodes' --db: for psql, or another node started by hand

  nats_port=$(free_port) nats_http=$(free_port)
  printf 'listen: 127.0.0.1:%s\nhttp: 127.0.0.1:%s\nserver_name: goita-bus\n' "$nats_port" "$nats_http" >"$dir/nats.conf"
  start_daemon nats nats-server -c "$dir/nats.conf"
  wait_for_log "$(cat "$dir/nats.pid")" "$dir/nats.log" "Server is ready"
  echo "$nats_http" >"$dir/nats.http-port"
  # Several nodes need PostgreSQL: a SQLite node is one server alone, with no name, lease or bus.
  cluster=()
  if [ "$STORE" = postgresql ]; then
    cluster=(--lease "$LEASE" --bus "nats://127.0.0.1:$nats_port")
  fi

  for n in $(seq "$NODES"); do
    port=$(free_port)
    echo "$port" >"$dir/n$n.port"
    name=()
    [ "$STORE" = sqlite ] || name=(--node "n$n")
    # shellcheck disable=SC2086 # SERVE_ARGS is a list of options
    start_daemon "n$n" "$goita" serve --host 127.0.0.1 --port "$port" --db "$db" "${name[@]}" "${cluster[@]}" ${SERVE_ARGS:-}
    wait_for_log "$(cat "$dir/n$n.pid")" "$dir/n$n.log" "goita serve: http"
  done

  node_names=($(seq -f 'n%g' "$NODES"))
  start_haproxy
  trap - ERR
  echo "cluster in $dir: $NODES node(s) on $STORE; NATS at nats://127.0.0.1:$nats_port"
  echo "open http://127.0.0.1:$proxy_port/ (HAProxy; its view of the nodes: http://127.0.0.1:$stats_port/stats)"
  echo "stop it with: scripts/cluster.sh down $dir"
}

# Writes HAProxy's configuration for the nodes in node_names (each on the port in DIR/NAME.port),
# starts it and waits until it answers for them.
start_haproxy() {
  proxy_port=$(free_port) stats_port=$(free_port)
  echo "$proxy_port" >"$dir/haproxy.port"
  echo "$stats_port" >"$dir/haproxy.stats-port"
  write_haproxy_config
  haproxy -c -q -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 || { cat "$dir/haproxy.log" >&2; false; }
  start_daemon haproxy haproxy -db -f "$dir/haproxy.cfg"
  for _ in $(seq 50); do [ "$(http_get "$proxy_port" /healthz 2>/dev/null | head -1)" = 200 ] && break; sleep 0.2; done
  [ "$(http_get "$proxy_port" /healthz 2>/dev/null | head -1)" = 200 ] || { echo "cluster.sh: HAProxy does not answer" >&2; cat "$dir/haproxy.log" >&2; false; }
}

# HAProxy alone in DIR in front of the nodes NAME:PORT given: prints its port.
proxy() {
  local arg
  command -v haproxy >/dev/null || { echo "cluster.sh: haproxy is not installed (Debian package haproxy)" >&2; exit 1; }
  [ $# -gt 0 ] || usage
  : >>"$dir/ports"
  node_names=()
  for arg in "$@"; do
    [[ $arg =~ ^[A-Za-z0-9_-]+:[0-9]+$ ]] || { echo "cluster.sh: proxy wants NAME:PORT, not $arg" >&2; exit 2; }
    node_names+=("${arg%%:*}")
    echo "${arg#*:}" >"$dir/${arg%%:*}.port"
    echo "${arg#*:}" >>"$dir/ports"
  done
  start_haproxy
  echo "$proxy_port"
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

# Stops HAProxy, the nodes, NATS and PostgreSQL, in that order, and checks that none is left.
down() {
  local name pid left=""
  for name in haproxy $(seq -f 'n%g' "$NODES") nats; do
    [ -e "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
  [ -d "$dir/pg" ] && "$root/scripts/postgres.sh" stop "$dir/pg"
  rm -f "$dir/cluster.env"
  left=$(pgrep -f -- "$dir/" | grep -v -x "$$" || true)
  [ -z "$left" ] || { echo "cluster.sh: still running after down: $left" >&2; return 1; }
}

[ -n "$command" ] || usage
case $command in
  up) ;;
  status | down | proxy)
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then usage; fi
    dir=$(cd "$dir" && pwd) ;;
  *) usage ;;
esac
NODES=${NODES:-3} STORE=${STORE:-postgresql} LEASE=${LEASE:-10}
# shellcheck source=/dev/null # status and down read what up chose
[ "$command" = up ] || [ ! -e "$dir/cluster.env" ] || . "$dir/cluster.env"
case $STORE in postgresql | sqlite) ;; *) echo "cluster.sh: STORE is postgresql or sqlite, not $STORE" >&2; exit 2 ;; esac
"$command" "${@:3}"

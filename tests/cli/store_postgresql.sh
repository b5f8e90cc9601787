#!/usr/bin/env bash
# Runs a store test program against a real PostgreSQL: a throwaway server under a temporary
# folder, on a Unix socket only (scripts/postgres.sh), stopped and removed at the end. The
# program gets the database's URI in GOITA_TEST_DB, and the commands that stop and start the
# server again in GOITA_TEST_DB_STOP and GOITA_TEST_DB_START (for the outage tests).
# Usage: store_postgresql.sh PROGRAM [ARGUMENTS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap '"$root/scripts/postgres.sh" stop "$tmp"; rm -rf "$tmp"' EXIT
GOITA_TEST_DB=$("$root/scripts/postgres.sh" start "$tmp")
GOITA_TEST_DB_STOP="$root/scripts/postgres.sh stop $tmp"
GOITA_TEST_DB_START="$root/scripts/postgres.sh start $tmp >/dev/null"
export GOITA_TEST_DB GOITA_TEST_DB_STOP GOITA_TEST_DB_START
"$@"

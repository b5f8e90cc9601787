#!/usr/bin/env bash
# docs/ABI.md states the thread safety of every public function: each name declared GOITA_API
# in include/goita/*.h appears there in backquotes.
# Usage: abi_doc.sh SOURCE_DIR
set -euo pipefail
root=$1
missing=0
for fn in $(grep -ho 'GOITA_API [^(]*(' "$root"/include/goita/*.h | grep -o 'goita_[a-z_0-9]*($' | tr -d '(' | sort -u); do
  if ! grep -q "\`$fn\`" "$root/docs/ABI.md"; then
    echo "FAIL docs/ABI.md does not say whether $fn is thread-safe"
    missing=1
  fi
done
[ "$missing" = 0 ] && echo "every public function's thread safety is in docs/ABI.md"

#!/usr/bin/env bash
# The Ko shogi code cites its rules as "KOSHOGI-RULES.md N" (and decision labels Dn), the page by
# name (web/koshogi-i18n.js): every
# citation must have its heading in docs/KOSHOGI-RULES.md, the old form "KOSHOGI.md N" (a
# document outside the repository) must not come back, and the docs must not point outside.
# Usage: koshogi_docs.sh SOURCE_DIR
set -u
cd "$1" || exit 1
doc=docs/KOSHOGI-RULES.md
files=(src/koshogi include/koshogi tests/test_koshogi.c tests/cli/koshogi.sh docs/KOSHOGI.md "$doc")
failures=0
fail() {
  echo "FAIL $1"
  failures=$((failures + 1))
}

[ -f "$doc" ] || { echo "FAIL no $doc"; exit 1; }
# the fixed skeleton: sections 1 to 8 and decisions D1 to D37
for n in 1 2 3 4 5 6 7 8; do grep -Eq "^## $n\. " "$doc" || fail "$doc: no section $n"; done
for n in $(seq 1 37); do grep -Eq "^### D$n " "$doc" || fail "$doc: no decision D$n"; done
# every section cited
for n in $(grep -rhoE "KOSHOGI-RULES\.md [0-9][0-9.]*" "${files[@]}" | awk '{print $2}' | sed 's/\.$//' | sort -u); do
  grep -Eq "^#{2,4} $n(\.| )" "$doc" || fail "KOSHOGI-RULES.md $n is cited but has no heading"
done
# every decision label cited by the Ko shogi code and docs
for d in $(grep -rhoE "\bD[0-9]{1,2}\b" "${files[@]}" | sort -u); do
  grep -Eq "^### $d " "$doc" || fail "$d is cited but has no heading in $doc"
done
# every section the Ko shogi page names in words (web/koshogi-i18n.js, KS_SECTIONS; a range by its ends)
for n in $(grep -oE "^  '[^']+': \[" web/koshogi-i18n.js | cut -d"'" -f2 | sed 's/–/\n/' | sort -u); do
  grep -Eq "^#{2,4} $n(\.| )" "$doc" || fail "web/koshogi-i18n.js names section $n, which has no heading in $doc"
done
# no citation of the rules under their old name, no pointer outside the repository
old=$(grep -rnE "(^|[^/A-Za-z-])KOSHOGI\.md [0-9D]" src/koshogi include/koshogi tests docs CMakeLists.txt)
[ -z "$old" ] || fail "old citations (write KOSHOGI-RULES.md): $old"
out=$(grep -nE "\.\./shared|/work/shared" docs/KOSHOGI.md "$doc")
[ -z "$out" ] || fail "the docs point outside the repository: $out"

[ "$failures" -eq 0 ] && echo "koshogi_docs: all checks passed"
exit "$failures"

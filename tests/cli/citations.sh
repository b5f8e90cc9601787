#!/usr/bin/env bash
# Checks the citations of the project's own documents. Usage: citations.sh ROOT
#
# Fails, naming the file and line, when a file of the repository
#   - cites a section of one of the documents docs/RULES.md, docs/RECORDS.md or
#     docs/KOSHOGI-RULES.md by its file name and a number (forms: "NAME 3.1", "NAME 3.3-3.4",
#     "NAME sections 5-6", "NAME 4 (b)", "NAME 2.2, D1", "NAME 3-5 and 8") that has no
#     numbered heading in docs/RULES.md, docs/RECORDS.md or docs/KOSHOGI-RULES.md: every
#     number following the file name is checked, both ends of a range, and the numbers of a
#     list ("3-5 and 8");
#   - is a rules scenario (tests/scenarios/*.scn) whose "section N" line names no heading
#     of docs/RULES.md;
#   - mentions the documents outside the repository the project once relied on;
#   - is a Markdown file with a relative link ](path) to a file that is not in the repository.
# Files are those git tracks under ROOT, or every file below ROOT outside a git checkout.
set -u
root=${1:-.}
cd "$root" || { echo "citations: no folder $root"; exit 2; }
root=$(pwd -P)

if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ "$(git rev-parse --show-prefix)" = "" ]; then
  mapfile -t files < <(git ls-files)
else
  mapfile -t files < <(find . \( -type d \( -name .git -o -name 'build*' -o -name node_modules \) \) -prune -o -type f -print |
    sed 's|^\./||' | sort)
fi
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
[ "${#existing[@]}" -gt 0 ] || { echo "citations: no files found under $root"; exit 2; }

# The section numbers a document has: "## 3. Deal" and "### 3.1 Teyaku" give 3 and 3.1.
sections() {
  [ -f "$1" ] || return 0
  awk '/^#+[ \t]+[0-9]+(\.[0-9]+)*\.?([ \t]|$)/ { n = $2; sub(/\.$/, "", n); print n }' "$1"
}
rules=$(sections docs/RULES.md | tr '\n' ' ')
records=$(sections docs/RECORDS.md | tr '\n' ' ')
koshogi=$(sections docs/KOSHOGI-RULES.md | tr '\n' ' ')

failures=0
report() {
  echo "$1"
  failures=$((failures + 1))
}

# 1. Section citations. The awk program prints "FILE:LINE: message" for each bad one.
check_citations='
function known(doc, n) {
  return index(" " sec[doc] " ", " " n " ") > 0
}
function check(doc, n, name) {
  if (!(doc in present)) {
    printf "%s:%d: cites %s %s, but docs/%s does not exist\n", FILENAME, FNR, name, n, name
  } else if (!known(doc, n)) {
    printf "%s:%d: cites %s %s, but docs/%s has no heading numbered %s\n", FILENAME, FNR, name, n, name, n
  }
}
BEGIN {
  sec["R"] = rules; sec["C"] = records; sec["K"] = koshogi
  if (has_rules) present["R"] = 1
  if (has_records) present["C"] = 1
  if (has_koshogi) present["K"] = 1
  num = "^[0-9]+(\\.[0-9]+)*"
}
{
  line = $0
  while (match(line, /[A-Za-z0-9_-]*(RULES|RECORDS)\.md/)) {
    word = substr(line, RSTART, RLENGTH)
    line = substr(line, RSTART + RLENGTH)
    if (word == "RULES.md") { doc = "R"; name = "RULES.md" }
    else if (word == "RECORDS.md") { doc = "C"; name = "RECORDS.md" }
    else if (word == "KOSHOGI-RULES.md") { doc = "K"; name = "KOSHOGI-RULES.md" }
    else continue
    rest = line
    sub(/^[ \t]+/, "", rest)
    sub(/^(sections?|§)[ \t]*/, "", rest)
    if (!match(rest, num)) continue
    # A list of numbers and ranges: "3.3-3.4", "3-5 and 8", "2.2, D1" (D1 ends it).
    while (match(rest, num)) {
      check(doc, substr(rest, 1, RLENGTH), name)
      rest = substr(rest, RLENGTH + 1)
      if (match(rest, /^[ \t]*(-|–|to)[ \t]*/)) {
        rest = substr(rest, RLENGTH + 1)
        if (!match(rest, num)) break
        check(doc, substr(rest, 1, RLENGTH), name)
        rest = substr(rest, RLENGTH + 1)
      }
      if (!match(rest, /^[ \t]*(,|and|or|&)[ \t]*/)) break
      rest = substr(rest, RLENGTH + 1)
    }
  }
}
'
has() { [ -f "$1" ] && echo 1 || echo 0; }
while IFS= read -r msg; do report "$msg"; done < <(
  printf '%s\0' "${existing[@]}" | xargs -0 -r grep -IlZE '(RULES|RECORDS)\.md' 2>/dev/null |
    xargs -0 -r awk -v rules="$rules" -v records="$records" -v koshogi="$koshogi" \
      -v has_rules="$(has docs/RULES.md)" -v has_records="$(has docs/RECORDS.md)" \
      -v has_koshogi="$(has docs/KOSHOGI-RULES.md)" "$check_citations")

# 2. The "section N" lines of the rules scenarios.
for f in "${existing[@]}"; do
  case $f in tests/scenarios/*.scn) ;; *) continue ;; esac
  while IFS= read -r msg; do report "$msg"; done < <(
    awk -v rules="$rules" '
      $1 == "section" {
        n = $2
        if (n !~ /^[0-9]+(\.[0-9]+)*$/)
          printf "%s:%d: the section line does not start with a section number of docs/RULES.md\n", FILENAME, FNR
        else if (index(" " rules " ", " " n " ") == 0)
          printf "%s:%d: section %s: docs/RULES.md has no heading numbered %s\n", FILENAME, FNR, n, n
      }' "$f")
done

# 3. Documents outside the repository. The patterns are assembled so that this file does not
# match them itself.
up='\.\.'
sh='shared'
outside="$up/$sh|$sh/RULES\\.md|$sh/KOSHOGI\\.md|$sh/seeds"
while IFS= read -r hit; do
  report "${hit%%:*}:$(cut -d: -f2 <<<"$hit"): points outside the repository: $(cut -d: -f3- <<<"$hit" | sed 's/^[ \t]*//')"
done < <(printf '%s\0' "${existing[@]}" | xargs -0 -r grep -InE "$outside" 2>/dev/null)

# 4. Relative links of Markdown files.
for f in "${existing[@]}"; do
  case $f in *.md) ;; *) continue ;; esac
  dir=$(dirname "$f")
  while IFS=$'\t' read -r line target; do
    path=${target%%#*}
    [ -n "$path" ] || continue
    case $path in http:* | https:* | mailto:* | ftp:* | /*) continue ;; esac
    full=$(realpath -m "$dir/$path")
    case $full in
      "$root" | "$root"/*) ;;
      *) report "$f:$line: link ($target) leaves the repository"; continue ;;
    esac
    [ -e "$full" ] || report "$f:$line: link ($target) names a file that does not exist"
  done < <(awk '
    {
      line = $0
      while (match(line, /\]\([^) \t]+([ \t]+"[^"]*")?\)/)) {
        t = substr(line, RSTART + 2, RLENGTH - 3)
        sub(/[ \t].*$/, "", t)
        print FNR "\t" t
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$f")
done

if [ "$failures" -gt 0 ]; then
  echo "citations: $failures problem(s)"
  exit 1
fi
echo "citations: ${#existing[@]} files checked; all citations and links hold"

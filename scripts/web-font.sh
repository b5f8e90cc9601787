#!/usr/bin/env bash
# Writes web/fonts/goita-gothic.woff2, the font the browser client draws its kanji and kana with,
# so that a visitor needs no Japanese font of their own. It is IPA Gothic (Debian
# fonts-ipafont-gothic, IPA Font License) cut down with fontTools (python3-fonttools) to
# printable ASCII, the kana and every character the client's files and the Ko shogi pieces'
# kanji (src/koshogi/pieces.c, for web/koshogi.html) use: about 100 KB where the whole font is 6 MB. A generated file, not kept in git (.gitignore); setup.sh runs this.
# Usage: scripts/web-font.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source_font=/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf
out=web/fonts/goita-gothic.woff2
mkdir -p web/fonts
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
cat web/*.html web/*.js src/koshogi/pieces.c >"$chars"
/usr/bin/python3 -m fontTools.subset "$source_font" --text-file="$chars" \
  --unicodes=U+0020-007E,U+00A0-00FF,U+2010-2027,U+2190-2193,U+25A0-25CF,U+3000-30FF,U+FF01-FF5E \
  --flavor=woff2 --output-file="$out.tmp"
mv "$out.tmp" "$out"

#!/bin/sh
# Writes the C array body of the leaked passwords the server refuses (src/server/password_common.c)
# from a word list such as Debian's john-data /usr/share/john/password.lst: comment lines
# dropped, ASCII letters in lowercase, only those of 8 to 128 bytes (shorter ones are refused
# anyway), sorted by byte (strcmp's order, for bsearch) without duplicates, each as a C string.
# Usage: password-list.sh LIST > password_list.inc
set -eu
export LC_ALL=C
grep -v '^#!comment' "$1" | tr -d '\r' | tr 'A-Z' 'a-z' | awk 'length($0) >= 8 && length($0) <= 128' | sort -u |
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/.*/"&",/'

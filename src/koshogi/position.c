/* The position text (docs/KOSHOGI.md, "Positions"): the 19 ranks, the side to move, the move number
 * and the rule options, read and written. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The largest move number read: far beyond any game, small enough for any int. */
#define MAX_MOVE_NUMBER 1000000

/* What separates the fields: spaces, tabs and line ends (a text read from a file ends with one). */
#define SPACES " \t\r\n\v\f"

/* Writes an error naming the field and where it is in the text (1-based character). */
static int fail(char *err, size_t size, const char *field, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t size, const char *field, size_t at, const char *fmt, ...) {
  char why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(err, size, "%s, at character %zu: %s", field, at + 1, why);
  return -1;
}

/* The face whose ID (upper case, "+" for promoted faces) starts text, the longest that does, with
 * its length in *len; KS_EMPTY when none. No ID is a prefix of another ID followed by the start of
 * a third, so the longest match reads every written rank back. */
static ks_face face_at(const char *text, int *len) {
  ks_face best = KS_EMPTY;
  *len = 0;
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    const char *id = ks__faces[f].id;
    const int n = (int)strlen(id);
    int i = 0;
    while (i < n && toupper((unsigned char)text[i]) == id[i]) i++;
    if (i == n && n > *len) best = (ks_face)f, *len = n;
  }
  return best;
}

/* Reads one rank (row) of the board from text up to its end (a '/' or a space); returns the
 * number of characters read, or -1 with the error. */
static int parse_rank(const char *text, size_t base, int row, ks_piece *board, char *err, size_t size) {
  char field[40];
  snprintf(field, sizeof field, "ranks: rank %c", 'a' + row);
  int col = 0, i = 0;
  while (text[i] && text[i] != '/' && !isspace((unsigned char)text[i])) {
    if (isdigit((unsigned char)text[i])) {
      int run = 0;
      const int start = i;
      /* a long run of digits stops counting above any legal count (no overflow) */
      while (isdigit((unsigned char)text[i])) {
        if (run <= KS_SIZE) run = run * 10 + (text[i] - '0');
        i++;
      }
      if (run < 1 || run > KS_SIZE || text[start] == '0')
        return fail(err, size, field, base + (size_t)start, "\"%.*s\" is not a count of empty points (1 to 19)",
                    i - start, text + start);
      col += run;
    } else {
      int len = 0;
      const ks_face f = face_at(text + i, &len);
      if (!f) {
        const size_t shown = strcspn(text + i, "/0123456789" SPACES);
        return fail(err, size, field, base + (size_t)i, "\"%.*s\" starts no piece ID", shown > 3 ? 3 : (int)shown,
                    text + i);
      }
      const bool upper = isupper((unsigned char)text[i + (text[i] == '+')]);
      for (int k = text[i] == '+'; k < len; k++)
        if (!!isupper((unsigned char)text[i + k]) != upper)
          return fail(err, size, field, base + (size_t)i, "\"%.*s\" mixes cases (Black upper, White lower)", len,
                      text + i);
      if (col < KS_SIZE) board[row * KS_SIZE + col] = ks_make(upper ? KS_BLACK : KS_WHITE, f);
      col++;
      i += len;
    }
    if (col > KS_SIZE) return fail(err, size, field, base + (size_t)i - 1, "more than 19 points");
  }
  if (col < KS_SIZE) return fail(err, size, field, base + (size_t)i, "%d points, not 19", col);
  return i;
}

/* Reads the board field; returns the characters read, or -1 with the error. */
static int parse_ranks(const char *text, ks_piece *board, char *err, size_t size) {
  int i = 0;
  for (int row = 0; row < KS_SIZE; row++) {
    if (row > 0) {
      if (text[i] != '/')
        return fail(err, size, "ranks", (size_t)i, "%d ranks, not 19 (separated by /)", row);
      i++;
    }
    const int n = parse_rank(text + i, (size_t)i, row, board, err, size);
    if (n < 0) return -1;
    i += n;
  }
  if (text[i] == '/') return fail(err, size, "ranks", (size_t)i, "more than 19 ranks");
  return i;
}

/* The next field of text from *at: its start, and its length in *len (0 at the end). */
static const char *next_field(const char *text, size_t *at, int *len) {
  while (isspace((unsigned char)text[*at])) (*at)++;
  const char *start = text + *at;
  *len = (int)strcspn(start, SPACES);
  *at += (size_t)*len;
  return start;
}

/* Reads the four fields in turn into a scratch position, so that an error leaves pos as it was. */
int ks_position_parse(const char *text, ks_position *pos, int *move_number, char *err, size_t size) {
  ks_position read;
  memset(&read, 0, sizeof read);
  size_t at = strspn(text, SPACES);
  if (!text[at]) return fail(err, size, "ranks", at, "the text is empty");
  const int n = parse_ranks(text + at, read.board, err, size);
  if (n < 0) return -1;
  at += (size_t)n;
  int len;
  const char *side = next_field(text, &at, &len);
  if (len == 0) return fail(err, size, "side to move", (size_t)(side - text), "missing (b or w)");
  if (len != 1 || (*side != 'b' && *side != 'w'))
    return fail(err, size, "side to move", (size_t)(side - text), "\"%.*s\" is neither b nor w", len, side);
  read.to_move = *side == 'w' ? KS_WHITE : KS_BLACK;
  const char *number = next_field(text, &at, &len);
  if (len == 0) return fail(err, size, "move number", (size_t)(number - text), "missing (1 for the first move)");
  long value = 0;
  for (int i = 0; i < len && value >= 0 && value <= MAX_MOVE_NUMBER; i++)
    value = isdigit((unsigned char)number[i]) ? value * 10 + (number[i] - '0') : -1;
  if (value < 1 || value > MAX_MOVE_NUMBER)
    return fail(err, size, "move number", (size_t)(number - text), "\"%.*s\" is not a number from 1 to %d", len,
                number, MAX_MOVE_NUMBER);
  const char *rules = next_field(text, &at, &len);
  if (len) {
    char option[64], why[128];
    snprintf(option, sizeof option, "%.*s", len, rules);
    if (strcmp(option, "-") != 0 && ks_rules_parse(option, &read, why, sizeof why) != 0)
      return fail(err, size, "rules", (size_t)(rules - text), "%s", why);
  }
  const char *extra = next_field(text, &at, &len);
  if (len) return fail(err, size, "end", (size_t)(extra - text), "unexpected \"%.*s\" after the rules", len, extra);
  *pos = read;
  if (move_number) *move_number = (int)value;
  return 0;
}

/* Writes the ranks with runs of empty points as counts, then the other fields. */
int ks_position_write(const ks_position *pos, int move_number, char *buf, size_t size) {
  char text[KS_POSITION_TEXT];
  size_t len = 0;
  for (int row = 0; row < KS_SIZE; row++) {
    int empty = 0;
    for (int col = 0; col < KS_SIZE; col++) {
      const ks_piece p = pos->board[row * KS_SIZE + col];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) len += (size_t)snprintf(text + len, sizeof text - len, "%d", empty);
      empty = 0;
      for (const char *c = ks_face_id(ks_face_of(p)); *c; c++)
        text[len++] = ks_color_of(p) == KS_WHITE ? (char)tolower((unsigned char)*c) : *c;
    }
    if (empty) len += (size_t)snprintf(text + len, sizeof text - len, "%d", empty);
    text[len++] = row < KS_SIZE - 1 ? '/' : ' ';
  }
  char rules[64];
  ks_rules_format(pos, rules, sizeof rules);
  len += (size_t)snprintf(text + len, sizeof text - len, "%c %d%s%s", pos->to_move == KS_WHITE ? 'w' : 'b',
                          move_number, rules[0] ? " " : "", rules);
  if (len >= size) return -1;
  memcpy(buf, text, len + 1);
  return (int)len;
}

/* The notation of KOSHOGI-RULES.md 7: points, moves written canonically and read back by identity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int ks_point_format(int point, char *buf) { return sprintf(buf, "%d%c", ks_file(point), 'a' + ks_rank(point)); }

/* What a move text says (KOSHOGI-RULES.md 7.6). */
typedef struct parsed {
  char token[8];
  int origin; /* -1 when not written */
  int final;
  uint16_t cap[KS_MAX_CAPTURES], shot[KS_MAX_SHOTS];
  int ncap, nshot;
  char promo; /* '+', '=' or 0 */
} parsed;

/* Reads a point at *p; -1 when there is none. */
static int read_point(const char **p) {
  const char *s = *p;
  if (*s < '1' || *s > '9') return -1;
  int file = *s++ - '0';
  if (*s >= '0' && *s <= '9') file = file * 10 + (*s++ - '0');
  if (file < 1 || file > KS_SIZE || *s < 'a' || *s > 's') return -1;
  const int rank = *s++ - 'a';
  *p = s;
  return ks_point(file, rank);
}

static int fail(char *err, size_t size, const char *text, const char *why) {
  snprintf(err, size, "\"%s\": %s", text, why);
  return -1;
}

static int parse_text(const char *text, parsed *out, char *err, size_t size) {
  memset(out, 0, sizeof *out);
  out->origin = -1;
  const char *p = text;
  int n = 0;
  if (*p == '+') out->token[n++] = *p++;
  while (*p >= 'A' && *p <= 'Z' && n < 6) out->token[n++] = *p++;
  if (n == 0 || (n == 1 && out->token[0] == '+')) return fail(err, size, text, "expected a piece such as CH or +DR");
  if (*p >= '1' && *p <= '9' && (out->origin = read_point(&p)) < 0)
    return fail(err, size, text, "the origin is not a point (1a to 19s)");
  out->final = -1;
  if (*p == '!') { /* igui: captures, back on the starting point */
    while (*p == '!') {
      p++;
      const int q = read_point(&p);
      if (q < 0) return fail(err, size, text, "expected a point after !");
      if (out->ncap == KS_MAX_CAPTURES) return fail(err, size, text, "too many captures");
      out->cap[out->ncap++] = (uint16_t)q;
    }
  } else {
    if (*p != '-' && *p != 'x') return fail(err, size, text, "expected -, x or ! before a point");
    while (*p == '-' || *p == 'x') {
      const bool capture = *p++ == 'x';
      const int q = read_point(&p);
      if (q < 0) return fail(err, size, text, "expected a point after - or x");
      if (capture) {
        if (out->ncap == KS_MAX_CAPTURES) return fail(err, size, text, "too many captures");
        out->cap[out->ncap++] = (uint16_t)q;
      }
      out->final = q;
      while (*p == '*') {
        p++;
        if (capture) return fail(err, size, text, "a shot follows only a - waypoint");
        const int t = read_point(&p);
        if (t < 0) return fail(err, size, text, "expected a point after *");
        if (out->nshot == KS_MAX_SHOTS) return fail(err, size, text, "more than two shots");
        out->shot[out->nshot++] = (uint16_t)t;
      }
    }
  }
  if (*p == '+' || *p == '=') out->promo = *p++;
  if (*p) return fail(err, size, text, "unexpected characters at the end");
  return 0;
}

/* Copies n points into out in increasing order. */
static void sorted_points(const uint16_t *in, int n, uint16_t *out) {
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0 && out[j - 1] > in[i]) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = in[i];
  }
}

static bool same_set(const uint16_t *a, int na, const uint16_t *b, int nb) {
  if (na != nb) return false;
  for (int i = 0; i < na; i++) {
    bool found = false;
    for (int j = 0; j < nb && !found; j++) found = a[i] == b[j];
    if (!found) return false;
  }
  return true;
}

/* The legal moves a text may mean, promotion aside; returns how many, their indexes in match. */
static int candidates(const ks_position *pos, const ks_move *moves, int n, const parsed *t, int *match) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    const ks_move *m = &moves[i];
    if (strcmp(ks_face_id(ks_face_of(pos->board[m->from])), t->token) != 0) continue;
    if (t->origin >= 0 && m->from != t->origin) continue;
    const int final = t->final >= 0 ? t->final : m->from; /* igui ends where it started */
    if (m->to != final || !same_set(m->cap, m->ncap, t->cap, t->ncap) || !same_set(m->shot, m->nshot, t->shot, t->nshot))
      continue;
    match[k++] = i;
  }
  return k;
}

/* Picks by the promotion mark: + the promoting version; = or nothing the other, unless the
 * promotion is compulsory. Returns the index or -1. */
static int by_promotion(const ks_move *moves, const int *match, int k, char promo, int *count) {
  int found = -1;
  *count = 0;
  for (int i = 0; i < k; i++) {
    const ks_move *m = &moves[match[i]];
    const bool wanted = promo == '+' ? m->promote : (!m->promote || !m->optional);
    if (wanted) {
      found = match[i];
      (*count)++;
    }
  }
  return found;
}

int ks_move_parse(const ks_position *pos, const char *text, ks_move *move, char *err, size_t size) {
  parsed t;
  if (parse_text(text, &t, err, size) != 0) return -1;
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(pos, &moves);
  int *match = n < 0 ? NULL : malloc((size_t)(n ? n : 1) * sizeof *match);
  if (!match) {
    free(moves);
    fail(err, size, text, "out of memory");
    return -2;
  }
  const int k = candidates(pos, moves, n, &t, match);
  int count = 0;
  const int chosen = by_promotion(moves, match, k, t.promo, &count);
  int status = 0;
  if (k == 0)
    status = fail(err, size, text, "no legal move of the side to move matches");
  else if (count == 0)
    status = fail(err, size, text, t.promo == '+' ? "this move cannot promote" : "this move must promote");
  else if (count > 1)
    status = fail(err, size, text, "more than one legal move matches: write the origin");
  else
    *move = moves[chosen];
  free(match);
  free(moves);
  return status;
}

/* Writes the move's path (KOSHOGI-RULES.md 7.4). */
static int write_path(const ks_move *m, char *out) {
  char *p = out;
  if (m->to == m->from && m->ncap > 0 && m->nshot == 0) { /* igui */
    for (int i = 0; i < m->ncap; i++) {
      *p++ = '!';
      p += ks_point_format(m->cap[i], p);
    }
    return (int)(p - out);
  }
  int last = -1;
  for (int w = 0; w < m->nway; w++) {
    *p++ = m->way_capture[w] ? 'x' : '-';
    p += ks_point_format(m->way[w], p);
    last = m->way[w];
    for (int s = 0; s < m->nshot; s++)
      if (m->shot_way[s] == w) {
        *p++ = '*';
        p += ks_point_format(m->shot[s], p);
      }
  }
  if (last != m->to || m->nway == 0) {
    *p++ = '-';
    p += ks_point_format(m->to, p);
  }
  return (int)(p - out);
}

/* Writes the move as 7.4 writes it, the origin included when asked: "CM9p-7o", "WR!12n". */
static int write_text(const ks_position *pos, const ks_move *m, bool origin, char *text) {
  char *p = text;
  const char *id = ks_face_id(ks_face_of(pos->board[m->from]));
  const size_t idlen = strlen(id);
  memcpy(p, id, idlen);
  p += idlen;
  if (origin) p += ks_point_format(m->from, p);
  p += write_path(m, p);
  if (m->promote) *p++ = '+';
  else if (m->optional) *p++ = '=';
  *p = '\0';
  return (int)(p - text);
}

/* The moves of the other pieces with the face of the piece on m->from, in a new array (*out). */
static int other_same_face_moves(const ks_position *pos, const ks_move *m, ks_move **out) {
  const ks_face face = ks_face_of(pos->board[m->from]);
  int capacity = 64;
  ks_move *moves = malloc((size_t)capacity * sizeof *moves);
  while (moves) {
    const int n = ks__face_moves(pos, face, m->from, moves, capacity);
    if (n < 0) break;
    if (n <= capacity) {
      *out = moves;
      return n;
    }
    capacity = n;
    ks_move *bigger = realloc(moves, (size_t)capacity * sizeof *bigger);
    if (!bigger) break;
    moves = bigger;
  }
  free(moves);
  *out = NULL;
  return -1;
}

/* The origin is written when another piece with the same token could make a move written the
 * same (7.5), or when there is no memory to find out: only the other pieces with the same face are asked for their moves, so that writing
 * a move costs what those pieces' moves cost, not what the whole position's do. */
int ks_move_format(const ks_position *pos, const ks_move *m, char *buf, size_t size) {
  char text[KS_MOVE_TEXT];
  int len = write_text(pos, m, false, text);
  parsed t;
  char err[8];
  if (parse_text(text, &t, err, sizeof err) == 0) {
    ks_move *others = NULL;
    const int n = other_same_face_moves(pos, m, &others);
    int *match = n < 0 ? NULL : malloc((size_t)(n ? n : 1) * sizeof *match);
    /* out of memory, the origin is written: never needed, never wrong */
    if (!match || candidates(pos, others, n, &t, match) > 0) len = write_text(pos, m, true, text);
    free(others);
    free(match);
  }
  if ((size_t)len >= size) return -1;
  memcpy(buf, text, (size_t)len + 1);
  return len;
}

/* What makes two moves of one face written alike without their origins (7.5, as candidates()
 * reads a text): where they end (an igui's text names no end), what they capture and what they
 * shoot, as sets. */
typedef struct written_key {
  uint8_t face, ncap, nshot;
  int16_t final; /* -1 for an igui */
  uint16_t cap[KS_MAX_CAPTURES], shot[KS_MAX_SHOTS];
  uint16_t from;
  int index;
} written_key;

static int compare_keys(const void *a, const void *b) {
  const written_key *x = a, *y = b;
  if (x->face != y->face) return x->face - y->face;
  if (x->final != y->final) return x->final - y->final;
  if (x->ncap != y->ncap) return x->ncap - y->ncap;
  if (x->nshot != y->nshot) return x->nshot - y->nshot;
  const int caps = memcmp(x->cap, y->cap, sizeof x->cap);
  if (caps) return caps;
  return memcmp(x->shot, y->shot, sizeof x->shot);
}

static bool same_writing(const written_key *x, const written_key *y) { return compare_keys(x, y) == 0; }

int ks_moves_format(const ks_position *pos, const ks_move *moves, int n, char (*texts)[KS_MOVE_TEXT]) {
  written_key *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
  if (!keys) return -1;
  for (int i = 0; i < n; i++) {
    const ks_move *m = &moves[i];
    written_key *k = &keys[i];
    memset(k, 0, sizeof *k);
    k->face = (uint8_t)ks_face_of(pos->board[m->from]);
    k->final = (int16_t)(m->to == m->from && m->ncap > 0 && m->nshot == 0 ? -1 : m->to);
    k->ncap = m->ncap;
    k->nshot = m->nshot;
    sorted_points(m->cap, m->ncap, k->cap);
    sorted_points(m->shot, m->nshot, k->shot);
    k->from = m->from;
    k->index = i;
  }
  qsort(keys, (size_t)n, sizeof *keys, compare_keys);
  for (int first = 0, last; first < n; first = last) {
    bool other = false;
    for (last = first + 1; last < n && same_writing(&keys[first], &keys[last]); last++)
      other |= keys[last].from != keys[first].from;
    for (int i = first; i < last; i++) write_text(pos, &moves[keys[i].index], other, texts[keys[i].index]);
  }
  free(keys);
  return 0;
}

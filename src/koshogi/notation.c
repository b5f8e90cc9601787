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
    return fail(err, size, text, "out of memory");
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

int ks_move_format(const ks_position *pos, const ks_move *m, char *buf, size_t size) {
  char text[96], path[80];
  const char *id = ks_face_id(ks_face_of(pos->board[m->from]));
  const int plen = write_path(m, path);
  path[plen] = '\0';
  const char *mark = m->promote ? "+" : m->optional ? "=" : "";
  snprintf(text, sizeof text, "%s%s%s", id, path, mark);
  /* the origin when another piece with the same token could make a move written the same */
  parsed t;
  char err[8];
  if (parse_text(text, &t, err, sizeof err) == 0) {
    ks_move *moves = NULL;
    const int n = ks_legal_moves_alloc(pos, &moves);
    int *match = n < 0 ? NULL : malloc((size_t)(n ? n : 1) * sizeof *match);
    if (match) {
      const int k = candidates(pos, moves, n, &t, match);
      bool other = false;
      for (int i = 0; i < k; i++) other |= moves[match[i]].from != m->from;
      if (other) {
        char origin[8];
        ks_point_format(m->from, origin);
        snprintf(text, sizeof text, "%s%s%s%s", id, origin, path, mark);
      }
    }
    free(moves);
    free(match);
  }
  const int len = (int)strlen(text);
  if ((size_t)len >= size) return -1;
  memcpy(buf, text, (size_t)len + 1);
  return len;
}

/* Move tokens and full-information history strings (RECORD_FORMAT.md). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

int goita_move_parse(const char *text, size_t len, goita_move *m) {
  if (len < 2 || text[0] < '1' || text[0] > '4') return GOITA_EPARSE;
  const uint8_t seat = (uint8_t)(text[0] - '1');
  if (len == 2) {
    switch (text[1]) {
      case 'p': *m = goita_move_pass(seat); return GOITA_OK;
      case 'r': *m = goita_move_decide(seat, true); return GOITA_OK;
      case 'g': *m = goita_move_decide(seat, false); return GOITA_OK;
      default: return GOITA_EPARSE;
    }
  }
  if (len != 3 || text[1] < '1' || text[1] > '9' || text[2] < '1' || text[2] > '9') return GOITA_EPARSE;
  *m = goita_move_play(seat, text[1] - '0', text[2] - '0');
  return GOITA_OK;
}

int goita_move_format(goita_move m, char *buf, size_t size) {
  int n;
  const int seat = SEAT_NAME(m.seat);
  switch (m.type) {
    case GOITA_MOVE_PASS: n = snprintf(buf, size, "%dp", seat); break;
    case GOITA_MOVE_REDEAL: n = snprintf(buf, size, "%dr", seat); break;
    case GOITA_MOVE_GO: n = snprintf(buf, size, "%dg", seat); break;
    default: n = snprintf(buf, size, "%d%d%d", seat, m.block, m.attack); break;
  }
  return n < 0 || (size_t)n >= size ? GOITA_ENOSPACE : n;
}

/* One comma-separated token: its text, length and index. */
typedef struct token {
  const char *text;
  size_t len;
  int index;
} token;

static int next_token(const char **p, token *t, int index) {
  if (**p == '\0') return 0;
  const char *end = strchr(*p, ',');
  t->text = *p;
  t->len = end ? (size_t)(end - *p) : strlen(*p);
  t->index = index;
  *p = end ? end + 1 : *p + t->len;
  return 1;
}

static int token_error(goita_error *err, int status, const token *t, const char *reason) {
  return goita_error_set(err, status, t->index, "token %d \"%.*s\": %s", t->index + 1,
                         (int)(t->len > 40 ? 40 : t->len), t->text, reason);
}

int goita_history_parse(goita_round *out, const goita_rules *rules, const char *text, goita_error *err) {
  int st = goita_rules_validate(rules, err);
  if (st != GOITA_OK) return st;
  const int players = rules->players, h = goita_rules_hand_size(rules);
  const char *p = text ? text : "";
  token t = {p, 0, 0};
  uint8_t hands[GOITA_MAX_SEATS][GOITA_MAX_HAND];
  for (int s = 0; s < players; s++) {
    if (!next_token(&p, &t, s)) {
      t.text = p;
      t.index = s;
      return token_error(err, GOITA_EPARSE, &t, "the string ends before all hands are given");
    }
    if (t.len >= 1 && t.text[0] == 's')
      return goita_error_set(err, GOITA_EPARSE, s, "token %d: expected %d hands before the dealer", s + 1, players);
    if (t.len != (size_t)h) {
      char why[80];
      snprintf(why, sizeof why, "a hand has %d pieces written 1-9", h);
      return token_error(err, GOITA_EPARSE, &t, why);
    }
    for (int i = 0; i < h; i++) {
      const char c = t.text[i];
      if (c == 'x') return token_error(err, GOITA_EPARSE, &t, "a hidden piece x cannot be read into a full round");
      if (c < '1' || c > '9') return token_error(err, GOITA_EPARSE, &t, "a piece is written 1-9");
      hands[s][i] = (uint8_t)(c - '0');
    }
  }
  if (!next_token(&p, &t, players) || t.len < 2 || t.text[0] != 's' || t.text[1] < '1' ||
      t.text[1] >= '1' + players)
  {
    char why[64];
    snprintf(why, sizeof why, "expected the dealer as s1-s%d after the hands", players);
    return token_error(err, GOITA_EPARSE, &t, why);
  }
  goita_round r;
  goita_error setup_err;
  st = goita_round_setup(&r, rules, t.text[1] - '1', (const uint8_t(*)[GOITA_MAX_HAND])hands, &setup_err);
  if (st != GOITA_OK) {
    const int at = setup_err.position >= 0 ? setup_err.position : players;
    return goita_error_set(err, st, at, "token %d: %s", at + 1, setup_err.message);
  }
  /* Decisions on the dealer token: "+3r" (redeal) or "+3g" (play). */
  for (size_t i = 2; i < t.len; i += 3) {
    goita_move m;
    if (t.text[i] != '+' || i + 3 > t.len || goita_move_parse(t.text + i + 1, 2, &m) != GOITA_OK ||
        m.type == GOITA_MOVE_PASS)
      return token_error(err, GOITA_EPARSE, &t, "a decision is written +Nr (redeal) or +Ng (play)");
    goita_error why;
    if (goita_round_apply(&r, m, &why) != GOITA_OK) return token_error(err, GOITA_EILLEGAL, &t, why.message);
  }
  for (int index = players + 1; next_token(&p, &t, index); index++) {
    if (t.len == 0) continue; /* goita-core skips empty tokens too */
    goita_move m;
    if (goita_move_parse(t.text, t.len, &m) != GOITA_OK || m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO)
      return token_error(err, GOITA_EPARSE, &t, "a move is written as seat+p or seat+two pieces (\"2p\", \"113\")");
    /* A round that goes on after a 5-pawn deal was played: the pending partners chose play. */
    while (r.phase == GOITA_PHASE_DECIDE) goita_round_apply_unchecked(&r, goita_move_decide(r.turn, false));
    goita_error why;
    st = goita_round_apply(&r, m, &why);
    if (st != GOITA_OK) return token_error(err, st, &t, why.message);
  }
  *out = r;
  return GOITA_OK;
}

int goita_history_format(const goita_round *r, char *buf, size_t size) {
  const int h = goita_rules_hand_size(&r->rules);
  size_t n = 0;
#define PUT(...)                                                   \
  do {                                                             \
    int w_ = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__); \
    if (w_ < 0) return GOITA_ENOSPACE;                             \
    n += (size_t)w_;                                               \
  } while (0)
  for (int s = 0; s < r->players; s++) {
    for (int i = 0; i < h; i++) PUT("%d", r->deal[s][i]);
    PUT(",");
  }
  PUT("s%d", SEAT_NAME(r->dealer));
  /* Decisions are written when one was a redeal or no move follows them; otherwise play
   * going on says it all, as in goita-core strings. */
  bool explicit_decisions = true;
  for (int i = 0; i < r->nlog; i++) {
    if (r->log[i].type == GOITA_MOVE_PLAY) explicit_decisions = false;
    if (r->log[i].type == GOITA_MOVE_REDEAL) {
      explicit_decisions = true;
      break;
    }
  }
  for (int i = 0; explicit_decisions && i < r->nlog; i++) {
    const goita_move m = r->log[i];
    char tok[8];
    goita_move_format(m, tok, sizeof tok);
    if (m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO) PUT("+%s", tok);
  }
  for (int i = 0; i < r->nlog; i++) {
    const goita_move m = r->log[i];
    char tok[8];
    goita_move_format(m, tok, sizeof tok);
    if (m.type == GOITA_MOVE_PASS || m.type == GOITA_MOVE_PLAY) PUT(",%s", tok);
  }
#undef PUT
  if (n >= size) return GOITA_ENOSPACE;
  return (int)n;
}

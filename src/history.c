/* The grammar of history strings and move tokens (docs/RECORDS.md 1.1): splitting a string
 * into hands, dealer, decisions and moves before any rule is applied, and naming a token in an
 * error. Below both the notation (notation.c) and the reader of hidden views (hidden.c). */
#include <stdio.h>
#include <string.h>

#include "history.h"

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
  const int seat = m.seat + 1; /* seats are written 1-4 */
  switch (m.type) {
    case GOITA_MOVE_PASS: n = snprintf(buf, size, "%dp", seat); break;
    case GOITA_MOVE_REDEAL: n = snprintf(buf, size, "%dr", seat); break;
    case GOITA_MOVE_GO: n = snprintf(buf, size, "%dg", seat); break;
    default: n = snprintf(buf, size, "%d%d%d", seat, m.block, m.attack); break;
  }
  return n < 0 || (size_t)n >= size ? GOITA_ENOSPACE : n;
}

static int next_token(const char **p, goita__token *t, int index) {
  if (**p == '\0') return 0;
  const char *end = strchr(*p, ',');
  t->text = *p;
  t->len = end ? (size_t)(end - *p) : strlen(*p);
  t->index = index;
  *p = end ? end + 1 : *p + t->len;
  return 1;
}

int goita__token_error(goita_error *err, int status, const goita__token *t, const char *reason) {
  return goita_error_set(err, status, t->index, "token %d \"%.*s\": %s", t->index + 1,
                         (int)(t->len > 40 ? 40 : t->len), t->text, reason);
}

int goita__history_split(goita__history *h, const goita_rules *rules, const char *text, bool allow_hidden,
                         goita_error *err) {
  memset(h, 0, sizeof *h);
  const int players = rules->players, size = goita_rules_hand_size(rules);
  h->players = players;
  const char *p = text ? text : "";
  goita__token t = {p, 0, 0};
  for (int s = 0; s < players; s++) {
    if (!next_token(&p, &t, s)) {
      t.text = p;
      t.index = s;
      return goita__token_error(err, GOITA_EPARSE, &t, "the string ends before all hands are given");
    }
    if (t.len >= 1 && t.text[0] == 's')
      return goita_error_set(err, GOITA_EPARSE, s, "token %d: expected %d hands before the dealer", s + 1, players);
    if (t.len != (size_t)size) {
      char why[80];
      snprintf(why, sizeof why, "a hand has %d pieces written 1-9%s", size, allow_hidden ? " or x" : "");
      return goita__token_error(err, GOITA_EPARSE, &t, why);
    }
    for (int i = 0; i < size; i++) {
      const char c = t.text[i];
      if (c == 'x' && !allow_hidden)
        return goita__token_error(err, GOITA_EPARSE, &t, "a hidden piece x cannot be read into a full round");
      if (c == 'x') {
        h->hidden = true;
        continue;
      }
      if (c < '1' || c > '9') return goita__token_error(err, GOITA_EPARSE, &t, "a piece is written 1-9");
      h->hands[s][i] = (uint8_t)(c - '0');
    }
    h->hand_token[s] = t;
  }
  if (!next_token(&p, &t, players) || t.len < 2 || t.text[0] != 's' || t.text[1] < '1' ||
      t.text[1] >= '1' + players)
  {
    char why[64];
    snprintf(why, sizeof why, "expected the dealer as s1-s%d after the hands", players);
    return goita__token_error(err, GOITA_EPARSE, &t, why);
  }
  h->dealer = t.text[1] - '1';
  h->dealer_token = t;
  /* Decisions on the dealer token: "+3r" (redeal) or "+3g" (play). */
  for (size_t i = 2; i < t.len; i += 3) {
    goita_move m;
    if (t.text[i] != '+' || i + 3 > t.len || goita_move_parse(t.text + i + 1, 2, &m) != GOITA_OK ||
        m.type == GOITA_MOVE_PASS || h->ndecisions == GOITA_MAX_SEATS)
      return goita__token_error(err, GOITA_EPARSE, &t, "a decision is written +Nr (redeal) or +Ng (play)");
    h->decisions[h->ndecisions++] = m;
  }
  for (int index = players + 1; next_token(&p, &t, index); index++) {
    if (t.len == 0) continue; /* goita-core skips empty tokens too */
    goita_move m;
    const bool x_block = allow_hidden && t.len == 3 && t.text[1] == 'x';
    if (x_block) {
      char open[3] = {t.text[0], '1', t.text[2]};
      if (goita_move_parse(open, 3, &m) != GOITA_OK) m.type = GOITA_MOVE_REDEAL; /* rejected below */
      m.block = 0;
      h->hidden = true;
    } else if (goita_move_parse(t.text, t.len, &m) != GOITA_OK) {
      m.type = GOITA_MOVE_REDEAL;
    }
    if (m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO)
      return goita__token_error(err, GOITA_EPARSE, &t,
                                allow_hidden ? "a move is written as seat+p or seat+two pieces (\"2p\", \"113\", \"1x3\")"
                                             : "a move is written as seat+p or seat+two pieces (\"2p\", \"113\")");
    if (h->nmoves == GOITA_MAX_LOG)
      return goita__token_error(err, GOITA_EILLEGAL, &t, "no round has this many moves");
    if (x_block) h->x_blocks |= 1ull << h->nmoves;
    h->move_token[h->nmoves] = t;
    h->moves[h->nmoves++] = m;
  }
  return GOITA_OK;
}

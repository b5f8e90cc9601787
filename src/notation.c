/* Move tokens and history strings (docs/RECORDS.md 1): full records and the views of one seat
 * or an observer, with x for what the viewer cannot see. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hidden.h"
#include "history.h"
#include "internal.h"

/* Deals the hands of h and plays its decisions and moves with full checks. */
static int replay_history(goita_round *r, const goita_rules *rules, const goita__history *h, goita_error *err) {
  goita_error why;
  int st = goita_round_setup(r, rules, h->dealer, (const uint8_t(*)[GOITA_MAX_HAND])h->hands, &why);
  if (st != GOITA_OK) {
    const int at = why.position >= 0 ? why.position : h->players;
    return goita_error_set(err, st, at, "token %d: %s", at + 1, why.message);
  }
  for (int i = 0; i < h->ndecisions; i++) {
    st = goita_round_apply(r, h->decisions[i], &why);
    if (st != GOITA_OK) return goita__token_error(err, GOITA_EILLEGAL, &h->dealer_token, why.message);
  }
  for (int i = 0; i < h->nmoves; i++) {
    const goita_move m = h->moves[i];
    /* A round that goes on after a 5-pawn deal was played: the pending partners chose play. */
    while (r->phase == GOITA_PHASE_DECIDE) goita_round_apply_unchecked(r, goita_move_decide(r->turn, false));
    const bool x_block = h->x_blocks >> i & 1;
    if (x_block && !goita_round_leading(r))
      return goita__token_error(err, GOITA_EILLEGAL, &h->move_token[i],
                                "x (a face-down piece) is placed only when leading");
    st = goita_round_apply(r, m, &why);
    if (st != GOITA_OK) return goita__token_error(err, st, &h->move_token[i], why.message);
    if (x_block && goita_round_over(r))
      return goita__token_error(err, GOITA_EPARSE, &h->move_token[i],
                                "a finishing play is turned face-up and written in the open");
  }
  return GOITA_OK;
}

int goita_history_parse(goita_round *out, const goita_rules *rules, const char *text, goita_error *err) {
  int st = goita_rules_validate(rules, err);
  if (st != GOITA_OK) return st;
  goita__history h;
  st = goita__history_split(&h, rules, text, false, err);
  if (st != GOITA_OK) return st;
  goita_round r;
  st = replay_history(&r, rules, &h, err);
  if (st == GOITA_OK) *out = r;
  return st;
}

/* The viewer a hidden string was written for: the one seat whose hand is written in full
 * and whose face-down pieces are never x; with several, one that led in the open. */
static int infer_viewer(const goita__history *h) {
  int candidates = 0, open_lead = -1;
  const int size = GOITA_MAX_HAND;
  for (int s = 0; s < h->players; s++) {
    bool full = true;
    for (int i = 0; i < size && i < (int)h->hand_token[s].len; i++) full &= h->hands[s][i] != 0;
    for (int i = 0; i < h->nmoves; i++) full &= !(h->moves[i].seat == s && h->moves[i].type == GOITA_MOVE_PLAY &&
                                                  h->moves[i].block == 0);
    if (full) candidates |= 1 << s;
  }
  if (!candidates) return GOITA_OBSERVER;
  /* A lead is a play after players-1 passes (or the first play); an open non-final lead is the
   * viewer's own. */
  int passes = h->players - 1, plays[GOITA_MAX_SEATS] = {0};
  for (int i = 0; i < h->nmoves; i++) {
    const goita_move m = h->moves[i];
    if (m.type == GOITA_MOVE_PASS) {
      passes++;
      continue;
    }
    if (passes >= h->players - 1 && m.seat < h->players && (candidates >> m.seat & 1) &&
        (int)h->hand_token[0].len > 2 * (plays[m.seat] + 1) && open_lead < 0)
      open_lead = m.seat;
    if (m.seat < h->players) plays[m.seat]++;
    passes = 0;
  }
  if (open_lead >= 0) return open_lead;
  return __builtin_ctz((unsigned)candidates);
}

int goita__history_fill(goita_round *round, int *viewer, const goita_rules *rules, const char *text,
                        goita_error *err) {
  int st = goita_rules_validate(rules, err);
  if (st != GOITA_OK) return st;
  if (*viewer != GOITA_VIEWER_INFER && *viewer != GOITA_OBSERVER && (*viewer < 0 || *viewer >= rules->players))
    return goita_error_set(err, GOITA_EINVAL, -1, "viewer %d is not a seat of %d players", SEAT_NAME(*viewer),
                           rules->players);
  goita__history h;
  st = goita__history_split(&h, rules, text, true, err);
  if (st != GOITA_OK) return st;
  if (*viewer == GOITA_VIEWER_INFER) *viewer = infer_viewer(&h);
  st = goita__complete_hidden(&h, rules, *viewer, err);
  if (st != GOITA_OK) return st;
  return replay_history(round, rules, &h, err);
}

int goita_history_parse_view(goita_view *view, const goita_rules *rules, const char *text, int viewer,
                             goita_error *err) {
  goita_round r;
  const int st = goita__history_fill(&r, &viewer, rules, text, err);
  if (st == GOITA_OK) goita_round_view(&r, viewer, view);
  return st;
}

/* ---- Writing ---- */

typedef struct writer {
  char *buf;
  size_t size, n;
  bool failed;
} writer;

static void put(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(w->buf + w->n, w->n < w->size ? w->size - w->n : 0, fmt, ap);
  va_end(ap);
  if (n < 0) w->failed = true;
  else w->n += (size_t)n;
}

static int finish(writer *w) {
  if (w->failed || w->n >= w->size) return GOITA_ENOSPACE;
  return (int)w->n;
}

/* Writes a hand of marks (0 = x), ascending with x last, and a comma. */
static void put_hand(writer *w, const uint8_t *marks, int size) {
  int count[10] = {0};
  for (int i = 0; i < size; i++) count[marks[i] <= 9 ? marks[i] : 0]++;
  for (int m = 1; m <= 9; m++)
    for (int c = 0; c < count[m]; c++) put(w, "%d", m);
  for (int c = 0; c < count[0]; c++) put(w, "x");
  put(w, ",");
}

/* Writes the dealer token with its decisions and the moves; a block 0 is written x.
 * Decisions are written when one was a redeal or no move follows them; otherwise play going
 * on says it all, as in goita-core strings. */
static void put_tail(writer *w, int dealer, const goita_move *log, int nlog) {
  put(w, "s%d", SEAT_NAME(dealer));
  bool explicit_decisions = true;
  for (int i = 0; i < nlog; i++) {
    if (log[i].type == GOITA_MOVE_PLAY) explicit_decisions = false;
    if (log[i].type == GOITA_MOVE_REDEAL) {
      explicit_decisions = true;
      break;
    }
  }
  for (int i = 0; i < nlog; i++) {
    const goita_move m = log[i];
    char tok[8];
    if (m.type == GOITA_MOVE_PLAY && m.block == 0)
      snprintf(tok, sizeof tok, "%dx%d", SEAT_NAME(m.seat), m.attack);
    else
      goita_move_format(m, tok, sizeof tok);
    if (m.type == GOITA_MOVE_PASS || m.type == GOITA_MOVE_PLAY)
      put(w, ",%s", tok);
    else if (explicit_decisions)
      put(w, "+%s", tok);
  }
}

int goita_history_format(const goita_round *r, char *buf, size_t size) {
  writer w = {buf, size, 0, false};
  const int h = goita_rules_hand_size(&r->rules);
  for (int s = 0; s < r->players; s++) put_hand(&w, r->deal[s], h);
  put_tail(&w, r->dealer, r->log, r->nlog);
  return finish(&w);
}

int goita_history_format_view(const goita_view *v, char *buf, size_t size) {
  writer w = {buf, size, 0, false};
  const int h = goita_rules_hand_size(&v->rules);
  for (int s = 0; s < v->players; s++) {
    uint8_t marks[GOITA_MAX_HAND] = {0};
    int n = 0, pawns = 0;
    /* Every piece on the table the viewer can see: its own, face-up ones, a finishing lead. */
    for (int i = 0; i < v->plays[s] && n + 2 <= h; i++) {
      if (v->block_row[s][i]) marks[n++] = v->block_row[s][i];
      marks[n++] = v->attack_row[s][i];
    }
    if (s == v->seat) {
      for (int k = GOITA_PAWN; k < GOITA_KING; k++)
        for (int c = 0; c < v->hand[k] && n < h; c++) marks[n++] = (uint8_t)k;
      if ((v->kings & 1) && n < h) marks[n++] = GOITA_MARK_OU;
      if ((v->kings & 2) && n < h) marks[n++] = GOITA_MARK_GYOKU;
    } else if (v->result.end == GOITA_END_TEYAKU && v->result.winner == s) {
      memcpy(marks, v->teyaku_hand, (size_t)h);
    } else if (v->goshi & (1u << s)) {
      /* the 5 pawns shown at the deal, of which some may already be on the table */
      for (int i = 0; i < n; i++) pawns += marks[i] == GOITA_PAWN;
      for (; pawns < 5 && n < h; pawns++) marks[n++] = GOITA_PAWN;
    }
    put_hand(&w, marks, h);
  }
  put_tail(&w, v->dealer, v->log, v->nlog);
  return finish(&w);
}

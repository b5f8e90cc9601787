/* Sampling the hidden pieces of a view: uniform deals by rejection, checked by replaying the
 * round and comparing the view it gives with the one asked for. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Tries before falling back to the one deal goita__complete_hidden constructs. */
#define SAMPLE_TRIES 4000

/* What the view shows of the deal, and the pieces it leaves unseen. */
typedef struct unseen {
  int players, size, viewer;
  uint8_t placed[GOITA_MAX_SEATS][GOITA_MAX_HAND]; /* pieces each seat placed face-up (and the viewer's own) */
  int nplaced[GOITA_MAX_SEATS];
  int down[GOITA_MAX_SEATS];  /* face-down pieces the viewer cannot see */
  int slots[GOITA_MAX_SEATS]; /* unseen pieces of each seat: in hand plus face-down */
  int aside;                  /* pieces set aside unseen (goita_rules_set_aside) */
  int forced_pawns[GOITA_MAX_SEATS]; /* pawns an announced 5-pawn hand still hides */
  uint8_t pool[GOITA_PIECES];       /* every unseen piece, forced pawns excluded */
  int npool;
} unseen;

static int count_mark(const uint8_t *marks, int n, int kind) {
  int c = 0;
  for (int i = 0; i < n; i++) c += MARK_KIND(marks[i]) == kind;
  return c;
}

/* Reads what the view shows; returns GOITA_OK or GOITA_ESTATE when the counts do not add up. */
static int read_view(unseen *u, const goita_view *v, goita_error *err) {
  memset(u, 0, sizeof *u);
  u->players = v->players;
  u->size = goita_rules_hand_size(&v->rules);
  u->viewer = v->seat;
  int left[10] = {0};
  for (int k = GOITA_PAWN; k <= GOITA_ROOK; k++) left[k] = goita_rules_kind_total(&v->rules, k);
  left[GOITA_MARK_OU] = left[GOITA_MARK_GYOKU] = 1;
  /* The viewer's own hand: counts per kind, its kings by mark. */
  for (int k = GOITA_PAWN; k <= GOITA_ROOK; k++) left[k] -= v->hand[k];
  for (int b = 0; b < 2; b++)
    if (v->kings >> b & 1) left[GOITA_MARK_OU + b]--;
  int hidden = 0;
  for (int s = 0; s < u->players; s++) {
    for (int i = 0; i < v->plays[s] && i < GOITA_MAX_PLAYS; i++) {
      if (v->block_row[s][i])
        u->placed[s][u->nplaced[s]++] = v->block_row[s][i];
      else
        u->down[s]++;
      u->placed[s][u->nplaced[s]++] = v->attack_row[s][i];
    }
    for (int i = 0; i < u->nplaced[s]; i++) left[u->placed[s][i]]--;
    if (s == u->viewer) continue;
    u->slots[s] = v->size[s] + u->down[s];
    hidden += u->slots[s];
  }
  u->aside = goita_rules_set_aside(&v->rules);
  hidden += u->aside;
  for (int m = 1; m <= 9; m++) {
    if (left[m] < 0)
      return goita_error_set(err, GOITA_ESTATE, -1, "the view shows more %s than the set has",
                             goita_mark_kanji(m));
  }
  /* With teyaku on, a 5-pawn announcement means exactly 5 pawns: deal them to that seat first
   * (the rest stays uniform, each such deal as likely as the others). */
  for (int s = 0; s < u->players; s++) {
    if (s == u->viewer || !(v->goshi >> s & 1) || !v->rules.teyaku) continue;
    const int hide = 5 - count_mark(u->placed[s], u->nplaced[s], GOITA_PAWN);
    if (hide > u->slots[s] || hide > left[GOITA_PAWN])
      return goita_error_set(err, GOITA_ESTATE, -1, "seat %d announced 5 pawns that do not fit", SEAT_NAME(s));
    if (hide > 0) {
      u->forced_pawns[s] = hide;
      left[GOITA_PAWN] -= hide;
      hidden -= hide;
    }
  }
  for (int m = 1; m <= 9; m++)
    for (int c = 0; c < left[m]; c++) u->pool[u->npool++] = (uint8_t)m;
  if (u->npool != hidden)
    return goita_error_set(err, GOITA_ESTATE, -1, "the view leaves %d pieces unseen for %d hidden places",
                           u->npool, hidden);
  return GOITA_OK;
}

/* One try: deals the pool at random, replays the view's moves, and keeps the round when its
 * view is the one asked for. */
static bool try_deal(const unseen *u, const goita_view *v, goita_rng *rng, goita_round *out) {
  uint8_t pool[GOITA_PIECES];
  memcpy(pool, u->pool, (size_t)u->npool);
  goita_rng_shuffle(rng, pool, u->npool);
  uint8_t hands[GOITA_MAX_SEATS][GOITA_MAX_HAND];
  uint8_t down[GOITA_MAX_SEATS][GOITA_MAX_PLAYS];
  const bool kings_down = v->rules.king_face_down == GOITA_KING_FACE_DOWN_ALLOWED;
  int next = 0;
  for (int s = 0; s < u->players; s++) {
    int n = 0;
    if (s == u->viewer) {
      for (int k = GOITA_PAWN; k <= GOITA_ROOK; k++)
        for (int c = 0; c < v->hand[k]; c++) hands[s][n++] = (uint8_t)k;
      for (int b = 0; b < 2; b++)
        if (v->kings >> b & 1) hands[s][n++] = (uint8_t)(GOITA_MARK_OU + b);
    } else {
      uint8_t mine[GOITA_MAX_HAND];
      int m = 0;
      for (int c = 0; c < u->forced_pawns[s]; c++) mine[m++] = GOITA_PAWN;
      while (m < u->slots[s]) mine[m++] = pool[next++];
      /* the forced pawns lie anywhere among the seat's unseen places */
      goita_rng_shuffle(rng, mine, m);
      int pawns = count_mark(u->placed[s], u->nplaced[s], GOITA_PAWN);
      for (int i = 0; i < m; i++) {
        if (i < u->down[s]) {
          if (mine[i] >= GOITA_MARK_OU && !kings_down) return false;
          down[s][i] = mine[i];
        }
        pawns += mine[i] == GOITA_PAWN;
        hands[s][n++] = mine[i];
      }
      /* under the 5-pawn rule a hand with 5 or more pawns would have been announced */
      if (v->rules.goshi && !(v->goshi >> s & 1) && pawns >= 5) return false;
    }
    for (int i = 0; i < u->nplaced[s]; i++) {
      /* the face-down pieces the viewer sees (its own) are already in placed */
      hands[s][n++] = u->placed[s][i];
    }
    if (n != u->size) return false;
  }
  goita_round r;
  if (goita_round_setup(&r, &v->rules, v->dealer, (const uint8_t(*)[GOITA_MAX_HAND])hands, NULL) != GOITA_OK)
    return false;
  int used[GOITA_MAX_SEATS] = {0};
  for (int i = 0; i < v->nlog; i++) {
    goita_move m = v->log[i];
    if (m.type == GOITA_MOVE_PLAY && m.block == 0) {
      if (m.seat >= u->players || used[m.seat] >= u->down[m.seat]) return false;
      m.block = down[m.seat][used[m.seat]++];
    }
    if (goita_round_apply(&r, m, NULL) != GOITA_OK) return false;
  }
  goita_view check;
  goita_round_view(&r, u->viewer, &check);
  if (!goita_view_same(&check, v)) return false;
  *out = r;
  return true;
}

/* The fallback: the one consistent deal the reader of hidden history strings constructs. */
static int constructed_deal(const goita_view *v, goita_round *out, goita_error *err) {
  char text[512];
  if (goita_history_format_view(v, text, sizeof text) < 0)
    return goita_error_set(err, GOITA_ESTATE, -1, "the view cannot be written as a history string");
  int viewer = v->seat;
  goita_round r;
  goita_error why;
  if (goita__history_fill(&r, &viewer, &v->rules, text, &why) != GOITA_OK)
    return goita_error_set(err, GOITA_ESTATE, -1, "no deal agrees with the view: %s", why.message);
  goita_view check;
  goita_round_view(&r, v->seat, &check);
  if (!goita_view_same(&check, v))
    return goita_error_set(err, GOITA_ESTATE, -1, "no deal agrees with the view");
  *out = r;
  return GOITA_OK;
}

int goita_view_sample(const goita_view *v, goita_rng *rng, goita_round *out, goita_error *err) {
  if (!v || !rng || !out) return goita_error_set(err, GOITA_EINVAL, -1, "a NULL argument");
  if (v->seat < 0 || v->seat >= v->players)
    return goita_error_set(err, GOITA_EINVAL, -1, "an observer's view has no hand to sample around");
  unseen u;
  const int st = read_view(&u, v, err);
  if (st != GOITA_OK) return st;
  for (int t = 0; t < SAMPLE_TRIES; t++)
    if (try_deal(&u, v, rng, out)) return GOITA_OK;
  return constructed_deal(v, out, err);
}

bool goita_view_same(const goita_view *a, const goita_view *b) {
  if (a->seat != b->seat || a->players != b->players || a->dealer != b->dealer || a->turn != b->turn ||
      a->attacker != b->attacker || a->phase != b->phase || a->attack != b->attack || a->passes != b->passes ||
      a->kings_up != b->kings_up || a->kings != b->kings || a->goshi != b->goshi || a->deciders != b->deciders ||
      a->redeal_votes != b->redeal_votes || a->go_votes != b->go_votes || a->nlog != b->nlog)
    return false;
  if (memcmp(a->hand, b->hand, sizeof a->hand) || memcmp(a->size, b->size, sizeof a->size) ||
      memcmp(a->plays, b->plays, sizeof a->plays) || memcmp(a->block_row, b->block_row, sizeof a->block_row) ||
      memcmp(a->attack_row, b->attack_row, sizeof a->attack_row) ||
      memcmp(a->face_down, b->face_down, sizeof a->face_down) ||
      memcmp(a->teyaku_hand, b->teyaku_hand, sizeof a->teyaku_hand))
    return false;
  for (int i = 0; i < a->nlog; i++)
    if (memcmp(&a->log[i], &b->log[i], sizeof a->log[i])) return false;
  const goita_round_result *x = &a->result, *y = &b->result;
  return x->end == y->end && x->winner == y->winner && x->points == y->points && x->doubled == y->doubled &&
         x->wins_game == y->wins_game;
}

/* Hints (hint.h): the unseen count against the hidden pieces of the full round, and the
 * reasons each offered move carries on positions of seeded random rounds. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

/* Calls visit on every position in play of `rounds` seeded random rounds. */
static void positions(int rounds, void (*visit)(const goita_round *, void *), void *arg) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 7);
  for (uint64_t seed = 1; seed <= (uint64_t)rounds; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, (int)(seed % 4), seed);
    while (!goita_round_over(&r)) {
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, moves);
      if (r.phase == GOITA_PHASE_PLAY) visit(&r, arg);
      goita_round_apply_unchecked(&r, moves[goita_rng_below(&rng, (uint32_t)n)]);
    }
  }
}

/* Unseen by the mover = what the others hold + their face-down blocks, kind by kind. */
static void unseen_is_hidden(const goita_round *r, void *arg) {
  (void)arg;
  goita_view v;
  goita_round_view(r, r->turn, &v);
  uint8_t unseen[GOITA_KIND_SLOTS];
  goita_view_unseen(&v, unseen);
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
    int hidden = 0;
    for (int s = 0; s < r->players; s++) {
      if (s == r->turn) continue;
      hidden += r->hand[s][k];
      for (int i = 0; i < r->plays[s]; i++)
        if ((r->face_down[s] >> i & 1) && goita_mark_kind(r->block_row[s][i]) == k) hidden++;
    }
    cr_assert_eq(unseen[k], hidden, "kind %d: %d unseen, %d hidden", k, unseen[k], hidden);
  }
}

Test(hint, unseen_counts_the_hidden_pieces) { positions(40, unseen_is_hidden, NULL); }

static const goita_hint_reason *find_reason(const goita_hint_move *m, goita_reason_kind kind) {
  for (int i = 0; i < m->nreasons; i++)
    if (m->reasons[i].kind == kind) return &m->reasons[i];
  return NULL;
}

typedef struct seen {
  int hints, finishes, partner_attacks, keeps, safe;
} seen;

/* Every hint: sorted moves, its own held pieces, and reasons true of the move. */
static void reasons_hold(const goita_round *r, void *arg) {
  seen *t = arg;
  goita_view v;
  goita_round_view(r, r->turn, &v);
  /* a hint every few positions keeps the test short */
  if ((r->nlog + r->turn) % 3) return;
  static goita_hint h;
  goita_error err;
  cr_assert_eq(goita_hint_make(&v, "fast", 5, &h, &err), GOITA_OK, "%s", err.message);
  t->hints++;
  goita_move legal[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, legal);
  cr_assert_eq(h.nmoves, n < GOITA_HINT_MOVES ? n : GOITA_HINT_MOVES);
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
    cr_assert_eq(h.held[r->turn][k], r->hand[r->turn][k] > 0 ? 1.0 : 0.0);
    for (int s = 0; s < r->players; s++) cr_assert(h.held[s][k] >= 0 && h.held[s][k] <= 1);
  }
  for (int i = 0; i < h.nmoves; i++) {
    const goita_hint_move *m = &h.moves[i];
    if (i) cr_assert(m->value <= h.moves[i - 1].value);
    const goita_hint_reason *finish = find_reason(m, GOITA_REASON_FINISH);
    const int finishes = m->move.type == GOITA_MOVE_PLAY && r->size[r->turn] == 2;
    cr_assert_eq(finish != NULL, finishes);
    if (finish) {
      goita_round after = *r;
      goita_round_apply_unchecked(&after, m->move);
      cr_assert_eq(finish->count, after.result.points, "goes out for %d, said %d", after.result.points, finish->count);
      t->finishes++;
    }
    const goita_hint_reason *partner = find_reason(m, GOITA_REASON_PARTNER_ATTACK);
    cr_assert_eq(partner != NULL, m->move.type == GOITA_MOVE_PASS && r->attacker == (r->turn + 2) % 4);
    t->partner_attacks += partner != NULL;
    const goita_hint_reason *keeps = find_reason(m, GOITA_REASON_KEEPS);
    if (keeps) {
      /* the move does not place the kept piece, and still holds it after */
      const int placed = (m->move.type == GOITA_MOVE_PLAY) *
                         ((goita_mark_kind(m->move.block) == keeps->piece) + (goita_mark_kind(m->move.attack) == keeps->piece));
      cr_assert(r->hand[r->turn][keeps->piece] > placed);
      t->keeps++;
    }
    const goita_hint_reason *safe = find_reason(m, GOITA_REASON_SAFE_ATTACK);
    if (safe) {
      cr_assert(safe->chance >= 0.5 && safe->chance <= 1);
      cr_assert_eq(safe->piece, goita_mark_kind(m->move.attack));
      t->safe++;
    }
  }
}

Test(hint, reasons_are_true_of_their_moves) {
  seen t = {0};
  positions(6, reasons_hold, &t);
  cr_assert(t.hints > 30 && t.finishes > 0 && t.partner_attacks > 0 && t.keeps > 0 && t.safe > 0,
            "hints %d, finishes %d, partner attacks %d, keeps %d, safe attacks %d", t.hints, t.finishes,
            t.partner_attacks, t.keeps, t.safe);
}

Test(hint, refuses_another_seats_turn) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_round r;
  goita_round_deal(&r, &rules, 0, 3);
  goita_view v;
  goita_round_view(&r, (r.turn + 1) % 4, &v);
  static goita_hint h;
  goita_error err;
  cr_assert_eq(goita_hint_make(&v, "fast", 1, &h, &err), GOITA_ETURN);
  goita_round_view(&r, r.turn, &v);
  cr_assert_eq(goita_hint_make(&v, "nobody", 1, &h, &err), GOITA_EPARSE);
  cr_assert(strstr(err.message, "nobody"), "%s", err.message);
}

/* A lead of the last two pieces, a pair: the finish counts double (RULES.md 5). */
static void pair_finish(const goita_round *r, void *arg) {
  int *found = arg;
  const int me = r->turn;
  if (r->attack != GOITA_NONE || r->size[me] != 2) return;
  int pair = 0;
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
    if (r->hand[me][k] == 2) pair = k;
  if (!pair) return;
  goita_view v;
  goita_round_view(r, me, &v);
  static goita_hint h;
  cr_assert_eq(goita_hint_make(&v, "fast", 1, &h, NULL), GOITA_OK);
  const goita_hint_reason *finish = find_reason(&h.moves[0], GOITA_REASON_FINISH);
  cr_assert(finish);
  cr_assert_eq(finish->count, 2 * goita_kind_value(pair));
  (*found)++;
}

Test(hint, a_pair_led_last_goes_out_for_double) {
  int found = 0;
  positions(300, pair_finish, &found);
  cr_assert(found > 0);
}

/* Drawing for the first dealer and the teams (RULES.md 7). */
#include <string.h>

#include "internal.h"

/* Where drawn pieces come from: the generator, or a script of marks. */
typedef struct picker {
  goita_rng *rng;
  const uint8_t *marks;
  int nmarks;
  int next;
} picker;

/* Takes one piece out of pool (n pieces) and returns its mark, or 0 when the script runs out
 * or names a piece that is not in the pool. */
static uint8_t pick(picker *p, uint8_t *pool, int *n) {
  int i;
  if (p->rng) {
    i = (int)goita_rng_below(p->rng, (uint32_t)*n);
  } else {
    if (p->next >= p->nmarks) return 0;
    const uint8_t want = p->marks[p->next++];
    for (i = 0; i < *n && pool[i] != want; i++) {
    }
    if (i == *n) return 0;
  }
  const uint8_t mark = pool[i];
  pool[i] = pool[--*n];
  return mark;
}

/* Seats the players for a team draw: player 0 in seat 0, the partner in seat 2, the others
 * in seats 1 and 3 in player order. partner_of_0 is the player who drew player 0's kind. */
static void seat_teams(goita_draw_result *out, int partner_of_0) {
  out->seat_of[0] = 0;
  out->seat_of[partner_of_0] = 2;
  int next = 1;
  for (int p = 1; p < 4; p++)
    if (p != partner_of_0) {
      out->seat_of[p] = (int8_t)next;
      next += 2;
    }
}

static void record(goita_draw_result *out, int round, int player, uint8_t mark) {
  if (round < GOITA_DRAW_MAX_ROUNDS) out->drawn[round][player] = mark;
}

static int run(goita_draw_method method, int players, picker *p, goita_draw_result *out) {
  if (players < 2 || players > 4) return GOITA_EINVAL;
  if ((method == GOITA_DRAW_B || method == GOITA_DRAW_C) && players != 4) return GOITA_EINVAL;
  memset(out, 0, sizeof *out);
  out->method = method;
  out->players = (int8_t)players;
  for (int i = 0; i < players; i++) out->seat_of[i] = (int8_t)i;
  uint8_t pool[GOITA_PIECES];
  int n = 0;
  switch (method) {
    case GOITA_DRAW_RANDOM:
      if (!p->rng) return GOITA_EINVAL;
      out->dealer = (int8_t)goita_rng_below(p->rng, (uint32_t)players);
      return GOITA_OK;
    case GOITA_DRAW_A1: {
      /* Everyone draws from the set; the highest rank deals; the tied highest draw again
       * (the pieces are returned each time). */
      unsigned drawing = (1u << players) - 1;
      for (int round = 0;; round++) {
        goita_rules rules;
        goita_rules_default(&rules);
        rules.players = players;
        n = goita__full_set(&rules, pool);
        int best = 99;
        unsigned tied = 0;
        for (int pl = 0; pl < players; pl++) {
          if (!(drawing & (1u << pl))) continue;
          const uint8_t mark = pick(p, pool, &n);
          if (!mark) return GOITA_EINVAL;
          record(out, round, pl, mark);
          const int rank = goita_mark_draw_rank(mark);
          if (rank < best) {
            best = rank;
            tied = 0;
          }
          if (rank == best) tied |= 1u << pl;
        }
        out->rounds = (uint8_t)(round + 1 < 255 ? round + 1 : 255);
        if (__builtin_popcount(tied) == 1) {
          out->dealer = (int8_t)__builtin_ctz(tied);
          return GOITA_OK;
        }
        drawing = tied;
      }
    }
    case GOITA_DRAW_A2:
    case GOITA_DRAW_B:
    case GOITA_DRAW_C: {
      /* A2: pawns and one 王. B: two pawns and two golds. C: two pawns, 王 and 玉. */
      if (method == GOITA_DRAW_A2) {
        for (int i = 0; i < players - 1; i++) pool[n++] = GOITA_PAWN;
        pool[n++] = GOITA_MARK_OU;
      } else {
        pool[n++] = GOITA_PAWN;
        pool[n++] = GOITA_PAWN;
        pool[n++] = method == GOITA_DRAW_B ? GOITA_GOLD : GOITA_MARK_OU;
        pool[n++] = method == GOITA_DRAW_B ? GOITA_GOLD : GOITA_MARK_GYOKU;
      }
      uint8_t drawn[GOITA_MAX_SEATS];
      for (int pl = 0; pl < players; pl++) {
        drawn[pl] = pick(p, pool, &n);
        if (!drawn[pl]) return GOITA_EINVAL;
        record(out, 0, pl, drawn[pl]);
      }
      out->rounds = 1;
      if (method == GOITA_DRAW_A2) {
        for (int pl = 0; pl < players; pl++)
          if (drawn[pl] != GOITA_PAWN) out->dealer = (int8_t)pl;
        return GOITA_OK;
      }
      const int kind0 = goita_mark_kind(drawn[0]);
      int partner = 1;
      while (goita_mark_kind(drawn[partner]) != kind0) partner++;
      seat_teams(out, partner);
      int dealer = 4;
      for (int pl = 0; pl < 4; pl++) {
        if (method == GOITA_DRAW_C && drawn[pl] == GOITA_MARK_OU) dealer = out->seat_of[pl];
        if (method == GOITA_DRAW_B && drawn[pl] != GOITA_PAWN && out->seat_of[pl] < dealer)
          dealer = out->seat_of[pl];
      }
      out->dealer = (int8_t)dealer;
      return GOITA_OK;
    }
  }
  return GOITA_EINVAL;
}

int goita_draw_run(goita_draw_method method, int players, goita_rng *rng, goita_draw_result *out) {
  picker p = {rng, NULL, 0, 0};
  return run(method, players, &p, out);
}

int goita_draw_scripted(goita_draw_method method, int players, const uint8_t *marks, int nmarks,
                        goita_draw_result *out) {
  if (method == GOITA_DRAW_RANDOM) return GOITA_EINVAL;
  picker p = {NULL, marks, nmarks, 0};
  return run(method, players, &p, out);
}

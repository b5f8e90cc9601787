/* The exact solver's public functions (solver.h): a solver's life, and one solve. How it
 * works: solver_internal.h and docs/SOLVER.md. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "solver_table.h"

void goita_solve_options_default(goita_solve_options *o) {
  memset(o, 0, sizeof *o);
  o->mode = GOITA_SOLVE_EXACT;
}

int goita_solver_new(goita_solver **out, size_t table_bytes) {
  if (!out) return GOITA_EINVAL;
  *out = NULL;
  goita_solver *s = calloc(1, sizeof *s);
  if (!s) return GOITA_ENOMEM;
  if (goita__tt_init(s, table_bytes) != GOITA_OK) {
    free(s);
    return GOITA_ENOMEM;
  }
  for (int t = 0; t < 6; t++)
    for (int k = 1; k <= GOITA_KING; k++)
      if (kind_tens[k] >= t) s->kinds_worth[t] |= (uint16_t)(1u << k);
  for (unsigned held = 0; held < 512; held++) {
    unsigned safe = 0;
    for (int k = 1; k <= GOITA_KING; k++)
      if (!(held & defenders[k])) safe |= 1u << k;
    s->safe_from[held] = (uint16_t)safe;
  }
  /* Two kinds are alike in the test "at least t" when they have the same defenders (pawn and
   * lance only themselves; knight to rook also a king) and each finish with them, single or
   * doubled, passes or fails alike: for the mover's side (at least t) and the other (at
   * least 1 - t from its side). */
  for (int t = -10; t <= 11; t++)
    for (int k = 1; k < GOITA_KING; k++) {
      const int v = kind_tens[k];
      const unsigned passes = (unsigned)(v >= t) << 1 | (unsigned)(v >= 1 - t) << 2 |
                              (unsigned)(2 * v >= t) << 3 | (unsigned)(2 * v >= 1 - t) << 4;
      s->test_class[t + 10][k] = (uint8_t)((k >= GOITA_KNIGHT ? TEST_CLASS_DEFENDERS : 0) | passes);
    }
  *out = s;
  return GOITA_OK;
}

void goita_solver_free(goita_solver *s) {
  if (!s) return;
  goita__tt_free(s);
  free(s);
}

void goita__solver_forget_deal(goita_solver *s) { s->have_deal = 0; }

void goita_solver_clear(goita_solver *s) {
  goita__tt_clear(s);
  goita__solver_forget_deal(s);
}

size_t goita_solver_table_entries(const goita_solver *s) { return s->buckets * TT_WAYS; }

void goita__solver_start(goita_solver *s, const goita_round *r, const goita_solve_options *o, double start) {
  goita__solver_use_deal(s, r);
  s->root = r->turn;
  for (int seat = 0; seat < s->players; seat++)
    s->group[seat] = (uint8_t)(s->players == 4 ? (seat ^ s->root) & 1 : seat != s->root);
  /* With 4 or 2 players a position's value does not depend on the root; with 3 it does. */
  s->root_key = s->players == 3 ? (uint64_t)(s->root + 1) << 34 : 0; /* beside turn's bits */
  s->nodes = 0;
  s->max_nodes = o->max_nodes;
  s->deadline = o->max_ms > 0 ? start + o->max_ms / 1000.0 : 0;
  s->stopped = 0;
  memset(s->killers, 0, sizeof s->killers);
  memset(s->killer_face_down, 0, sizeof s->killer_face_down);
}

void goita__solver_solve_move(goita_solver *s, const goita_round *r, goita_move move, goita_solve_mode mode,
                              int *lo, int *hi) {
  goita_round child = *r;
  goita_round_apply_unchecked(&child, move);
  *lo = -10, *hi = 10;
  if (!s->stopped) goita__solver_solve_round(s, &child, mode, lo, hi);
}

goita_solve_bounds goita__solver_points(int lo, int hi) {
  goita_solve_bounds b = {lo * 10, hi * 10};
  return b;
}

int goita_solve(goita_solver *s, const goita_round *r, const goita_solve_options *options,
                goita_solve_result *res) {
  if (!s || !r || !res) return GOITA_EINVAL;
  goita_solve_options o;
  if (options)
    o = *options;
  else
    goita_solve_options_default(&o);
  const double start = monotonic_seconds();
  memset(res, 0, sizeof *res);
  res->best = -1;
  goita__solver_start(s, r, &o, start);

  /* When every move's value is asked for without limits, the position's value is the best of
   * them: the moves are solved alone and the position is not searched first (its search
   * proved little the moves' own searches do not prove again). With a limit the position is
   * searched first, so that its bounds are the best the limit allows. */
  const bool from_moves = goita__solve_from_moves(r, &o);
  int lo = -10, hi = -10;
  if (!from_moves) goita__solver_solve_round(s, r, o.mode, &lo, &hi);
  if (o.all_moves && r->phase != GOITA_PHASE_OVER) {
    res->nmoves = goita_round_legal_moves(r, res->moves);
    int best_lower = -1000;
    for (int i = 0; i < res->nmoves; i++) {
      int clo, chi;
      goita__solver_solve_move(s, r, res->moves[i], o.mode, &clo, &chi);
      res->move_value[i] = goita__solver_points(clo, chi);
      if (clo > best_lower) {
        best_lower = clo;
        res->best = i;
      }
      if (from_moves) {
        if (clo > lo) lo = clo;
        if (chi > hi) hi = chi;
      }
    }
  }
  res->value = goita__solver_points(lo, hi);
  res->complete = !s->stopped;
  res->nodes = s->nodes;
  res->ms = (monotonic_seconds() - start) * 1000.0;
  return GOITA_OK;
}

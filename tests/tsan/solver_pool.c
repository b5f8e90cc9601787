/* The solver pool's threads at work: batches of sampled deals, every move's value of one
 * position and one position's value (each test's root moves) shared among four threads, with the library built with ThreadSanitizer
 * (tests/CMakeLists.txt), which fails the run on any data race between the pool's threads and
 * its caller. The values are checked against one solver's, so a lost result fails too. */
#include <stdio.h>
#include <string.h>

#include "goita/goita.h"

enum { THREADS = 4, DEALS = 24, POSITIONS = 3 };

static int fail(const char *what, int position) {
  fprintf(stderr, "solver_pool: %s (position %d)\n", what, position);
  return 1;
}

int main(void) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_solver *solver = NULL;
  goita_solver_pool *pool = NULL;
  if (goita_solver_new(&solver, 1 << 20) != GOITA_OK || goita_solver_pool_new(&pool, THREADS, 1 << 20) != GOITA_OK)
    return fail("cannot make the solvers", -1);
  goita_solve_options every;
  goita_solve_options_default(&every);
  every.all_moves = 1;
  static goita_round deals[DEALS];
  static goita_solve_result got[DEALS];
  goita_rng rng;
  goita_rng_seed(&rng, 7);
  for (int position = 0; position < POSITIONS; position++) {
    /* a deal played at random down to 22 pieces, then deals sampled from its mover's view */
    goita_round r;
    goita_round_deal(&r, &rules, position % 4, 1000u + (unsigned)position);
    if (r.phase != GOITA_PHASE_PLAY) continue; /* a 5-pawn decision */
    int left = 32;
    while (left > 22 && !goita_round_over(&r)) {
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, moves);
      const goita_move m = moves[goita_rng_below(&rng, (uint32_t)n)];
      goita_round_apply_unchecked(&r, m);
      left -= m.type == GOITA_MOVE_PASS ? 0 : 2;
    }
    if (goita_round_over(&r)) continue;
    goita_view v;
    goita_round_view(&r, r.turn, &v);
    for (int d = 0; d < DEALS; d++)
      if (goita_view_sample(&v, &rng, &deals[d], NULL) != GOITA_OK) return fail("cannot sample", position);
    if (goita_solve_batch(pool, deals, DEALS, &every, got) != GOITA_OK) return fail("batch refused", position);
    for (int d = 0; d < DEALS; d++) {
      goita_solve_result want;
      goita_solve(solver, &deals[d], &every, &want);
      if (got[d].value.lower != want.value.lower || got[d].value.upper != want.value.upper)
        return fail("a batch's value differs from one solver's", position);
    }
    goita_solve_result want, one;
    goita_solve(solver, &deals[0], &every, &want);
    if (goita_solve_parallel(pool, &deals[0], &every, &one) != GOITA_OK) return fail("parallel refused", position);
    if (one.value.lower != want.value.lower || one.nmoves != want.nmoves || one.best != want.best)
      return fail("a parallel solve differs from one solver's", position);
    for (int i = 0; i < one.nmoves; i++)
      if (one.move_value[i].lower != want.move_value[i].lower) return fail("a move's value differs", position);
    /* the value alone, each test's root moves split among the threads */
    if (goita_solve_parallel(pool, &deals[1], NULL, &one) != GOITA_OK) return fail("split refused", position);
    goita_solve(solver, &deals[1], NULL, &want);
    if (one.value.lower != want.value.lower || one.value.upper != want.value.upper)
      return fail("a split solve's value differs from one solver's", position);
  }
  goita_solver_pool_free(pool);
  goita_solver_free(solver);
  printf("solver_pool: %d positions, %d deals each, %d threads\n", POSITIONS, DEALS, THREADS);
  return 0;
}

#include <criterion/criterion.h>
#include <string.h>

#include "goita/goita.h"

/* Over many seeds: the dealer drew the best rank of the last round, later rounds are drawn
 * only by the players tied at the top of the round before. */
Test(draw, a1_invariants_over_seeds) {
  goita_rng rng;
  goita_rng_seed(&rng, 1);
  int ties = 0;
  for (int i = 0; i < 5000; i++) {
    goita_draw_result d;
    cr_assert_eq(goita_draw_run(GOITA_DRAW_A1, 4, &rng, &d), GOITA_OK);
    cr_assert_geq(d.rounds, 1);
    ties += d.rounds > 1;
    const int last = d.rounds - 1;
    if (last >= GOITA_DRAW_MAX_ROUNDS) continue;
    for (int r = 0; r <= last; r++) {
      int best = 99;
      for (int p = 0; p < 4; p++)
        if (d.drawn[r][p] && goita_mark_draw_rank(d.drawn[r][p]) < best) best = goita_mark_draw_rank(d.drawn[r][p]);
      int at_best = 0;
      for (int p = 0; p < 4; p++) {
        const bool top = d.drawn[r][p] && goita_mark_draw_rank(d.drawn[r][p]) == best;
        at_best += top;
        if (r < last) cr_assert_eq(d.drawn[r + 1][p] != 0, top, "only the tied draw again");
      }
      if (r == last) {
        cr_assert_eq(at_best, 1);
        cr_assert_eq(goita_mark_draw_rank(d.drawn[r][d.dealer]), best);
      } else {
        cr_assert_gt(at_best, 1);
      }
    }
  }
  cr_expect_gt(ties, 100, "ties happen (two rooks, bishops, ...)");
}

Test(draw, team_methods_seat_partners_opposite) {
  goita_rng rng;
  goita_rng_seed(&rng, 2);
  const goita_draw_method methods[] = {GOITA_DRAW_B, GOITA_DRAW_C};
  for (int mi = 0; mi < 2; mi++)
    for (int i = 0; i < 500; i++) {
      goita_draw_result d;
      cr_assert_eq(goita_draw_run(methods[mi], 4, &rng, &d), GOITA_OK);
      int seats = 0;
      for (int p = 0; p < 4; p++) seats |= 1 << d.seat_of[p];
      cr_assert_eq(seats, 0xF, "seating is a permutation");
      cr_assert_eq(d.seat_of[0], 0);
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 4; q++)
          if (p != q && goita_mark_kind(d.drawn[0][p]) == goita_mark_kind(d.drawn[0][q]))
            cr_assert_eq((d.seat_of[p] + 2) % 4, d.seat_of[q], "same kinds are partners");
      int dealer_player = -1;
      for (int p = 0; p < 4; p++)
        if (d.seat_of[p] == d.dealer) dealer_player = p;
      if (methods[mi] == GOITA_DRAW_C) cr_assert_eq(d.drawn[0][dealer_player], GOITA_MARK_OU);
      if (methods[mi] == GOITA_DRAW_B) {
        cr_assert_neq(d.drawn[0][dealer_player], GOITA_PAWN);
        cr_assert_lt(d.dealer, 2, "the lower seat of the pair deals");
      }
    }
}

Test(draw, random_and_a2_choose_every_seat) {
  goita_rng rng;
  goita_rng_seed(&rng, 3);
  int seen[2][4] = {{0}};
  for (int i = 0; i < 400; i++) {
    goita_draw_result d;
    goita_draw_run(GOITA_DRAW_RANDOM, 4, &rng, &d);
    seen[0][d.dealer]++;
    goita_draw_run(GOITA_DRAW_A2, 4, &rng, &d);
    seen[1][d.dealer]++;
    cr_assert_neq(d.drawn[0][d.dealer], GOITA_PAWN);
  }
  for (int m = 0; m < 2; m++)
    for (int s = 0; s < 4; s++) cr_expect_gt(seen[m][s], 50);
}

Test(draw, invalid_requests) {
  goita_rng rng;
  goita_rng_seed(&rng, 4);
  goita_draw_result d;
  cr_expect_eq(goita_draw_run(GOITA_DRAW_C, 2, &rng, &d), GOITA_EINVAL);
  cr_expect_eq(goita_draw_run(GOITA_DRAW_A1, 5, &rng, &d), GOITA_EINVAL);
  const uint8_t short_script[] = {1, 5};
  cr_expect_eq(goita_draw_scripted(GOITA_DRAW_A1, 4, short_script, 2, &d), GOITA_EINVAL);
  cr_expect_eq(goita_draw_scripted(GOITA_DRAW_RANDOM, 4, short_script, 2, &d), GOITA_EINVAL);
}

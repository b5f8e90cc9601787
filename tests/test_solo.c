#include <criterion/criterion.h>
#include <string.h>

#include "goita/goita.h"

/* Random play of whole games: the game ends, pieces are conserved, the score is the value
 * of the pairs taken and never above 76. */
Test(solo, random_games_conserve_pieces) {
  goita_rng rng;
  goita_rng_seed(&rng, 8);
  int best = 0;
  for (int game = 0; game < 3000; game++) {
    goita_solo g;
    goita_solo_start(&g, (uint64_t)game);
    unsigned kinds = 0;
    for (int i = 0; i < 4; i++) kinds |= 1u << goita_mark_kind(g.cell[goita_solo_corners[i]]);
    cr_assert_eq(__builtin_popcount(kinds), 4, "four guards of four kinds");
    for (int steps = 0; g.phase != GOITA_SOLO_OVER; steps++) {
      cr_assert_lt(steps, 200);
      const uint32_t occ = goita_solo_occupied(&g);
      int cells[GOITA_SOLO_CELLS], n = 0;
      if (g.phase == GOITA_SOLO_TURN) {
        for (int c = 0; c < GOITA_SOLO_CELLS; c++)
          if ((occ >> c & 1) && !(g.guards >> c & 1)) cells[n++] = c;
        cr_assert_gt(n, 0);
        const int a = cells[goita_rng_below(&rng, (uint32_t)n)];
        int b = a;
        while (n > 1 && b == a) b = cells[goita_rng_below(&rng, (uint32_t)n)];
        cr_assert_eq(goita_solo_turn(&g, a, b, NULL), GOITA_OK);
      } else if (g.phase == GOITA_SOLO_CHOOSE) {
        for (int c = 0; c < GOITA_SOLO_CELLS; c++)
          if (goita_solo_visible(&g, c)) cells[n++] = c;
        bool done = false;
        for (int i = 0; i < n && !done; i++)
          for (int j = i + 1; j < n && !done; j++)
            if (goita_mark_kind(g.cell[cells[i]]) == goita_mark_kind(g.cell[cells[j]]))
              done = goita_solo_choose(&g, cells[i], cells[j], NULL) == GOITA_OK;
        cr_assert(done);
      } else {
        for (int c = 0; c < GOITA_SOLO_CELLS; c++)
          if (occ >> c & 1) cells[n++] = c;
        cr_assert_eq(goita_solo_remove(&g, cells[goita_rng_below(&rng, (uint32_t)n)], NULL), GOITA_OK);
      }
    }
    int pieces = 0, score = 0;
    for (int k = 1; k <= 8; k++) {
      cr_assert_eq(g.taken[k] % 2, 0, "pieces are taken in pairs");
      pieces += g.taken[k] + g.discard[k];
      score += g.taken[k] * goita_solo_value(k);
      cr_assert_eq(g.taken[k] + g.discard[k], goita_kind_total(k));
    }
    cr_assert_eq(pieces, 32);
    cr_assert_eq(score, g.score);
    cr_assert_leq(g.score, GOITA_SOLO_MAX_SCORE);
    cr_assert_eq(goita_solo_occupied(&g), 0u);
    if (g.score > best) best = g.score;
  }
  cr_expect_gt(best, 20);
}

Test(solo, view_hides_face_down_pieces) {
  goita_solo g;
  goita_solo_start(&g, 5);
  uint8_t grid[GOITA_SOLO_CELLS];
  goita_solo_view(&g, grid);
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
    const bool corner = c == 0 || c == 7 || c == 24 || c == 31;
    cr_expect_eq(grid[c] != 0, corner, "cell %d", c);
  }
  cr_expect_eq(goita_solo_face_down(&g), 28);
}

Test(solo, same_seed_same_grid) {
  goita_solo a, b;
  goita_solo_start(&a, 9);
  goita_solo_start(&b, 9);
  cr_expect_eq(memcmp(&a, &b, sizeof a), 0);
}

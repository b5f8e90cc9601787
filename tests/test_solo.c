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

/* ---- the perfect-memory strategy ---- */
#include <math.h>

#include "solo_internal.h"

/* An exact dynamic programme over knowledge states, written from RULES.md 9 apart from the
 * strategy code, for a reduced set of pieces small enough to solve. */
#define DP_SLOTS (1u << 18)
static uint64_t dp_keys[DP_SLOTS];
static double dp_values[DP_SLOTS];

/* Up to 7 pieces of a kind in each count: 7 bits per kind, 56 in all. */
static uint64_t dp_key(const goita__solo_knowledge *k, int remove_phase) {
  uint64_t key = (uint64_t)remove_phase + 2;
  for (int x = GOITA_PAWN; x <= GOITA_KING; x++)
    key = ((key * 8 + (uint64_t)k->unseen[x]) * 8 + (uint64_t)k->known[x]) * 2 + (uint64_t)k->guard[x];
  return key;
}

static double dp_value(const goita__solo_knowledge *k);

/* After a turn without a pair (turned pieces already back as known): the best removal. */
static double dp_remove(const goita__solo_knowledge *k) {
  const uint64_t key = dp_key(k, 1);
  uint32_t slot = (uint32_t)(key * 0x9e3779b97f4a7c15u >> 46) & (DP_SLOTS - 1);
  for (; dp_keys[slot]; slot = (slot + 1) & (DP_SLOTS - 1))
    if (dp_keys[slot] == key) return dp_values[slot];
  double best = -1;
  int unseen = 0;
  for (int x = 1; x <= 8; x++) unseen += k->unseen[x];
  for (int x = 1; x <= 8; x++) {
    goita__solo_knowledge t = *k;
    if (k->guard[x]) {
      t.guard[x] = 0;
      best = fmax(best, dp_value(&t));
    }
    t = *k;
    if (k->known[x]) {
      t.known[x]--;
      best = fmax(best, dp_value(&t));
    }
  }
  if (unseen) {
    double e = 0;
    for (int x = 1; x <= 8; x++) {
      if (!k->unseen[x]) continue;
      goita__solo_knowledge t = *k;
      t.unseen[x]--;
      e += (double)k->unseen[x] / unseen * dp_value(&t);
    }
    best = fmax(best, e);
  }
  dp_keys[slot] = key;
  dp_values[slot] = best;
  return best;
}

/* Pieces of kinds a and b are turned (already out of the face-down counts). */
static double dp_turned(goita__solo_knowledge k, int a, int b) {
  const double pair_a = 2 * goita_solo_value(a), pair_b = 2 * goita_solo_value(b);
  if (b == 0) { /* the last piece, alone */
    if (k.guard[a]) return pair_a;
    k.known[a]++;
    return dp_remove(&k);
  }
  if (a == b) {
    if (!k.guard[a]) return pair_a + dp_value(&k);
    goita__solo_knowledge t = k; /* three of a kind: keep the guard, or take it */
    t.guard[a] = 0;
    t.known[a]++;
    return pair_a + fmax(dp_value(&k), dp_value(&t));
  }
  double points = 0;
  if (k.guard[a]) points += pair_a, k.guard[a] = 0;
  else k.known[a]++;
  if (k.guard[b]) points += pair_b, k.guard[b] = 0;
  else k.known[b]++;
  return points > 0 ? points + dp_value(&k) : dp_remove(&k);
}

static double dp_value(const goita__solo_knowledge *k) {
  const uint64_t key = dp_key(k, 0);
  uint32_t slot = (uint32_t)(key * 0x9e3779b97f4a7c15u >> 46) & (DP_SLOTS - 1);
  for (; dp_keys[slot]; slot = (slot + 1) & (DP_SLOTS - 1))
    if (dp_keys[slot] == key) return dp_values[slot];
  int unseen = 0, down = 0;
  for (int x = 1; x <= 8; x++) unseen += k->unseen[x], down += k->unseen[x] + k->known[x];
  double best = 0;
  if (down == 1) {
    for (int x = 1; x <= 8; x++) {
      goita__solo_knowledge t = *k;
      if (k->known[x]) t.known[x]--, best = dp_turned(t, x, 0);
      if (k->unseen[x]) t.unseen[x]--, best = dp_turned(t, x, 0);
    }
  } else if (down > 1) {
    best = -1;
    for (int x = 1; x <= 8; x++) /* two known pieces, or one known and one unseen */
      for (int y = x; y <= 8 && k->known[x]; y++) {
        if (k->known[y] < (x == y ? 2 : 1)) continue;
        goita__solo_knowledge t = *k;
        t.known[x]--, t.known[y]--;
        best = fmax(best, dp_turned(t, x, y));
      }
    for (int x = 1; x <= 8 && unseen; x++) {
      if (!k->known[x]) continue;
      double e = 0;
      for (int y = 1; y <= 8; y++) {
        if (!k->unseen[y]) continue;
        goita__solo_knowledge t = *k;
        t.known[x]--, t.unseen[y]--;
        e += (double)k->unseen[y] / unseen * dp_turned(t, x, y);
      }
      best = fmax(best, e);
    }
    if (unseen >= 2) {
      double e = 0;
      for (int x = 1; x <= 8; x++)
        for (int y = 1; y <= 8; y++) {
          const int second = k->unseen[y] - (x == y);
          if (!k->unseen[x] || second <= 0) continue;
          goita__solo_knowledge t = *k;
          t.unseen[x]--, t.unseen[y]--;
          e += (double)k->unseen[x] / unseen * second / (unseen - 1) * dp_turned(t, x, y);
        }
      best = fmax(best, e);
    }
  }
  dp_keys[slot] = key;
  dp_values[slot] = best;
  return best;
}

/* The rollout strategy on a reduced set (4 pawns, 4 lances, 2 knights, 2 silvers, 2 golds;
 * four guards of different kinds) scores what the exact optimum scores: never more (which
 * would mean the strategy's game and the rules disagree) and no more than 0.25 less. */
Test(solo, strategy_is_near_the_exact_optimum_on_a_reduced_set) {
  const int total[9] = {0, 4, 4, 2, 2, 2, 0, 0, 0};
  /* the exact expectation over the guard draws: four pieces of four kinds, uniformly */
  double exact = 0, weight = 0;
  for (unsigned set = 0; set < 64; set += 2) {
    if (__builtin_popcount(set) != 4) continue;
    goita__solo_knowledge k = {{0}, {0}, {0}};
    double w = 1;
    for (int x = 1; x <= 5; x++) {
      k.unseen[x] = (int8_t)total[x];
      if ((set >> x) & 1u) k.guard[x] = 1, k.unseen[x]--, w *= total[x];
    }
    exact += w * dp_value(&k);
    weight += w;
  }
  exact /= weight;
  cr_assert(exact > 20 && exact < 30, "exact %.3f", exact);

  goita_rng rng;
  goita_rng_seed(&rng, 99);
  const int games = 1500;
  double sum = 0, squares = 0;
  for (int game = 0; game < games; game++) {
    uint8_t pool[14];
    int n = 0;
    for (int x = 1; x <= 5; x++)
      for (int c = 0; c < total[x]; c++) pool[n++] = (uint8_t)x;
    unsigned drawn;
    do { /* draw four, again until they differ */
      goita_rng_shuffle(&rng, pool, n);
      drawn = (1u << pool[0]) | (1u << pool[1]) | (1u << pool[2]) | (1u << pool[3]);
    } while (__builtin_popcount(drawn) != 4);
    goita__solo_position p = {.phase = GOITA_SOLO_TURN};
    for (int x = 1; x <= 5; x++) {
      p.k.unseen[x] = (int8_t)(total[x] - (int)((drawn >> x) & 1u));
      p.k.guard[x] = (int8_t)((drawn >> x) & 1u);
    }
    int score = 0;
    for (uint64_t step = 0; !goita__solo_over(&p); step++) {
      cr_assert_lt(step, 100);
      const goita__solo_step s = goita__solo_best_step(&p, goita_seed_mix((uint64_t)game << 8 | step), 32, NULL);
      score += goita__solo_play(&p, &s, &rng);
    }
    sum += score;
    squares += (double)score * score;
  }
  const double mean = sum / games, se = sqrt((squares - sum * mean) / (games - 1) / games);
  cr_assert_leq(mean, exact + 4 * se, "strategy %.3f ± %.3f above the optimum %.3f", mean, se, exact);
  cr_assert_geq(mean, exact - 0.25, "strategy %.3f ± %.3f far below the optimum %.3f", mean, se, exact);
}

/* The advice reads only the view and the memory: two games that differ only in face-down
 * pieces never seen get the same advice at every step. */
Test(solo, advice_ignores_pieces_never_seen) {
  for (uint64_t seed = 1; seed <= 20; seed++) {
    goita_solo g;
    goita_solo_start(&g, seed);
    goita_solo_memory memory = {{0}};
    goita_solo_remember(&memory, &g);
    for (uint64_t step = 0; g.phase != GOITA_SOLO_OVER; step++) {
      /* swap two face-down pieces of different kinds that the memory does not hold */
      goita_solo other = g;
      int first = -1;
      for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
        if (!other.cell[c] || goita_solo_visible(&other, c) || memory.mark[c]) continue;
        if (first < 0) {
          first = c;
        } else if (goita_mark_kind(other.cell[c]) != goita_mark_kind(other.cell[first])) {
          const uint8_t t = other.cell[c];
          other.cell[c] = other.cell[first];
          other.cell[first] = t;
          break;
        }
      }
      goita_solo_action a, b;
      cr_assert_eq(goita_solo_advise(&g, &memory, seed * 1000 + step, 16, &a, NULL), GOITA_OK);
      cr_assert_eq(goita_solo_advise(&other, &memory, seed * 1000 + step, 16, &b, NULL), GOITA_OK);
      cr_assert(a.phase == b.phase && a.a == b.a && a.b == b.b && a.value == b.value, "seed %llu step %llu",
                (unsigned long long)seed, (unsigned long long)step);
      cr_assert_eq(goita_solo_apply(&g, &a, NULL), GOITA_OK);
      goita_solo_remember(&memory, &g);
    }
  }
}

/* The memory holds exactly the face-down pieces seen: after every step, each remembered cell
 * holds the remembered piece, and a piece turned in a turn that took a pair is remembered. */
Test(solo, memory_is_true_and_complete) {
  goita_solo g;
  goita_solo_start(&g, 5);
  goita_solo_memory memory = {{0}};
  goita_solo_remember(&memory, &g);
  uint32_t ever_shown = g.guards;
  while (g.phase != GOITA_SOLO_OVER) {
    goita_solo_action a;
    cr_assert_eq(goita_solo_advise(&g, &memory, 3, 8, &a, NULL), GOITA_OK);
    cr_assert_eq(goita_solo_apply(&g, &a, NULL), GOITA_OK);
    if (a.phase == GOITA_SOLO_TURN) ever_shown |= (1u << a.a) | (1u << a.b);
    goita_solo_remember(&memory, &g);
    for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
      if (!g.cell[c]) cr_assert_eq(memory.mark[c], 0, "cell %d emptied but remembered", c);
      else if ((ever_shown >> c) & 1u) cr_assert_eq(memory.mark[c], g.cell[c], "cell %d", c);
      else cr_assert_eq(memory.mark[c], 0, "cell %d never shown but remembered", c);
    }
  }
}

/* Whole games by the strategy through the cells: they end, the score is the pairs taken, and
 * a memory from another game is refused. */
Test(solo, strategy_plays_whole_games) {
  long total = 0;
  for (uint64_t seed = 0; seed < 40; seed++) {
    goita_solo g;
    goita_solo_start(&g, seed);
    const int score = goita_solo_play_best(&g, seed, 16);
    cr_assert_eq(g.phase, GOITA_SOLO_OVER);
    int taken = 0;
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
      cr_assert_eq(g.taken[k] % 2, 0);
      taken += g.taken[k] * goita_solo_value(k);
    }
    cr_assert_eq(score, taken);
    total += score;
  }
  cr_assert_gt(total, 40 * 55, "a perfect memory should score well above random play (%ld)", total);

  goita_solo g, other;
  goita_solo_start(&g, 1);
  goita_solo_start(&other, 2);
  goita_solo_memory memory = {{0}};
  goita_solo_remember(&memory, &other);
  goita_solo_action a;
  goita_error err;
  goita_solo_turn(&other, 1, 2, NULL);
  goita_solo_remember(&memory, &other);
  memory.mark[9] = GOITA_KING; /* and a king that is not where the memory says */
  memory.mark[10] = GOITA_KING;
  memory.mark[11] = GOITA_KING;
  cr_assert_eq(goita_solo_advise(&g, &memory, 1, 8, &a, &err), GOITA_EINVAL);
  goita_solo_play_best(&g, 1, 8);
  cr_assert_eq(goita_solo_advise(&g, &memory, 1, 8, &a, &err), GOITA_ESTATE);
}

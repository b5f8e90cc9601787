#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_support.h"

static const char *const rule_sets[] = {
    "",
    "king_face_down=allowed",
    "king_attack=a_or_b",
    "king_attack=a_or_last,teyaku=off",
    "goshi_both_teams=play_if_both,double_goshi=points:50",
    "players=3",
    "players=2",
    "players=3,three_player_set_aside=random,goshi=on,teyaku=on",
    "players=2,goshi=on",
    "preset=japanese,king_face_down=allowed",
    "goshi_decision=holder_and_partner",
};

/* Samples around every seat's view at every position of seeded random rounds: each sample must
 * give exactly the view it was drawn from, keep the seat's own pieces, and move the hidden
 * ones around (a sampler that returned the true deal would pass the first two checks). */
Test(sample, every_sample_shows_the_same_view) {
  goita_rng rng, sampler_rng;
  goita_rng_seed(&rng, 11);
  goita_rng_seed(&sampler_rng, 12);
  long checked = 0, differed = 0;
  for (size_t set = 0; set < sizeof rule_sets / sizeof rule_sets[0]; set++) {
    goita_rules rules;
    cr_assert_eq(goita_rules_parse(&rules, rule_sets[set], NULL), GOITA_OK);
    for (int round = 0; round < 60; round++) {
      goita_round r;
      goita_round_deal(&r, &rules, round % rules.players, goita_seed_mix(set * 1000 + (uint64_t)round));
      for (;;) {
        for (int seat = 0; seat < r.players; seat++) {
          goita_view v;
          goita_round_view(&r, seat, &v);
          goita_round s;
          goita_error err;
          const int st = goita_view_sample(&v, &sampler_rng, &s, &err);
          cr_assert_eq(st, GOITA_OK, "rules \"%s\" round %d seat %d: %s", rule_sets[set], round, seat, err.message);
          goita_view w;
          goita_round_view(&s, seat, &w);
          cr_assert(goita_view_same(&v, &w), "rules \"%s\" round %d seat %d move %d: the sample shows another view",
                    rule_sets[set], round, seat, r.nlog);
          cr_assert_eq(memcmp(s.deal[seat], r.deal[seat], sizeof r.deal[seat]), 0);
          checked++;
          differed += memcmp(s.deal, r.deal, sizeof r.deal) != 0;
        }
        if (goita_round_over(&r)) break;
        test_random_move(&r, &rng);
      }
    }
  }
  cr_assert_gt(checked, 5000);
  cr_assert_gt(differed, checked / 2, "samples differ from the true deal only %ld times in %ld", differed, checked);
}

/* Uniformity: at the deal, a seat holding neither king sees each other seat hold 王 equally
 * often, and the number of pawns a seat holds follows the count of deals (4 at most). */
Test(sample, kings_and_pawns_fall_as_often_as_they_should) {
  goita_rules rules;
  goita_rules_default(&rules);
  /* Seat 0 holds 1 pawn: 9 pawns among 24 unseen pieces, at most 4 to a hand. */
  goita_round r = test_round("", "12345667,11112345,11122334,11455789,s1");
  goita_view v;
  goita_round_view(&r, 0, &v);
  goita_rng rng;
  goita_rng_seed(&rng, 5);
  enum { N = 30000 };
  int king_at[4] = {0}, pawns_at_1[9] = {0};
  for (int i = 0; i < N; i++) {
    goita_round s;
    cr_assert_eq(goita_view_sample(&v, &rng, &s, NULL), GOITA_OK);
    for (int seat = 1; seat < 4; seat++)
      if (s.kings[seat] & 1) king_at[seat]++;
    pawns_at_1[s.hand[1][GOITA_PAWN]]++;
  }
  for (int seat = 1; seat < 4; seat++)
    cr_assert(fabs(king_at[seat] - N / 3.0) < 4 * sqrt(N * (1 / 3.0) * (2 / 3.0)), "seat %d holds 王 %d times of %d",
              seat + 1, king_at[seat], N);
  /* Exact distribution of one hand's pawns: count the deals of the 9 pawns and 15 other pieces
   * (each piece told apart) into three hands of 8 with no hand above 4 pawns. */
  double ways[5] = {0}, total = 0;
  double binom[25][25] = {{0}};
  for (int n = 0; n <= 24; n++) {
    binom[n][0] = 1;
    for (int k = 1; k <= n; k++) binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
  }
  for (int a = 0; a <= 4; a++)
    for (int b = 0; b <= 4; b++) {
      const int c = 9 - a - b;
      if (c < 0 || c > 4) continue;
      const double w = binom[9][a] * binom[9 - a][b] * binom[15][8 - a] * binom[15 - (8 - a)][8 - b];
      ways[a] += w;
      total += w;
    }
  for (int a = 0; a <= 4; a++) {
    const double expected = N * ways[a] / total;
    cr_assert(fabs(pawns_at_1[a] - expected) < 4 * sqrt(expected) + 1, "%d pawns: %d times, expected %.0f", a,
              pawns_at_1[a], expected);
  }
  for (int a = 5; a <= 8; a++) cr_assert_eq(pawns_at_1[a], 0, "a hand with %d pawns would have been announced", a);
}

/* An announced 5-pawn hand keeps its 5 pawns in every sample. */
Test(sample, announced_five_pawns_stay) {
  goita_round r = test_round("", "11111234,11234567,12345589,11234567,s1");
  cr_assert_eq(r.phase, GOITA_PHASE_DECIDE);
  goita_view v;
  goita_round_view(&r, r.turn, &v);
  goita_rng rng;
  goita_rng_seed(&rng, 9);
  for (int i = 0; i < 500; i++) {
    goita_round s;
    cr_assert_eq(goita_view_sample(&v, &rng, &s, NULL), GOITA_OK);
    cr_assert_eq(s.hand[0][GOITA_PAWN], 5);
  }
}

Test(sample, observer_views_are_refused) {
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1");
  goita_view v;
  goita_round_view(&r, GOITA_OBSERVER, &v);
  goita_rng rng;
  goita_rng_seed(&rng, 1);
  goita_round s;
  goita_error err;
  cr_assert_eq(goita_view_sample(&v, &rng, &s, &err), GOITA_EINVAL);
  cr_assert(strstr(err.message, "observer"));
}

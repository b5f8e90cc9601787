#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

/* Plays whole games between random players and checks the accounting of every round. */
static void play_games(const char *options, int games) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, options, NULL), GOITA_OK);
  goita_rng rng;
  goita_rng_seed(&rng, 17);
  for (int gi = 0; gi < games; gi++) {
    goita_game g;
    cr_assert_eq(goita_game_start(&g, &rules, (uint64_t)gi, NULL), GOITA_OK);
    int16_t sum[4] = {0};
    int expected_dealer = g.draw.dealer;
    for (int rounds = 0;; rounds++) {
      cr_assert_lt(rounds, 2000, "game does not end");
      cr_assert_eq(g.round.dealer, expected_dealer, "dealer succession (%s)", options);
      while (!goita_round_over(&g.round)) {
        goita_move moves[GOITA_MAX_LEGAL];
        const int n = goita_round_legal_moves(&g.round, moves);
        cr_assert_eq(goita_game_apply(&g, moves[goita_rng_below(&rng, (uint32_t)n)], NULL), GOITA_OK);
      }
      const goita_round_result res = g.round.result;
      if (res.end != GOITA_END_REDEAL && !res.wins_game) sum[goita_rules_side_of(&rules, res.winner)] += res.points;
      if (res.wins_game) {
        cr_assert(g.over);
        break;
      }
      for (int s = 0; s < goita_rules_sides(&rules); s++) cr_assert_eq(g.score[s], sum[s]);
      bool reached = false;
      for (int s = 0; s < goita_rules_sides(&rules); s++) reached |= g.score[s] >= rules.target;
      cr_assert_eq(g.over, reached);
      if (g.over) {
        cr_assert_geq(g.score[g.winner_side], rules.target);
        cr_assert_eq(goita_game_next_round(&g, NULL), GOITA_EOVER);
        cr_assert_eq(goita_game_apply(&g, goita_move_pass(0), NULL), GOITA_EOVER);
        break;
      }
      if (res.end == GOITA_END_REDEAL)
        expected_dealer = g.round.dealer;
      else if (rules.next_dealer == GOITA_NEXT_DEALER_ROTATE)
        expected_dealer = (g.round.dealer + 1) % rules.players;
      else
        expected_dealer = res.winner;
      cr_assert_eq(goita_game_next_round(&g, NULL), GOITA_OK);
    }
  }
}

Test(game, random_games_default) { play_games("", 300); }
Test(game, random_games_rotate_low_target) { play_games("next_dealer=rotate,target=60", 300); }
Test(game, random_games_goshi_points) { play_games("double_goshi=points:30,teyaku=off", 300); }
Test(game, random_games_three_players) { play_games("players=3", 200); }
Test(game, random_games_two_players) { play_games("players=2,draw=A1", 200); }

Test(game, seed_reproduces_the_game) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game a, b;
  goita_game_start(&a, &rules, 77, NULL);
  goita_game_start(&b, &rules, 77, NULL);
  cr_expect_eq(memcmp(&a, &b, sizeof a), 0);
}

Test(game, next_round_only_after_round_end) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game g;
  goita_game_start(&g, &rules, 3, NULL);
  if (!goita_round_over(&g.round)) {
    goita_error err;
    cr_expect_eq(goita_game_next_round(&g, &err), GOITA_ESTATE);
    cr_expect(strstr(err.message, "not over") != NULL);
  }
}

Test(game, set_deal_undoes_a_scored_deal) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game g;
  goita_game_start(&g, &rules, 1, NULL);
  const uint8_t teyaku[4][GOITA_MAX_HAND] = {{1, 1, 1, 1, 1, 1, 1, 1}, {1, 2, 3, 4, 5, 6, 7, 8},
                                             {1, 2, 3, 4, 5, 6, 7, 9}, {2, 2, 3, 3, 4, 4, 5, 5}};
  cr_assert_eq(goita_game_set_deal(&g, 0, teyaku, NULL), GOITA_OK);
  cr_expect_eq(g.score[0], 100);
  const uint8_t plain[4][GOITA_MAX_HAND] = {{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 9},
                                            {1, 1, 1, 1, 2, 3, 4, 5}, {1, 1, 1, 1, 2, 3, 4, 5}};
  /* The teyaku round is over with no move, so its deal may still be replaced. */
  cr_assert_eq(goita_game_set_deal(&g, 0, plain, NULL), GOITA_OK);
  cr_expect_eq(g.score[0], 0);
  cr_expect(!g.over);
  cr_assert_eq(goita_game_apply(&g, goita_move_play(0, 1, 3), NULL), GOITA_OK);
  cr_expect_eq(goita_game_set_deal(&g, 0, plain, NULL), GOITA_ESTATE);
}

Test(game, view_carries_scores) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game g;
  goita_game_start(&g, &rules, 1, NULL);
  g.score[1] = 40;
  goita_view v;
  cr_assert_eq(goita_game_view(&g, 2, &v), GOITA_OK);
  cr_expect_eq(v.score[1], 40);
  cr_expect_eq(v.round_index, 1);
}

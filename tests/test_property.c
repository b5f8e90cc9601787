/* Property test: many seeded random games under every option set. Every round ends, hand
 * sizes stay consistent, no piece is created or lost, and scores add up. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

static void check_conservation(const goita_round *r) {
  int count[10] = {0};
  const int h = goita_rules_hand_size(&r->rules);
  for (int s = 0; s < r->players; s++) {
    int in_hand = 0;
    for (int k = 1; k <= 8; k++) {
      in_hand += r->hand[s][k];
      cr_assert_eq((r->held[s] >> k) & 1u, r->hand[s][k] > 0, "held mask");
      if (k <= 7) count[k] += r->hand[s][k];
    }
    cr_assert_eq(in_hand, r->size[s], "size matches the counts");
    cr_assert_eq(r->size[s] + 2 * r->plays[s], h, "two pieces a play");
    cr_assert_eq(__builtin_popcount(r->kings[s]), r->hand[s][GOITA_KING], "physical kings");
    if (r->kings[s] & 1) count[8]++;
    if (r->kings[s] & 2) count[9]++;
    for (int i = 0; i < r->plays[s]; i++) {
      count[r->block_row[s][i]]++;
      count[r->attack_row[s][i]]++;
    }
  }
  for (int i = 0; i < goita_rules_set_aside(&r->rules); i++) count[r->aside[i]]++;
  for (int k = 1; k <= 7; k++) cr_assert_eq(count[k], goita_rules_kind_total(&r->rules, k), "kind %d conserved", k);
  cr_assert_eq(count[8], 1, "王 conserved");
  cr_assert_eq(count[9], 1, "玉 conserved");
}

static void run(const char *options, int games) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, options, NULL), GOITA_OK);
  goita_rng rng;
  goita_rng_seed(&rng, 2024);
  int finishes = 0;
  for (int gi = 0; gi < games; gi++) {
    goita_game g;
    goita_game_start(&g, &rules, (uint64_t)gi * 31 + 7, NULL);
    int total_points = 0;
    for (int rounds = 0;; rounds++) {
      cr_assert_lt(rounds, 1000);
      int moves = 0;
      check_conservation(&g.round);
      while (!goita_round_over(&g.round)) {
        goita_move legal[GOITA_MAX_LEGAL];
        const int n = goita_round_legal_moves(&g.round, legal);
        cr_assert_gt(n, 0, "a round that is not over always has a move");
        cr_assert_eq(goita_game_apply(&g, legal[goita_rng_below(&rng, (uint32_t)n)], NULL), GOITA_OK);
        check_conservation(&g.round);
        cr_assert_lt(++moves, GOITA_MAX_LOG, "round ends within the log bound");
      }
      cr_assert_eq(g.round.nlog, moves);
      const goita_round_result res = g.round.result;
      if (res.end == GOITA_END_FINISH) {
        finishes++;
        cr_assert_eq(g.round.size[res.winner], 0);
        const int last = g.round.attack_row[res.winner][g.round.plays[res.winner] - 1];
        cr_assert_eq(res.points, goita_kind_value(goita_mark_kind(last)) * (res.doubled ? 2 : 1));
      }
      if (!res.wins_game && res.end != GOITA_END_REDEAL) total_points += res.points;
      if (g.over) break;
      cr_assert_eq(goita_game_next_round(&g, NULL), GOITA_OK);
    }
    int sum = 0;
    for (int s = 0; s < goita_rules_sides(&rules); s++) sum += g.score[s];
    if (g.round.result.wins_game)
      cr_assert_geq(sum, total_points);
    else
      cr_assert_eq(sum, total_points, "scores add up");
  }
  cr_expect_gt(finishes, games, "rounds mostly end by a finish");
}

Test(property, default_rules) { run("", 400); }
Test(property, french_edition) { run("teyaku=off,king_attack=a_or_last,next_dealer=rotate", 300); }
Test(property, a_or_b_face_down) { run("king_attack=a_or_b", 300); }
Test(property, face_down_allowed_tokyo) { run("king_face_down=allowed,goshi_both_teams=play_if_both", 300); }
Test(property, goshi_points) { run("double_goshi=points:20", 300); }
Test(property, three_players) { run("players=3", 300); }
Test(property, two_players) { run("players=2", 300); }
Test(property, french_preset) { run("preset=french", 300); }
Test(property, japanese_preset_face_down) { run("preset=japanese,king_face_down=allowed", 300); }
Test(property, holder_and_partner) { run("goshi_decision=holder_and_partner,goshi_both_teams=play_if_both", 300); }
Test(property, three_players_random_aside_pawn_rules) {
  run("players=3,three_player_set_aside=random,teyaku=on,goshi=on", 300);
}
Test(property, two_players_pawn_rules) { run("players=2,teyaku=on,goshi=on", 300); }

#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

/* Every kind pair a seat could name, checked against the generated list: the generator and
 * the checker must agree on every position of many random rounds, under every option. */
Test(round, generator_and_checker_agree) {
  const char *options[] = {"", "king_attack=a_or_last", "king_attack=a_or_b", "king_face_down=allowed",
                           "king_attack=a_or_b,king_face_down=allowed", "players=3", "players=2",
                           "teyaku=off,goshi_both_teams=play_if_both"};
  goita_rng rng;
  goita_rng_seed(&rng, 99);
  long positions = 0;
  for (size_t o = 0; o < sizeof options / sizeof *options; o++) {
    goita_rules rules;
    cr_assert_eq(goita_rules_parse(&rules, options[o], NULL), GOITA_OK);
    for (int game = 0; game < 300; game++) {
      goita_round r;
      goita_round_deal(&r, &rules, game % rules.players, (uint64_t)game * 7919 + o);
      while (!goita_round_over(&r)) {
        goita_move legal[GOITA_MAX_LEGAL];
        const int n = goita_round_legal_moves(&r, legal);
        cr_assert_gt(n, 0);
        int accepted = 0;
        for (int b = 1; b <= 8; b++)
          for (int a = 1; a <= 8; a++) accepted += goita_round_check(&r, goita_move_play(r.turn, b, a), NULL) == GOITA_OK;
        accepted += goita_round_check(&r, goita_move_pass(r.turn), NULL) == GOITA_OK;
        accepted += goita_round_check(&r, goita_move_decide(r.turn, true), NULL) == GOITA_OK;
        accepted += goita_round_check(&r, goita_move_decide(r.turn, false), NULL) == GOITA_OK;
        cr_assert_eq(accepted, n, "checker accepts %d moves, generator lists %d (%s)", accepted, n, options[o]);
        for (int i = 0; i < n; i++)
          for (int j = i + 1; j < n; j++) cr_assert(!goita_move_equal(legal[i], legal[j]), "duplicate move");
        test_random_move(&r, &rng);
        positions++;
      }
    }
  }
  cr_expect_gt(positions, 10000);
}

Test(round, rejected_move_leaves_round_unchanged) {
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1,113");
  goita_round before = r;
  goita_error err;
  cr_expect_eq(goita_round_apply(&r, goita_move_play(1, 4, 1), &err), GOITA_EILLEGAL);
  cr_expect(strstr(err.message, "銀 cannot answer an attack of 馬") != NULL, "%s", err.message);
  cr_expect_eq(goita_round_apply(&r, goita_move_pass(2), &err), GOITA_ETURN);
  cr_expect(strstr(err.message, "seat 2's turn") != NULL, "%s", err.message);
  cr_expect_eq(memcmp(&before, &r, sizeof r), 0);
}

Test(round, physical_kings_are_kept) {
  /* Seat 1 holds both kings; naming 玉 (9) places 玉, naming 王 places 王. */
  goita_round r = test_round("", "11234589,11234567,11234567,11112345,s1,119,2p,3p,4p");
  cr_expect_eq(r.attack_row[0][0], 9);
  cr_expect_eq(r.kings[0], 1u);
  goita_round_apply(&r, goita_move_play(0, 1, 9), NULL); /* only 王 left: 9 falls back to it */
  cr_expect_eq(r.attack_row[0][1], 8);
  cr_expect_eq(r.kings[0], 0u);
}

Test(round, deal_is_seeded_and_complete) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_round a, b;
  goita_round_deal(&a, &rules, 0, 1234);
  goita_round_deal(&b, &rules, 0, 1234);
  cr_expect_eq(memcmp(a.deal, b.deal, sizeof a.deal), 0);
  goita_round_deal(&b, &rules, 0, 1235);
  cr_expect_neq(memcmp(a.deal, b.deal, sizeof a.deal), 0);
  int count[10] = {0};
  for (int s = 0; s < 4; s++)
    for (int i = 0; i < 8; i++) count[a.deal[s][i]]++;
  const int expect[10] = {0, 10, 4, 4, 4, 4, 2, 2, 1, 1};
  for (int m = 1; m <= 9; m++) cr_expect_eq(count[m], expect[m], "mark %d", m);
}

Test(round, two_players_set_eight_aside) {
  goita_rules rules;
  goita_rules_parse(&rules, "players=2", NULL);
  for (uint64_t seed = 0; seed < 50; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, seed);
    int count[10] = {0};
    for (int s = 0; s < 2; s++)
      for (int i = 0; i < 12; i++) count[r.deal[s][i]]++;
    for (int i = 0; i < 8; i++) count[r.aside[i]]++;
    const int expect[10] = {0, 10, 4, 4, 4, 4, 2, 2, 1, 1};
    for (int m = 1; m <= 9; m++) cr_assert_eq(count[m], expect[m], "seed %d mark %d", (int)seed, m);
  }
}

Test(round, setup_rejects_bad_deals) {
  goita_rules rules;
  goita_rules_default(&rules);
  uint8_t hands[4][GOITA_MAX_HAND] = {{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8},
                                      {1, 1, 1, 1, 2, 3, 4, 5}, {1, 1, 1, 1, 2, 3, 4, 5}};
  goita_round r;
  goita_error err;
  cr_expect_eq(goita_round_setup(&r, &rules, 0, (const uint8_t(*)[GOITA_MAX_HAND])hands, &err), GOITA_EDEAL);
  cr_expect(strstr(err.message, "王 too many") != NULL, "%s", err.message);
  cr_expect_eq(err.position, 1);
  hands[1][7] = 9;
  cr_expect_eq(goita_round_setup(&r, &rules, 4, (const uint8_t(*)[GOITA_MAX_HAND])hands, &err), GOITA_EDEAL);
  cr_expect_eq(goita_round_setup(&r, &rules, 0, (const uint8_t(*)[GOITA_MAX_HAND])hands, &err), GOITA_OK);
  hands[0][0] = 0;
  cr_expect_eq(goita_round_setup(&r, &rules, 0, (const uint8_t(*)[GOITA_MAX_HAND])hands, &err), GOITA_EDEAL);
}

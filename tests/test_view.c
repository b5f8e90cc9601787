#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

/* Returns a copy of r in which everything seat cannot see is dealt anew at random: the other
 * hands, the others' face-down pieces and (2 players) the pieces set aside. */
static goita_round reshuffle_unseen(const goita_round *r, int seat, goita_rng *rng) {
  goita_round x = *r;
  uint8_t pool[GOITA_PIECES];
  int n = 0;
  for (int s = 0; s < r->players; s++) {
    if (s == seat) continue;
    for (int k = 1; k <= 7; k++)
      for (int c = 0; c < r->hand[s][k]; c++) pool[n++] = (uint8_t)k;
    if (r->kings[s] & 1) pool[n++] = 8;
    if (r->kings[s] & 2) pool[n++] = 9;
    for (int i = 0; i < r->plays[s]; i++)
      if (r->face_down[s] & (1u << i)) pool[n++] = r->block_row[s][i];
  }
  for (int i = 0; i < goita_rules_set_aside(&r->rules); i++) pool[n++] = r->aside[i];
  goita_rng_shuffle(rng, pool, n);
  int next = 0;
  for (int s = 0; s < r->players; s++) {
    if (s == seat) continue;
    memset(x.hand[s], 0, sizeof x.hand[s]);
    x.held[s] = 0;
    x.kings[s] = 0;
    for (int c = 0; c < r->size[s]; c++) {
      const uint8_t m = pool[next++];
      x.hand[s][goita_mark_kind(m)]++;
      x.held[s] |= (uint16_t)(1u << goita_mark_kind(m));
      if (m == 8) x.kings[s] |= 1;
      if (m == 9) x.kings[s] |= 2;
    }
    int lead = 0;
    for (int i = 0; i < r->plays[s]; i++)
      if (r->face_down[s] & (1u << i)) {
        x.block_row[s][i] = pool[next++];
        /* the log entry of that lead names the same piece */
        for (int j = 0, seen = 0; j < r->nlog; j++)
          if ((r->lead_log >> j & 1) && r->log[j].seat == s && seen++ == lead) x.log[j].block = x.block_row[s][i];
        lead++;
      }
  }
  for (int i = 0; i < goita_rules_set_aside(&r->rules); i++) x.aside[i] = pool[next++];
  x.deal_seed ^= 0x5a5a5a5aULL; /* the seed would reveal the whole deal */
  return x;
}

Test(view, nothing_hidden_leaks) {
  const char *options[] = {"", "players=3", "players=2", "king_face_down=allowed",
                           "players=3,three_player_set_aside=random,goshi=on,teyaku=on",
                           "king_b=dealt,king_face_down=allowed,goshi_decision=holder_and_partner"};
  goita_rng rng;
  goita_rng_seed(&rng, 5);
  int compared = 0;
  for (size_t o = 0; o < sizeof options / sizeof *options; o++) {
    goita_rules rules;
    goita_rules_parse(&rules, options[o], NULL);
    for (int game = 0; game < 200; game++) {
      goita_round r;
      goita_round_deal(&r, &rules, game % rules.players, (uint64_t)game + 1000 * o);
      while (!goita_round_over(&r)) {
        for (int seat = GOITA_OBSERVER; seat < r.players; seat++) {
          const goita_round other = reshuffle_unseen(&r, seat, &rng);
          goita_view a, b;
          goita_round_view(&r, seat, &a);
          goita_round_view(&other, seat, &b);
          cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "view of seat %d depends on hidden pieces", seat);
          compared++;
        }
        test_random_move(&r, &rng);
      }
    }
  }
  cr_expect_gt(compared, 10000);
}

Test(view, own_hand_changes_the_view) {
  /* The control for the test above: a difference the seat can see shows in its view. */
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1,113");
  goita_round x = r;
  x.hand[1][GOITA_PAWN]--;
  x.hand[1][GOITA_LANCE]++;
  goita_view a, b;
  goita_round_view(&r, 1, &a);
  goita_round_view(&x, 1, &b);
  cr_expect_neq(memcmp(&a, &b, sizeof a), 0);
  goita_round_view(&r, 0, &a);
  goita_round_view(&x, 0, &b);
  cr_expect_eq(memcmp(&a, &b, sizeof a), 0);
}

Test(view, face_down_pieces_are_hidden_from_others) {
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1,113,2p,3p,4p");
  goita_view v;
  goita_round_view(&r, 0, &v);
  cr_expect_eq(v.block_row[0][0], 1);
  cr_expect_eq(v.log[0].block, 1);
  cr_expect_eq(v.hand[GOITA_KING], 1);
  goita_round_view(&r, 1, &v);
  cr_expect_eq(v.block_row[0][0], 0);
  cr_expect_eq(v.log[0].block, 0);
  cr_expect_eq(v.attack_row[0][0], 3);
  cr_expect_eq(v.size[0], 6);
  cr_expect_eq(v.hand[GOITA_KING], 1); /* its own 玉 */
  goita_round_view(&r, GOITA_OBSERVER, &v);
  cr_expect_eq(v.block_row[0][0], 0);
  for (int k = 0; k < GOITA_KIND_SLOTS; k++) cr_expect_eq(v.hand[k], 0);
  cr_expect_eq(goita_round_view(&r, 4, &v), GOITA_EINVAL);
}

Test(view, legal_moves_from_the_view_match_the_round) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 11);
  for (int game = 0; game < 300; game++) {
    goita_round r;
    goita_round_deal(&r, &rules, game % 4, (uint64_t)game);
    while (!goita_round_over(&r)) {
      goita_view v;
      goita_round_view(&r, r.turn, &v);
      goita_move a[GOITA_MAX_LEGAL], b[GOITA_MAX_LEGAL];
      const int na = goita_round_legal_moves(&r, a), nb = goita_view_legal_moves(&v, b);
      cr_assert_eq(na, nb);
      cr_assert_eq(memcmp(a, b, sizeof a[0] * (size_t)na), 0);
      goita_round_view(&r, (r.turn + 1) % 4, &v);
      cr_assert_eq(goita_view_legal_moves(&v, b), 0, "a seat not to move has no moves");
      test_random_move(&r, &rng);
    }
  }
}

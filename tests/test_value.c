/* The value network (src/value.h): its inputs, its integer evaluation against a plain one in
 * 64 bits, and that the trained weights value positions as the playouts they learned from do. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../src/player_internal.h"
#include "../src/value.h"
#include "test_support.h"

static int pieces_left(const goita_round *r) {
  int left = 0;
  for (int s = 0; s < r->players; s++) left += r->size[s];
  return left;
}

/* Plays seeded random moves until at most `left` pieces are in hands (or the round ends). */
static goita_round random_position(uint64_t seed, int left) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_round r;
  goita_round_deal(&r, &rules, (int)(seed % 4), goita_seed_mix(seed));
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  while (!goita_round_over(&r) && (r.phase != GOITA_PHASE_PLAY || pieces_left(&r) > left)) test_random_move(&r, &rng);
  return r;
}

/* Inputs are seen from the valued seat: its own hand first, then the next seat's, the
 * partner's and the last's; the turn, the attack and its attacker relative to it. */
Test(value, inputs_are_seen_from_the_valued_seat) {
  /* seat 0 leads 1-2 (a pawn face-down, a lance attack... as marks); seat 1 to answer */
  goita_round r = test_round("", "11123345,11223346,12455789,11114567,s1,112");
  int16_t x[GOITA__VALUE_INPUTS];
  for (int seat = 0; seat < 4; seat++) {
    goita__value_inputs(&r, seat, x);
    for (int q = 0; q < 4; q++) {
      const int s = (seat + q) % 4;
      int size = 0;
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
        cr_assert_eq(x[GOITA__VALUE_COUNTS + 8 * q + k - 1], r.hand[s][k], "seat %d, q %d, kind %d", seat, q, k);
        cr_assert_eq(x[GOITA__VALUE_HOLDS + 8 * q + k - 1], r.hand[s][k] > 0);
        size += r.hand[s][k];
      }
      cr_assert_eq(x[GOITA__VALUE_SIZE + q], size);
      cr_assert_eq(x[GOITA__VALUE_TURN + q], q == (r.turn - seat + 4) % 4);
      cr_assert_eq(x[GOITA__VALUE_ATTACKER + q], q == (r.attacker - seat + 4) % 4);
    }
    for (int k = 0; k < 9; k++) cr_assert_eq(x[GOITA__VALUE_ATTACK + k], k == r.attack);
    cr_assert_eq(x[GOITA__VALUE_PASSES], 0);
  }
  cr_assert_eq(r.turn, 1);
  cr_assert_neq(r.attack, GOITA_NONE);
}

/* The network as its header defines it, in 64 bits and written plainly: the library's
 * evaluation must agree exactly (no sum may overflow its 32 bits). */
static int64_t plain_eval(const goita__value_net *n, const int16_t *x) {
  int64_t h1[GOITA__VALUE_H1], h2[GOITA__VALUE_H2];
  const int64_t clip = (int64_t)GOITA__VALUE_ACT_CLIP << GOITA__VALUE_ACT_SHIFT;
  for (int i = 0; i < GOITA__VALUE_H1; i++) {
    int64_t a = n->b1[i];
    for (int j = 0; j < GOITA__VALUE_INPUTS; j++) a += (int64_t)n->w1[j][i] * x[j];
    a = a > 0 ? a / (1 << (GOITA__VALUE_WEIGHT_SHIFT - GOITA__VALUE_ACT_SHIFT)) : 0;
    h1[i] = a < clip ? a : clip;
  }
  for (int i = 0; i < GOITA__VALUE_H2; i++) {
    int64_t a = n->b2[i];
    for (int j = 0; j < GOITA__VALUE_H1; j++) a += (int64_t)n->w2[j][i] * h1[j];
    a = a > 0 ? a / (1 << GOITA__VALUE_WEIGHT_SHIFT) : 0;
    h2[i] = a < clip ? a : clip;
  }
  int64_t out = n->b3;
  for (int j = 0; j < GOITA__VALUE_H2; j++) out += (int64_t)n->w3[j] * h2[j];
  return out;
}

Test(value, integer_evaluation_agrees_with_a_plain_one) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    const goita_round r = random_position(seed, 21 + (int)(seed % 11));
    if (goita_round_over(&r)) continue;
    for (int seat = 0; seat < 4; seat++) {
      int16_t x[GOITA__VALUE_INPUTS];
      goita__value_inputs(&r, seat, x);
      cr_assert_eq((int64_t)goita__value_eval(&goita__value_net_trained, x), plain_eval(&goita__value_net_trained, x),
                   "seed %llu seat %d", (unsigned long long)seed, seat);
      compared++;
    }
  }
  cr_assert_gt(compared, 1000);
  /* the largest sums the format allows still fit: every weight at its extreme, every input high */
  static goita__value_net extreme;
  for (int j = 0; j < GOITA__VALUE_INPUTS; j++)
    for (int i = 0; i < GOITA__VALUE_H1; i++) extreme.w1[j][i] = INT16_MAX;
  for (int j = 0; j < GOITA__VALUE_H1; j++)
    for (int i = 0; i < GOITA__VALUE_H2; i++) extreme.w2[j][i] = INT16_MAX;
  for (int j = 0; j < GOITA__VALUE_H2; j++) extreme.w3[j] = INT16_MAX;
  int16_t high[GOITA__VALUE_INPUTS];
  for (int j = 0; j < GOITA__VALUE_INPUTS; j++) high[j] = 8;
  cr_assert_eq((int64_t)goita__value_eval(&extreme, high), plain_eval(&extreme, high));
}

/* The trained weights are worth their place: on positions of seeded rounds their values are
 * nearer the mean of many playouts of their labeller (fast, every seat choosing from its own view,
 * to 20 pieces, then the solver: what they learned) than the playouts' overall mean is. */
Test(value, trained_values_follow_the_labellers_playouts) {
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 1u << 20), GOITA_OK);
  goita_player *labeller = NULL;
  cr_assert_eq(goita_player_new(&labeller, "fast", NULL), GOITA_OK);
  enum { POSITIONS = 40, PLAYOUTS = 16 };
  double net[POSITIONS], mean[POSITIONS], all = 0;
  int n = 0;
  goita_rng rng;
  goita_rng_seed(&rng, 5);
  for (uint64_t seed = 1000; n < POSITIONS; seed++) {
    const goita_round r = random_position(seed, 22 + (int)(seed % 9));
    if (goita_round_over(&r) || pieces_left(&r) <= GOITA__VALUE_STOP_PIECES) continue;
    const int seat = (int)(seed % 4);
    int sum = 0;
    for (int t = 0; t < PLAYOUTS; t++) {
      goita_round p = r;
      while (!goita_round_over(&p) && pieces_left(&p) > GOITA__VALUE_STOP_PIECES) {
        goita_view v;
        goita_round_view(&p, p.turn, &v);
        goita_player_seed(labeller, goita_rng_next(&rng));
        goita_move m;
        cr_assert_eq(goita_player_choose(labeller, &v, &m, NULL), GOITA_OK);
        goita_round_apply_unchecked(&p, m);
      }
      if (goita_round_over(&p)) {
        sum += goita__result_for(&p, seat);
      } else {
        goita_solve_result res;
        goita_solve(solver, &p, NULL, &res);
        const bool ours = goita_rules_side_of(&p.rules, p.turn) == goita_rules_side_of(&p.rules, seat);
        sum += ours ? res.value.lower : -res.value.lower;
      }
    }
    mean[n] = (double)sum / PLAYOUTS;
    net[n] = goita__value_points(&goita__value_net_trained, &r, seat);
    all += mean[n];
    n++;
  }
  all /= n;
  double err_net = 0, err_mean = 0;
  for (int i = 0; i < n; i++) {
    err_net += (net[i] - mean[i]) * (net[i] - mean[i]);
    err_mean += (all - mean[i]) * (all - mean[i]);
  }
  cr_assert_lt(err_net, 0.6 * err_mean, "squared error of the network %.1f, of the mean %.1f", err_net / n,
               err_mean / n);
  goita_player_free(labeller);
  goita_solver_free(solver);
}

/* Returns whether two players make the same choices, with the same values, at the first
 * choice of 40 seeded deals under the rules; counts the choices compared. */
static bool same_choices(const char *a_spec, const char *b_spec, const char *rules_text, int *compared) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, rules_text, NULL), GOITA_OK);
  goita_player *a, *b;
  cr_assert_eq(goita_player_new(&a, a_spec, NULL), GOITA_OK);
  cr_assert_eq(goita_player_new(&b, b_spec, NULL), GOITA_OK);
  bool same = true;
  *compared = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, goita_seed_mix(seed));
    if (r.phase != GOITA_PHASE_PLAY) continue;
    goita_view v;
    goita_round_view(&r, r.turn, &v);
    goita_player_info ia, ib;
    goita_move ma, mb;
    goita_player_seed(a, seed);
    goita_player_seed(b, seed);
    cr_assert_eq(goita_player_choose(a, &v, &ma, &ia), GOITA_OK);
    cr_assert_eq(goita_player_choose(b, &v, &mb, &ib), GOITA_OK);
    same = same && goita_move_equal(ma, mb) && memcmp(ia.value, ib.value, sizeof ia.value) == 0;
    ++*compared;
  }
  goita_player_free(a);
  goita_player_free(b);
  return same;
}

/* The value network is used only where it was trained. Under the default rules fast is
 * master's search on 1 ms with the network; under other rules it values by playouts, and fast
 * keeps its playout defaults (reading nothing) for every parameter its spec does not give. */
Test(value, other_rules_value_by_playouts) {
  goita_rules rules;
  goita_rules_default(&rules);
  cr_assert(goita__value_applies(&rules));
  cr_assert_eq(goita_rules_parse(&rules, "king_face_down=allowed", NULL), GOITA_OK);
  cr_assert_not(goita__value_applies(&rules));
  cr_assert_eq(goita_rules_parse(&rules, "players=3", NULL), GOITA_OK);
  cr_assert_not(goita__value_applies(&rules));
  const char *playouts = "fast:solve=16,rollouts=1,prune=20,max_samples=32,infer=0,proposals=1,crn=off,signal=0,"
                         "partner_infer=0,value=playouts";
  int n;
  cr_assert(same_choices("fast", "master:ms=1,tt_mb=1,max_samples=128,value=net", "", &n));
  cr_assert_gt(n, 30);
  cr_assert_not(same_choices("fast", playouts, "", &n), "the network changed nothing");
  cr_assert(same_choices("fast", playouts, "king_attack=a_or_b", &n));
  cr_assert_gt(n, 30);
  cr_assert(same_choices("fast:value=net", "fast:value=playouts", "king_face_down=allowed", &n));
  /* a parameter given holds under the other rules too */
  cr_assert(same_choices("fast:infer=5,prune=10", "master:ms=1,tt_mb=1,max_samples=32,solve=16,rollouts=1,crn=off,"
                         "signal=0,partner_infer=0,infer=5,proposals=1,prune=10", "king_attack=a_or_b", &n));
  cr_assert_not(same_choices("fast:infer=5,prune=10", playouts, "king_attack=a_or_b", &n));
}

/* master values a deal by the mean of its playouts and the network where the network was
 * trained (value=mix), by playouts elsewhere; master_2026_11 keeps playouts. On one deal a
 * move's value is that deal's: the mean of the two values exactly. */
Test(value, master_values_by_the_mean_of_playouts_and_network) {
  int n;
  cr_assert(same_choices("master:ms=3", "master:ms=3,value=mix", "", &n));
  cr_assert_not(same_choices("master:ms=3", "master:ms=3,value=playouts", "", &n), "the network changed nothing");
  cr_assert(same_choices("master:ms=3", "master:ms=3,value=playouts", "king_face_down=allowed", &n));
  cr_assert_gt(n, 30);
  cr_assert(same_choices("master_2026_11:ms=3", "master_2026_11:ms=3,value=playouts", "", &n));
  goita_rules rules;
  goita_rules_default(&rules);
  const char *const specs[3] = {"master:max_samples=1,value=mix", "master:max_samples=1,value=playouts",
                                "master:max_samples=1,value=net"};
  goita_player *p[3];
  for (int k = 0; k < 3; k++) cr_assert_eq(goita_player_new(&p[k], specs[k], NULL), GOITA_OK);
  int checked = 0;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, goita_seed_mix(seed));
    if (r.phase != GOITA_PHASE_PLAY) continue;
    goita_view v;
    goita_round_view(&r, r.turn, &v);
    goita_player_info info[3];
    goita_move m;
    for (int k = 0; k < 3; k++) {
      goita_player_seed(p[k], seed);
      cr_assert_eq(goita_player_choose(p[k], &v, &m, &info[k]), GOITA_OK);
      cr_assert_eq(info[k].samples, 1);
    }
    for (int j = 0; j < info[0].nmoves; j++, checked++)
      cr_assert_float_eq(info[0].value[j], (info[1].value[j] + info[2].value[j]) / 2, 1e-9, "seed %llu move %d: %g, not the mean of %g and %g",
                         (unsigned long long)seed, j, info[0].value[j], info[1].value[j], info[2].value[j]);
  }
  cr_assert_gt(checked, 100);
  for (int k = 0; k < 3; k++) goita_player_free(p[k]);
}

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../src/player_internal.h"
#include "test_support.h"

static goita_player *new_player(const char *spec) {
  goita_player *p = NULL;
  goita_error err;
  cr_assert_eq(goita_player_new(&p, spec, &err), GOITA_OK, "%s: %s", spec, err.message);
  return p;
}

Test(player, specs_are_read_and_written_in_full) {
  goita_player *p = new_player("sampler:samples=12,infer=on");
  cr_assert_str_eq(goita_player_spec(p), "sampler:samples=12,infer=on,solve=24,rollouts=4,policy=rules,temp=0,tt_mb=8,ms=0");
  goita_player_free(p);
  p = new_player("expert:policy=rules");
  cr_assert(strstr(goita_player_spec(p), "expert:") == goita_player_spec(p));
  cr_assert(strstr(goita_player_spec(p), ",policy=rules,"));
  goita_player_free(p);
  p = new_player("RULES");
  cr_assert_str_eq(goita_player_spec(p), "rules");
  goita_player_free(p);
  cr_assert_not_null(goita_player_describe("sampler"));
  cr_assert_null(goita_player_describe("oracle"));
  const char *const *levels = goita_player_levels();
  cr_assert_str_eq(levels[0], "random");
}

/* goita_player_levels' constant list names each level once, as the level itself is named
 * (player.c checks that the counts agree). */
Test(player, the_level_list_names_every_level) {
  const char *const *levels = goita_player_levels();
  for (int i = 0; levels[i]; i++) {
    goita_player *p = new_player(levels[i]);
    cr_assert_str_eq(p->level->name, levels[i]);
    for (int j = 0; j < i; j++) cr_assert_str_neq(levels[j], levels[i]);
    goita_player_free(p);
  }
}

/* A level's spec names every parameter, however long the values: it reads back as itself. */
Test(player, the_longest_spec_reads_back_as_itself) {
  const char *longest = "master:ms=60000,solve=32,rollouts=256,leaf=32,prune=100,temp=100,own_temp=100,tt_mb=1,"
                        "max_samples=65536,infer=20,proposals=64,model=inference,playout=inference,crn=off,signal=100,partner_infer=20,"
                        "value=playouts";
  goita_player *p = new_player(longest);
  cr_assert_str_eq(goita_player_spec(p), longest);
  goita_player *q = new_player(goita_player_spec(p));
  cr_assert_str_eq(goita_player_spec(q), longest);
  goita_player_free(q);
  goita_player_free(p);
}

Test(player, bad_specs_say_what_is_wrong) {
  static const struct {
    const char *spec;
    int status;
    const char *says;
  } cases[] = {
      {"oracle", GOITA_EPARSE, "unknown player level \"oracle\""},
      {"sampler:sample=3", GOITA_EPARSE, "no parameter \"sample\""},
      {"sampler:samples", GOITA_EPARSE, "needs a value"},
      {"sampler:samples=0", GOITA_EVALUE, "samples must be 1-4096"},
      {"sampler:samples=12x", GOITA_EVALUE, "not \"12x\""},
      {"sampler:infer=maybe", GOITA_EVALUE, "parameter infer is off or on, not \"maybe\""},
      {"expert:policy=best", GOITA_EVALUE, "parameter policy is rules or learned, not \"best\""},
      {"random:samples=3", GOITA_EPARSE, "random has no parameter"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    goita_player *p = (goita_player *)0x1;
    goita_error err;
    cr_assert_eq(goita_player_new(&p, cases[i].spec, &err), cases[i].status, "%s", cases[i].spec);
    cr_assert_null(p);
    cr_assert(strstr(err.message, cases[i].says), "%s: \"%s\"", cases[i].spec, err.message);
  }
}

static const char *const levels_under_test[] = {"random", "rules", "sampler:samples=6,rollouts=1",
                                                "sampler:samples=6,rollouts=1,infer=on,solve=16",
                                                "expert:samples=6,rollouts=1", "fast",
                                                "master:ms=2,leaf=16", "master:ms=2,solve=20,prune=0",
                                                "master:ms=2,infer=10,proposals=3",
                                                "master:ms=2,playout=inference,model=learned,crn=off",
                                                "master:ms=2,solve=28", "master:ms=2,signal=0",
                                                "master:ms=2,partner_infer=20", "fast:value=net",
                                                "master:ms=2,value=net", "master:ms=2,value=playouts",
                                                "master_2026_11:ms=2"};

/* Every level, asked at every turn of seeded rounds (5-pawn decisions included), answers with a
 * legal move and reports a value for each legal move when it evaluates them. */
Test(player, every_level_plays_legal_moves) {
  static const char *const rule_sets[] = {"", "king_face_down=allowed,king_attack=a_or_b", "players=2"};
  for (size_t l = 0; l < sizeof levels_under_test / sizeof levels_under_test[0]; l++) {
    goita_player *p = new_player(levels_under_test[l]);
    for (size_t set = 0; set < sizeof rule_sets / sizeof rule_sets[0]; set++) {
      goita_rules rules;
      cr_assert_eq(goita_rules_parse(&rules, rule_sets[set], NULL), GOITA_OK);
      for (int round = 0; round < 6; round++) {
        goita_round r;
        goita_round_deal(&r, &rules, round % rules.players, goita_seed_mix(77 + (uint64_t)round));
        while (!goita_round_over(&r)) {
          goita_view v;
          goita_round_view(&r, r.turn, &v);
          goita_move m;
          goita_player_info info;
          cr_assert_eq(goita_player_choose(p, &v, &m, &info), GOITA_OK);
          goita_error err;
          cr_assert_eq(goita_round_apply(&r, m, &err), GOITA_OK, "%s: %s", levels_under_test[l], err.message);
          cr_assert_gt(info.nmoves, 0);
        }
      }
    }
    /* A 5-pawn decision (seat 1's hand), for the partner, seat 3. */
    goita_round r = test_round("", "11111234,11234567,12345589,11234567,s1");
    goita_view v;
    goita_round_view(&r, r.turn, &v);
    goita_move m;
    cr_assert_eq(goita_player_choose(p, &v, &m, NULL), GOITA_OK);
    cr_assert(m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO);
    goita_player_free(p);
  }
}

Test(player, refuses_views_it_cannot_play) {
  goita_player *p = new_player("rules");
  goita_round r = test_round("", "12345678,12345679,11112345,11112345,s1");
  goita_view v;
  goita_move m;
  goita_round_view(&r, 1, &v);
  cr_assert_eq(goita_player_choose(p, &v, &m, NULL), GOITA_ETURN);
  goita_round_view(&r, GOITA_OBSERVER, &v);
  cr_assert_eq(goita_player_choose(p, &v, &m, NULL), GOITA_ETURN);
  r = test_round("", "12345678,12345679,11112345,11112345,s1,112,2p,3p,4p,134,2p,3p,4p,156,2p,3p,4p,178");
  goita_round_view(&r, 0, &v);
  cr_assert_eq(goita_player_choose(p, &v, &m, NULL), GOITA_EOVER);
  goita_player_free(p);
}

/* Hidden information: two full states that differ only in what the seat to move cannot see
 * (the others' hands and face-down pieces, dealt anew by the sampler) get the same move from
 * every level, from a fresh player and from one that has played before. */
Test(player, same_move_from_states_that_look_the_same) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng, other;
  goita_rng_seed(&rng, 3);
  goita_rng_seed(&other, 4);
  for (size_t l = 0; l < sizeof levels_under_test / sizeof levels_under_test[0]; l++) {
    goita_player *used = new_player(levels_under_test[l]);
    goita_player_seed(used, 99);
    int compared = 0;
    for (int round = 0; round < 8; round++) {
      goita_round r;
      goita_round_deal(&r, &rules, round % 4, goita_seed_mix(500 + (uint64_t)round));
      while (!goita_round_over(&r)) {
        goita_view v;
        goita_round_view(&r, r.turn, &v);
        goita_round twin;
        cr_assert_eq(goita_view_sample(&v, &other, &twin, NULL), GOITA_OK);
        goita_view tv;
        goita_round_view(&twin, twin.turn, &tv);
        cr_assert(goita_view_same(&v, &tv));
        if (memcmp(twin.deal, r.deal, sizeof r.deal) != 0) {
          goita_player *fresh = new_player(levels_under_test[l]);
          goita_player_seed(fresh, 99);
          goita_move a, b, c;
          cr_assert_eq(goita_player_choose(fresh, &v, &a, NULL), GOITA_OK);
          cr_assert_eq(goita_player_choose(used, &tv, &b, NULL), GOITA_OK);
          cr_assert_eq(goita_player_choose(used, &v, &c, NULL), GOITA_OK);
          cr_assert(goita_move_equal(a, b) && goita_move_equal(a, c), "%s: another move after the hidden pieces changed",
                    levels_under_test[l]);
          goita_player_free(fresh);
          compared++;
        }
        test_random_move(&r, &rng);
      }
    }
    cr_assert_gt(compared, 50);
    goita_player_free(used);
  }
}

/* Returns the rules player's move at the end of a history, for the seat to move. */
static goita_move rules_move(const char *history) {
  goita_round r = test_round("", history);
  goita_view v;
  goita_round_view(&r, r.turn, &v);
  goita_player *p = new_player("rules");
  goita_move m;
  cr_assert_eq(goita_player_choose(p, &v, &m, NULL), GOITA_OK);
  goita_player_free(p);
  return m;
}

/* The rule-based player plays like a sensible human in plain cases. */
Test(player, rules_player_plays_sensibly) {
  const char *deal = "11123345,11223346,12455789,11114567";
  char history[160];
  /* It answers an opponent's attack it can answer. */
  snprintf(history, sizeof history, "%s,s1,112", deal);
  goita_move m = rules_move(history);
  cr_assert(m.type == GOITA_MOVE_PLAY && m.block == 2);
  /* It leaves its partner's attack alone early in the round. */
  snprintf(history, sizeof history, "%s,s1,112,2p", deal);
  cr_assert_eq(rules_move(history).type, GOITA_MOVE_PASS);
  /* It finishes with the stronger piece as the last attack (gold 30 rather than knight 20). */
  snprintf(history, sizeof history, "%s,s1,112,2p,3p,4p,113,2p,3p,4p,114,2p,3p,4p", deal);
  m = rules_move(history);
  cr_assert(m.block == 3 && m.attack == 5, "got %d%d", m.block, m.attack);
  /* It keeps its kings for defence rather than attacking with them at the first lead. */
  snprintf(history, sizeof history, "%s,s3", deal);
  m = rules_move(history);
  cr_assert(m.attack != 8 && m.attack != 9 && m.block != 7, "got %d%d", m.block, m.attack);
}

/* The sampling player values its moves: late in a round (solved exactly in each deal) and
 * early (played out), it picks a move of the best average value it reports. */
Test(player, sampler_picks_the_best_average) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 8);
  goita_player *p = new_player("sampler:samples=8");
  int checked = 0;
  for (uint64_t seed = 1; checked < 20; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, seed);
    while (!goita_round_over(&r)) {
      goita_move legal[GOITA_MAX_LEGAL];
      if (goita_round_legal_moves(&r, legal) >= 3 && r.phase == GOITA_PHASE_PLAY) {
        goita_view v;
        goita_round_view(&r, r.turn, &v);
        goita_move m;
        goita_player_info info;
        cr_assert_eq(goita_player_choose(p, &v, &m, &info), GOITA_OK);
        cr_assert(info.has_values);
        cr_assert_eq(info.samples, 8);
        double best = -1e9, chosen = -1e9;
        for (int i = 0; i < info.nmoves; i++) {
          if (info.value[i] > best) best = info.value[i];
          if (goita_move_equal(info.moves[i], m)) chosen = info.value[i];
        }
        cr_assert_float_eq(chosen, best, 1e-9);
        checked++;
      }
      test_random_move(&r, &rng);
    }
  }
  goita_player_free(p);
}

/* Playing to be read: with `signal`, master gives up at most that much of the best move's
 * value for the move its partner's model expects most from its hand. The search is the same
 * with and without (the pick at the end draws no random number), so the two choices compare on
 * the same values. */
Test(player, master_signals_within_its_margin) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 12);
  goita_player *plain = new_player("master:ms=3,prune=0,signal=0"), *signal = new_player("master:ms=3,prune=0,signal=5");
  int checked = 0, changed = 0;
  for (uint64_t seed = 1; checked < 150; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, seed);
    while (!goita_round_over(&r)) {
      goita_move legal[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, legal);
      if (n >= 3 && r.phase == GOITA_PHASE_PLAY) {
        goita_view v;
        goita_round_view(&r, r.turn, &v);
        goita_move a, b;
        goita_player_info ia, ib;
        goita_player_seed(plain, seed + (uint64_t)r.nlog);
        goita_player_seed(signal, seed + (uint64_t)r.nlog);
        cr_assert_eq(goita_player_choose(plain, &v, &a, &ia), GOITA_OK);
        cr_assert_eq(goita_player_choose(signal, &v, &b, &ib), GOITA_OK);
        double likely[GOITA_MAX_LEGAL], value_a = 0, value_b = 0, likely_a = 0, likely_b = 0;
        goita__policy_scores(&goita__inference_policy, &v, ia.moves, ia.nmoves, likely);
        for (int i = 0; i < ia.nmoves; i++) {
          cr_assert_float_eq(ia.value[i], ib.value[i], 1e-12, "the search differs with signal");
          if (goita_move_equal(ia.moves[i], a)) value_a = ia.value[i], likely_a = likely[i];
          if (goita_move_equal(ia.moves[i], b)) value_b = ia.value[i], likely_b = likely[i];
        }
        cr_assert_geq(value_b, value_a - 0.5 - 1e-9, "gave up %g points for the signal", value_a - value_b);
        cr_assert_geq(likely_b, likely_a, "the signal is a move the partner expects less");
        changed += !goita_move_equal(a, b);
        checked++;
      }
      test_random_move(&r, &rng);
    }
  }
  cr_assert_gt(changed, 5, "the signal changed %d moves of %d", changed, checked);
  goita_player_free(plain);
  goita_player_free(signal);
}

/* Two rounds that differ only in who holds two lances: seat 0 leads a lance and seat 1 passes
 * on it, holding two lances in a and none in b (seat 3 holds them there). */
static void parse_lance_pass(goita_round *a, goita_round *b) {
  static const char *const with_lances = "11123345,11223346,12455789,11114567,s1,112,2p";
  static const char *const without = "11123345,11113346,12455789,11224567,s1,112,2p";
  goita_rules rules;
  goita_rules_default(&rules);
  goita_error err;
  cr_assert_eq(goita_history_parse(a, &rules, with_lances, &err), GOITA_OK, "%s", err.message);
  cr_assert_eq(goita_history_parse(b, &rules, without, &err), GOITA_OK, "%s", err.message);
}

/* Inference reads a pass: an opponent who passed on a lance while holding two is less likely,
 * under the learned policy, than the same pass from a hand with no lance (which had to pass),
 * and a deal's likelihood counts only the others' moves, never the viewer's own. */
Test(player, inference_reads_a_pass) {
  goita_round a, b;
  parse_lance_pass(&a, &b);
  /* both models of the others' play: the playout policy and the fitted inference model */
  const goita__policy *const models[] = {&goita__learned_policy, &goita__inference_policy};
  for (int m = 0; m < 2; m++) {
    uint64_t work = 0;
    const double ll_a = goita__log_likelihood(models[m], &a, 0, &work, NULL);
    const double ll_b = goita__log_likelihood(models[m], &b, 0, &work, NULL);
    cr_assert(ll_a < ll_b - 0.1, "model %d: a pass holding two lances: %g, with none: %g", m, ll_a, ll_b);
    cr_assert_gt(work, 0);
    /* seen from seat 2, the pass is the viewer's own and says nothing; seat 1's lead had choices */
    cr_assert_float_eq(goita__log_likelihood(models[m], &a, 1, &work, NULL), goita__log_likelihood(models[m], &b, 1, &work, NULL),
                       1e-12);
  }
}

/* The partner's part of a deal's likelihood is its partner's moves alone, and master weighs it
 * by a power of its own: seen from seat 3, the pass of seat 1 (its partner) on a lance is less
 * likely from a hand holding two lances, seat 0's lead is the same in both deals, and reading the
 * partner's moves makes seat 3 believe less that its partner holds a lance. */
Test(player, partner_moves_read_with_a_power_of_their_own) {
  goita_round a, b;
  parse_lance_pass(&a, &b);
  uint64_t work = 0;
  double partner_a, partner_b;
  const double all_a = goita__log_likelihood(&goita__inference_policy, &a, 3, &work, &partner_a);
  const double all_b = goita__log_likelihood(&goita__inference_policy, &b, 3, &work, &partner_b);
  cr_assert(partner_a < partner_b - 0.1, "the partner's pass holding two lances: %g, with none: %g", partner_a, partner_b);
  cr_assert_float_eq(all_a - partner_a, all_b - partner_b, 1e-12, "the opponent's lead differs between the deals");
  double partner_seen_from_0;
  goita__log_likelihood(&goita__inference_policy, &a, 0, &work, &partner_seen_from_0);
  cr_assert_float_eq(partner_seen_from_0, 0, 1e-12, "seat 0's partner made no move");

  goita_view v;
  goita_round_view(&a, 3, &v);
  double held[2][GOITA_MAX_SEATS][GOITA_KIND_SLOTS];
  const char *const specs[2] = {"master:infer=1,partner_infer=0", "master:infer=1,partner_infer=20"};
  for (int i = 0; i < 2; i++) {
    goita_player *p = new_player(specs[i]);
    goita_player_seed(p, 5);
    cr_assert_eq(goita__budgeted_beliefs(p, &v, 1024, held[i]), GOITA_OK);
    goita_player_free(p);
  }
  cr_assert_lt(held[1][1][GOITA_LANCE], held[0][1][GOITA_LANCE] - 0.05,
               "the partner's pass on a lance read: %g, not read: %g", held[1][1][GOITA_LANCE], held[0][1][GOITA_LANCE]);
}

/* master believes an opponent's moves as fully as its partner's (infer=10, the power 1): a
 * master opponent plays to be read by its own partner. Seen from seat 2, the pass of seat 1 (an
 * opponent) on a lance says it holds none; master reads it as master:infer=10 does and more
 * sharply than at the power 0.5 of before (master_2026_11 keeps 0.5). */
Test(player, master_reads_the_opponents_as_its_partner) {
  goita_round a, b;
  parse_lance_pass(&a, &b);
  goita_view v;
  goita_round_view(&a, 2, &v);
  const char *const specs[3] = {"master", "master:infer=10", "master:infer=5"};
  double held[3][GOITA_MAX_SEATS][GOITA_KIND_SLOTS];
  for (int i = 0; i < 3; i++) {
    goita_player *p = new_player(specs[i]);
    goita_player_seed(p, 5);
    cr_assert_eq(goita__budgeted_beliefs(p, &v, 1024, held[i]), GOITA_OK);
    goita_player_free(p);
  }
  cr_assert_float_eq(held[0][1][GOITA_LANCE], held[1][1][GOITA_LANCE], 1e-12);
  cr_assert_lt(held[0][1][GOITA_LANCE], held[2][1][GOITA_LANCE] - 0.02,
               "the opponent's pass on a lance read by master: %g, at the power 0.5: %g", held[0][1][GOITA_LANCE],
               held[2][1][GOITA_LANCE]);
  goita_player *old = new_player("master_2026_11");
  cr_assert(strstr(goita_player_spec(old), ",infer=5,"), "%s", goita_player_spec(old));
  goita_player_free(old);
}

/* The likelihood seat by seat (what master's memo keeps): the seats' parts add up to the whole
 * and to the partner's part, and a seat's part is the same in every deal that deals it the same
 * hand and has it place the same pieces face-down, whatever the others hold. (The hand alone is
 * not enough: a sample chooses which of its pieces a seat placed face-down.) */
Test(player, a_seats_likelihood_depends_on_its_own_hand_and_face_down_pieces_alone) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 23);
  goita_round r;
  cr_assert_eq(goita_round_deal(&r, &rules, 1, 77), GOITA_OK);
  while (r.phase != GOITA_PHASE_PLAY) {
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_round_legal_moves(&r, moves);
    goita_round_apply_unchecked(&r, moves[n - 1]);
  }
  for (int i = 0; i < 16 && !goita_round_over(&r); i++) {
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_round_legal_moves(&r, moves);
    goita_round_apply_unchecked(&r, moves[goita_rng_next(&rng) % (uint64_t)n]);
  }
  goita_view v;
  goita_round_view(&r, 0, &v);
  enum { DEALS = 300 };
  static goita_round deals[DEALS];
  static double parts[DEALS][GOITA_MAX_SEATS];
  int same_hand_pairs = 0;
  for (int d = 0; d < DEALS; d++) {
    cr_assert_eq(goita_view_sample(&v, &rng, &deals[d], NULL), GOITA_OK);
    uint64_t work_whole = 0, work_parts = 0;
    double partner;
    const double whole = goita__log_likelihood(&goita__inference_policy, &deals[d], 0, &work_whole, &partner);
    goita__log_likelihood_seats(&goita__inference_policy, &deals[d], 0xe, &work_parts, parts[d]);
    cr_assert_float_eq(parts[d][1] + parts[d][2] + parts[d][3], whole, 1e-9);
    cr_assert_float_eq(parts[d][2], partner, 1e-9);
    cr_assert_eq(work_parts, work_whole);
    for (int e = 0; e < d; e++)
      for (int s = 1; s < 4; s++) {
        if (memcmp(deals[e].deal[s], deals[d].deal[s], GOITA_MAX_HAND) != 0 ||
            memcmp(deals[e].block_row[s], deals[d].block_row[s], deals[d].plays[s]) != 0)
          continue;
        same_hand_pairs++;
        cr_assert_float_eq(parts[e][s], parts[d][s], 1e-12, "seat %d dealt the same hand in deals %d and %d", s, e, d);
      }
  }
  cr_assert_gt(same_hand_pairs, 0, "no two deals dealt a seat the same hand");
}

/* A policy's scores are its weights times the features the trainer fits them to: scoring adds
 * the hand blocks itself (without filling their features) and skips the inference model's own
 * features for a policy that weighs none, and neither may change a score. */
Test(player, policy_scores_are_weights_times_features) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 11);
  const goita__policy *const models[] = {&goita__learned_policy, &goita__inference_policy, &goita__rules_policy};
  int checked = 0, blocks_weighed = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, 0, seed);
    while (!goita_round_over(&r)) {
      goita_move legal[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, legal);
      goita_view v;
      goita_round_view(&r, r.turn, &v);
      double f[GOITA_MAX_LEGAL][GOITA__FEATURES], scores[GOITA_MAX_LEGAL];
      goita__policy_features(&v, legal, n, f);
      for (int m = 0; m < 3; m++) {
        goita__policy_scores(models[m], &v, legal, n, scores);
        for (int i = 0; i < n; i++) {
          double expected = 0;
          for (int k = 0; k < GOITA__FEATURES; k++) expected += models[m]->weight[k] * f[i][k];
          cr_assert_float_eq(scores[i], expected, 1e-9, "model %d, move %d: %g, weights times features %g", m, i,
                             scores[i], expected);
          for (int k = F_ATTACK_X_HAND; k < GOITA__FEATURES && m == 1; k++) blocks_weighed += f[i][k] != 0;
          checked++;
        }
      }
      test_random_move(&r, &rng);
    }
  }
  cr_assert_gt(checked, 1000);
  cr_assert_gt(blocks_weighed, 100, "the hand blocks were never weighed");
}

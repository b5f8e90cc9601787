/* The observation encoding (goita/observation.h) and the batched environment (goita/batch.h). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

/* ---- Actions and observations ---- */

Test(observation, every_action_is_one_move_and_back) {
  for (int seat = 0; seat < 4; seat++)
    for (int a = 0; a < GOITA_NUM_ACTIONS; a++) {
      goita_move m;
      cr_assert_eq(goita_action_move(a, seat, &m), GOITA_OK);
      cr_assert_eq(m.seat, seat);
      cr_assert_eq(goita_move_action(m), a, "action %d came back as %d", a, goita_move_action(m));
    }
  /* 玉 (mark 9) is the king kind's action too */
  cr_assert_eq(goita_move_action(goita_move_play(0, 9, 9)), goita_move_action(goita_move_play(0, 8, 8)));
  goita_move m;
  cr_assert_eq(goita_action_move(GOITA_NUM_ACTIONS, 0, &m), GOITA_EINVAL);
  cr_assert_eq(goita_action_move(-1, 0, &m), GOITA_EINVAL);
  cr_assert_eq(goita_move_action(goita_move_play(0, 0, 3)), GOITA_EINVAL);
  cr_assert_eq(goita_move_action((goita_move){7, 0, 0, 0}), GOITA_EINVAL);
}

/* Plays n random moves of a seeded game (never ending the round). */
static void play_some(goita_game *g, const char *rules_text, uint64_t seed, int n) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, rules_text, NULL), GOITA_OK);
  cr_assert_eq(goita_game_start(g, &rules, seed, NULL), GOITA_OK);
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  goita_move legal[GOITA_MAX_LEGAL];
  for (int i = 0; i < n && !goita_round_over(&g->round); i++) {
    goita_round probe = g->round;
    const goita_move m = test_random_move(&probe, &rng);
    if (goita_round_over(&probe)) break;
    cr_assert_eq(goita_game_apply(g, m, NULL), GOITA_OK);
  }
  cr_assert_gt(goita_round_legal_moves(&g->round, legal), 0);
}

Test(observation, seats_count_from_the_viewer) {
  for (int players = 2; players <= 4; players++) {
    char text[32];
    snprintf(text, sizeof text, "players=%d", players);
    for (uint64_t seed = 1; seed <= 20; seed++) {
      goita_game g;
      play_some(&g, text, seed, (int)(seed % 13));
      g.score[0] = 37;
      g.score[1] = 2600; /* capped at 255 tens */
      for (int seat = 0; seat < players; seat++) {
        goita_view v;
        uint8_t obs[GOITA_OBS_SIZE];
        cr_assert_eq(goita_game_view(&g, seat, &v), GOITA_OK);
        cr_assert_eq(goita_view_observe(&v, obs), GOITA_OK);
        cr_assert_eq(memcmp(obs, &v.hand[1], 8), 0);
        cr_assert_eq(obs[8], v.kings);
        for (int r = 0; r < 4; r++) {
          const int s = (seat + r) % players;
          const bool here = r < players;
          cr_assert_eq(obs[9 + r], here ? v.size[s] : 0, "players %d seat %d r %d", players, seat, r);
          cr_assert_eq(obs[13 + r], here ? v.plays[s] : 0);
          cr_assert_eq(memcmp(obs + 17 + 6 * r, v.block_row[s], 6) == 0 || !here, true);
          cr_assert_eq(memcmp(obs + 41 + 6 * r, v.attack_row[s], 6) == 0 || !here, true);
          cr_assert_eq(obs[65 + r], here ? v.face_down[s] : 0);
          cr_assert_eq(obs[73 + r], here ? __builtin_popcount(v.face_down[s]) : 0);
        }
        cr_assert_eq(obs[69], v.attack);
        cr_assert_eq(obs[71], v.phase);
        cr_assert_eq(obs[77], (v.turn - seat + players) % players);
        cr_assert_eq(obs[78], v.attacker < 0 ? 255 : (v.attacker - seat + players) % players);
        cr_assert_eq(obs[79], (v.dealer - seat + players) % players);
        const int own = goita_rules_side_of(&g.rules, seat);
        cr_assert_eq(obs[84], own == 0 ? 3 : own == 1 ? 255 : 0, "players %d seat %d", players, seat);
      }
      goita_view v;
      uint8_t obs[GOITA_OBS_SIZE];
      goita_game_view(&g, GOITA_OBSERVER, &v);
      cr_assert_eq(goita_view_observe(&v, obs), GOITA_EINVAL);
    }
  }
}

Test(observation, seat_sets_turn_with_the_viewer) {
  goita_view v;
  memset(&v, 0, sizeof v);
  goita_rules_default(&v.rules);
  v.players = 4;
  v.seat = 2;
  v.goshi = 1u << 3;        /* seat 3 is next after 2: relative 1 */
  v.redeal_votes = 1u << 0; /* seat 0: relative 2 */
  v.go_votes = 1u << 1;     /* seat 1: relative 3 */
  v.deciders = 1u << 2;     /* the viewer */
  uint8_t obs[GOITA_OBS_SIZE];
  cr_assert_eq(goita_view_observe(&v, obs), GOITA_OK);
  cr_assert_eq(obs[80], 1u << 1);
  cr_assert_eq(obs[81], 1u << 0);
  cr_assert_eq(obs[82], 1u << 2);
  cr_assert_eq(obs[83], 1u << 3);
}

/* ---- The batch ---- */

/* A batch with its arrays. */
typedef struct arrays {
  uint8_t obs[64][GOITA_OBS_SIZE];
  uint8_t mask[64][GOITA_NUM_ACTIONS];
  float rewards[64][GOITA_MAX_SEATS];
  uint8_t terminated[64];
  int8_t seat[64];
} arrays;

static goita_batch *make_batch(arrays *a, int n, goita_batch_episode episode, const char *rules_text) {
  goita_batch_options o;
  goita_batch_options_default(&o);
  cr_assert_eq(goita_rules_parse(&o.rules, rules_text, NULL), GOITA_OK);
  o.episode = episode;
  const goita_batch_arrays view = {a->obs[0], a->mask[0], a->rewards[0], a->terminated, a->seat};
  goita_batch *b = NULL;
  goita_error err = {0};
  cr_assert_eq(goita_batch_new(&b, &o, n, &view, &err), GOITA_OK, "%s", err.message);
  cr_assert_eq(goita_batch_size(b), n);
  return b;
}

/* Every row shows game i as the game itself says: its seat to move, that seat's observation
 * and its legal moves. */
static void check_rows(const goita_batch *b, const arrays *a, int n) {
  for (int i = 0; i < n; i++) {
    const goita_game *g = goita_batch_game(b, i);
    cr_assert(!goita_round_over(&g->round), "game %d shows a round that is over", i);
    cr_assert_eq(a->seat[i], g->round.turn);
    goita_view v;
    uint8_t obs[GOITA_OBS_SIZE];
    goita_game_view(g, g->round.turn, &v);
    goita_view_observe(&v, obs);
    cr_assert_eq(memcmp(obs, a->obs[i], GOITA_OBS_SIZE), 0, "game %d: observation differs", i);
    goita_move legal[GOITA_MAX_LEGAL];
    const int nlegal = goita_round_legal_moves(&g->round, legal);
    uint8_t mask[GOITA_NUM_ACTIONS] = {0};
    for (int k = 0; k < nlegal; k++) mask[goita_move_action(legal[k])] = 1;
    cr_assert_eq(memcmp(mask, a->mask[i], GOITA_NUM_ACTIONS), 0, "game %d: mask differs", i);
  }
}

Test(batch, rows_show_each_game_and_rounds_pay_zero_sum_rewards) {
  const char *rule_sets[] = {"", "players=3", "players=2", "king_face_down=allowed,goshi_decision=holder_and_partner"};
  for (size_t r = 0; r < sizeof rule_sets / sizeof *rule_sets; r++) {
    arrays a;
    const int n = 16;
    goita_batch *b = make_batch(&a, n, GOITA_BATCH_ROUND, rule_sets[r]);
    uint64_t seeds[16];
    for (int i = 0; i < n; i++) seeds[i] = 100 + (uint64_t)i;
    cr_assert_eq(goita_batch_reset(b, seeds, NULL), GOITA_OK);
    check_rows(b, &a, n);
    int episodes = 0, paid = 0;
    for (int step = 0; step < 300; step++) {
      int32_t actions[16];
      cr_assert_eq(goita_batch_step_random(b, actions), GOITA_OK);
      check_rows(b, &a, n);
      for (int i = 0; i < n; i++) {
        float sum = 0, size = 0;
        for (int s = 0; s < GOITA_MAX_SEATS; s++) sum += a.rewards[i][s], size += fabsf(a.rewards[i][s]);
        cr_assert_lt(fabsf(sum), 1e-4f, "rules \"%s\" game %d: rewards sum to %f", rule_sets[r], i, (double)sum);
        cr_assert(a.terminated[i] || size == 0, "a reward without the round's end");
        episodes += a.terminated[i];
        paid += size > 0;
        /* a new episode starts at its deal */
        if (a.terminated[i]) cr_assert_eq(goita_batch_game(b, i)->round.nlog, 0);
      }
    }
    cr_assert_gt(episodes, n * 300 / 25, "rules \"%s\": only %d episodes", rule_sets[r], episodes);
    cr_assert_gt(paid, episodes / 2);
    goita_batch_free(b);
  }
}

/* What a seat is shown depends on what it may know only: for the seat to move in every game,
 * the pieces it cannot see are dealt again (goita_view_sample), and the observation and mask
 * of the redealt game must be the row the batch wrote. */
Test(batch, rows_reveal_nothing_the_seat_cannot_see) {
  arrays a;
  const int n = 8;
  goita_batch *b = make_batch(&a, n, GOITA_BATCH_GAME, "king_face_down=allowed");
  uint64_t seeds[8];
  for (int i = 0; i < n; i++) seeds[i] = 900 + (uint64_t)i;
  goita_batch_reset(b, seeds, NULL);
  goita_rng rng;
  goita_rng_seed(&rng, 3);
  int redealt = 0;
  for (int step = 0; step < 120; step++) {
    for (int i = 0; i < n; i++) {
      const goita_game *g = goita_batch_game(b, i);
      const int seat = g->round.turn;
      goita_view view;
      goita_game_view(g, seat, &view);
      goita_game other = *g;
      cr_assert_eq(goita_view_sample(&view, &rng, &other.round, NULL), GOITA_OK);
      redealt += memcmp(other.round.hand, g->round.hand, sizeof g->round.hand) != 0;
      goita_view other_view;
      goita_game_view(&other, seat, &other_view);
      uint8_t obs[GOITA_OBS_SIZE];
      goita_view_observe(&other_view, obs);
      cr_assert_eq(memcmp(obs, a.obs[i], GOITA_OBS_SIZE), 0, "game %d step %d: the observation shows hidden pieces", i, step);
      goita_move legal[GOITA_MAX_LEGAL];
      const int nlegal = goita_view_legal_moves(&other_view, legal);
      uint8_t mask[GOITA_NUM_ACTIONS] = {0};
      for (int k = 0; k < nlegal; k++) mask[goita_move_action(legal[k])] = 1;
      cr_assert_eq(memcmp(mask, a.mask[i], GOITA_NUM_ACTIONS), 0, "game %d step %d: the mask shows hidden pieces", i, step);
    }
    goita_batch_step_random(b, NULL);
  }
  cr_assert_gt(redealt, 120 * n / 2, "the hidden pieces were rarely dealt differently (%d)", redealt);
  goita_batch_free(b);
}

Test(batch, each_game_follows_its_own_seed_and_actions_replay_it) {
  arrays a, b2, c;
  goita_batch *ba = make_batch(&a, 3, GOITA_BATCH_ROUND, "");
  goita_batch *bb = make_batch(&b2, 2, GOITA_BATCH_ROUND, "");
  goita_batch *bc = make_batch(&c, 3, GOITA_BATCH_ROUND, "");
  const uint64_t sa[3] = {5, 6, 7}, sb[2] = {7, 5};
  goita_batch_reset(ba, sa, NULL);
  goita_batch_reset(bb, sb, NULL);
  goita_batch_reset(bc, sa, NULL);
  int first_seeds = 0;
  for (int i = 0; i < 3; i++) first_seeds += goita_batch_game(ba, i)->seed == sa[i];
  cr_assert_geq(first_seeds, 2, "the first episodes should use the seeds given");
  for (int step = 0; step < 400; step++) {
    int32_t actions[3];
    goita_batch_step_random(ba, actions);
    goita_batch_step_random(bb, NULL);
    cr_assert_eq(goita_batch_step(bc, actions, NULL), GOITA_OK);
    /* game 2 of ba is game 0 of bb (seed 7), game 0 of ba is game 1 of bb (seed 5) */
    cr_assert_eq(memcmp(a.obs[2], b2.obs[0], GOITA_OBS_SIZE), 0, "step %d", step);
    cr_assert_eq(memcmp(a.obs[0], b2.obs[1], GOITA_OBS_SIZE), 0, "step %d", step);
    cr_assert_eq(memcmp(a.rewards[2], b2.rewards[0], sizeof a.rewards[2]), 0);
    cr_assert_eq(a.terminated[2], b2.terminated[0]);
    /* the actions drawn, passed back by goita_batch_step, make the same games */
    cr_assert_eq(memcmp(a.obs, c.obs, sizeof a.obs[0] * 3), 0, "step %d", step);
    cr_assert_eq(memcmp(a.mask, c.mask, sizeof a.mask[0] * 3), 0);
    cr_assert_eq(memcmp(a.rewards, c.rewards, sizeof a.rewards[0] * 3), 0);
    cr_assert_eq(memcmp(a.terminated, c.terminated, 3), 0);
  }
  cr_assert_neq(memcmp(a.obs[0], a.obs[1], GOITA_OBS_SIZE), 0);
  goita_batch_free(ba);
  goita_batch_free(bb);
  goita_batch_free(bc);
}

Test(batch, a_wrong_action_or_call_changes_nothing) {
  arrays a, before;
  goita_batch *b = make_batch(&a, 4, GOITA_BATCH_ROUND, "");
  int32_t actions[4] = {0, 0, 0, 0};
  goita_error err = {0};
  cr_assert_eq(goita_batch_step(b, actions, &err), GOITA_ESTATE);
  cr_assert_eq(goita_batch_step_random(b, NULL), GOITA_ESTATE);
  cr_assert_null(goita_batch_game(b, 0));
  const uint64_t seeds[4] = {1, 2, 3, 4};
  goita_batch_reset(b, seeds, NULL);
  goita_batch_step_random(b, NULL);
  goita_game games[4];
  for (int i = 0; i < 4; i++) {
    games[i] = *goita_batch_game(b, i);
    for (int k = 0; k < GOITA_NUM_ACTIONS; k++)
      if (a.mask[i][k]) actions[i] = k;
  }
  int illegal = 0;
  while (a.mask[2][illegal]) illegal++;
  const int32_t wrong[] = {illegal, -1, GOITA_NUM_ACTIONS};
  for (size_t w = 0; w < sizeof wrong / sizeof *wrong; w++) {
    int32_t bad[4];
    memcpy(bad, actions, sizeof bad);
    bad[2] = wrong[w];
    /* the caller's mask is theirs to write: the batch checks its own list */
    memset(a.mask[2], 1, GOITA_NUM_ACTIONS);
    memcpy(&before, &a, sizeof a);
    cr_assert_eq(goita_batch_step(b, bad, &err), GOITA_EILLEGAL);
    cr_assert_eq(err.position, 2);
    cr_assert(strstr(err.message, "game 2"), "%s", err.message);
    cr_assert_eq(memcmp(&before, &a, sizeof a), 0, "a refused step wrote the arrays");
    for (int i = 0; i < 4; i++) cr_assert_eq(memcmp(&games[i], goita_batch_game(b, i), sizeof games[i]), 0);
  }
  cr_assert_eq(goita_batch_step(b, actions, &err), GOITA_OK);
  cr_assert_eq(goita_batch_game(b, 4), NULL);
  goita_batch_free(b);
  goita_batch_free(NULL);
}

Test(batch, bad_arguments_say_what_is_wrong) {
  arrays a;
  goita_batch_options o;
  goita_batch_options_default(&o);
  goita_batch_arrays view = {a.obs[0], a.mask[0], a.rewards[0], a.terminated, a.seat};
  goita_batch *b = (goita_batch *)&a;
  goita_error err = {0};
  cr_assert_eq(goita_batch_new(&b, &o, 0, &view, &err), GOITA_EINVAL);
  cr_assert_null(b);
  cr_assert(strstr(err.message, "not 0"), "%s", err.message);
  view.seat = NULL;
  cr_assert_eq(goita_batch_new(&b, &o, 4, &view, &err), GOITA_EINVAL);
  cr_assert(strstr(err.message, "every array"), "%s", err.message);
  view.seat = a.seat;
  o.episode = (goita_batch_episode)7;
  cr_assert_eq(goita_batch_new(&b, &o, 4, &view, &err), GOITA_EINVAL);
  o.episode = GOITA_BATCH_GAME;
  o.rules.players = 5;
  cr_assert_eq(goita_batch_new(&b, &o, 4, &view, &err), GOITA_EVALUE);
  cr_assert_null(b);
}

/* The first seed from 1 whose first deal ends the round at once (a hand bonus). */
static uint64_t seed_decided_at_the_deal(const goita_rules *rules) {
  for (uint64_t seed = 1;; seed++) {
    goita_game g;
    goita_game_start(&g, rules, seed, NULL);
    if (goita_round_over(&g.round) && g.round.result.end == GOITA_END_TEYAKU && !g.over) return seed;
  }
}

Test(batch, a_round_decided_at_the_deal_is_skipped_or_paid_with_the_first_move) {
  goita_rules rules;
  goita_rules_default(&rules);
  const uint64_t seed = seed_decided_at_the_deal(&rules);
  arrays a;
  goita_batch *round = make_batch(&a, 1, GOITA_BATCH_ROUND, "");
  goita_batch_reset(round, &seed, NULL);
  cr_assert_neq(goita_batch_game(round, 0)->seed, seed, "round episodes skip the decided deal");
  goita_batch_free(round);

  goita_batch *game = make_batch(&a, 1, GOITA_BATCH_GAME, "");
  goita_batch_reset(game, &seed, NULL);
  const goita_game *g = goita_batch_game(game, 0);
  cr_assert_eq(g->seed, seed, "a game episode keeps its first deal's bonus");
  cr_assert_geq(g->round_index, 2);
  cr_assert_eq(a.rewards[0][0], 0.0f, "nothing is paid before a move");
  const int lead = g->score[0] - g->score[1];
  cr_assert_neq(lead, 0);
  goita_batch_step_random(game, NULL);
  cr_assert_eq(a.terminated[0], 0);
  cr_assert_float_eq(a.rewards[0][0], 0.1f * (float)lead, 1e-4, "the bonus is paid with the first move");
  goita_batch_free(game);
}

Test(batch, game_episode_rewards_add_up_to_the_score) {
  arrays a;
  const int n = 8;
  goita_batch *b = make_batch(&a, n, GOITA_BATCH_GAME, "");
  uint64_t seeds[8];
  for (int i = 0; i < n; i++) seeds[i] = 40 + (uint64_t)i;
  goita_batch_reset(b, seeds, NULL);
  float total[8][GOITA_MAX_SEATS] = {{0}};
  int games_over = 0, rounds_paid = 0;
  for (int step = 0; step < 3000; step++) {
    goita_batch_step_random(b, NULL);
    for (int i = 0; i < n; i++) {
      for (int s = 0; s < 4; s++) total[i][s] += a.rewards[i][s];
      rounds_paid += a.rewards[i][0] != 0.0f;
      if (a.terminated[i]) {
        cr_assert_gt(fabsf(total[i][0]), 0.99f, "a game ends with one side ahead");
        games_over++;
        memset(total[i], 0, sizeof total[i]);
        continue;
      }
      const goita_game *g = goita_batch_game(b, i);
      const float lead = 0.1f * (float)(g->score[0] - g->score[1]);
      cr_assert_float_eq(total[i][0], lead, 1e-3, "game %d step %d", i, step);
      cr_assert_float_eq(total[i][1], -lead, 1e-3);
      cr_assert_float_eq(total[i][2], lead, 1e-3);
    }
  }
  cr_assert_gt(games_over, 4);
  cr_assert_gt(rounds_paid, games_over * 3);
  goita_batch_free(b);
}

/* Out of memory is GOITA_ENOMEM: a child whose address space is capped asks for more games
 * than fit. AddressSanitizer dies instead of returning NULL, so it skips this. */
Test(batch, out_of_memory_is_enomem) {
#if defined(__SANITIZE_ADDRESS__)
  cr_skip_test("AddressSanitizer does not return NULL from a failed allocation");
#else
  const pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    struct rlimit cap = {(rlim_t)1 << 30, (rlim_t)1 << 30};
    setrlimit(RLIMIT_AS, &cap);
    arrays a;
    goita_batch_options o;
    goita_batch_options_default(&o);
    const goita_batch_arrays view = {a.obs[0], a.mask[0], a.rewards[0], a.terminated, a.seat};
    goita_batch *b = NULL;
    goita_error err = {0};
    const int st = goita_batch_new(&b, &o, 1 << 24, &view, &err);
    _exit(st == GOITA_ENOMEM && b == NULL && strstr(err.message, "out of memory") ? 0 : 1);
  }
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the capped child did not see GOITA_ENOMEM");
#endif
}

/* The computer players' scheduler (src/server/bots.c): tables served in turn, one waiting job
 * a table, and budgets that shrink as the queue grows, so that the work begun ahead of any
 * table's move adds up to at most one full thinking budget per worker. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "goita/goita.h"
#include "bots.h"

static srv_think_job job_of(int64_t table, int version) {
  srv_think_job job;
  memset(&job, 0, sizeof job);
  job.table = table;
  job.version = version;
  return job;
}

static int64_t pop_table(srv_think_queue *q, int workers, double *ahead) {
  srv_think_job job;
  double scale, unused;
  int64_t since;
  cr_assert(srv_think_queue_pop(q, workers, &job, &scale, &since, ahead ? ahead : &unused));
  return job.table;
}

/* 30 tables asking three times each (a turn timer or a tick asks again) are 30 jobs, not 90,
 * in front of another table: a newer job takes its table's place in line. */
Test(bots, tables_are_served_in_turn_not_jobs) {
  srv_think_queue q = {0};
  for (int version = 1; version <= 3; version++)
    for (int table = 1; table <= 30; table++) {
      srv_think_job job = job_of(table, version);
      cr_assert(srv_think_queue_push(&q, &job, version));
    }
  srv_think_job other = job_of(99, 1);
  cr_assert(srv_think_queue_push(&q, &other, 4));
  cr_assert_eq(q.waiting, 31);
  for (int table = 1; table <= 30; table++) {
    srv_think_job job;
    double scale, ahead;
    int64_t since;
    cr_assert(srv_think_queue_pop(&q, 1, &job, &scale, &since, &ahead));
    cr_assert_eq(job.table, table, "the %dth job served was table %lld's", table, (long long)job.table);
    cr_assert_eq(job.version, 3, "table %d thought on an old version", table);
    cr_assert_eq(since, 1, "table %d's wait began at its first job", table);
  }
  cr_assert_eq(pop_table(&q, 1, NULL), 99);
  cr_assert_eq(q.waiting, 0);
  cr_assert_null(q.head);
}

/* A table served and asking again goes behind the tables already waiting. */
Test(bots, a_table_asking_again_waits_its_turn) {
  srv_think_queue q = {0};
  for (int table = 1; table <= 3; table++) {
    srv_think_job job = job_of(table, 1);
    cr_assert(srv_think_queue_push(&q, &job, 0));
  }
  cr_assert_eq(pop_table(&q, 1, NULL), 1);
  srv_think_job again = job_of(1, 2);
  cr_assert(srv_think_queue_push(&q, &again, 1));
  const int64_t expected[] = {2, 3, 1};
  for (int i = 0; i < 3; i++) cr_assert_eq(pop_table(&q, 1, NULL), expected[i]);
  srv_think_queue_clear(&q);
}

/* The bound: a table arriving behind N others, while every served table asks again at once (a
 * flood that never lets up), waits behind at most one full budget per worker of work begun
 * after it arrived, for any N and any number of workers. */
Test(bots, work_ahead_of_a_move_is_at_most_one_budget_per_worker) {
  const int workers[] = {1, 2, 4, 16};
  const int floods[] = {1, 5, 30, 200, 2000};
  for (size_t w = 0; w < sizeof workers / sizeof *workers; w++)
    for (size_t f = 0; f < sizeof floods / sizeof *floods; f++) {
      srv_think_queue q = {0};
      for (int table = 1; table <= floods[f]; table++) {
        srv_think_job job = job_of(table, 1);
        cr_assert(srv_think_queue_push(&q, &job, 0));
        if (table % 3 == 0) pop_table(&q, workers[w], NULL); /* some of the flood already served */
      }
      srv_think_job other = job_of(-1, 1);
      cr_assert(srv_think_queue_push(&q, &other, 0));
      double ahead = 0;
      int served = 0;
      for (int64_t table; (table = pop_table(&q, workers[w], &ahead)) != -1; served++) {
        srv_think_job job = job_of(table, 2);
        cr_assert(srv_think_queue_push(&q, &job, 0));
      }
      cr_assert_leq(ahead, 1.0, "%d workers, %d tables: %.3f budgets a worker begun ahead of another table (%d jobs)",
                    workers[w], floods[f], ahead, served);
      srv_think_queue_clear(&q);
    }
}

/* The scale itself: the full budget with nobody behind, and less the more wait. */
Test(bots, budgets_shrink_as_the_queue_grows) {
  cr_assert_float_eq(srv_think_budget_scale(0, 2), 1.0, 1e-12);
  cr_assert_float_eq(srv_think_budget_scale(2, 2), 0.25, 1e-12);
  for (int behind = 1; behind < 100; behind++)
    cr_assert_lt(srv_think_budget_scale(behind, 2), srv_think_budget_scale(behind - 1, 2));
}

/* Every level that searches has a budget that shrinks with the queue, a parameter of its
 * spec (random and rules answer at once). */
Test(bots, every_searching_level_has_a_budget_to_shrink) {
  for (const char *const *level = goita_player_levels(); *level; level++) {
    const char *param = srv_think_budget_param(*level);
    if (strcmp(*level, "random") == 0 || strcmp(*level, "rules") == 0) {
      cr_expect_null(param, "%s", *level);
      continue;
    }
    cr_assert(param, "%s has no budget to shrink", *level);
    goita_player *p = NULL;
    cr_assert_eq(goita_player_new(&p, *level, NULL), GOITA_OK);
    char needle[32];
    snprintf(needle, sizeof needle, "%s=", param);
    cr_expect(strstr(goita_player_spec(p), needle), "%s: %s", goita_player_spec(p), needle);
    goita_player_free(p);
  }
}

static void wake_nothing(void *ctx) { (void)ctx; }

/* The real pool: 30 tables' expert moves and then another table's, on two workers. Every table
 * gets its move, the flood's jobs think on shrunk budgets, and the other table's move waited
 * behind at most one full budget a worker. */
Test(bots, a_flood_of_tables_does_not_hold_another_tables_move) {
  srv_bots *bots = NULL;
  cr_assert_eq(srv_bots_start(&bots, 2, wake_nothing, NULL), 0);
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game game;
  goita_move legal[GOITA_MAX_LEGAL];
  srv_think_job job;
  memset(&job, 0, sizeof job);
  snprintf(job.level, sizeof job.level, "expert");
  enum { TABLES = 31 };
  bool answered[TABLES + 1] = {false};
  uint64_t seed = 1;
  for (int table = 1; table <= TABLES; table++) {
    for (;; seed++) { /* a deal that does not end at once */
      cr_assert_eq(goita_game_start(&game, &rules, seed, NULL), GOITA_OK);
      goita_game_view(&game, game.round.turn, &job.view);
      if (goita_view_legal_moves(&job.view, legal) > 0) break;
    }
    job.table = table;
    job.seed = seed++;
    srv_bots_submit(bots, &job);
  }
  int moves = 0;
  srv_bot_answer answers[32];
  for (int waited = 0; waited < 60000 && moves < TABLES; waited++) {
    const int n = srv_bots_collect(bots, answers, 32);
    for (int i = 0; i < n; i++) {
      cr_assert(answers[i].table >= 1 && answers[i].table <= TABLES && !answered[answers[i].table]);
      answered[answers[i].table] = true;
      moves++;
    }
    if (n == 0) nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  srv_bots_stats st;
  srv_bots_stats_get(bots, &st);
  srv_bots_stop(bots);
  cr_assert_eq(moves, TABLES);
  cr_assert_eq(st.workers, 2);
  cr_assert_eq(st.jobs, TABLES);
  cr_assert_gt(st.shrunk, 0, "no job thought on a shrunk budget");
  cr_assert_leq(st.max_ahead, 1.0, "a move waited behind %.3f full budgets a worker", st.max_ahead);
}

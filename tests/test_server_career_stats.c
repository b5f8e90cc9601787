/* Career statistics (docs/SERVER.md "Career statistics"): each finished game analysed with the
 * exact solver, its rows saved, and a player's career sent on request, private games only to
 * their own player. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyst.h"
#include "game_stats.h"
#include "hub_harness.h"
#include "store_impl.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* The value of every legal move of round's position, from the mover's side. */
static int solve_all(goita_solver *solver, const goita_round *round, goita_solve_result *r) {
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  cr_assert_eq(goita_solve(solver, round, &o, r), GOITA_OK);
  cr_assert(r->complete);
  return r->nmoves;
}

/* Plays a round of seed where every seat plays a best move but one, which plays its worst at
 * the first choice where the worst loses points; fills the choices each seat made, the seat of
 * the mistake and its loss, and returns the round as played. */
static goita_record_round round_with_one_mistake(const goita_rules *rules, uint64_t seed, int choices[GOITA_MAX_SEATS],
                                                 int *mistake_seat, int *mistake_loss) {
  goita_solver *solver = NULL;
  cr_assert_eq(goita_solver_new(&solver, (size_t)4 << 20), GOITA_OK);
  goita_round round;
  cr_assert_eq(goita_round_deal(&round, rules, 0, seed), GOITA_OK);
  memset(choices, 0, GOITA_MAX_SEATS * sizeof *choices);
  *mistake_seat = -1;
  *mistake_loss = 0;
  goita_move legal[GOITA_MAX_LEGAL];
  while (!goita_round_over(&round)) {
    goita_move m;
    if (round.phase == GOITA_PHASE_PLAY && goita_round_legal_moves(&round, legal) >= 2) {
      goita_solve_result r;
      const int n = solve_all(solver, &round, &r);
      int best = 0, worst = 0;
      for (int i = 1; i < n; i++) {
        if (r.move_value[i].lower > r.move_value[best].lower) best = i;
        if (r.move_value[i].lower < r.move_value[worst].lower) worst = i;
      }
      const int loss = r.move_value[best].lower - r.move_value[worst].lower;
      choices[round.turn]++;
      if (*mistake_seat < 0 && loss > 0) {
        *mistake_seat = round.turn;
        *mistake_loss = loss;
        m = r.moves[worst];
      } else {
        m = r.moves[best];
      }
    } else {
      cr_assert_geq(goita_round_legal_moves(&round, legal), 1);
      m = legal[0];
    }
    cr_assert_eq(goita_round_apply(&round, m, NULL), GOITA_OK);
  }
  goita_solver_free(solver);
  cr_assert_geq(*mistake_seat, 0, "no move of the deal loses points");
  goita_record_round played;
  memset(&played, 0, sizeof played);
  played.round = round;
  return played;
}

/* The analysis of such a round finds that loss on that seat and none elsewhere, and counts every
 * choice (a position in play with two or more legal moves) once. */
Test(server, the_analysis_finds_each_choice_and_the_one_loss) {
  goita_rules rules;
  goita_rules_default(&rules);
  int choices[GOITA_MAX_SEATS], mistake_seat, mistake_loss;
  goita_record_round played = round_with_one_mistake(&rules, 11, choices, &mistake_seat, &mistake_loss);
  srv_game_job job = {.game = 7, .listed = true, .nplayers = 4, .players = {1, 2, 3, 4}, .rules = rules,
                      .nrounds = 1, .rounds = &played};
  srv_game_stats stats;
  goita_solver *solver = NULL;
  cr_assert_eq(goita_solver_new(&solver, (size_t)4 << 20), GOITA_OK);
  cr_assert_eq(srv_game_analyse(&job, solver, 0, NULL, &stats), 0);
  goita_solver_free(solver);
  cr_assert_eq(stats.unsolved, 0);
  for (int s = 0; s < 4; s++) {
    cr_assert_eq(stats.seats[s].moves, choices[s], "seat %d: %d choices counted, %d made", s + 1,
                 stats.seats[s].moves, choices[s]);
    cr_assert_eq(stats.seats[s].lost, s == mistake_seat ? mistake_loss : 0, "seat %d lost %d", s + 1,
                 stats.seats[s].lost);
    cr_assert_eq(stats.seats[s].rounds, 1);
  }
}

static atomic_int wakes;
static void count_wake(void *ctx) {
  (void)ctx;
  atomic_fetch_add(&wakes, 1);
}

/* A copy of the job with rounds of its own, as the hub gives one away. */
static srv_game_job given_away(const srv_game_job *job) {
  srv_game_job copy = *job;
  copy.rounds = malloc(sizeof *copy.rounds);
  cr_assert_not_null(copy.rounds);
  *copy.rounds = job->rounds[0];
  return copy;
}

/* The analysis thread gives back what the analysis in place finds, waking the loop for it; a
 * thread stopped with games still queued or under way drops them (ASan: nothing leaks). */
Test(server, the_analysis_thread_answers_as_the_analysis_in_place_and_stops_at_once) {
  goita_rules rules;
  goita_rules_default(&rules);
  int choices[GOITA_MAX_SEATS], mistake_seat, mistake_loss;
  goita_record_round played = round_with_one_mistake(&rules, 11, choices, &mistake_seat, &mistake_loss);
  const srv_game_job job = {.game = 9, .listed = false, .nplayers = 4, .players = {5, 6, 7, 8}, .rules = rules,
                            .nrounds = 1, .rounds = &played};
  srv_analyst *analyst = NULL;
  cr_assert_eq(srv_analyst_start(&analyst, 0, count_wake, NULL), 0);
  srv_game_job mine = given_away(&job);
  cr_assert_eq(srv_analyst_submit(analyst, &mine), 0);
  srv_game_stats got;
  bool answered = false;
  for (int waited = 0; waited < 20000 && !answered; waited += 10) {
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    answered = srv_analyst_collect(analyst, &got);
  }
  cr_assert(answered, "no answer in 20 s");
  cr_assert_geq(atomic_load(&wakes), 1, "the loop was not woken");
  cr_assert_not(srv_analyst_collect(analyst, &got), "one game, two answers");
  cr_assert_eq(got.game, 9);
  cr_assert_not(got.listed);
  cr_assert_eq(got.players[3], 8);
  cr_assert_eq(got.seats[mistake_seat].lost, mistake_loss);
  cr_assert_eq(got.seats[mistake_seat].moves, choices[mistake_seat]);
  for (int i = 0; i < 3; i++) {
    mine = given_away(&job);
    cr_assert_eq(srv_analyst_submit(analyst, &mine), 0);
  }
  srv_analyst_stop(analyst);
}

/* A burst of finished games does not pile up behind the analysis thread: past a bound of
 * waiting games a game is refused (it goes without statistics), and nothing leaks (ASan). */
Test(server, the_analysis_thread_refuses_games_beyond_its_bound) {
  goita_rules rules;
  goita_rules_default(&rules);
  int choices[GOITA_MAX_SEATS], mistake_seat, mistake_loss;
  goita_record_round played = round_with_one_mistake(&rules, 11, choices, &mistake_seat, &mistake_loss);
  const srv_game_job job = {.game = 9, .listed = true, .nplayers = 4, .players = {5, 6, 7, 8}, .rules = rules,
                            .nrounds = 1, .rounds = &played};
  srv_analyst *analyst = NULL;
  cr_assert_eq(srv_analyst_start(&analyst, 0, count_wake, NULL), 0);
  /* (each game takes the thread milliseconds; the burst is submitted in far less) */
  int accepted = 0;
  for (int i = 0; i < 1000; i++) {
    srv_game_job mine = given_away(&job);
    accepted += srv_analyst_submit(analyst, &mine) == 0;
  }
  cr_assert_lt(accepted, 1000, "every game of the burst was queued");
  cr_assert_geq(accepted, 256, "only %d games were queued", accepted);
  srv_analyst_stop(analyst);
}

/* The statistics of the player of client id, as client asker gets them. */
static json_t *stats_of(uint64_t asker, json_int_t player) {
  say(asker, "{\"type\":\"stats\",\"player\":%lld}", (long long)player);
  cr_assert_str_eq(last_type(asker), "stats", "%s", error_of(asker));
  return w.clients[asker].last;
}

/* Plays a game of Ann (client 1, seat 1) with three computers to its end, at a private table
 * or a listed one; returns its game id. */
static json_int_t play_game(bool private_table) {
  say(1, "{\"type\":\"create\",\"rules\":\"target=10\",\"sit\":true,\"private\":%s}", private_table ? "true" : "false");
  const int table = (int)json_integer_value(json_object_get(w.clients[1].created, "table"));
  cr_assert_gt(table, 0, "%s", error_of(1));
  for (int s = 1; s < 4; s++) say(1, "{\"type\":\"bot\",\"table\":%d,\"seat\":%d,\"level\":\"random\"}", table, s);
  say(1, "{\"type\":\"start\",\"table\":%d}", table);
  const uint64_t ann = 1;
  play_out(&ann, 1);
  return json_integer_value(json_object_get(w.clients[1].last_state, "game_id"));
}

/* A finished game is analysed once saved: Ann's career is its rounds, her team's points in it
 * (the game's score), and her choices; a private table's game counts for Ann alone. */
Test(server, a_finished_game_counts_in_its_players_career_and_a_private_one_only_for_them) {
  w.analyse = true;
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  const json_int_t ann = (say(1, "{\"type\":\"create\"}"), player_field(1, "id"));
  const json_int_t listed = play_game(false);
  cr_assert_eq(w.analysed, 1);
  json_t *game = json_object_get(w.clients[1].last_state, "game");
  const json_int_t team_points = json_integer_value(json_array_get(json_object_get(game, "scores"), 0));
  json_t *st = stats_of(2, ann);
  cr_assert_eq(int_of(st, "games"), 1);
  cr_assert_geq(int_of(st, "rounds"), 1);
  cr_assert_eq(int_of(st, "points"), team_points, "points %lld, the team scored %lld", (long long)int_of(st, "points"),
               (long long)team_points);
  cr_assert_gt(int_of(st, "moves"), 0);
  cr_assert_geq(int_of(st, "lost"), 0);
  json_t *recent = json_object_get(st, "recent");
  cr_assert_eq(json_array_size(recent), 1);
  cr_assert_eq(int_of(json_array_get(recent, 0), "game"), listed);
  cr_assert_eq(int_of(json_array_get(recent, 0), "moves"), int_of(st, "moves"));

  const json_int_t hidden = play_game(true);
  cr_assert_eq(w.analysed, 2);
  st = stats_of(2, ann);
  cr_assert_eq(int_of(st, "games"), 1, "Ben sees Ann's private game counted");
  cr_assert_eq(json_array_size(json_object_get(st, "recent")), 1);
  st = stats_of(1, ann);
  cr_assert_eq(int_of(st, "games"), 2, "Ann does not see her own private game counted");
  cr_assert_eq(int_of(json_array_get(json_object_get(st, "recent"), 0), "game"), hidden, "not newest first");

  say(1, "{\"type\":\"stats\",\"player\":999}");
  cr_assert_str_eq(error_code(1), "player_unknown");
}

/* The statistics query reads one player's rows through its index, newest first, without a sort
 * or a scan of every game's rows. */
Test(server, the_statistics_query_uses_the_players_index) {
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, "EXPLAIN QUERY PLAN " PLAYER_STATS_SQL("?1", "?2", "?3"), -1, &st, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  char plan[2048] = "";
  while (sqlite3_step(st) == SQLITE_ROW) {
    strncat(plan, (const char *)sqlite3_column_text(st, 3), sizeof plan - strlen(plan) - 2);
    strcat(plan, "\n");
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  cr_assert(strstr(plan, "game_stats_player"), "the index is not used:\n%s", plan);
  cr_assert_null(strstr(plan, "SCAN s\n"), "every row is read:\n%s", plan);
  cr_assert_null(strstr(plan, "TEMP B-TREE FOR ORDER BY"), "the rows are sorted:\n%s", plan);
}

/* Ratings from finished and abandoned games: who is rated against a computer level, and what
 * leaving a game costs. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "hub_harness.h"
#include "ratings.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* Sets up and starts a 4-player table where seat s holds client who[s], or a computer of the
 * level when who[s] is 0. Returns the table. */
static int table_seated(const uint64_t who[4], const char *level) {
  uint64_t first = 0;
  for (int s = 0; s < 4 && !first; s++) first = who[s];
  say(first, "{\"type\":\"create\",\"rules\":\"target=10\"}");
  const int table = (int)json_integer_value(json_object_get(w.clients[first].last, "table"));
  cr_assert_gt(table, 0, "%s", error_of(first));
  for (int s = 0; s < 4; s++) {
    if (who[s])
      say(who[s], "{\"type\":\"sit\",\"table\":%d,\"seat\":%d}", table, s);
    else
      say(first, "{\"type\":\"bot\",\"table\":%d,\"seat\":%d,\"level\":\"%s\"}", table, s, level);
  }
  say(first, "{\"type\":\"start\",\"table\":%d}", table);
  cr_assert_eq(w.clients[first].errors, 0, "%s", error_of(first));
  return table;
}

static double stored_double(const char *sql) {
  sqlite3 *db;
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: no row", sql);
  const double v = sqlite3_column_double(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

/* A computer level on both sides would play itself: it is not rated at all. The person is, with
 * a history row, and sees the new rating at once. */
Test(server, a_level_on_both_sides_is_not_rated) {
  const uint64_t who[4] = {1, 0, 0, 0};
  connect_client(1, "Ann");
  table_seated(who, "random");
  const int told = w.clients[1].players;
  play_out(who, 1);
  cr_assert_eq(count_rows("SELECT games FROM players WHERE bot = 'random'"), 0, "the level was rated");
  cr_assert_eq(stored_double("SELECT rating FROM players WHERE bot = 'random'"), SRV_RATING_START);
  cr_assert_eq(count_rows("SELECT count(*) FROM rating_history h JOIN players p ON p.id = h.player "
                          "WHERE p.bot = 'random'"),
               0);
  cr_assert_eq(count_rows("SELECT count(*) FROM rating_history h JOIN players p ON p.id = h.player "
                          "WHERE p.bot IS NULL"),
               1);
  const double ann = stored_double("SELECT rating FROM players WHERE bot IS NULL");
  cr_assert(ann != SRV_RATING_START, "the person was not rated");
  cr_assert_gt(w.clients[1].players, told, "the new rating was not sent");
  cr_assert_eq(player_field(1, "rating"), (json_int_t)(ann + 0.5));
  cr_assert_eq(player_field(1, "games"), 1);
}

/* A level holding both seats of one side is one player: updated once, by one seat's share. With
 * everyone new (1500, deviation 350) that is the first worked example of docs/SERVER.md: 76.01
 * points, not twice that. */
Test(server, a_level_on_one_side_is_rated_once) {
  const uint64_t who[4] = {1, 0, 2, 0}, people[2] = {1, 2};
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  table_seated(who, "random");
  play_out(people, 2);
  cr_assert_eq(count_rows("SELECT games FROM players WHERE bot = 'random'"), 1);
  cr_assert_eq(count_rows("SELECT count(*) FROM rating_history h JOIN players p ON p.id = h.player "
                          "WHERE p.bot = 'random'"),
               1);
  const double level = stored_double("SELECT rating FROM players WHERE bot = 'random'");
  const double ann = stored_double("SELECT rating FROM players WHERE name = 'Ann'");
  cr_assert_float_eq(fabs(level - SRV_RATING_START), 76.0099, 0.0001, "the level moved by %f", level - 1500);
  cr_assert_float_eq(level - SRV_RATING_START, SRV_RATING_START - ann, 0.0001);
  cr_assert_float_eq(stored_double("SELECT deviation FROM players WHERE bot = 'random'"), 341.7931, 0.0001);
  /* the history and the leaderboard */
  const json_int_t ann_id = player_field(1, "id");
  say(1, "{\"type\":\"history\",\"player\":%lld}", (long long)ann_id);
  json_t *games = json_object_get(w.clients[1].last, "games");
  cr_assert_eq(json_array_size(games), 1);
  cr_assert_float_eq(json_real_value(json_object_get(json_array_get(games, 0), "rating_after")), ann, 0.0001);
  cr_assert_float_eq(json_real_value(json_object_get(json_array_get(games, 0), "rating_before")), 1500, 0.0001);
  say(1, "{\"type\":\"history\",\"player\":999}");
  cr_assert(strstr(error_of(1), "no player 999"), "%s", error_of(1));
  say(1, "{\"type\":\"leaderboard\"}");
  json_t *players = json_object_get(w.clients[1].last, "players");
  cr_assert_eq(json_array_size(players), 3, "two people and one level");
  int levels = 0;
  for (size_t i = 0; i < 3; i++) levels += json_object_get(json_array_get(players, i), "bot") != NULL;
  cr_assert_eq(levels, 1);
  cr_assert_geq(json_integer_value(json_object_get(json_array_get(players, 0), "rating")),
                json_integer_value(json_object_get(json_array_get(players, 2), "rating")), "not best first");
}

/* An abandoned game changes nobody's rating or game count and writes no rating history; a
 * freed seat keeps no token hash in the store. */
/* Eve, alone with computers, leaves for good: the game is abandoned, and counts as her loss. */
Test(server, abandoned_games_count_as_a_loss_for_who_left_and_freed_seats_keep_no_token) {
  connect_client(1, "Eve");
  connect_client(2, "Ben");
  const uint64_t eve[1] = {1};
  const int table = table_with("", 0, eve, 1, "random");
  const int waiting = create_table(2);
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", waiting);
  cr_assert_eq(count_rows("SELECT count(*) FROM seats WHERE token != ''"), 2);
  run_jobs();
  srv_hub_disconnect(w.hub, 1);
  srv_hub_disconnect(w.hub, 2);
  w.now += w.options.seat_grace_ms + 1000;
  srv_hub_tick(w.hub);
  cr_assert_eq(count_rows("SELECT count(*) FROM games WHERE ended = 'abandoned'"), 1, "the game was not abandoned");
  /* the computer level sits on both sides, so only Eve is rated */
  cr_assert_eq(count_rows("SELECT count(*) FROM rating_history"), 1, "the abandoned game was not rated for Eve");
  cr_assert_eq(count_rows("SELECT count(*) FROM players WHERE name = 'Eve' AND games = 1 AND rating < 1500"), 1,
               "leaving did not count as a loss");
  cr_assert_eq(count_rows("SELECT count(*) FROM players WHERE name != 'Eve' AND (games != 0 OR rating != 1500)"), 0,
               "the abandoned game changed a player who did not play it");
  cr_assert_eq(count_rows("SELECT count(*) FROM seats WHERE token != ''"), 1, "the freed seat kept its token");
  (void)table;
}

/* The abandon exploit (issue 39): a player who leaves a rated game when behind and never comes
 * back made it "abandoned" and unrated, so random play with a disconnect at every bad game took a
 * rating from 1317 to 1911. Leaving now counts as a loss: the leaver's rating goes down. */
Test(server, leaving_a_game_when_behind_lowers_the_rating) {
  connect_client(1, "Eve");
  const uint64_t eve[1] = {1};
  table_with("", 0, eve, 1, "random");
  bool behind = false;
  for (int steps = 0; steps < 5000 && !behind; steps++) {
    run_jobs();
    json_t *scores = json_object_get(json_object_get(w.clients[1].last_state, "game"), "scores");
    behind = json_integer_value(json_array_get(scores, 0)) < json_integer_value(json_array_get(scores, 1));
    if (!behind && !play_if_turn(1) && w.njobs == 0) {
      w.now += 10000; /* a paused round: the next deal */
      srv_hub_tick(w.hub);
    }
    cr_assert_str_neq(status_of(1), "over", "the game ended before Eve's side was behind");
  }
  cr_assert(behind, "Eve's side was never behind");
  srv_hub_disconnect(w.hub, 1);
  w.now += w.options.seat_grace_ms + 1000;
  srv_hub_tick(w.hub);
  cr_assert_eq(count_rows("SELECT count(*) FROM games WHERE ended = 'abandoned'"), 1, "the game was not abandoned");
  const double after = stored_double("SELECT rating FROM players WHERE name = 'Eve'");
  cr_assert_lt(after, 1500.0, "Eve left when behind and her rating went from 1500 to %.1f", after);
  cr_assert_eq(count_rows("SELECT count(*) FROM rating_history h JOIN players p ON p.id = h.player WHERE p.name = 'Eve'"),
               1);
}

/* Eve leaves a game against Ann for good; a computer finishes it for her. Ann is rated as for
 * the finished game, whoever won it; Eve as if her side had lost, whoever won it. */
Test(server, a_leaver_loses_and_the_others_are_rated_as_for_the_finished_game) {
  connect_client(1, "Ann");
  connect_client(2, "Eve");
  const uint64_t both[2] = {1, 2}, ann[1] = {1};
  table_with("", 0, both, 2, "random");
  run_jobs();
  srv_hub_disconnect(w.hub, 2);
  w.now += w.options.seat_grace_ms + 1000;
  srv_hub_tick(w.hub);
  play_out(ann, 1);
  cr_assert_eq(count_rows("SELECT count(*) FROM games WHERE ended IS NULL"), 1, "the game was not finished");
  const bool ann_won = count_rows("SELECT count(*) FROM games WHERE score0 > score1") == 1;
  const double bot = stored_double("SELECT rating FROM players WHERE bot = 'random'"),
               bot_dev = stored_double("SELECT deviation FROM players WHERE bot = 'random'");
  srv_rating_seat seats[4] = {{1, 0, ann_won ? 0 : 1, 1500, 350}, {2, 1, ann_won ? 1 : 0, 1500, 350},
                              {3, 0, ann_won ? 0 : 1, bot, bot_dev}, {3, 1, ann_won ? 1 : 0, bot, bot_dev}};
  srv_rating_result played[4], lost[4];
  srv_ratings_update(seats, 4, played);
  seats[1].rank = seats[3].rank = 4; /* Eve's side below Ann's */
  seats[0].rank = seats[2].rank = 0;
  srv_ratings_update(seats, 4, lost);
  const double ann_after = stored_double("SELECT rating FROM players WHERE name = 'Ann'"),
               eve_after = stored_double("SELECT rating FROM players WHERE name = 'Eve'");
  cr_expect_float_eq(ann_after, played[0].rating, 1e-6, "Ann: %.3f, as for the finished game %.3f", ann_after,
                     played[0].rating);
  cr_expect_float_eq(eve_after, lost[1].rating, 1e-6, "Eve: %.3f, for a loss %.3f", eve_after, lost[1].rating);
  cr_assert_lt(eve_after, 1500.0, "Eve left and her rating went up (%s won)", ann_won ? "Ann" : "Eve");
}

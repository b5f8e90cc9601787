/* Ko shogi tables in the hub (src/server/hub_ks.c, docs/SERVER.md "Ko shogi"): made in the
 * lobby and listed beside Goita's, sat at, watched, joined by invite, played with moves the
 * rules check, the flag decided by the hub's clock on its tick, resignation and draws, the
 * computer's replies, rematches with the colours swapped, the finished game saved with its
 * record and both ratings, and the limits and hostile input Goita's tables refuse. */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hub_harness.h"
#include "hub_ks.h"
#include "koshogi/koshogi.h"
#include "ks_bots.h"
#include "ks_levels.h"
#include "ks_message.h"
#include "store_impl.h"

TestSuite(server_koshogi, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* The client's last Ko shogi table message. */
static json_t *ks(uint64_t id) {
  cr_assert(w.clients[id].ks_table, "client %llu has no ks_table message", (unsigned long long)id);
  return w.clients[id].ks_table;
}

static const char *ks_text(uint64_t id, const char *key) { return json_string_value(json_object_get(ks(id), key)); }

static json_int_t table_of(uint64_t id) { return json_integer_value(json_object_get(ks(id), "table")); }

/* A legal move of the side to move in the client's last table message: the first listed. */
static void legal_move(uint64_t id, char out[KS_MOVE_TEXT]) {
  ks_position pos;
  int number;
  char err[256];
  cr_assert_eq(ks_position_parse(ks_text(id, "position"), &pos, &number, err, sizeof err), 0, "%s", err);
  ks_move moves[512];
  const int n = ks_legal_moves(&pos, moves, 512);
  cr_assert_gt(n, 0);
  cr_assert_gt(ks_move_format(&pos, &moves[0], out, KS_MOVE_TEXT), 0);
}

/* The client plays the first legal move at its table. */
static void play_first(uint64_t id) {
  char move[KS_MOVE_TEXT];
  legal_move(id, move);
  say(id, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table_of(id), move);
  cr_assert_str_eq(error_code(id), "", "%s", error_of(id));
}

/* Client 1 makes a table at Black under a clock of main minutes and byoyomi seconds, client 2
 * sits at White: the game starts. Returns the table. */
static json_int_t game_between_1_and_2(int main_minutes, int byoyomi) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\",\"main_minutes\":%d,\"byoyomi_seconds\":%d}", main_minutes, byoyomi);
  cr_assert_str_eq(error_code(1), "", "%s", error_of(1));
  const json_int_t table = table_of(1);
  cr_assert_geq(table, SRV_KS_TABLE_BASE, "Ko shogi tables are numbered apart from Goita's");
  cr_assert_str_eq(ks_text(1, "status"), "waiting");
  say(2, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  cr_assert_str_eq(error_code(2), "", "%s", error_of(2));
  cr_assert_str_eq(ks_text(1, "status"), "playing");
  cr_assert_str_eq(ks_text(1, "you"), "black");
  cr_assert_str_eq(ks_text(2, "you"), "white");
  return table;
}

Test(server_koshogi, a_table_is_listed_beside_goitas_and_its_events_reach_the_lobby) {
  connect_client(3, "Lobby");
  say(3, "{\"type\":\"list\"}");
  connect_client(1, "Ann");
  create_table(1); /* a Goita table beside it */
  srv_hub_tick(w.hub);
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\",\"main_minutes\":5,\"byoyomi_seconds\":10}");
  srv_hub_tick(w.hub);
  json_t *event = w.clients[3].last_lobby;
  cr_assert_str_eq(json_string_value(json_object_get(event, "event")), "created");
  json_t *row = json_object_get(event, "table");
  cr_assert_str_eq(json_string_value(json_object_get(row, "game")), "koshogi");
  cr_assert_eq(json_integer_value(json_object_get(row, "main_ms")), 300000);
  cr_assert_eq(json_integer_value(json_object_get(row, "byoyomi_ms")), 10000);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(row, "seats"), 0), "name")), "Ann");
  say(3, "{\"type\":\"list\"}");
  json_t *page = w.clients[3].tables;
  cr_assert_eq(json_array_size(json_object_get(page, "tables")), 1, "Goita's table in its own list");
  json_t *koshogi = json_object_get(page, "koshogi");
  cr_assert_eq(json_array_size(koshogi), 1);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(koshogi, 0), "id")), table_of(1));
}

Test(server_koshogi, moves_are_checked_and_everyone_at_the_table_sees_them) {
  const json_int_t table = game_between_1_and_2(10, 30);
  connect_client(3, "Spectator");
  say(3, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert(json_is_null(json_object_get(ks(3), "you")), "a spectator has no side");
  char move[KS_MOVE_TEXT];
  legal_move(1, move);
  say(2, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
  cr_assert_str_eq(error_code(2), "wrong_seat");
  say(3, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
  cr_assert_str_eq(error_code(3), "not_seated");
  say(1, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"KGx1a\"}", (long long)table);
  cr_assert_str_eq(error_code(1), "illegal_move");
  cr_assert(strlen(error_of(1)) > 10, "the rules' reason is told: %s", error_of(1));
  play_first(1);
  for (uint64_t id = 1; id <= 3; id++) {
    cr_assert_eq(json_array_size(json_object_get(ks(id), "moves")), 1, "client %llu sees the move", (unsigned long long)id);
    cr_assert_str_eq(ks_text(id, "to_move"), "white");
  }
}

Test(server_koshogi, the_flag_falls_on_the_hubs_tick_and_the_game_is_saved_with_ratings) {
  const json_int_t table = game_between_1_and_2(0, 5); /* byoyomi only: 5 s a move */
  connect_client(3, "Lobby");
  say(3, "{\"type\":\"list\"}");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(w.clients[3].tables, "koshogi"), 0), "status")),
                   "playing");
  play_first(1);
  w.now += 4000;
  play_first(2);
  w.now += 4999;
  srv_hub_tick(w.hub);
  cr_assert(json_is_null(json_object_get(ks(1), "result")), "not yet: 4.999 s of Black's 5");
  w.now += 2;
  srv_hub_tick(w.hub);
  cr_assert_str_eq(ks_text(1, "result"), "white");
  cr_assert_str_eq(ks_text(2, "end"), "time");
  cr_assert_eq(w.clients[3].last_removed, table, "the lobby is told the table is no longer open");
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(w.clients[3].last_lobby, "table"), "game")), "koshogi");
  cr_assert(json_integer_value(json_object_get(ks(1), "game_id")) > 0, "saved");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_games WHERE result = 'white' AND ended = 'time' AND moves = 2"
                          " AND byoyomi_ms = 5000"),
               1);
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_ratings WHERE games = 1"), 2, "both players rated");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_ratings WHERE rating > 1500"), 1, "the winner gained");
  /* the loser's Ko shogi rating history, asked by a spectator: this game, from 1500 down */
  const json_int_t game_id = json_integer_value(json_object_get(ks(1), "game_id"));
  const json_int_t black = json_integer_value(json_object_get(w.clients[1].player, "id"));
  say(3, "{\"type\":\"ks_history\",\"player\":%lld}", (long long)black);
  json_t *history = w.clients[3].last;
  cr_assert_str_eq(json_string_value(json_object_get(history, "type")), "ks_history", "%s", w.clients[3].last_error);
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(history, "player"), "id")), black);
  json_t *rows = json_object_get(history, "games");
  cr_assert_eq(json_array_size(rows), 1);
  json_t *row = json_array_get(rows, 0);
  cr_expect_eq(json_integer_value(json_object_get(row, "game")), game_id);
  cr_expect(json_real_value(json_object_get(row, "rating_before")) == 1500 &&
                json_real_value(json_object_get(row, "rating_after")) < 1500,
            "the loser's rating: %g -> %g", json_real_value(json_object_get(row, "rating_before")),
            json_real_value(json_object_get(row, "rating_after")));
  say(3, "{\"type\":\"history\",\"player\":%lld}", (long long)black);
  cr_expect_eq(json_array_size(json_object_get(w.clients[3].last, "games")), 0, "a Ko shogi game in Goita's history");
  say(3, "{\"type\":\"ks_history\",\"player\":999999}");
  cr_expect_str_eq(w.clients[3].last_code, "player_unknown");
  /* the record says how it ended, and replays to the same end */
  char *record = NULL;
  cr_assert_eq(srv_store_ks_game_text(w.store, json_integer_value(json_object_get(ks(1), "game_id")), NULL, &record), 0);
  cr_assert(record && strstr(record, "[Termination \"time\"]") && strstr(record, "[Result \"0-1\"]"), "%s", record);
  ks_game game;
  char err[256];
  cr_assert_eq(ks_record_read(&game, record, NULL, NULL, err, sizeof err), 0, "%s", err);
  cr_assert_eq(game.result, KS_WHITE_WINS);
  cr_assert_eq(game.reason, KS_BY_TIME);
  ks_game_free(&game);
  free(record);
  say(1, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"KGx1a\"}", (long long)table);
  cr_assert_str_eq(error_code(1), "not_playing");
}

Test(server_koshogi, resignation_on_the_opponents_turn_and_draws_offered_declined_accepted) {
  const json_int_t table = game_between_1_and_2(10, 30);
  say(2, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"accept\"}", (long long)table);
  cr_assert_str_eq(error_code(2), "draw_not_offered");
  say(1, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"offer\"}", (long long)table);
  cr_assert_str_eq(ks_text(2, "draw_offer"), "black");
  say(2, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"decline\"}", (long long)table);
  cr_assert(json_is_null(json_object_get(ks(1), "draw_offer")));
  play_first(1);
  say(2, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"offer\"}", (long long)table);
  say(1, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"accept\"}", (long long)table);
  cr_assert_str_eq(ks_text(1, "result"), "draw");
  cr_assert_str_eq(ks_text(1, "end"), "agreement");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_games WHERE result = 'draw' AND ended = 'agreement'"), 1);

  /* a rematch once both ask: colours swapped, the same clock */
  say(1, "{\"type\":\"ks_rematch\",\"table\":%lld}", (long long)table);
  cr_assert(json_is_null(json_object_get(json_object_get(ks(2), "rematch"), "table")), "waits for Ben");
  say(2, "{\"type\":\"ks_rematch\",\"table\":%lld}", (long long)table);
  const json_int_t rematch = table_of(1);
  cr_assert_neq(rematch, table);
  cr_assert_eq(table_of(2), rematch, "both are brought to it");
  cr_assert_str_eq(ks_text(1, "you"), "white");
  cr_assert_str_eq(ks_text(2, "you"), "black");
  cr_assert_str_eq(ks_text(1, "status"), "playing");
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(ks(1), "clock"), "main_ms")), 600000);
  /* White resigns on Black's turn */
  say(1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)rematch);
  cr_assert_str_eq(ks_text(2, "result"), "black");
  cr_assert_str_eq(ks_text(2, "end"), "resignation");
  char *record = NULL;
  cr_assert_eq(srv_store_ks_game_text(w.store, json_integer_value(json_object_get(ks(1), "game_id")), NULL, &record), 0);
  cr_assert(record && strstr(record, "[Termination \"resignation\"]") && strstr(record, "[Result \"1-0\"]"), "%s", record);
  free(record);
}

/* One row of a ks_leaderboard reply: its player's id, name and numbers. */
static void expect_board_row(json_t *row, const char *name, json_int_t rating, json_int_t games) {
  cr_assert_str_eq(json_string_value(json_object_get(row, "name")), name);
  cr_assert_eq(json_integer_value(json_object_get(row, "rating")), rating, "%s's rating", name);
  cr_assert_eq(json_integer_value(json_object_get(row, "games")), games, "%s's games", name);
  double stored_rating, deviation;
  int stored_games;
  cr_assert_eq(srv_store_ks_rating(w.store, json_integer_value(json_object_get(row, "id")), &stored_rating, &deviation,
                                   &stored_games),
               0);
  cr_assert_eq(json_integer_value(json_object_get(row, "deviation")), (json_int_t)(deviation + 0.5), "%s's deviation",
               name);
  cr_assert_lt(deviation, 350, "a rated game narrows the deviation");
}

Test(server_koshogi, the_leaderboard_lists_those_with_a_rated_game_best_first) {
  const json_int_t table = game_between_1_and_2(10, 30);
  connect_client(3, "Cy");
  say(3, "{\"type\":\"ks_create\",\"side\":\"black\"}"); /* a player row, but no finished Ko shogi game */
  cr_assert_str_eq(error_code(3), "", "%s", error_of(3));
  /* a Goita player far above both: Goita's rating does not count here */
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "UPDATE players SET games = 5, rating = 2000 WHERE name = 'Cy'", NULL, NULL, NULL),
               SQLITE_OK);
  sqlite3_close(db);
  play_first(1);
  play_first(2);
  say(1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table); /* Ben (White) wins */
  cr_assert_str_eq(ks_text(2, "result"), "white");
  json_t *ratings = json_object_get(ks(1), "ratings");
  const json_int_t ann = json_integer_value(json_array_get(ratings, 0)), ben = json_integer_value(json_array_get(ratings, 1));
  cr_assert(ben > 1500 && 1500 > ann, "Ben gained, Ann lost: %lld %lld", (long long)ben, (long long)ann);

  say(3, "{\"type\":\"ks_leaderboard\"}");
  cr_assert_str_eq(last_type(3), "ks_leaderboard", "%s", error_of(3));
  json_t *players = json_object_get(w.clients[3].last, "players");
  cr_assert_eq(json_array_size(players), 2, "Cy, without a Ko shogi game, is absent: %zu rows", json_array_size(players));
  expect_board_row(json_array_get(players, 0), "Ben", ben, 1);
  expect_board_row(json_array_get(players, 1), "Ann", ann, 1);
}

Test(server_koshogi, the_computer_replies_at_its_level_through_the_table) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\",\"level\":\"ks-novice\",\"main_minutes\":10}");
  cr_assert_str_eq(error_code(1), "", "%s", error_of(1));
  cr_assert_str_eq(ks_text(1, "status"), "playing");
  json_t *white = json_array_get(json_object_get(ks(1), "seats"), KS_WHITE);
  cr_assert_str_eq(json_string_value(json_object_get(white, "bot")), "ks-novice");
  play_first(1);
  cr_assert_eq(json_array_size(json_object_get(ks(1), "moves")), 2, "the computer answered");
  cr_assert_str_eq(ks_text(1, "to_move"), "black");
  /* the computer declines a draw: it plays on */
  say(1, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"offer\"}", (long long)table_of(1));
  cr_assert(json_is_null(json_object_get(ks(1), "draw_offer")));
  cr_assert(json_is_null(json_object_get(ks(1), "result")));
  /* and a rematch needs only the person */
  say(1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table_of(1));
  say(1, "{\"type\":\"ks_rematch\",\"table\":%lld}", (long long)table_of(1));
  cr_assert_str_eq(ks_text(1, "you"), "white");
  cr_assert_eq(json_array_size(json_object_get(ks(1), "moves")), 1, "the computer opened as Black");
}

static void count_wake(void *ctx) { __atomic_add_fetch((int *)ctx, 1, __ATOMIC_SEQ_CST); }

Test(server_koshogi, the_worker_thread_thinks_off_the_loop) {
  srv_ks_bots *bots;
  int wakes = 0;
  cr_assert_eq(srv_ks_bots_start(&bots, count_wake, &wakes), 0);
  ks_game game;
  cr_assert_eq(ks_game_init(&game), 0);
  srv_ks_think_job job = {.table = SRV_KS_TABLE_BASE + 1, .version = 0, .level = "ks-novice"};
  job.record = ks_record_write(&game, "Ann", "Computer");
  cr_assert_eq(srv_ks_bots_submit(bots, &job), 0);
  srv_ks_answer answer;
  int n = 0;
  for (int waited = 0; waited < 20000 && n == 0; waited += 10) { /* the machine may be busy */
    struct timespec ten_ms = {0, 10000000};
    nanosleep(&ten_ms, NULL);
    n = srv_ks_bots_collect(bots, &answer, 1);
  }
  cr_assert_eq(n, 1, "no answer in 20 s");
  cr_assert_geq(__atomic_load_n(&wakes, __ATOMIC_SEQ_CST), 1, "the loop was woken");
  cr_assert_eq(answer.table, job.table);
  ks_move move;
  char err[256];
  cr_assert_eq(ks_move_parse(&game.pos, answer.move, &move, err, sizeof err), 0, "\"%s\": %s", answer.move, err);
  ks_game_free(&game);
  srv_ks_bots_stop(bots);
}

Test(server_koshogi, private_tables_open_only_by_invite) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Lobby");
  say(3, "{\"type\":\"list\"}");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\",\"private\":true}");
  const json_int_t table = table_of(1);
  const char *invite = ks_text(1, "invite");
  cr_assert(invite && strlen(invite) == 32);
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[3].lobby_events, 0, "a private table is not announced");
  say(2, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  cr_assert_str_eq(error_code(2), "table_private");
  say(2, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(2), "table_private");
  say(2, "{\"type\":\"ks_join\",\"invite\":\"%032d\"}", 7);
  cr_assert_str_eq(error_code(2), "invite_unknown");
  say(2, "{\"type\":\"ks_join\",\"invite\":\"%s\"}", invite);
  cr_assert_str_eq(error_code(2), "");
  say(2, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  cr_assert_str_eq(error_code(2), "", "%s", error_of(2));
  cr_assert_str_eq(ks_text(2, "status"), "playing");
}

Test(server_koshogi, seats_taken_and_hostile_input_are_refused_with_codes) {
  connect_client(3, "Cat");
  connect_client(1, "Ann");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  say(3, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"black\"}", (long long)table_of(1));
  cr_assert_str_eq(error_code(3), "seat_taken");
  say(1, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table_of(1));
  cr_assert_str_eq(error_code(1), "already_seated");
  say(3, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table_of(1));
  const json_int_t table = table_of(1);
  connect_client(4, "Dan");
  say(4, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  cr_assert_str_eq(error_code(4), "table_started");
  say(3, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"black\"}", (long long)(table + 99));
  cr_assert_str_eq(error_code(3), "table_unknown");
  const char *bad[] = {
      "{\"type\":\"ks_create\",\"main_minutes\":181}",
      "{\"type\":\"ks_create\",\"byoyomi_seconds\":-1}",
      "{\"type\":\"ks_create\",\"main_minutes\":0,\"byoyomi_seconds\":0}",
      "{\"type\":\"ks_create\",\"side\":\"red\"}",
      "{\"type\":\"ks_create\",\"level\":\"expert\",\"side\":\"black\"}",
      "{\"type\":\"ks_create\",\"level\":\"ks-club\"}",
      "{\"type\":\"ks_create\",\"seed\":1}",
      "{\"type\":\"ks_move\",\"table\":1099511627777,\"move\":\"CU\\u0000x\"}",
      "{\"type\":\"ks_move\",\"table\":1099511627777,\"move\":\"CU x\"}",
      "{\"type\":\"ks_move\",\"table\":1099511627777,\"move\":\"\"}",
      "{\"type\":\"ks_draw\",\"table\":1099511627777,\"answer\":\"maybe\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    say(3, "%s", bad[i]);
    cr_assert_str_eq(error_code(3), "bad_request", "%s: %s", bad[i], error_of(3));
  }
  char longer[200];
  memset(longer, 'x', 100);
  longer[100] = '\0';
  say(3, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, longer);
  cr_assert_str_eq(error_code(3), "bad_request");
}

Test(server_koshogi, the_limits_of_goitas_tables_hold) {
  close_hub();
  w.options.max_tables_per_player = 1;
  w.options.player_rate_per_second = 1;
  w.options.player_rate_burst = 3;
  open_hub(0);
  connect_client(1, "Ann");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  cr_assert_str_eq(error_code(1), "");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  cr_assert_str_eq(error_code(1), "too_many_tables");
  say(1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table_of(1));
  say(1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table_of(1));
  cr_assert_str_eq(error_code(1), "rate_limited");
}

Test(server_koshogi, a_waiting_table_nobody_waits_at_expires) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  const json_int_t table = table_of(1);
  connect_client(2, "Ben");
  w.now += w.options.waiting_table_expiry_ms + 1;
  srv_hub_tick(w.hub);
  say(2, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(2), "", "Ann waits at it");
  srv_hub_disconnect(w.hub, 1);
  srv_hub_tick(w.hub);
  say(2, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(2), "table_unknown", "gone once nobody seated is there");
}

/* The main time a side has left by the client's last table message. */
static json_int_t main_left(uint64_t id, const char *side) {
  return json_integer_value(json_object_get(json_object_get(json_object_get(ks(id), "clock"), side), "main_ms"));
}

/* The client, connected again to a new server, says hello as its player and watches the table. */
static void come_back(uint64_t id, const char *player_token, json_int_t table) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"player_token\":\"%s\"}", player_token);
  cr_assert_str_eq(last_type(id), "welcome");
  say(id, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(id), "", "%s", error_of(id));
}

Test(server_koshogi, a_restarted_server_restores_the_table_its_moves_and_clocks_and_the_game_goes_on) {
  const json_int_t table = game_between_1_and_2(10, 30);
  char tokens[3][SRV_TOKEN_SIZE];
  for (int id = 1; id <= 2; id++) snprintf(tokens[id], sizeof tokens[id], "%s", w.clients[id].player_token);
  play_first(1);   /* Black takes no time */
  w.now += 5000;
  play_first(2);   /* White 5 s */
  w.now += 7000;
  play_first(1);   /* Black 7 s */
  w.now += 20000;  /* White thinks 20 s, then the server goes down for an hour */
  char position[KS_POSITION_TEXT];
  snprintf(position, sizeof position, "%s", ks_text(1, "position"));
  close_hub();
  w.now += 3600000;
  open_hub(0);

  come_back(1, tokens[1], table);
  come_back(2, tokens[2], table);
  cr_assert_str_eq(ks_text(2, "position"), position, "the moves replayed");
  cr_assert_eq(json_array_size(json_object_get(ks(2), "moves")), 3);
  cr_assert_str_eq(ks_text(2, "status"), "playing");
  cr_assert_str_eq(ks_text(1, "you"), "black");
  cr_assert_str_eq(ks_text(2, "you"), "white");
  /* the outage is nobody's time: each side has what it had after its last move, and White's
   * turn starts again at the restore */
  cr_assert_eq(main_left(2, "black"), 600000 - 7000);
  cr_assert_eq(main_left(2, "white"), 600000 - 5000);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(ks(2), "clock"), "running")), "white");

  /* a move the store cannot keep is not played */
  char move[KS_MOVE_TEXT];
  legal_move(2, move);
  srv_store_fail_all(w.store, true);
  say(2, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
  cr_assert_str_eq(error_code(2), "storage_failed", "%s", error_of(2));
  srv_store_fail_all(w.store, false);
  cr_assert_str_eq(ks_text(2, "position"), position, "the move that was not stored was taken back");

  w.now += 4000;
  play_first(2); /* White 4 s after the restore */
  cr_assert_eq(main_left(1, "white"), 600000 - 5000 - 4000);
  close_hub(); /* a second restart finds that move too */
  open_hub(0);
  come_back(1, tokens[1], table);
  cr_assert_eq(json_array_size(json_object_get(ks(1), "moves")), 4);
  cr_assert_eq(main_left(1, "white"), 600000 - 9000);
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_tables"), 1);

  say(1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(1), "", "%s", error_of(1));
  cr_assert_str_eq(ks_text(1, "status"), "over");
  cr_assert(json_integer_value(json_object_get(ks(1), "game_id")) > 0, "the game was saved");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_games WHERE moves = 4 AND ended = 'resignation'"), 1);
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_tables"), 0, "the game's save closes the stored table");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_moves"), 0);
  close_hub();
  open_hub(0);
  connect_client(3, "Cid");
  say(3, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(error_code(3), "table_unknown", "a finished game is not restored");
}

/* A standing draw offer is stored with the table: after a restart it still stands until the
 * opponent answers it or plays a move (which declines it, and is stored as such). */
Test(server_koshogi, a_standing_draw_offer_survives_a_restart_and_a_move_declines_it_for_good) {
  const json_int_t table = game_between_1_and_2(10, 30);
  char tokens[3][SRV_TOKEN_SIZE];
  for (int id = 1; id <= 2; id++) snprintf(tokens[id], sizeof tokens[id], "%s", w.clients[id].player_token);
  play_first(1);
  say(1, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"offer\"}", (long long)table);
  cr_assert_str_eq(ks_text(2, "draw_offer"), "black", "%s", error_of(1));
  close_hub();
  open_hub(0);
  come_back(2, tokens[2], table);
  cr_assert_str_eq(ks_text(2, "draw_offer"), "black", "Black's offer stands after the restart");
  play_first(2); /* no: White plays on, declining it */
  cr_assert(json_is_null(json_object_get(ks(2), "draw_offer")), "the move declined the offer");
  close_hub();
  open_hub(0);
  come_back(1, tokens[1], table);
  cr_assert(json_is_null(json_object_get(ks(1), "draw_offer")), "a declined offer came back with a restart");
  say(1, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"offer\"}", (long long)table);
  close_hub();
  open_hub(0);
  come_back(2, tokens[2], table);
  say(2, "{\"type\":\"ks_draw\",\"table\":%lld,\"answer\":\"accept\"}", (long long)table);
  cr_assert_str_eq(error_code(2), "", "%s", error_of(2));
  cr_assert_str_eq(ks_text(2, "status"), "over");
  cr_assert_eq(count_rows("SELECT COUNT(*) FROM ks_games WHERE result = 'draw' AND ended = 'agreement'"), 1);
}

Test(server_koshogi, a_restored_table_against_the_computer_plays_on_and_new_tables_are_numbered_above_it) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"ks_create\",\"level\":\"ks-novice\",\"side\":\"white\",\"main_minutes\":1}");
  cr_assert_str_eq(error_code(1), "", "%s", error_of(1));
  const json_int_t table = table_of(1);
  char token[SRV_TOKEN_SIZE];
  snprintf(token, sizeof token, "%s", w.clients[1].player_token);
  cr_assert_eq(json_array_size(json_object_get(ks(1), "moves")), 1, "the computer opened as Black");
  close_hub();
  open_hub(0);
  come_back(1, token, table);
  cr_assert_str_eq(ks_text(1, "you"), "white");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(ks(1), "seats"), 0), "bot")),
                   "ks-novice");
  play_first(1);
  cr_assert_eq(json_array_size(json_object_get(ks(1), "moves")), 3, "the computer answered after the restore");
  say(1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  cr_assert_gt(table_of(1), table, "a new table is not numbered as a restored one");
}

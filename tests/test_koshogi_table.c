/* The server's Ko shogi table without a network (src/server/ks_clock.c, ks_table.c): the clock's
 * main time and byoyomi, flag fall by the server's clock, and the moves, resignations and draw
 * offers it refuses, each with its code. Times are passed in, so nothing here waits. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ks_clock.h"
#include "ks_levels.h"
#include "ks_message.h"
#include "ks_rating.h"
#include "ks_table.h"

enum { BLACK_PLAYER = 11, WHITE_PLAYER = 22, SPECTATOR = 33 };

/* ---- the clock ---- */

Test(ks_clock, main_time_is_spent_before_byoyomi_and_byoyomi_starts_afresh_each_move) {
  srv_ks_clock c;
  cr_assert_eq(srv_ks_clock_init(&c, 10000, 3000), 0);
  srv_ks_clock_start(&c, 0, 0);
  cr_assert_eq(srv_ks_clock_deadline(&c), 13000, "main time plus one byoyomi");
  cr_assert_eq(srv_ks_clock_press(&c, 4000), 0); /* Black used 4 s */
  cr_assert_eq(c.left_ms[0], 6000);
  cr_assert_eq(c.running, 1);
  cr_assert_eq(srv_ks_clock_press(&c, 5000), 0); /* White used 1 s */
  cr_assert_eq(c.left_ms[1], 9000);
  /* Black spends its 6 s of main time and 2 s of byoyomi: main time gone, no byoyomi carried */
  int64_t main_left, byoyomi_left;
  srv_ks_clock_show(&c, 0, 13000, &main_left, &byoyomi_left);
  cr_assert_eq(main_left, 0);
  cr_assert_eq(byoyomi_left, 1000);
  srv_ks_clock_show(&c, 1, 13000, &main_left, &byoyomi_left);
  cr_assert_eq(main_left, 9000, "the waiting side's time does not run");
  cr_assert_eq(byoyomi_left, 3000);
  cr_assert_eq(srv_ks_clock_press(&c, 13000), 0);
  cr_assert_eq(c.left_ms[0], 0);
  cr_assert_eq(srv_ks_clock_press(&c, 14000), 0);
  /* Black's next move again has the whole byoyomi: 3 s from 14 s */
  cr_assert_eq(srv_ks_clock_deadline(&c), 17000);
  cr_assert_not(srv_ks_clock_flagged(&c, 16999));
  cr_assert(srv_ks_clock_flagged(&c, 17000));
  cr_assert_eq(srv_ks_clock_press(&c, 17000), -1, "a move at the deadline is too late");
  cr_assert_eq(c.running, 0, "a late press changes nothing");
}

Test(ks_clock, untimed_and_stopped_clocks_never_flag_and_negative_times_are_refused) {
  srv_ks_clock c;
  cr_assert_eq(srv_ks_clock_init(&c, -1, 0), -1);
  cr_assert_eq(srv_ks_clock_init(&c, 0, -5), -1);
  cr_assert_eq(srv_ks_clock_init(&c, 0, 0), 0);
  srv_ks_clock_start(&c, 0, 0);
  cr_assert_not(srv_ks_clock_flagged(&c, INT64_MAX - 1));
  cr_assert_eq(srv_ks_clock_init(&c, 2000, 0), 0);
  cr_assert_not(srv_ks_clock_flagged(&c, 1000000), "not started");
  srv_ks_clock_start(&c, 1, 500);
  srv_ks_clock_stop(&c, 1500);
  cr_assert_eq(c.left_ms[1], 1000);
  cr_assert_not(srv_ks_clock_flagged(&c, 1000000), "stopped");
}

/* ---- the table ---- */

/* A table with both players seated and the game started at time 0. */
static void seated_table(srv_ks_table *t, int64_t main_ms, int64_t byoyomi_ms) {
  char err[160];
  cr_assert_eq(srv_ks_table_init(t, main_ms, byoyomi_ms, err, sizeof err), 0, "%s", err);
  cr_assert_eq(srv_ks_table_start(t, 0), SRV_ERR_SEATS_EMPTY);
  cr_assert_eq(srv_ks_table_sit(t, KS_BLACK, BLACK_PLAYER), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_sit(t, KS_BLACK, WHITE_PLAYER), SRV_ERR_SEAT_TAKEN);
  cr_assert_eq(srv_ks_table_sit(t, KS_WHITE, BLACK_PLAYER), SRV_ERR_ALREADY_SEATED);
  cr_assert_eq(srv_ks_table_sit(t, 2, WHITE_PLAYER), SRV_ERR_SEAT_INVALID);
  cr_assert_eq(srv_ks_table_sit(t, KS_WHITE, WHITE_PLAYER), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_start(t, 0), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_sit(t, KS_WHITE, SPECTATOR), SRV_ERR_TABLE_STARTED);
}

/* The notation of the side to move's first legal move, as libkoshogi writes it. */
static void first_legal_move(const srv_ks_table *t, char text[KS_MOVE_TEXT]) {
  ks_move moves[KS_MAX_MOVES];
  int n = ks_legal_moves(&t->game.pos, moves, KS_MAX_MOVES);
  cr_assert_gt(n, 0);
  cr_assert_gt(ks_move_format(&t->game.pos, &moves[0], text, KS_MOVE_TEXT), 0);
}

Test(ks_table, refuses_a_spectators_move_a_move_out_of_turn_and_an_illegal_move) {
  srv_ks_table t;
  seated_table(&t, 60000, 10000);
  char move[KS_MOVE_TEXT], err[160] = "";
  first_legal_move(&t, move);
  cr_assert_eq(srv_ks_table_move(&t, SPECTATOR, move, 100, err, sizeof err), SRV_ERR_NOT_SEATED);
  cr_assert_eq(srv_ks_table_move(&t, WHITE_PLAYER, move, 100, err, sizeof err), SRV_ERR_WRONG_SEAT);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, "GE-1a", 100, err, sizeof err), SRV_ERR_ILLEGAL_MOVE);
  cr_assert_neq(err[0], '\0', "the refusal says why");
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, "no move", 100, err, sizeof err), SRV_ERR_ILLEGAL_MOVE);
  cr_assert_eq(t.game.nplies, 0, "nothing refused was played");
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, move, 100, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  cr_assert_eq(t.game.nplies, 1);
  cr_assert_eq(t.clock.running, KS_WHITE);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, move, 200, err, sizeof err), SRV_ERR_WRONG_SEAT,
               "Black moved already");
  cr_assert_eq(srv_ks_table_resign(&t, SPECTATOR, 200), SRV_ERR_NOT_SEATED);
  cr_assert_eq(srv_ks_table_offer_draw(&t, SPECTATOR, 200), SRV_ERR_NOT_SEATED);
  srv_ks_table_free(&t);
}

Test(ks_table, the_server_clock_decides_a_flag_fall_and_a_late_move_is_refused) {
  srv_ks_table t;
  seated_table(&t, 2000, 0);
  char move[KS_MOVE_TEXT], err[160];
  first_legal_move(&t, move);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, move, 1500, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  cr_assert_not(srv_ks_table_tick(&t, 3499), "White has 2 s from 1.5 s");
  first_legal_move(&t, move);
  /* White's move comes after its flag fell: the server does not take it, White lost on time */
  cr_assert_eq(srv_ks_table_move(&t, WHITE_PLAYER, move, 3600, err, sizeof err), SRV_ERR_NOT_PLAYING);
  cr_assert(srv_ks_table_over(&t));
  cr_assert_eq(t.end, SRV_KS_END_TIME);
  cr_assert_eq(t.result, KS_BLACK_WINS);
  cr_assert_eq(t.clock.left_ms[KS_WHITE], 0);
  cr_assert_eq(t.clock.left_ms[KS_BLACK], 500);
  cr_assert_eq(t.game.nplies, 1);
  srv_ks_table_free(&t);

  seated_table(&t, 2000, 0);
  cr_assert_not(srv_ks_table_tick(&t, 1999));
  cr_assert(srv_ks_table_tick(&t, 2000), "the tick at the deadline ends the game");
  cr_assert_not(srv_ks_table_tick(&t, 2001), "only once");
  cr_assert_eq(t.result, KS_WHITE_WINS);
  cr_assert_eq(srv_ks_table_resign(&t, WHITE_PLAYER, 2100), SRV_ERR_NOT_PLAYING);
  srv_ks_table_free(&t);
}

Test(ks_table, resignation_on_either_turn_ends_the_game) {
  srv_ks_table t;
  seated_table(&t, 0, 0);
  char err[160];
  cr_assert_eq(srv_ks_table_resign(&t, WHITE_PLAYER, 100), SRV_ERROR_NONE, "White resigns on Black's turn");
  cr_assert_eq(t.result, KS_BLACK_WINS);
  cr_assert_eq(t.end, SRV_KS_END_RESIGNATION);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, "no move", 200, err, sizeof err), SRV_ERR_NOT_PLAYING);
  srv_ks_table_free(&t);
}

Test(ks_table, a_draw_offer_is_accepted_declined_or_lapses_with_a_move) {
  srv_ks_table t;
  seated_table(&t, 60000, 0);
  char move[KS_MOVE_TEXT], err[160];
  cr_assert_eq(srv_ks_table_answer_draw(&t, WHITE_PLAYER, true, 10), SRV_ERR_DRAW_NOT_OFFERED);
  cr_assert_eq(srv_ks_table_offer_draw(&t, BLACK_PLAYER, 10), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_answer_draw(&t, BLACK_PLAYER, true, 20), SRV_ERR_DRAW_NOT_OFFERED,
               "nobody accepts their own offer");
  cr_assert_eq(srv_ks_table_answer_draw(&t, WHITE_PLAYER, false, 20), SRV_ERROR_NONE);
  cr_assert_eq(t.draw_offer, -1);
  cr_assert_eq(srv_ks_table_answer_draw(&t, WHITE_PLAYER, true, 30), SRV_ERR_DRAW_NOT_OFFERED, "declined");

  /* White offers on Black's turn; Black plays on instead: the offer lapses */
  cr_assert_eq(srv_ks_table_offer_draw(&t, WHITE_PLAYER, 40), SRV_ERROR_NONE);
  first_legal_move(&t, move);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, move, 50, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  cr_assert_eq(srv_ks_table_answer_draw(&t, BLACK_PLAYER, true, 60), SRV_ERR_DRAW_NOT_OFFERED);

  cr_assert_eq(srv_ks_table_offer_draw(&t, BLACK_PLAYER, 70), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_answer_draw(&t, WHITE_PLAYER, true, 80), SRV_ERROR_NONE);
  cr_assert(srv_ks_table_over(&t));
  cr_assert_eq(t.result, KS_NO_CONTEST);
  cr_assert_eq(t.end, SRV_KS_END_AGREEMENT);
  cr_assert_eq(t.clock.running, -1, "the clock stopped");
  srv_ks_table_free(&t);
}

/* ---- the computer's levels ---- */

Test(ks_levels, each_level_plays_a_legal_move_within_its_node_budget_and_the_same_move_again) {
  ks_searcher *searcher = ks_searcher_new(16);
  cr_assert_not_null(searcher);
  srv_ks_table t;
  seated_table(&t, 0, 0);
  char first[KS_MOVE_TEXT], err[160];
  first_legal_move(&t, first);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, first, 0, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  int count;
  const srv_ks_level *levels = srv_ks_levels(&count);
  cr_assert_geq(count, 2);
  /* the two weakest levels: the stronger ones take seconds under the sanitizers */
  for (int i = 0; i < 2; i++) {
    char move[KS_MOVE_TEXT], again[KS_MOVE_TEXT];
    ks_search_info info;
    cr_assert_eq(srv_ks_level_find(levels[i].name), &levels[i]);
    cr_assert_eq(srv_ks_think(searcher, &t.game, &levels[i], move, &info), 0);
    cr_assert_leq(info.nodes, levels[i].nodes, "%s searched %ld nodes", levels[i].name, info.nodes);
    cr_assert_gt(info.nodes, levels[i].nodes / 2, "%s stopped early: %ld nodes", levels[i].name, info.nodes);
    ks_move parsed;
    cr_assert_eq(ks_move_parse(&t.game.pos, move, &parsed, err, sizeof err), 0, "%s: %s", move, err);
    cr_assert_eq(srv_ks_think(searcher, &t.game, &levels[i], again, NULL), 0);
    cr_assert_str_eq(again, move, "the same game gets the same move");
  }
  cr_assert_null(srv_ks_level_find("ks-grandmaster"));
  cr_assert_null(srv_ks_level_find("expert"), "Goita's level names are not Ko shogi's");
  srv_ks_table_free(&t);
  ks_searcher_free(searcher);
}

/* ---- the table's message ---- */

static json_t *table_message(const srv_ks_table *t, int64_t now) {
  char *text = srv_ks_message_table(t, 7, now);
  cr_assert_not_null(text);
  json_error_t jerr;
  json_t *msg = json_loads(text, 0, &jerr);
  cr_assert_not_null(msg, "%s: %s", jerr.text, text);
  free(text);
  return msg;
}

static int64_t time_field(json_t *msg, const char *side, const char *field) {
  return json_integer_value(json_object_get(json_object_get(json_object_get(msg, "clock"), side), field));
}

Test(ks_message, shows_the_moves_both_clocks_by_the_servers_time_the_offer_and_the_end) {
  srv_ks_table t;
  seated_table(&t, 5000, 1000);
  char move[KS_MOVE_TEXT], err[160];
  first_legal_move(&t, move);
  cr_assert_eq(srv_ks_table_move(&t, BLACK_PLAYER, move, 1200, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  cr_assert_eq(srv_ks_table_offer_draw(&t, BLACK_PLAYER, 1300), SRV_ERROR_NONE);
  json_t *msg = table_message(&t, 6700); /* White has thought 5.5 s: its main time and half its byoyomi */
  cr_assert_str_eq(json_string_value(json_object_get(msg, "type")), "ks_table");
  cr_assert_eq(json_integer_value(json_object_get(msg, "table")), 7);
  cr_assert_str_eq(json_string_value(json_object_get(msg, "to_move")), "white");
  json_t *moves = json_object_get(msg, "moves");
  cr_assert_eq(json_array_size(moves), 1);
  cr_assert_str_eq(json_string_value(json_array_get(moves, 0)), move);
  cr_assert_eq(time_field(msg, "black", "main_ms"), 3800);
  cr_assert_eq(time_field(msg, "black", "byoyomi_ms"), 1000);
  cr_assert_eq(time_field(msg, "white", "main_ms"), 0);
  cr_assert_eq(time_field(msg, "white", "byoyomi_ms"), 500);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(msg, "clock"), "running")), "white");
  cr_assert_str_eq(json_string_value(json_object_get(msg, "draw_offer")), "black");
  cr_assert(json_is_null(json_object_get(msg, "result")));
  /* the position sent is the one the moves lead to */
  ks_position pos;
  int number;
  cr_assert_eq(ks_position_parse(json_string_value(json_object_get(msg, "position")), &pos, &number, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(ks_key(&pos), ks_key(&t.game.pos));
  json_decref(msg);

  cr_assert(srv_ks_table_tick(&t, 7200));
  msg = table_message(&t, 9000);
  cr_assert_str_eq(json_string_value(json_object_get(msg, "result")), "black");
  cr_assert_str_eq(json_string_value(json_object_get(msg, "end")), "time");
  cr_assert(json_is_null(json_object_get(json_object_get(msg, "clock"), "running")));
  cr_assert(json_is_null(json_object_get(msg, "draw_offer")));
  cr_assert_eq(time_field(msg, "white", "main_ms"), 0);
  cr_assert_eq(time_field(msg, "black", "main_ms"), 3800, "a stopped clock does not run");
  json_decref(msg);
  srv_ks_table_free(&t);
}

Test(ks_message, writes_each_move_as_it_was_played) {
  srv_ks_table t;
  seated_table(&t, 0, 0);
  char played[4][KS_MOVE_TEXT], err[160];
  for (int ply = 0; ply < 4; ply++) {
    first_legal_move(&t, played[ply]);
    int64_t player = ply % 2 == 0 ? BLACK_PLAYER : WHITE_PLAYER;
    cr_assert_eq(srv_ks_table_move(&t, player, played[ply], ply, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  }
  json_t *msg = table_message(&t, 10);
  json_t *moves = json_object_get(msg, "moves");
  cr_assert_eq(json_array_size(moves), 4);
  for (int ply = 0; ply < 4; ply++) cr_assert_str_eq(json_string_value(json_array_get(moves, (size_t)ply)), played[ply]);
  cr_assert_eq(json_integer_value(json_object_get(msg, "move_number")), 3);
  json_decref(msg);
  srv_ks_table_free(&t);
}

/* ---- Ko shogi ratings ---- */

/* Plays the side to move's first legal move for each of plies plies. */
static void play_plies(srv_ks_table *t, int plies) {
  char move[KS_MOVE_TEXT], err[160];
  for (int i = 0; i < plies; i++) {
    first_legal_move(t, move);
    int64_t player = t->seats[t->game.pos.to_move];
    cr_assert_eq(srv_ks_table_move(t, player, move, i, err, sizeof err), SRV_ERROR_NONE, "%s", err);
  }
}

Test(ks_rating, two_newcomers_move_by_the_worked_example_of_docs_koshogi) {
  const srv_ks_rating before[2] = {{1500, 350}, {1500, 350}};
  srv_ks_rating after[2];
  srv_ks_table t;
  seated_table(&t, 0, 0);
  play_plies(&t, 2);
  cr_assert_eq(srv_ks_table_resign(&t, WHITE_PLAYER, 10), SRV_ERROR_NONE);
  cr_assert(srv_ks_rate(&t, before, after));
  /* v = 350² + 10², c = √(2v + 2·100²) = 514.98, p = ½: Black gains v/c · ½ */
  cr_assert_float_eq(after[KS_BLACK].rating, 1619.03, 0.01);
  cr_assert_float_eq(after[KS_WHITE].rating, 1380.97, 0.01);
  cr_assert_float_eq(after[KS_BLACK].deviation, 329.29, 0.01);
  srv_ks_table_free(&t);

  seated_table(&t, 0, 0);
  play_plies(&t, 2);
  cr_assert_eq(srv_ks_table_offer_draw(&t, BLACK_PLAYER, 10), SRV_ERROR_NONE);
  cr_assert_eq(srv_ks_table_answer_draw(&t, WHITE_PLAYER, true, 10), SRV_ERROR_NONE);
  cr_assert(srv_ks_rate(&t, before, after));
  cr_assert_float_eq(after[KS_BLACK].rating, 1500, 1e-9, "a draw between equals moves nobody");
  cr_assert_lt(after[KS_BLACK].deviation, 350);
  srv_ks_table_free(&t);
}

Test(ks_rating, a_game_ended_before_each_side_moved_is_not_rated) {
  const srv_ks_rating before[2] = {{1600, 80}, {1400, 120}};
  srv_ks_rating after[2];
  srv_ks_table t;
  seated_table(&t, 0, 0);
  cr_assert_not(srv_ks_rate(&t, before, after), "not over");
  play_plies(&t, 1);
  cr_assert_eq(srv_ks_table_resign(&t, BLACK_PLAYER, 10), SRV_ERROR_NONE);
  cr_assert_not(srv_ks_rate(&t, before, after), "White never moved");
  cr_assert_eq(after[KS_BLACK].rating, 1600);
  cr_assert_eq(after[KS_WHITE].deviation, 120);
  srv_ks_table_free(&t);
}

/* What a table's creator may ask for at its creation (docs/SERVER.md "create"), through the
 * hub driven directly (no network, a fake clock): "sit": true seats the creator in the first
 * seat; without it the creator only watches, as before; a bad value is refused. The time
 * control (docs/SERVER.md "Time controls"): a bank that runs down, a byoyomi afresh at every
 * move, the table's choice played when a clock runs out, the clocks kept by a restored table.
 * "take_over": a spectator may take the seat of a person gone for good. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "hub_harness.h"
#include "store.h"

#define CLIENTS 5

/* Disconnected clients: their last states are stale. */
static bool gone[CLIENTS + 1];

TestSuite(table_options, .init = hub_harness_setup, .fini = hub_harness_teardown);

Test(table_options, sit_on_create_seats_the_creator_first) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":true}");
  client_state *c = &w.clients[1];
  cr_assert_eq(c->errors, 0, "%s", c->last_error);
  cr_assert(c->created && c->seated && c->last_state, "created, seated and state expected");
  const json_int_t table = json_integer_value(json_object_get(c->created, "table"));
  cr_assert_eq(json_integer_value(json_object_get(c->created, "seat")), 0, "created says the seat taken");
  cr_assert_lt(first_of_type(1, "created"), first_of_type(1, "seated"), "created comes before seated");
  cr_assert_eq(json_integer_value(json_object_get(c->seated, "table")), table);
  cr_assert_eq(json_integer_value(json_object_get(c->seated, "seat")), 0);
  cr_assert_eq(json_integer_value(json_object_get(c->last_state, "seat")), 0, "the state is the first seat's");
  json_t *seat0 = json_array_get(json_object_get(c->last_state, "seats"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(seat0, "name")), "Aki");
  cr_assert_null(json_object_get(listed(1, (int)table), "bank_seconds"), "a table without a bank lists one");

  /* the seat is a seat like any other: another person cannot take it, and sitting again is refused */
  connect_client(2, "Ben");
  say(2, "{\"type\":\"sit\",\"table\":%lld,\"seat\":0}", (long long)table);
  cr_assert_gt(w.clients[2].errors, 0, "a taken seat was given to another");
  say(1, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)table);
  cr_assert_gt(c->errors, 0, "the creator sat twice");
  cr_assert(strstr(c->last_error, "already sit"), "%s", c->last_error);
}

Test(table_options, without_sit_the_creator_only_creates) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\"}");
  client_state *c = &w.clients[1];
  cr_assert_eq(c->errors, 0);
  cr_assert(c->created);
  cr_assert_null(json_object_get(c->created, "seat"));
  cr_assert_eq(first_of_type(1, "seated"), -1, "seated without asking");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":false}");
  cr_assert_eq(c->errors, 0);
  cr_assert_eq(first_of_type(1, "seated"), -1, "seated with sit false");
}

Test(table_options, sit_must_be_true_or_false) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":1}");
  client_state *c = &w.clients[1];
  cr_assert_gt(c->errors, 0, "sit: 1 was taken");
  cr_assert_str_eq(c->last_error, "field \"sit\": expected true or false");
  cr_assert_null(c->created);
}

/* Four people at a table with the given create options (JSON members after the rules), its
 * game started; returns the table. */
static int64_t four_people_with(const char *rules, const char *options) {
  const char *names[] = {"Aki", "Ben", "Chi", "Dan"};
  for (int i = 1; i <= 4; i++) connect_client((uint64_t)i, names[i - 1]);
  say(1, "{\"type\":\"create\",\"rules\":\"%s\",\"sit\":true,%s}", rules, options);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  const json_int_t table = json_integer_value(json_object_get(w.clients[1].created, "table"));
  for (int i = 2; i <= 4; i++) {
    say((uint64_t)i, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, i - 1);
    cr_assert_eq(w.clients[i].errors, 0, "%s", w.clients[i].last_error);
  }
  say(1, "{\"type\":\"start\",\"table\":%lld}", (long long)table);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  return (int64_t)table;
}

static int64_t four_people(const char *options) { return four_people_with("players=4", options); }

/* The client whose seat is to move (its last state offers it moves), or 0. */
static uint64_t mover(void) {
  for (uint64_t i = 1; i <= CLIENTS; i++) {
    if (gone[i]) continue;
    json_t *legal = json_object_get(json_object_get(w.clients[i].last_state, "game"), "legal");
    if (json_array_size(legal) > 0) return i;
  }
  return 0;
}

static int seat_of(uint64_t client) { return (int)json_integer_value(json_object_get(w.clients[client].last_state, "seat")); }

/* The client's last state's field: the turn timer's seconds left, or a seat's bank left. */
static int seconds_left(uint64_t client) {
  return (int)json_integer_value(json_object_get(w.clients[client].last_state, "seconds_left"));
}

static int bank_left(uint64_t client, int seat) {
  json_t *s = json_array_get(json_object_get(w.clients[client].last_state, "seats"), (size_t)seat);
  cr_assert(json_object_get(s, "bank_left"), "seat %d shows no bank", seat);
  return (int)json_integer_value(json_object_get(s, "bank_left"));
}

/* The mover's first legal move, or its pass when want_pass; returns whether one was played. */
static bool play(uint64_t client, bool want_pass, int64_t table) {
  json_t *legal = json_object_get(json_object_get(w.clients[client].last_state, "game"), "legal");
  for (size_t i = 0; i < json_array_size(legal); i++) {
    const char *move = json_string_value(json_array_get(legal, i));
    if (want_pass && move[strlen(move) - 1] != 'p') continue;
    say(client, "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
    cr_assert_eq(w.clients[client].errors, 0, "%s", w.clients[client].last_error);
    return true;
  }
  return false;
}

/* Plays the others' first moves at once until the client is to move again. */
static void others_play_until(uint64_t client, int64_t table) {
  for (int guard = 0; guard < 64 && mover() != client; guard++) {
    cr_assert_neq(mover(), 0, "nobody is to move");
    play(mover(), false, table);
  }
  cr_assert_eq(mover(), client, "the client's turn never came back");
}

Test(table_options, the_bank_runs_down_then_the_byoyomi_is_afresh_at_each_move) {
  const int64_t table = four_people("\"turn_seconds\":10,\"bank_seconds\":30");
  const uint64_t m = mover();
  cr_assert_neq(m, 0);
  connect_client(9, "Lobby");
  json_t *row = listed(9, (int)table); /* the lobby shows the time control */
  cr_assert_not_null(row);
  cr_assert_eq(int_of(row, "bank_seconds"), 30);
  cr_assert_eq(int_of(row, "turn_seconds"), 10);
  const int seat = seat_of(m);
  cr_assert_eq(seconds_left(m), 40, "the first turn has the whole bank and the byoyomi");
  cr_assert_eq(bank_left(m, seat), 30);

  w.now += 12000; /* 12 s out of the bank */
  play(m, false, table);
  cr_assert_eq(bank_left(m, seat), 18, "the bank ran down by the time taken");
  for (int s = 0; s < 4; s++)
    if (s != seat) cr_assert_eq(bank_left(m, s), 30, "seat %d's bank moved with another's turn", s);

  others_play_until(m, table);
  cr_assert_eq(seconds_left(m), 28, "the bank left and the byoyomi");
  w.now += 25000; /* the bank and 7 s of the byoyomi */
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 0, "timed out within its time");
  play(m, false, table);
  cr_assert_eq(bank_left(m, seat), 0);

  others_play_until(m, table);
  cr_assert_eq(seconds_left(m), 10, "the byoyomi afresh, the bank empty");
  w.now += 9000;
  srv_hub_tick(w.hub);
  play(m, false, table);
  others_play_until(m, table);
  cr_assert_eq(seconds_left(m), 10, "the byoyomi afresh again");
  cr_assert_eq(w.njobs, 0, "nobody ran out of time");
}

Test(table_options, a_clock_that_runs_out_passes_at_a_pass_first_table) {
  const int64_t table = four_people("\"turn_seconds\":5,\"bank_seconds\":20,\"on_timeout\":\"pass\"");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last_state, "on_timeout")), "pass");
  /* the first to move leads, so the next may pass */
  play(mover(), false, table);
  const uint64_t late = mover();
  const int seat = seat_of(late);
  json_t *before = json_deep_copy(json_object_get(json_object_get(w.clients[late].last_state, "game"), "history"));
  w.now += 24000;
  srv_hub_tick(w.hub);
  cr_assert_eq(mover(), late, "played before its bank and byoyomi were gone");
  w.now += 2000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 0, "the computer was asked rather than a pass played");
  cr_assert_neq(mover(), late, "no move was played for the seat out of time");
  const char *history = json_string_value(json_object_get(json_object_get(w.clients[late].last_state, "game"), "history"));
  char pass[16];
  snprintf(pass, sizeof pass, "%dp", seat + 1);
  cr_assert(strstr(history, pass) && !strstr(json_string_value(before), pass), "no pass of seat %d in %s", seat, history);
  json_decref(before);
  cr_assert_eq(bank_left(late, seat), 0, "the bank is spent");
}

Test(table_options, a_clock_that_runs_out_where_no_pass_is_allowed_asks_the_computer) {
  four_people("\"turn_seconds\":5,\"on_timeout\":\"pass\"");
  const uint64_t leader = mover(); /* a lead cannot be passed */
  w.now += 6000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 1, "the computer's move was not asked for");
  cr_assert_eq(w.jobs[w.njobs - 1].view.seat, seat_of(leader));
}

Test(table_options, a_clock_that_runs_out_asks_the_computer_by_default) {
  const int64_t table = four_people("\"turn_seconds\":5");
  cr_assert_null(json_object_get(w.clients[1].last_state, "on_timeout"), "pass-first shown though not chosen");
  play(mover(), false, table);
  const uint64_t late = mover(); /* may pass, but the table chose the computer's move */
  w.now += 6000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 1, "the computer's move was not asked for");
  cr_assert_eq(w.jobs[w.njobs - 1].view.seat, seat_of(late));
  cr_assert_eq(mover(), late, "a move was played at once");
}

Test(table_options, a_restored_table_keeps_its_clocks) {
  const int64_t table = four_people("\"turn_seconds\":10,\"bank_seconds\":30,\"on_timeout\":\"pass\"");
  const uint64_t m = mover();
  const int seat = seat_of(m);
  w.now += 12000;
  play(m, false, table);
  close_hub(); /* the server stops; another starts on its database */
  open_hub(0);
  connect_client(5, "Eve");
  say(5, "{\"type\":\"watch\",\"table\":%lld}", (long long)table);
  cr_assert_eq(w.clients[5].errors, 0, "%s", w.clients[5].last_error);
  client_state *eve = &w.clients[5];
  cr_assert_eq(json_integer_value(json_object_get(eve->last_state, "bank_seconds")), 30);
  cr_assert_str_eq(json_string_value(json_object_get(eve->last_state, "on_timeout")), "pass");
  for (int s = 0; s < 4; s++) cr_assert_eq(bank_left(5, s), s == seat ? 18 : 30, "seat %d's bank after the restore", s);
  cr_assert_eq(seconds_left(5), 40, "the seat to move has its bank and the byoyomi");
}

Test(table_options, time_control_values_are_checked) {
  connect_client(1, "Aki");
  client_state *c = &w.clients[1];
  say(1, "{\"type\":\"create\",\"bank_seconds\":-1}");
  cr_assert_gt(c->errors, 0);
  cr_assert_str_eq(c->last_error,
                   "field \"bank_seconds\": expected 0 (no bank) to 3600 seconds");
  say(1, "{\"type\":\"create\",\"on_timeout\":\"wait\"}");
  cr_assert_str_eq(c->last_error,
                   "field \"on_timeout\": expected \"pass\" (pass when allowed) or \"computer\" (the computer's move)");
  cr_assert_null(c->created);
}

/* The client 4's person goes for good (past the seat grace): a computer stands in. Returns
 * their seat. */
static int fourth_gone_for_good(void) {
  const int seat = seat_of(4);
  srv_hub_disconnect(w.hub, 4);
  gone[4] = true;
  w.now += 61000;
  srv_hub_tick(w.hub);
  json_t *s = json_array_get(json_object_get(w.clients[1].last_state, "seats"), (size_t)seat);
  cr_assert(json_is_true(json_object_get(s, "stand_in")), "no stand-in for the gone person");
  return seat;
}

Test(table_options, a_spectator_takes_over_a_gone_persons_seat_when_the_table_allows_it) {
  const int64_t table = four_people("\"turn_seconds\":10,\"bank_seconds\":30,\"take_over\":true");
  cr_assert(json_is_true(json_object_get(w.clients[1].last_state, "take_over")));
  char gone_token[SRV_TOKEN_SIZE];
  snprintf(gone_token, sizeof gone_token, "%s", json_string_value(json_object_get(w.clients[4].seated, "seat_token")));
  const int seat = fourth_gone_for_good();
  connect_client(5, "Eve");
  client_state *eve = &w.clients[5];
  say(5, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, (seat + 1) % 4);
  cr_assert_gt(eve->errors, 0, "a spectator took a seat whose person is here");
  cr_assert_str_eq(eve->last_code, "not_at_table", "%s", eve->last_error);
  say(5, "{\"type\":\"watch\",\"table\":%lld}", (long long)table);
  say(5, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, (seat + 1) % 4);
  cr_assert_str_eq(eve->last_code, "seat_taken", "a present person's seat was taken");
  eve->errors = 0;

  say(5, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, seat);
  cr_assert_eq(eve->errors, 0, "%s", eve->last_error);
  cr_assert(eve->seated, "no seat token for the one who took over");
  cr_assert_eq(seat_of(5), seat, "the state is not the seat's");
  json_t *s = json_array_get(json_object_get(w.clients[1].last_state, "seats"), (size_t)seat);
  cr_assert_str_eq(json_string_value(json_object_get(s, "name")), "Eve");
  cr_assert_null(json_object_get(s, "stand_in"), "the stand-in did not give way");
  cr_assert_eq(json_integer_value(json_object_get(s, "bank_left")), 30, "the seat's bank did not go with it");
  cr_assert(json_is_true(json_object_get(s, "connected")));

  /* the one who took over plays the seat: at its turn the timer is its, no computer is asked */
  const int jobs = w.njobs;
  others_play_until(5, table);
  cr_assert_eq(w.njobs, jobs, "the computer was asked for the taken seat");
  cr_assert_eq(seconds_left(5), 40);
  play(5, false, table);

  /* the gone person's token opens nothing any more */
  srv_hub_connect(w.hub, 4);
  say(4, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", gone_token);
  cr_assert_gt(w.clients[4].errors, 0, "the gone person resumed a seat taken over");
  cr_assert_str_eq(w.clients[4].last_code, "seat_unknown");

  /* a restored table still lets spectators take over */
  w.clients[4].errors = 0;
  close_hub();
  open_hub(0);
  connect_client(4, "Dan");
  say(4, "{\"type\":\"watch\",\"table\":%lld}", (long long)table);
  cr_assert(json_is_true(json_object_get(w.clients[4].last_state, "take_over")), "the restored table forgot take_over");
}

Test(table_options, without_take_over_a_started_tables_seats_stay_closed) {
  const int64_t table = four_people("\"turn_seconds\":10");
  const int seat = fourth_gone_for_good();
  connect_client(5, "Eve");
  say(5, "{\"type\":\"watch\",\"table\":%lld}", (long long)table);
  say(5, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, seat);
  cr_assert_gt(w.clients[5].errors, 0, "a seat was taken over at a table that does not allow it");
  cr_assert_str_eq(w.clients[5].last_code, "table_started");
}

Test(table_options, a_seat_taken_over_is_rated_for_the_one_who_left) {
  const int64_t table = four_people_with("players=4,target=1", "\"take_over\":true");
  const int seat = fourth_gone_for_good();
  connect_client(5, "Eve");
  say(5, "{\"type\":\"watch\",\"table\":%lld}", (long long)table);
  say(5, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)table, seat);
  cr_assert_eq(w.clients[5].errors, 0, "%s", w.clients[5].last_error);
  for (int guard = 0; mover() != 0; guard++) {
    cr_assert_lt(guard, 500, "the game did not end");
    play(mover(), false, table);
  }
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last_state, "status")), "over");
  srv_game_row game;
  int count = 0;
  cr_assert_eq(srv_store_games(w.store, 0, &game, 1, &count), 0);
  cr_assert_eq(count, 1);
  cr_assert_str_eq(game.names[seat], "Dan", "the game names the one who took over");
  srv_rating_row history[4];
  cr_assert_eq(srv_store_rating_history(w.store, game.players[seat], history, 4, &count), 0);
  cr_assert_eq(count, 1, "the one who left was not rated");
  int eves = 0;
  for (int64_t id = 1; id <= 16; id++) {
    srv_player p;
    if (srv_store_player_get(w.store, id, &p) != 0 || strcmp(p.name, "Eve") != 0) continue;
    eves++;
    cr_assert_eq(p.games, 0, "the one who took over was rated for the game");
  }
  cr_assert_eq(eves, 1);
}

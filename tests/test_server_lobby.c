/* Finding a game: lobby pages then only changes, games paged, quick match and rematch. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "hub_harness.h"
#include "hub_state.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* With 3,000 tables, `list` sends one page and the total; another page comes on request; and
 * from then on a listener gets one small event per changed table per tick, not the list. */
Test(server, lobby_sends_pages_then_only_changes) {
  enum { TABLES = 3000 };
  connect_client(1, "Ann");
  int first = 0, last = 0;
  for (int i = 0; i < TABLES; i++) {
    last = create_table(1);
    if (!first) first = last;
  }
  srv_hub_tick(w.hub); /* nobody listens yet */
  srv_hub_connect(w.hub, 2);
  say(2, "{\"type\":\"list\"}");
  json_t *page = w.clients[2].last;
  cr_assert_str_eq(last_type(2), "tables");
  cr_assert_eq(json_array_size(json_object_get(page, "tables")), 50, "a page has 50 tables unless asked");
  cr_assert_eq(json_integer_value(json_object_get(page, "total")), TABLES);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(page, "tables"), 0), "id")), first);
  const json_int_t next = json_integer_value(json_object_get(page, "next"));
  cr_assert_eq(next, first + 49);
  cr_assert_lt(w.clients[2].last_len, 25000, "a page of 50 tables takes %zu bytes", w.clients[2].last_len);
  say(2, "{\"type\":\"list\",\"after\":%lld,\"limit\":200}", (long long)next);
  page = w.clients[2].last;
  cr_assert_eq(json_array_size(json_object_get(page, "tables")), 200);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(page, "tables"), 0), "id")), next + 1);
  say(2, "{\"type\":\"list\",\"after\":%d}", last - 1);
  cr_assert_eq(json_array_size(json_object_get(w.clients[2].last, "tables")), 1);
  cr_assert(json_is_null(json_object_get(w.clients[2].last, "next")), "the last page has no next");
  say(2, "{\"type\":\"list\",\"limit\":201}");
  cr_assert(strstr(w.clients[2].last_error, "expected 1 to 200 rows"), "%s", w.clients[2].last_error);

  /* Two changes to one table in a tick: one "changed" event, of a few hundred bytes. */
  connect_client(3, "Ben");
  const int received = w.clients[2].received;
  say(3, "{\"type\":\"sit\",\"table\":%d,\"seat\":1}", first + 10);
  say(3, "{\"type\":\"bot\",\"table\":%d,\"seat\":0,\"level\":\"random\"}", first + 10);
  cr_assert_eq(w.clients[2].received, received, "the lobby was sent something before the tick");
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[2].received, received + 1, "one change, one message");
  json_int_t id;
  cr_assert_str_eq(last_event(2, &id), "changed");
  cr_assert_eq(id, first + 10);
  json_t *seats = json_object_get(json_object_get(w.clients[2].last_lobby, "table"), "seats");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Ben");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 0), "bot")), "random");
  cr_assert_lt(w.clients[2].largest_lobby, 600, "a lobby event takes %zu bytes", w.clients[2].largest_lobby);

  /* A new table: "created"; its game over: "removed". */
  const uint64_t ben[1] = {3};
  const int table = table_with("", 0, ben, 1, "random");
  srv_hub_tick(w.hub);
  cr_assert_str_eq(last_event(2, &id), "created", "a table created and started in one tick is announced once");
  cr_assert_eq(id, table);
  cr_assert_str_eq(json_string_value(json_object_get(json_object_get(w.clients[2].last_lobby, "table"), "status")),
                   "playing");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[2].last_lobby, "total")), TABLES + 1);
  const int events = w.clients[2].lobby_events;
  play_out(ben, 1);
  srv_hub_tick(w.hub);
  cr_assert_str_eq(last_event(2, &id), "removed");
  cr_assert_eq(id, table);
  cr_assert_eq(w.clients[2].lobby_events, events + 1, "moves are not lobby events");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[2].last_lobby, "total")), TABLES);
  cr_assert_lt(w.clients[2].largest_lobby, 600);
}

/* Finished games come newest first, a page at a time, with a cursor to the next page. */
Test(server, games_are_paged) {
  const uint64_t ann[1] = {1};
  connect_client(1, "Ann");
  for (int game = 0; game < 3; game++) {
    table_with("target=50", 0, ann, 1, "random");
    play_out(ann, 1);
  }
  say(1, "{\"type\":\"games\",\"limit\":2}");
  json_t *games = json_object_get(w.clients[1].last, "games");
  cr_assert_eq(json_array_size(games), 2);
  const json_int_t newest = json_integer_value(json_object_get(json_array_get(games, 0), "id"));
  const json_int_t second = json_integer_value(json_object_get(json_array_get(games, 1), "id"));
  cr_assert_gt(newest, second);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].last, "next")), second);
  say(1, "{\"type\":\"games\",\"before\":%lld,\"limit\":2}", (long long)second);
  games = json_object_get(w.clients[1].last, "games");
  cr_assert_eq(json_array_size(games), 1);
  cr_assert_lt(json_integer_value(json_object_get(json_array_get(games, 0), "id")), second);
  cr_assert(json_is_null(json_object_get(w.clients[1].last, "next")));
  say(1, "{\"type\":\"games\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[1].last, "games")), 3);
  cr_assert(json_is_null(json_object_get(w.clients[1].last, "next")));
}
static const char *seat_bot(uint64_t id, int seat) {
  json_t *s = json_array_get(json_object_get(w.clients[id].last_state, "seats"), (size_t)seat);
  return s ? json_string_value(json_object_get(s, "bot")) : "(empty)";
}

/* Says quick for a client: rules, wait and level as given (NULL or -1: not said). */
static void quick(uint64_t id, const char *rules, int wait, const char *level) {
  char fields[600] = "";
  size_t n = 0;
  if (rules) n += (size_t)snprintf(fields + n, sizeof fields - n, ",\"rules\":\"%s\"", rules);
  if (wait >= 0) n += (size_t)snprintf(fields + n, sizeof fields - n, ",\"wait_seconds\":%d", wait);
  if (level) snprintf(fields + n, sizeof fields - n, ",\"level\":\"%s\"", level);
  say(id, "{\"type\":\"quick\"%s}", fields);
}

/* Players asking for the same rules are seated together as soon as there are enough, and the
 * game starts; someone asking for other rules waits on. */
Test(server, quick_match_seats_waiting_players_together) {
  for (uint64_t id = 1; id <= 5; id++) connect_client(id, id == 5 ? "Other" : "Player");
  quick(5, "target=10", 60, NULL);
  for (uint64_t id = 1; id <= 3; id++) {
    quick(id, "", 60, NULL);
    cr_assert_str_eq(type_of(w.clients[id].last), "queued", "%s", w.clients[id].last_error);
    cr_assert_eq(int_of(w.clients[id].queued, "position"), (json_int_t)id);
    cr_assert_eq(int_of(w.clients[id].queued, "waiting"), (json_int_t)id);
    cr_assert_eq(int_of(w.clients[id].queued, "players"), 4);
    cr_assert_eq(int_of(w.clients[id].queued, "seconds_left"), 60);
    cr_assert_eq(int_of(w.clients[1].queued, "waiting"), (json_int_t)id, "the first is told of the others");
  }
  cr_assert_eq(int_of(w.clients[5].queued, "waiting"), 1, "other rules are another queue");
  quick(4, "preset=standard", 60, NULL); /* the same rules said another way */
  const int table = w.clients[1].table;
  cr_assert_gt(table, 0, "not seated");
  for (uint64_t id = 1; id <= 4; id++) {
    cr_assert_eq(w.clients[id].table, table);
    cr_assert_eq(w.clients[id].seat, (int)id - 1, "seated in the order they came");
    cr_assert_str_eq(status_of(id), "playing");
    cr_assert_str_eq(seat_bot(id, (int)id % 4), "", "a computer player at a table of four people");
  }
  cr_assert_eq(w.clients[5].table, 0, "seated with the wrong rules");
  w.now += 59000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[5].table, 0, "seated before the wait was over");
  const uint64_t four[4] = {1, 2, 3, 4};
  play_out(four, 4); /* a game like any other */
  /* a second quick replaces the first, and a bad one says why */
  quick(5, "players=3", 60, NULL);
  cr_assert_eq(int_of(w.clients[5].queued, "players"), 3);
  quick(5, "players=7", 60, NULL);
  expect_error(5, "rules: ");
  quick(5, NULL, 301, NULL);
  expect_error(5, "expected 0 to 300 seconds");
  quick(5, NULL, 5, "genius");
  expect_error(5, "not a level");
  srv_hub_connect(w.hub, 6);
  quick(6, NULL, 5, NULL);
  expect_error(6, "say hello first");
}

/* When the wait someone chose is over, those waiting are seated with computer players of the
 * level it chose in the other seats, and the game starts; wait 0 starts at once. */
Test(server, quick_match_fills_with_computers_after_the_wait) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Cho");
  quick(1, "target=10", 5, "random");
  quick(2, "target=10", 30, "sampler");
  cr_assert_eq(int_of(w.clients[2].queued, "position"), 2);
  cr_assert_eq(int_of(w.clients[2].queued, "seconds_left"), 5, "the table is made when the shortest wait is over");
  w.now += 4900;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[1].table, 0, "seated before the wait was over");
  w.now += 200;
  srv_hub_tick(w.hub);
  const int table = w.clients[1].table;
  cr_assert_gt(table, 0, "not seated after the wait");
  cr_assert_eq(w.clients[2].table, table, "those waiting together are seated together");
  cr_assert_str_eq(status_of(1), "playing");
  cr_assert_str_eq(seat_name(1, 0), "Ann");
  cr_assert_str_eq(seat_name(1, 1), "Ben");
  cr_assert_str_eq(seat_bot(1, 2), "random", "the level of the one whose wait was over");
  cr_assert_str_eq(seat_bot(1, 3), "random");
  const uint64_t two[2] = {1, 2};
  play_out(two, 2);
  /* wait 0, default level: at once, with expert computer players */
  quick(3, "players=3", 0, NULL);
  cr_assert_gt(w.clients[3].table, 0, "not seated at once");
  cr_assert_str_eq(status_of(3), "playing");
  cr_assert_str_eq(seat_bot(3, 1), "expert");
  cr_assert_str_eq(seat_bot(3, 2), "expert");
  cr_assert_eq(json_array_size(json_object_get(w.clients[3].last_state, "seats")), 3);
}

/* quick_cancel and a lost connection take a player out of the queue; the others are told, and
 * nobody gone is seated. */
Test(server, quick_match_cancel_and_disconnect_leave_the_queue) {
  for (uint64_t id = 1; id <= 3; id++) connect_client(id, "Player");
  say(1, "{\"type\":\"quick_cancel\"}");
  expect_error(1, "you are not in the quick-match queue");
  quick(1, NULL, 10, NULL);
  quick(2, NULL, 60, NULL);
  quick(3, NULL, 60, NULL);
  cr_assert_eq(int_of(w.clients[1].queued, "waiting"), 3);
  say(2, "{\"type\":\"quick_cancel\"}");
  cr_assert_str_eq(type_of(w.clients[2].last), "quick_cancelled");
  cr_assert_eq(int_of(w.clients[1].queued, "waiting"), 2, "the others are not told");
  cr_assert_eq(int_of(w.clients[3].queued, "position"), 2);
  srv_hub_disconnect(w.hub, 3);
  cr_assert_eq(int_of(w.clients[1].queued, "waiting"), 1, "a lost connection stays in the queue");
  w.now += 10000;
  srv_hub_tick(w.hub);
  cr_assert_gt(w.clients[1].table, 0, "not seated after the wait");
  cr_assert_eq(w.clients[2].table, 0, "seated after cancelling");
  for (int s = 1; s < 4; s++) cr_assert_str_eq(seat_bot(1, s), "expert", "seat %d is not a computer player", s);
  /* the same player from a second connection moves its place there */
  quick(2, NULL, 60, NULL);
  srv_hub_connect(w.hub, 4);
  say(4, "{\"type\":\"hello\",\"player_token\":\"%s\"}", w.clients[2].player_token);
  quick(4, NULL, 60, NULL);
  expect_error(2, "moved to another connection");
  cr_assert_eq(int_of(w.clients[4].queued, "waiting"), 1, "one player waits in two places");
}

/* After a game, a rematch seats the same people and computer players in the same seats at a
 * new table once everyone asked; until then the old table shows who asked. */
Test(server, rematch_seats_the_same_people) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Eve");
  const uint64_t two[2] = {1, 2};
  const int table = table_with("target=10", 0, two, 2, "random");
  say(1, "{\"type\":\"rematch\",\"table\":%d}", table);
  expect_error(1, "is not over");
  play_out(two, 2);
  say(3, "{\"type\":\"watch\",\"table\":%d}", table);
  say(3, "{\"type\":\"rematch\",\"table\":%d}", table);
  expect_error(3, "you do not sit at table");
  say(1, "{\"type\":\"rematch\",\"table\":%d}", table);
  json_t *rematch = json_object_get(w.clients[2].last_state, "rematch");
  cr_assert(rematch, "the old table does not show the ask");
  cr_assert(json_is_true(json_array_get(json_object_get(rematch, "asked"), 0)));
  cr_assert(json_is_false(json_array_get(json_object_get(rematch, "asked"), 1)));
  cr_assert_eq(int_of(rematch, "seconds_left"), 30);
  cr_assert_eq(w.clients[1].table, table, "a rematch before everyone asked");
  say(2, "{\"type\":\"rematch\",\"table\":%d}", table);
  const int next = w.clients[1].table;
  cr_assert_neq(next, table, "no rematch when everyone asked: %s", w.clients[2].last_error);
  cr_assert_eq(w.clients[2].table, next);
  cr_assert_eq(w.clients[1].seat, 0);
  cr_assert_eq(w.clients[2].seat, 1);
  cr_assert_str_eq(status_of(1), "playing");
  cr_assert_str_eq(seat_name(1, 0), "Ann");
  cr_assert_str_eq(seat_name(1, 1), "Ben");
  cr_assert_str_eq(seat_bot(1, 2), "random");
  cr_assert_str_eq(seat_bot(1, 3), "random");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[3].last_state, "rules")),
                   json_string_value(json_object_get(w.clients[1].last_state, "rules")));
  cr_assert_eq(int_of(json_object_get(w.clients[3].last_state, "rematch"), "table"), next, "watchers are not told");
  /* after the wait, the one who asked gets it; the other's seat goes to a computer player */
  play_out(two, 2);
  say(2, "{\"type\":\"rematch\",\"table\":%d}", next);
  w.now += 29000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[2].table, next, "the rematch started before its wait was over");
  w.now += 1500;
  srv_hub_tick(w.hub);
  const int third = w.clients[2].table;
  cr_assert_neq(third, next, "no rematch after the wait");
  cr_assert_eq(w.clients[1].table, next, "seated without asking");
  cr_assert_eq(w.clients[2].seat, 1);
  cr_assert_str_eq(seat_bot(2, 0), "expert", "the seat of someone who did not ask");
  cr_assert_str_eq(seat_name(2, 1), "Ben");
  say(1, "{\"type\":\"rematch\",\"table\":%d}", next);
  expect_error(1, "started without you");
}

/* Quick matches and rematches are tables their owners count (max_tables_per_player), but a
 * player at the limit does not keep one from the others: the table goes to someone with room.
 * Only when everyone in it is at the limit is the quick match refused. */
Test(server, quick_match_and_rematch_count_as_open_tables_without_blocking_others) {
  close_hub();
  w.options.max_tables_per_player = 3;
  w.options.waiting_table_expiry_ms = 3600 * 1000; /* the waiting tables outlast the games */
  open_hub(0);
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  for (int i = 0; i < 3; i++) create_table(1); /* Ann is at the limit */
  say(1, "{\"type\":\"create\"}");
  expect_error(1, "you already have 3 open tables");
  quick(1, "target=50", 60, "random");
  quick(2, "target=50", 0, "random");
  const int table = w.clients[2].table;
  cr_assert_gt(table, 0, "no quick match: %s", w.clients[2].last_error);
  cr_assert_eq(w.clients[1].table, table, "Ann was left out");
  const json_int_t ben = json_integer_value(json_object_get(w.clients[2].player, "id"));
  cr_assert_eq(hub_table_get(w.hub, table)->owner, ben, "the quick match is not Ben's");
  /* it counts for Ben: two more tables, then the limit */
  create_table(2);
  create_table(2);
  say(2, "{\"type\":\"create\"}");
  expect_error(2, "you already have 3 open tables");
  /* a rematch goes to Ben too, and replaces the finished table in his count */
  const uint64_t two[2] = {1, 2};
  play_out(two, 2);
  say(1, "{\"type\":\"rematch\",\"table\":%d}", table);
  say(2, "{\"type\":\"rematch\",\"table\":%d}", table);
  const int next = w.clients[1].table;
  cr_assert_neq(next, table, "no rematch: %s / %s", w.clients[1].last_error, w.clients[2].last_error);
  cr_assert_eq(hub_table_get(w.hub, next)->owner, ben);
  play_out(two, 2);
  /* both at the limit: the quick match says so to each */
  create_table(2);
  quick(1, "target=50", 60, "random");
  quick(2, "target=50", 0, "random");
  expect_error(1, "no table for the quick match: you already have 3 open tables");
  expect_error(2, "no table for the quick match: you already have 3 open tables");
  /* once his waiting tables expire Ben has room again */
  w.now += w.options.waiting_table_expiry_ms;
  srv_hub_tick(w.hub);
  quick(2, "target=50", 0, "random");
  cr_assert_str_eq(status_of(2), "playing", "Ben has room again but no quick match: %s", w.clients[2].last_error);
}

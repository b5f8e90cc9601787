/* What the hub keeps from whom: no message shows a hidden piece or another's token, seats are
 * held by their tokens, tokens are stored only as hashes, private tables and games stay out of
 * sight of those without their invite code. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_harness.h"
#include "secret.h"
#include "store.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

Test(server, many_games_never_show_a_hidden_piece) {
  w.scan = true;
  static const char *const rules[] = {"", "king_face_down=allowed", "players=3", "players=2", "teyaku=off"};
  const uint64_t four[4] = {1, 2, 3, 4};
  for (uint64_t id = 1; id <= 6; id++) connect_client(id, id == 5 ? "Watcher" : "Player");
  for (int game = 0; game < 10; game++) {
    const char *r = rules[game % 5];
    const int humans = game % 2 ? (r[0] == 'p' ? r[8] - '0' : 4) : 2;
    const int table = table_with(r, 0, four, humans, "random");
    say(5, "{\"type\":\"watch\",\"table\":%d}", table);
    w.clients[5].watching = true;
    play_out(four, humans);
    for (uint64_t id = 1; id <= 5; id++) {
      say(id, "{\"type\":\"leave\"}"); /* those not at a table get an error: ignored */
      w.clients[id].errors = 0;
    }
    w.clients[5].watching = false;
  }
  cr_assert_gt(w.scanned, 2000, "only %ld messages scanned", w.scanned);
  /* the games are stored with their records */
  say(6, "{\"type\":\"games\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[6].last, "games")), 10);
}

/* Nobody acts for another seat: moves name their seat and must be the sender's; a seat comes
 * back only with its own token; a newer connection with the token takes the seat over. */
Test(server, seats_are_held_by_their_tokens) {
  const uint64_t two[2] = {1, 2};
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Eve");
  const int table = table_with("", 0, two, 2, "random");
  run_jobs();
  /* Eve, at no seat, and Ben, for Ann's seat */
  say(3, "{\"type\":\"move\",\"table\":%d,\"move\":\"1p\"}", table);
  cr_assert(strstr(w.clients[3].last_error, "you do not sit at table"));
  say(2, "{\"type\":\"move\",\"table\":%d,\"move\":\"113\"}", table);
  cr_assert(strstr(w.clients[2].last_error, "you are seat 2"), "%s", w.clients[2].last_error);
  say(3, "{\"type\":\"resume\",\"seat_token\":\"0123456789abcdef0123456789abcdef\"}");
  cr_assert(strstr(w.clients[3].last_error, "no seat has this seat_token"));
  /* Ann reloads: a new connection with her token takes the seat; the old one is told */
  srv_hub_connect(w.hub, 4);
  say(4, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", w.clients[1].seat_token);
  cr_assert_eq(w.clients[4].seat, 0);
  cr_assert(strstr(w.clients[1].last_error, "taken back"), "%s", w.clients[1].last_error);
  /* and only the new connection may move */
  json_t *legal = json_object_get(json_object_get(w.clients[4].last_state, "game"), "legal");
  if (json_array_size(legal)) {
    say(1, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, json_string_value(json_array_get(legal, 0)));
    cr_assert(strstr(w.clients[1].last_error, "you do not sit at table"));
    const int errors = w.clients[4].errors;
    say(4, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, json_string_value(json_array_get(legal, 0)));
    cr_assert_eq(w.clients[4].errors, errors);
  }
  /* an illegal move is refused with the rules' reason */
  say(4, "{\"type\":\"move\",\"table\":%d,\"move\":\"1p\"}", table);
}

/* Player and seat tokens are kept only as hashes: neither is anywhere in the database's files,
 * while their hashes are. */
Test(server, tokens_are_stored_only_as_hashes) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  table_with("", 0, one, 1, "random");
  char player_token[SRV_TOKEN_SIZE], seat_token[SRV_TOKEN_SIZE], hash[SRV_TOKEN_HASH_SIZE];
  memcpy(player_token, w.clients[1].player_token, SRV_TOKEN_SIZE);
  memcpy(seat_token, w.clients[1].seat_token, SRV_TOKEN_SIZE);
  cr_assert_eq(strlen(player_token), 32);
  cr_assert_eq(strlen(seat_token), 32);
  close_hub(); /* the log is checkpointed into the main file */
  cr_assert(!database_holds(player_token), "the player token is stored in plain text");
  cr_assert(!database_holds(seat_token), "the seat token is stored in plain text");
  srv_token_hash(player_token, hash);
  cr_assert(database_holds(hash), "the player token's hash is not stored");
  srv_token_hash(seat_token, hash);
  cr_assert(database_holds(hash), "the seat token's hash is not stored");
  /* and both still work */
  open_hub(0);
  srv_hub_connect(w.hub, 2);
  say(2, "{\"type\":\"hello\",\"player_token\":\"%s\"}", player_token);
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  say(2, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", seat_token);
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  cr_assert_eq(w.clients[2].seat, 0);
}

/* A private table is in no lobby list; its number alone lets no one watch or sit; its invite
 * code does, and still does after a restart. */
Test(server, private_tables_are_unlisted_and_joined_only_by_their_code) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Lobby");
  say(3, "{\"type\":\"list\"}");
  say(1, "{\"type\":\"create\",\"private\":true}");
  cr_assert_str_eq(type_of(w.clients[1].last), "created");
  const int table = (int)int_of(w.clients[1].last, "table");
  const char *code = w.clients[1].invite;
  cr_assert_eq(strlen(code), 32, "no invite code in \"created\"");
  cr_assert_eq(json_array_size(json_object_get(w.clients[3].last, "tables")), 0, "the lobby lists a private table");
  say(1, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", table); /* its creator may */
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last_state, "invite")), code);
  cr_assert_eq(json_array_size(json_object_get(w.clients[3].last, "tables")), 0, "the lobby lists a private table");
  /* by number: refused */
  say(2, "{\"type\":\"watch\",\"table\":%d}", table);
  expect_error(2, "is private");
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":1}", table);
  expect_error(2, "is private");
  say(2, "{\"type\":\"bot\",\"table\":%d,\"seat\":1,\"level\":\"random\"}", table);
  expect_error(2, "is private");
  say(2, "{\"type\":\"join\",\"invite\":\"0123456789abcdef0123456789abcdef\"}");
  expect_error(2, "no open table has this invite code");
  say(2, "{\"type\":\"join\",\"invite\":\"%.31s\"}", code);
  expect_error(2, "expected an invite code of 32 lowercase hex digits");
  /* by code: watched, then a seat */
  say(2, "{\"type\":\"join\",\"invite\":\"%s\"}", code);
  cr_assert_str_eq(type_of(w.clients[2].last), "state", "%s", w.clients[2].last_error);
  cr_assert_eq(int_of(w.clients[2].last_state, "table"), table);
  cr_assert_eq(int_of(w.clients[2].last_state, "seat"), -1);
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":1}", table);
  cr_assert_eq(w.clients[2].seat, 1, "%s", w.clients[2].last_error);
  cr_assert_str_eq(seat_name(1, 1), "Ben");
  /* a listed table beside it is listed */
  say(3, "{\"type\":\"create\"}");
  say(3, "{\"type\":\"list\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[3].last, "tables")), 1);
  /* after a restart: still unlisted, still joined by its code, and only by it */
  char saved[SRV_TOKEN_SIZE];
  snprintf(saved, sizeof saved, "%s", code);
  close_hub();
  open_hub(0);
  connect_client(4, "Cho");
  say(4, "{\"type\":\"list\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[4].last, "tables")), 1, "the private table is listed");
  say(4, "{\"type\":\"watch\",\"table\":%d}", table);
  expect_error(4, "is private");
  say(4, "{\"type\":\"join\",\"invite\":\"%s\"}", saved);
  cr_assert_eq(int_of(w.clients[4].last_state, "table"), table, "%s", w.clients[4].last_error);
  cr_assert_str_eq(seat_name(4, 1), "Ben");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[4].last_state, "invite")), saved);
}

/* A private table's finished game is not in anyone's `games`, and its record and histories are
 * given only with the table's invite code (the key of the links its players are shown). */
Test(server, private_games_are_unlisted_and_their_records_need_the_invite_code) {
  connect_client(1, "Ann");
  connect_client(2, "Stranger");
  say(1, "{\"type\":\"create\",\"private\":true}");
  const int table = (int)int_of(w.clients[1].last, "table");
  char code[SRV_TOKEN_SIZE];
  snprintf(code, sizeof code, "%s", w.clients[1].invite);
  say(1, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", table);
  for (int s = 1; s < 4; s++) say(1, "{\"type\":\"bot\",\"table\":%d,\"seat\":%d,\"level\":\"random\"}", table, s);
  say(1, "{\"type\":\"start\",\"table\":%d}", table);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  const uint64_t ann[1] = {1};
  play_out(ann, 1);
  const int64_t game = int_of(w.clients[1].last_state, "game_id");
  cr_assert_gt(game, 0, "the player is not told the game's number");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last_state, "invite")), code,
                   "the player is not told the code that opens the record");
  say(2, "{\"type\":\"games\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[2].last, "games")), 0, "a private game is listed");
  char *text = NULL;
  for (int histories = 0; histories < 2; histories++) {
    cr_assert_eq(srv_store_game_text(w.store, game, NULL, histories, &text), 0);
    cr_assert_null(text, "a private game's record is given without its code");
    cr_assert_eq(srv_store_game_text(w.store, game, "0123456789abcdef0123456789abcdef", histories, &text), 0);
    cr_assert_null(text, "a private game's record is given with another code");
    cr_assert_eq(srv_store_game_text(w.store, game, code, histories, &text), 0);
    cr_assert_not_null(text, "a private game's record is not given with its code");
    free(text);
  }
  /* a listed table's game beside it is listed and given to all */
  const int open = table_with("", 0, ann, 1, "random");
  play_out(ann, 1);
  say(2, "{\"type\":\"games\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[2].last, "games")), 1);
  cr_assert_eq(srv_store_game_text(w.store, int_of(w.clients[1].last_state, "game_id"), NULL, false, &text), 0);
  cr_assert_not_null(text, "a listed game's record needs a code");
  free(text);
  (void)open;
}

/* ---- the lobby with private tables, quick matches, rematches and lazy guests ---- */

/* A private table is in no page and in no lobby event, before or after a restart, and the
 * lobby's total counts only the tables it lists. */
Test(server, private_tables_stay_out_of_lobby_pages_and_events) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  srv_hub_connect(w.hub, 3); /* the lobby */
  say(3, "{\"type\":\"list\"}");
  say(1, "{\"type\":\"create\",\"private\":true}");
  const int secret = (int)int_of(w.clients[1].last, "table");
  say(1, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", secret);
  say(2, "{\"type\":\"join\",\"invite\":\"%s\"}", w.clients[1].invite);
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[3].lobby_events, 0, "the lobby was told of a private table");
  const int open = create_table(2);
  srv_hub_tick(w.hub);
  json_int_t id;
  cr_assert_str_eq(last_event(3, &id), "created");
  cr_assert_eq(id, open);
  cr_assert_eq(w.clients[3].lobby_events, 1, "one event, for the listed table");
  cr_assert_eq(int_of(w.clients[3].last_lobby, "total"), 1, "the total counts a private table");
  cr_assert_eq(total_tables(3), 1);
  cr_assert_null(listed(3, secret), "a page shows a private table");
  close_hub();
  open_hub(0);
  srv_hub_connect(w.hub, 3);
  w.clients[3].lobby_events = 0;
  say(3, "{\"type\":\"list\"}");
  cr_assert_eq(int_of(w.clients[3].last, "total"), 1);
  cr_assert_eq(json_array_size(json_object_get(w.clients[3].last, "tables")), 1);
  resume(1, w.clients[1].seat_token); /* a change at the restored private table */
  say(1, "{\"type\":\"leave\"}");
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[3].lobby_events, 0, "the lobby was told of a restored private table");
}

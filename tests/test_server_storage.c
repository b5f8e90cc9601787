/* The hub and its database: restarts restore tables, seats and rounds; a move is shown and a
 * game is over only once saved; a full disk loses nothing; schema migrations; the lifecycle of
 * tables across restarts; guests get player rows only when they need one. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hub_harness.h"
#include "hub_map.h"
#include "store.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* A server killed mid-game and started again: every table, seat and move comes back from the
 * database; the players reconnect with their seat tokens to the same view and finish the game. */
/* A hub told to renew a lease on a SQLite file (the one server owns every table) keeps its
 * tables: the renewal names them all (found by the fuzzer, when the options' lease was left
 * unset by srv_hub_options_default and the renewal named none). */
Test(server, a_lease_renewed_on_a_file_keeps_every_table) {
  const uint64_t two[2] = {1, 2};
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  const int table = table_with("", 0, two, 2, "random");
  close_hub();
  w.options.lease_renew_ms = 1000;
  open_hub(0);
  for (int i = 0; i < 30; i++) {
    w.now += 100;
    srv_hub_tick(w.hub);
  }
  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\",\"name\":\"Cho\"}");
  say(3, "{\"type\":\"watch\",\"table\":%d}", table);
  cr_expect_eq(w.clients[3].errors, 0, "the table is gone after lease renewals: %s", w.clients[3].last_error);
  srv_hub_options fresh;
  memset(&fresh, 0xAB, sizeof fresh);
  srv_hub_options_default(&fresh);
  cr_expect(fresh.lease_renew_ms == 0 && fresh.node == NULL, "srv_hub_options_default leaves the lease unset");
}

Test(server, restart_restores_tables_and_seats) {
  const uint64_t two[2] = {1, 2};
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  const int table = table_with("", 0, two, 2, "random");
  for (int moves = 0; moves < 25;) {
    run_jobs();
    if (play_if_turn(1) || play_if_turn(2)) moves++;
  }
  run_jobs();
  char *before[3] = {NULL, game_text(1), game_text(2)};
  char tokens[3][SRV_TOKEN_SIZE];
  memcpy(tokens[1], w.clients[1].seat_token, SRV_TOKEN_SIZE);
  memcpy(tokens[2], w.clients[2].seat_token, SRV_TOKEN_SIZE);

  close_hub();
  open_hub(0);
  for (uint64_t id = 1; id <= 2; id++) {
    srv_hub_connect(w.hub, id);
    say(id, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", tokens[id]);
    cr_assert_eq(w.clients[id].table, table);
    char *after = game_text(id);
    cr_assert_str_eq(after, before[id], "seat view after the restart differs");
    free(after);
    free(before[id]);
  }
  run_jobs(); /* a computer player whose turn it was is asked again */
  play_out(two, 2);
  say(1, "{\"type\":\"games\"}");
  cr_assert_eq(json_array_size(json_object_get(w.clients[1].last, "games")), 1);
}

/* A first round that ends at the deal (a teyaku, or both partners with 5 pawns) is in the record
 * before any move is played; a restart that replays the moves must keep it, or the finished
 * game's record starts with the wrong dealer and does not replay. */
Test(server, restart_keeps_a_first_round_that_ended_at_the_deal) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  int table = 0;
  for (int tries = 0; tries < 3000 && !table; tries++) {
    const int t = table_with("", 0, one, 1, "random");
    json_t *game = json_object_get(w.clients[1].last_state, "game");
    if (json_integer_value(json_object_get(game, "round")) > 1) {
      table = t;
    } else {
      say(1, "{\"type\":\"leave\"}");
      w.clients[1].errors = 0;
    }
  }
  cr_assert_gt(table, 0, "no first round ended at the deal");
  char token[SRV_TOKEN_SIZE];
  memcpy(token, w.clients[1].seat_token, SRV_TOKEN_SIZE);
  close_hub();
  open_hub(0);
  srv_hub_connect(w.hub, 1);
  say(1, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", token);
  cr_assert_eq(w.clients[1].table, table);
  play_out(one, 1);
  srv_game_row rows[1];
  int count = 0;
  cr_assert_eq(srv_store_games(w.store, 0, rows, 1, &count), 0);
  cr_assert_eq(count, 1);
  cr_assert_eq(rows[0].table, table);
  char *text = NULL;
  cr_assert_eq(srv_store_game_text(w.store, rows[0].id, NULL, false, &text), 0);
  cr_assert_not_null(text);
  goita_record rec;
  goita_error err;
  cr_assert_eq(goita_record_read_json(&rec, text, strlen(text), &err), GOITA_OK, "the record does not replay: %s",
               err.message);
  goita_record_free(&rec);
  free(text);
}

/* Keeps the first move a table's stored moves give. */
static void collect_first_move(void *ctx, const char *text) {
  char *first = ctx;
  if (!*first) snprintf(first, 64, "%s", text);
}

/* The index of the client of `ids` whose turn it is (it has legal moves). */
static int mover_of(const uint64_t *ids, int n) {
  for (int i = 0; i < n; i++)
    if (json_array_size(json_object_get(json_object_get(w.clients[ids[i]].last_state, "game"), "legal"))) return i;
  cr_assert_fail("nobody is to move");
  return -1;
}

/* A timed turn ends when its move arrives: the time the store takes to save it is not charged to
 * the mover's bank, and no timeout is played while the move is being saved. */
Test(server, a_move_being_saved_stops_its_clock) {
  const uint64_t four[4] = {1, 2, 3, 4};
  for (uint64_t id = 1; id <= 4; id++) connect_client(id, "Player");
  say(1, "{\"type\":\"create\",\"turn_seconds\":10,\"bank_seconds\":30}");
  const int table = (int)json_integer_value(json_object_get(w.clients[1].last, "table"));
  cr_assert_gt(table, 0, "create failed: %s", w.clients[1].last_error);
  for (int s = 0; s < 4; s++) say(four[s], "{\"type\":\"sit\",\"table\":%d,\"seat\":%d}", table, s);
  say(1, "{\"type\":\"start\",\"table\":%d}", table);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  const int seat = mover_of(four, 4);
  const uint64_t mover = four[seat];
  const char *move = json_string_value(json_array_get(json_object_get(json_object_get(w.clients[mover].last_state, "game"), "legal"), 0));
  char text[16];
  snprintf(text, sizeof text, "%s", move);
  w.hold_saves = true;
  w.now += 12000; /* 12 s of the bank */
  say(mover, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, text);
  cr_assert_eq(w.nsaves, 1, "the move was not sent to be saved");
  w.now += 60000; /* the store is slow: past the bank and the byoyomi */
  srv_hub_tick(w.hub);
  cr_assert_eq(w.nsaves, 1, "a timeout's move was played while the move was being saved");
  cr_assert_eq(w.njobs, 0, "a computer was asked to move while the move was being saved");
  save_moves();
  w.hold_saves = false;
  json_t *seats = json_object_get(w.clients[mover].last_state, "seats");
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(seats, (size_t)seat), "bank_left")), 18,
               "the bank was charged for the time the move took to save");
}

/* Moves are saved away from the hub (the store thread): nobody sees a move before it is saved,
 * nothing else is played at the table meanwhile, a move the storage refuses is not played and
 * its player is told why, and the moves of several tables are saved in one transaction. */
Test(server, a_move_is_announced_only_once_saved) {
  const uint64_t four[4] = {1, 2, 3, 4}, others[4] = {5, 6, 7, 8};
  for (uint64_t id = 1; id <= 8; id++) connect_client(id, "Player");
  const int table = table_with("", 0, four, 4, "random"), other = table_with("", 0, others, 4, "random");
  w.hold_saves = true;
  const uint64_t mover = four[mover_of(four, 4)], other_mover = others[mover_of(others, 4)];
  char *before[5];
  for (int i = 1; i <= 4; i++) before[i] = game_text((uint64_t)i);
  const char *move = json_string_value(json_array_get(json_object_get(json_object_get(w.clients[mover].last_state, "game"), "legal"), 0));
  char text[16];
  snprintf(text, sizeof text, "%s", move);
  say(mover, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, text);
  cr_assert_eq(w.clients[mover].errors, 0, "%s", w.clients[mover].last_error);
  cr_assert_eq(w.nsaves, 1, "the move was not sent to be saved");
  for (int i = 1; i <= 4; i++) {
    char *now = game_text((uint64_t)i);
    cr_assert_str_eq(now, before[i], "seat %d saw a move not saved yet", i);
    free(now);
  }
  say(mover, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, text);
  cr_assert_str_eq(w.clients[mover].last_code, "move_pending", "%s", w.clients[mover].last_error);
  cr_assert_eq(w.nsaves, 1, "a second move was sent while the first was being saved");
  /* the storage refuses it: not played, its player told why */
  const int errors = w.clients[mover].errors;
  w.saves[0].status = -1;
  snprintf(w.saves[0].error, sizeof w.saves[0].error, "saving a move: database or disk is full");
  srv_hub_move_saved(w.hub, &w.saves[0]);
  w.nsaves = 0;
  cr_assert_eq(w.clients[mover].errors, errors + 1, "the player was not told");
  cr_assert_str_eq(w.clients[mover].last_code, "storage_failed");
  cr_assert(strstr(w.clients[mover].last_error, "not saved, so it was not played: saving a move: database or disk is full"),
            "%s", w.clients[mover].last_error);
  for (int i = 1; i <= 4; i++) {
    char *now = game_text((uint64_t)i);
    cr_assert_str_eq(now, before[i], "a refused move changed seat %d's table", i);
    free(now);
  }
  /* played again, with a move at the other table: both saved together, then both announced */
  say(mover, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", table, text);
  const char *other_move = json_string_value(json_array_get(json_object_get(json_object_get(w.clients[other_mover].last_state, "game"), "legal"), 0));
  say(other_mover, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", other, other_move);
  cr_assert_eq(w.nsaves, 2);
  save_moves();
  cr_assert_eq(w.clients[mover].errors, errors + 1, "%s", w.clients[mover].last_error);
  for (int i = 1; i <= 4; i++) {
    char *now = game_text((uint64_t)i);
    cr_assert_str_neq(now, before[i], "seat %d did not see the saved move", i);
    free(now);
    free(before[i]);
  }
  char all[64] = "";
  cr_assert_eq(srv_store_moves(w.store, table, collect_first_move, all), 0);
  cr_assert_str_eq(all, text, "the move saved is not the move played");
  char other_all[64] = "";
  cr_assert_eq(srv_store_moves(w.store, other, collect_first_move, other_all), 0);
  cr_assert_neq(other_all[0], '\0', "the other table's move was not saved");
  /* an answer for a move no longer being saved is dropped */
  char *settled = game_text(1);
  srv_hub_move_saved(w.hub, &w.saves[0]);
  char *again = game_text(1);
  cr_assert_str_eq(again, settled, "a late answer changed the table");
  free(settled);
  free(again);
  w.hold_saves = false;
}

/* A finished game is saved away from the hub too: the table is over, for everyone, only once
 * its game is saved, and nothing happens at the table meanwhile. */
Test(server, a_game_is_over_only_once_saved) {
  connect_client(1, "Ann");
  const uint64_t one[1] = {1};
  const int table = table_with("target=50", 0, one, 1, "random");
  w.hold_saves = true;
  for (int steps = 0; steps < 5000 && !w.game_held; steps++) {
    run_jobs();
    if (w.nsaves) save_moves(); /* the moves are saved at once, the game is held */
    if (!play_if_turn(1) && w.njobs == 0 && !w.nsaves) {
      w.now += 10000; /* a paused round: the next one is dealt */
      srv_hub_tick(w.hub);
    }
    if (w.nsaves) save_moves();
  }
  cr_assert(w.game_held, "the game never ended");
  cr_assert_str_eq(status_of(1), "playing", "the table was over before its game was saved");
  int count = 0;
  srv_game_row rows[1];
  cr_assert_eq(srv_store_games(w.store, 0, rows, 1, &count), 0);
  cr_assert_eq(count, 0);
  w.now += 60000; /* the lifecycle waits for it: no abandon, no retry */
  srv_hub_tick(w.hub);
  cr_assert(w.game_held && w.nsaves == 0, "something was saved while the game was being saved");
  cr_assert_str_eq(status_of(1), "playing");
  save_held_game();
  cr_assert_str_eq(status_of(1), "over", "the table was not over once its game was saved");
  cr_assert_eq(srv_store_games(w.store, 0, rows, 1, &count), 0);
  cr_assert_eq(count, 1);
  cr_assert_eq(rows[0].table, table);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].last_state, "game_id")), rows[0].id);
}

/* A full disk: a move is refused with the storage's reason and not played, or a finished game
 * waits to be saved, the players told; nothing saved is lost, and play goes on once there is
 * room. */
Test(server, full_disk_refuses_moves_and_loses_nothing) {
  const uint64_t four[4] = {1, 2, 3, 4};
  for (uint64_t id = 1; id <= 4; id++) connect_client(id, "Player");
  bool refused = false, unsaved = false;
  /* Games until the pages the database has fill up: a new table each time there was room. */
  for (int steps = 0; steps < 40000 && !(refused && unsaved); steps++) {
    if (strcmp(status_of(1), "playing") != 0) {
      srv_store_limit_bytes(w.store, 0);
      for (uint64_t id = 1; id <= 4; id++) {
        say(id, "{\"type\":\"leave\"}"); /* not at a table the first time: an error, ignored */
        w.clients[id].errors = 0;
      }
      table_with("", 0, four, 4, "random");
      srv_store_limit_bytes(w.store, 1); /* no room beyond the pages already used */
    }
    bool moved = false;
    for (uint64_t id = 1; id <= 4 && strcmp(status_of(1), "playing") == 0; id++) {
      json_t *legal = json_object_get(json_object_get(w.clients[id].last_state, "game"), "legal");
      if (!json_array_size(legal)) continue;
      char *before = game_text(id);
      const int errors = w.clients[id].errors;
      char move[16];
      snprintf(move, sizeof move, "%s", json_string_value(json_array_get(legal, 0)));
      say(id, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", w.clients[id].table, move);
      moved = true;
      if (w.clients[id].errors > errors && strstr(w.clients[id].last_error, "not saved yet")) {
        /* the game's last move was saved, its record was not: saved once there is room */
        unsaved = true;
        cr_assert_str_eq(status_of(1), "playing");
        srv_store_limit_bytes(w.store, 0);
        w.now += 6000;
        srv_hub_tick(w.hub);
        cr_assert_str_eq(status_of(1), "over", "the game was not saved once there was room");
      } else if (w.clients[id].errors > errors) {
        refused = true;
        cr_assert(strstr(w.clients[id].last_error, "not saved, so it was not played"), "%s", w.clients[id].last_error);
        cr_assert(strstr(w.clients[id].last_error, "full"), "%s", w.clients[id].last_error);
        char *after = game_text(id);
        cr_assert_str_eq(after, before, "a refused move changed the table");
        free(after);
        srv_store_limit_bytes(w.store, 0);
        say(id, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", w.clients[id].table, move);
        cr_assert_eq(w.clients[id].errors, errors + 1, "the move failed again: %s", w.clients[id].last_error);
      }
      free(before);
    }
    if (!moved && strcmp(status_of(1), "playing") == 0) cr_assert_fail("stuck: %s", w.clients[1].last_error);
  }
  cr_assert(refused && unsaved, "the storage never filled up (move refused %d, game unsaved %d)", refused, unsaved);
  /* every move the players saw is in the database: a restart shows the same table */
  char *seen = game_text(1);
  char saved_token[SRV_TOKEN_SIZE];
  snprintf(saved_token, sizeof saved_token, "%s", w.clients[1].seat_token);
  close_hub();
  open_hub(0);
  srv_hub_connect(w.hub, 1);
  say(1, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", saved_token);
  char *restored = game_text(1);
  cr_assert_str_eq(restored, seen);
  free(seen);
  free(restored);
}

/* Migration 1's schema as servers before migration 2 wrote it (a released migration never
 * changes), with one player and one waiting table whose tokens are in plain text. */
#define V1_PLAYER_TOKEN "0123456789abcdef0123456789abcdef"
#define V1_SEAT_TOKEN "fedcba9876543210fedcba9876543210"
static void write_version_1_database(bool version_row) {
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  const char *sql =
      "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL, token TEXT UNIQUE, bot TEXT UNIQUE,"
      "  rating REAL NOT NULL DEFAULT 1500, games INTEGER NOT NULL DEFAULT 0,"
      "  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
      "CREATE TABLE tables (id INTEGER PRIMARY KEY, rules TEXT NOT NULL, seed INTEGER NOT NULL,"
      "  turn_seconds INTEGER NOT NULL, status INTEGER NOT NULL,"
      "  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
      "CREATE TABLE seats (table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,"
      "  player INTEGER REFERENCES players(id), token TEXT NOT NULL, PRIMARY KEY (table_id, seat));"
      "CREATE TABLE moves (table_id INTEGER NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL, move TEXT NOT NULL,"
      "  played TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), PRIMARY KEY (table_id, seq));"
      "CREATE TABLE games (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES tables(id),"
      "  finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),"
      "  score0 INTEGER NOT NULL, score1 INTEGER NOT NULL, record TEXT NOT NULL, histories TEXT NOT NULL);"
      "CREATE TABLE game_players (game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,"
      "  player INTEGER NOT NULL REFERENCES players(id), name TEXT NOT NULL, rating_after REAL NOT NULL,"
      "  PRIMARY KEY (game, seat));"
      "INSERT INTO players (id, name, token, rating, games) VALUES (1, 'ann', '" V1_PLAYER_TOKEN "', 1532, 3);"
      "INSERT INTO players (id, name, bot) VALUES (2, 'random (computer)', 'random');"
      "INSERT INTO tables (id, rules, seed, turn_seconds, status) VALUES (1, 'target=10', 12345, 0, 0);"
      "INSERT INTO seats VALUES (1, 0, 1, '" V1_SEAT_TOKEN "'), (1, 1, 2, 'aa'), (1, 2, NULL, 'bb'), (1, 3, NULL, 'cc');";
  cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
  if (version_row)
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                                  "INSERT INTO schema_version VALUES (1)", NULL, NULL, NULL),
                 SQLITE_OK);
  sqlite3_close(db);
}

/* The schema is versioned: a database written by an older server (no version row) comes up to
 * the newest version and keeps its data; one from a newer server is refused, untouched. */
Test(server, schema_migrations_bring_old_databases_up_and_refuse_newer_ones) {
  close_hub();
  unlink(w.db);
  write_version_1_database(false); /* as a database from before versions were counted */
  open_hub(0);
  close_hub();
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*), max(version) FROM schema_version", -1, &st, NULL), SQLITE_OK);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  cr_expect_eq(sqlite3_column_int(st, 0), 1, "one version row");
  const int newest = sqlite3_column_int(st, 1);
  cr_expect_geq(newest, 4);
  sqlite3_finalize(st);
  /* every migration ran, the lobby's (4) after the players' (2) and the modes' (3) */
  cr_expect_eq(sqlite3_exec(db, "SELECT invite, owner, ended FROM tables; SELECT stand_in FROM seats;"
                                "SELECT ended FROM games; SELECT token FROM player_tokens",
                            NULL, NULL, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  cr_assert_eq(sqlite3_exec(db, "UPDATE schema_version SET version = version + 1", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  srv_store *store = NULL;
  cr_expect_eq(srv_store_open(&store, w.db), -1);
  cr_expect(strstr(srv_store_error(store), "newer") != NULL, "%s", srv_store_error(store));
  srv_store_close(store);
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "UPDATE schema_version SET version = version - 1", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  open_hub(0); /* the table is still there after all this */
  connect_client(2, "bob");
  say(2, "{\"type\":\"list\"}");
  cr_expect_eq(json_array_size(json_object_get(w.clients[2].last, "tables")), 1);
}

static bool stood_in(uint64_t viewer, int seat) {
  json_t *s = json_array_get(json_object_get(w.clients[viewer].last_state, "seats"), (size_t)seat);
  return json_is_true(json_object_get(s, "stand_in"));
}

/* The newest finished game's row. */
static json_t *newest_game(uint64_t id) {
  say(id, "{\"type\":\"games\",\"limit\":1}");
  return json_array_get(json_object_get(w.clients[id].last, "games"), 0);
}

/* Plays table C (Cat at seat 0 as client 3, computers, and a stand-in at seat 1) until a think
 * job for seat 1 is out; returns whether one came. */
static bool until_stand_in_thinks(void) {
  for (int steps = 0; steps < 2000; steps++) {
    if (w.njobs > 0 && w.jobs[w.njobs - 1].view.seat == 1) return true;
    if (w.njobs > 0) {
      const srv_think_job job = w.jobs[--w.njobs];
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_view_legal_moves(&job.view, moves);
      srv_hub_bot_move(w.hub, job.table, job.version, moves[goita_rng_below(&w.rng, (uint32_t)n)]);
    } else if (!play_if_turn(3)) {
      w.now += 1000; /* between rounds */
      srv_hub_tick(w.hub);
    }
  }
  return false;
}

/* The whole lifecycle with the fake clock, killed and restarted at each stage: a waiting table
 * of computers and one whose person left expire; the person's seat is freed first; a gone player
 * is replaced by a stand-in, which stops the moment they resume; a game whose only person left
 * ends as abandoned and is stored so. */
Test(server, lifecycle_expires_replaces_and_abandons_across_restarts) {
  const int grace = w.options.seat_grace_ms, expiry = w.options.waiting_table_expiry_ms;
  for (uint64_t id = 1; id <= 5; id++) connect_client(id, (const char *[]){"", "Ann", "Ben", "Cat", "Dan", "Eve"}[id]);
  srv_hub_connect(w.hub, 6); /* the lobby */
  /* A: computers in every seat, nobody sits.  B: Ben sits, then goes. */
  const int a = create_table(1);
  for (int s = 0; s < 4; s++) say(1, "{\"type\":\"bot\",\"table\":%d,\"seat\":%d,\"level\":\"random\"}", a, s);
  const int b = create_table(2);
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", b);
  char ben[SRV_TOKEN_SIZE], cat[SRV_TOKEN_SIZE], dan[SRV_TOKEN_SIZE];
  memcpy(ben, w.clients[2].seat_token, sizeof ben);
  /* C: Cat and Dan with two computers; Dan goes.  D: Eve with three computers; Eve leaves. */
  const uint64_t cd[2] = {3, 4}, eve[1] = {5};
  const int c = table_with("", 0, cd, 2, "random");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[4].last_state, "seat")), 1, "Dan is not at seat 1");
  w.counted_table = c;
  memcpy(cat, w.clients[3].seat_token, sizeof cat);
  memcpy(dan, w.clients[4].seat_token, sizeof dan);
  const int d = table_with("", 0, eve, 1, "random");
  say(6, "{\"type\":\"list\"}");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[6].last, "total")), 4);
  srv_hub_disconnect(w.hub, 2);
  srv_hub_disconnect(w.hub, 4);
  say(5, "{\"type\":\"leave\"}");
  run_jobs();

  /* Within the grace period nothing changes. */
  w.now += grace - 1000;
  srv_hub_tick(w.hub);
  cr_assert_not_null(json_array_get(json_object_get(listed(6, b), "seats"), 0), "Ben's seat was freed early");
  cr_assert(!stood_in(3, 1), "Dan was replaced early");
  cr_assert_not_null(listed(6, d), "Eve's game ended early");
  /* Past it: Ben's waiting seat is free, Dan has a stand-in, Eve's game is abandoned. */
  w.now += 2000;
  srv_hub_tick(w.hub);
  cr_assert(json_is_null(json_array_get(json_object_get(listed(6, b), "seats"), 0)), "Ben's seat was not freed");
  cr_assert(stood_in(3, 1), "Dan has no stand-in");
  cr_assert_null(listed(6, d), "the abandoned game is still in the lobby");
  cr_assert_eq(w.clients[6].last_removed, d, "the lobby was not told");
  json_t *game = newest_game(6);
  cr_assert_str_eq(json_string_value(json_object_get(game, "ended")), "abandoned");
  const json_int_t abandoned = json_integer_value(json_object_get(game, "id"));
  char *record = NULL;
  cr_assert_eq(srv_store_game_text(w.store, abandoned, NULL, false, &record), 0);
  goita_record rec;
  goita_error gerr;
  cr_assert_eq(goita_record_read_json(&rec, record, strlen(record), &gerr), GOITA_OK, "%s", gerr.message);
  cr_assert_gt(rec.nrounds, 0, "the abandoned game's record has its moves");
  goita_record_free(&rec);
  free(record);
  srv_hub_connect(w.hub, 2);
  say(2, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", ben);
  cr_assert(strstr(w.clients[2].last_error, "no seat has this seat_token"), "Ben's old token still opens the seat");
  /* The stand-in moves for Dan, seeing only Dan's seat. */
  cr_assert(until_stand_in_thinks(), "the stand-in never moved");
  /* The waiting tables expire: A (empty from the start) first, then B (empty since Ben's seat
   * was freed). */
  const int64_t ben_freed = w.now;
  say(1, "{\"type\":\"watch\",\"table\":%d}", a);
  w.now = ben_freed + expiry - 2000;
  srv_hub_tick(w.hub);
  cr_assert_null(listed(6, a), "the table of computers did not expire");
  /* its watcher sees it over, with no game: none was dealt (the simulation's seed 38) */
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last_state, "status")), "over");
  cr_assert_null(json_object_get(w.clients[1].last_state, "game"), "an expired table shows a game never dealt");
  say(1, "{\"type\":\"leave\"}");
  cr_assert_not_null(listed(6, b), "Ben's table expired before its time");
  w.now = ben_freed + expiry;
  srv_hub_tick(w.hub);
  cr_assert_null(listed(6, b), "Ben's table did not expire");
  cr_assert_eq(w.clients[6].last_removed, b);
  const int e = create_table(1); /* E: empty when the server is killed */

  /* Killed and restarted: the same lobby, the same stand-in. */
  close_hub();
  open_hub(0);
  srv_hub_connect(w.hub, 6);
  cr_assert_eq(total_tables(6), 2, "the lobby is not as it was");
  cr_assert_not_null(listed(6, c));
  cr_assert_not_null(listed(6, e));
  cr_assert_eq(json_integer_value(json_object_get(newest_game(6), "id")), abandoned);
  resume(3, cat);
  cr_assert(stood_in(3, 1), "the stand-in is gone after the restart");
  cr_assert(until_stand_in_thinks(), "the stand-in does not move after the restart");
  /* E's clock started again with the server. */
  w.now += expiry - 1000;
  srv_hub_tick(w.hub);
  cr_assert_not_null(listed(6, e));
  w.now += 2000;
  srv_hub_tick(w.hub);
  cr_assert_null(listed(6, e), "the restored waiting table did not expire");

  /* Killed again: only C is back; Dan comes back while his stand-in thinks, and it stops. */
  close_hub();
  open_hub(0);
  srv_hub_connect(w.hub, 6);
  cr_assert_eq(total_tables(6), 1);
  cr_assert_not_null(listed(6, c));
  resume(3, cat);
  cr_assert(stood_in(3, 1));
  cr_assert(until_stand_in_thinks());
  const srv_think_job late = w.jobs[--w.njobs];
  resume(4, dan);
  cr_assert(!stood_in(3, 1), "the others still see a stand-in");
  cr_assert_gt(json_array_size(json_object_get(json_object_get(w.clients[4].last_state, "game"), "legal")), 0);
  char *before = game_text(4);
  goita_move moves[GOITA_MAX_LEGAL];
  cr_assert_gt(goita_view_legal_moves(&late.view, moves), 0);
  srv_hub_bot_move(w.hub, late.table, late.version, moves[0]);
  char *after = game_text(4);
  cr_assert_str_eq(after, before, "the stand-in moved after Dan came back");
  free(before);
  free(after);

  /* Killed once more: Dan's seat is his; he and Cat play the game to its end. */
  close_hub();
  open_hub(0);
  resume(3, cat);
  resume(4, dan);
  cr_assert(!stood_in(3, 1), "the stand-in came back with the restart");
  memset(w.seat_jobs, 0, sizeof w.seat_jobs);
  play_out(cd, 2);
  cr_assert_eq(w.seat_jobs[1], 0, "a stand-in was asked to move for Dan");
  cr_assert_null(json_object_get(newest_game(3), "ended"), "a game played to its end is not abandoned");
}

/* The hub's index keeps every key findable through growth and deletions (deleted entries'
 * followers are shifted back rather than left behind tombstones). */
Test(server, index_finds_every_key_after_deletions) {
  hub_map m = {0};
  enum { KEYS = 20000 };
  for (uint64_t k = 1; k <= KEYS; k++) cr_assert_eq(hub_map_put(&m, k * 7919, k), 0);
  for (uint64_t k = 1; k <= KEYS; k += 2) hub_map_del(&m, k * 7919);
  cr_assert_eq(m.count, KEYS / 2);
  for (uint64_t k = 1; k <= KEYS; k++) {
    uint64_t v = 0;
    const bool found = hub_map_get(&m, k * 7919, &v);
    cr_assert_eq(found, k % 2 == 0, "key %llu", (unsigned long long)k);
    if (found) cr_assert_eq(v, k);
  }
  hub_map_put(&m, 2 * 7919, 42);
  uint64_t v = 0;
  cr_assert(hub_map_get(&m, 2 * 7919, &v) && v == 42, "a put replaces the value");
  cr_assert_eq(m.count, KEYS / 2);
  hub_map_free(&m);
}

/* A hello without a token makes no row: only a player who does something is saved. */
Test(server, bare_hellos_create_no_player_rows) {
  cr_assert_geq(MAX_CLIENTS, 16);
  for (int i = 0; i < 100; i++) {
    const uint64_t id = 1 + (uint64_t)(i % 16);
    if (i < 16) srv_hub_connect(w.hub, id);
    say(id, "{\"type\":\"hello\",\"name\":\"guest %d\"}", i);
    cr_assert_eq(w.clients[id].errors, 0, "%s", w.clients[id].last_error);
    cr_assert_eq(json_integer_value(json_object_get(w.clients[id].player, "id")), 0, "a guest has no id yet");
  }
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 0, "bare hellos made player rows");
  cr_assert_eq(count_rows("SELECT count(*) FROM player_tokens"), 0);
  /* the first action that needs a player saves one, with the token the guest holds */
  say(1, "{\"type\":\"create\"}");
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 1);
  cr_assert_eq(w.clients[1].players, 1, "the guest was not told its new id");
  const json_int_t id = json_integer_value(json_object_get(w.clients[1].player, "id"));
  cr_assert_gt(id, 0);
  srv_hub_connect(w.hub, 16);
  say(16, "{\"type\":\"hello\",\"player_token\":\"%s\"}", w.clients[1].player_token);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[16].player, "id")), id);
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[16].player, "name")), "guest 96");
}

/* A guest that says hello again with its token (a new name, a reload, a second tab) before it
 * has played stays that guest, under the same token, still with no row; its first table then
 * saves it with that token. */
Test(server, a_guest_keeps_its_token_before_it_has_a_row) {
  connect_client(1, "ann");
  char token[SRV_TOKEN_SIZE];
  snprintf(token, sizeof token, "%s", w.clients[1].player_token);
  say(1, "{\"type\":\"hello\",\"name\":\"Ann B\",\"player_token\":\"%s\"}", token);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  cr_assert_str_eq(w.clients[1].player_token, token, "the guest got another token");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].player, "name")), "Ann B");
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 0);
  srv_hub_connect(w.hub, 2);
  say(2, "{\"type\":\"hello\",\"player_token\":\"%s\"}", token); /* a second tab */
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  say(1, "{\"type\":\"create\"}");
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 1);
  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\",\"player_token\":\"%s\"}", token);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[3].player, "id")),
               json_integer_value(json_object_get(w.clients[1].player, "id")), "the token did not find its row");
}

/* A database from before tokens were hashed: migration 2 hashes its tokens, and the player and
 * the seat still come back with them. */
Test(server, migration_hashes_the_tokens_of_an_older_database) {
  close_hub();
  unlink(w.db);
  write_version_1_database(true);
  open_hub(0);
  cr_assert(!database_holds(V1_PLAYER_TOKEN) && !database_holds(V1_SEAT_TOKEN), "plain tokens left after migrating");
  srv_hub_connect(w.hub, 1);
  say(1, "{\"type\":\"hello\",\"player_token\":\"" V1_PLAYER_TOKEN "\"}");
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].player, "rating")), 1532);
  say(1, "{\"type\":\"resume\",\"seat_token\":\"" V1_SEAT_TOKEN "\"}");
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  cr_assert_eq(w.clients[1].table, 1);
}

/* Several hubs in one process, each on its own connection to one PostgreSQL database (named by
 * GOITA_TEST_DB; tests/cli/store_postgresql.sh starts one) and joined by a message bus kept in
 * memory here: what is published is queued and delivered by pump() to the hubs that listen to
 * its subject, as NATS would (docs/SERVER.md "Several servers"). Without GOITA_TEST_DB the
 * tests say so and pass: several servers need PostgreSQL. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub.h"
#include "koshogi/koshogi.h"
#include "store.h"

#define HUBS 3
#define CLIENTS 8
#define MAX_QUEUED 4096

typedef struct client_log {
  json_t *last_state;
  char seat_token[SRV_TOKEN_SIZE];
  char last_error[512];
  int errors, states, seated, lobby_events, moved;
  json_t *last_tables;
  bool hand_seen_by_spectator;
  char invite[SRV_TOKEN_SIZE]; /* from "created" */
  int joined;
  char player_token[SRV_TOKEN_SIZE]; /* from "welcome" */
  json_t *last_ks;                   /* the last Ko shogi table message */
} client_log;

typedef struct bus_msg {
  char *subject, *text;
} bus_msg;

static struct {
  const char *db;
  srv_store *stores[HUBS];
  srv_hub *hubs[HUBS];
  client_log clients[HUBS][CLIENTS + 1];
  bus_msg queue[MAX_QUEUED];
  int head, tail;
  bool bus_down;
  bool paused[HUBS]; /* a paused server (SIGSTOP) neither ticks nor hears the bus */
  int64_t now;
  uint64_t rng;
  char *free_on_send; /* a receive buffer the next send frees, as net.c's queue_text may */
  /* With save_game set, hubs save finished games as net.c's store thread does: written at once,
   * the hub told later (deliver_held_game), as the loop hears the store thread's answer. */
  int (*save_game)(void *ctx, const srv_game_write *game);
  srv_game_write held_game;
  int held_hub;
  bool holding_game;
} w;

static const char *const names[HUBS] = {"a", "b", "c"};

static int hub_of(void *ctx) { return (int)(intptr_t)ctx; }

static void fake_send(void *ctx, uint64_t client, const char *text, size_t len) {
  free(w.free_on_send); /* the client's queue overflowed: its session goes, with its receive buffer */
  w.free_on_send = NULL;
  cr_assert_leq(client, CLIENTS, "hub %s sent to client %llu, not one of its own", names[hub_of(ctx)],
                (unsigned long long)client);
  client_log *c = &w.clients[hub_of(ctx)][client];
  json_t *msg = json_loadb(text, len, 0, NULL);
  cr_assert(msg, "not JSON: %.*s", (int)len, text);
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (strcmp(type, "state") == 0) {
    c->states++;
    json_t *game = json_object_get(msg, "game");
    if (game && json_integer_value(json_object_get(msg, "seat")) < 0 && json_object_get(game, "hand"))
      c->hand_seen_by_spectator = true;
    json_decref(c->last_state);
    c->last_state = json_incref(msg);
  } else if (strcmp(type, "seated") == 0) {
    c->seated++;
    snprintf(c->seat_token, sizeof c->seat_token, "%s", json_string_value(json_object_get(msg, "seat_token")));
  } else if (strcmp(type, "error") == 0) {
    c->errors++;
    snprintf(c->last_error, sizeof c->last_error, "%s", json_string_value(json_object_get(msg, "error")));
  } else if (strcmp(type, "lobby") == 0) {
    c->lobby_events++;
  } else if (strcmp(type, "moved") == 0) {
    c->moved++;
  } else if (strcmp(type, "created") == 0 && json_object_get(msg, "invite")) {
    snprintf(c->invite, sizeof c->invite, "%s", json_string_value(json_object_get(msg, "invite")));
  } else if (strcmp(type, "joined") == 0) {
    c->joined++;
  } else if (strcmp(type, "tables") == 0) {
    json_decref(c->last_tables);
    c->last_tables = json_incref(msg);
  } else if (strcmp(type, "welcome") == 0) {
    snprintf(c->player_token, sizeof c->player_token, "%s", json_string_value(json_object_get(msg, "player_token")));
  } else if (strcmp(type, "ks_table") == 0) {
    json_decref(c->last_ks);
    c->last_ks = json_incref(msg);
  }
  json_decref(msg);
}

static void fake_think(void *ctx, const srv_think_job *job) {
  (void)ctx;
  (void)job; /* the tests seat no computer whose turn comes */
}

static void fake_random(void *ctx, void *buf, size_t len) {
  (void)ctx;
  unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) {
    w.rng = w.rng * 6364136223846793005u + 1442695040888963407u;
    p[i] = (unsigned char)(w.rng >> 56);
  }
}

static int64_t fake_now(void *ctx) {
  (void)ctx;
  return w.now;
}

static void fake_password(void *ctx, const srv_password_job *job) {
  (void)ctx;
  (void)job;
}

static void pump(void);

/* A finished game written to hub ctx's store at once, its answer held for deliver_held_game. */
static int held_save_game(void *ctx, const srv_game_write *game) {
  cr_assert(!w.holding_game, "a second game saved while one is held");
  w.held_hub = hub_of(ctx);
  w.held_game = *game;
  srv_store *store = w.stores[w.held_hub];
  srv_game_write *g = &w.held_game;
  g->status = g->abandoned ? srv_store_game_abandon(store, &g->game, g->record_json, g->histories)
                           : srv_store_game_finish(store, &g->game, g->record_json, g->histories);
  if (g->status != 0) snprintf(g->error, sizeof g->error, "%s", srv_store_error(store));
  w.holding_game = true;
  return 0;
}

static void deliver_held_game(void) {
  cr_assert(w.holding_game, "no finished game was saved");
  w.holding_game = false;
  srv_hub_game_saved(w.hubs[w.held_hub], &w.held_game);
  free(w.held_game.record_json);
  free(w.held_game.histories);
  pump();
}

/* The bus in memory: a message waits until pump(); nothing is taken while the bus is down. */
static int fake_publish(void *ctx, const char *subject, const char *text, size_t len) {
  (void)ctx;
  if (w.bus_down) return -1;
  cr_assert_lt(w.tail - w.head, MAX_QUEUED);
  bus_msg *m = &w.queue[w.tail++ % MAX_QUEUED];
  m->subject = strdup(subject);
  m->text = strndup(text, len);
  return 0;
}

/* Delivers what was published, and what that makes the hubs publish, to the hubs that listen. */
static void pump(void) {
  while (w.head < w.tail) {
    bus_msg m = w.queue[w.head++ % MAX_QUEUED];
    for (int i = 0; i < HUBS; i++) {
      char own[32];
      snprintf(own, sizeof own, SRV_BUS_NODE "%s", names[i]);
      if (!w.paused[i] && (strcmp(m.subject, SRV_BUS_LOBBY) == 0 || strcmp(m.subject, own) == 0))
        srv_hub_bus_message(w.hubs[i], m.subject, m.text, strlen(m.text));
    }
    free(m.subject);
    free(m.text);
  }
}

/* Time passes: every hub ticks every 100 ms and the bus carries everything at once. */
static void run(int ms) {
  for (int t = 0; t < ms; t += 100) {
    w.now += 100;
    for (int i = 0; i < HUBS; i++)
      if (!w.paused[i]) srv_hub_tick(w.hubs[i]);
    pump();
  }
}

static void bus_state(bool up) {
  w.bus_down = !up;
  for (int i = 0; i < HUBS; i++) srv_hub_bus_state(w.hubs[i], up);
  pump();
}

/* Starts hub i on its store (again), on the bus. */
static void start_hub(int i) {
  srv_hub_options o;
  srv_hub_options_default(&o);
  o.round_pause_ms = 0;
  o.player_rate_per_second = 0;
  o.lease_renew_ms = 1000;
  o.node = names[i];
  const srv_hub_io io = {(void *)(intptr_t)i, fake_send, fake_think, fake_random, fake_now, fake_password,
                         fake_publish, NULL, NULL, w.save_game, NULL, NULL, NULL};
  char err[256];
  cr_assert_eq(srv_hub_new(&w.hubs[i], w.stores[i], &io, &o, err, sizeof err), 0, "%s", err);
  for (uint64_t c = 1; c <= CLIENTS; c++) srv_hub_connect(w.hubs[i], c);
}

static void setup(void) {
  memset(&w, 0, sizeof w);
  w.db = getenv("GOITA_TEST_DB");
  w.now = 1000;
  w.rng = 7;
  if (!w.db || !srv_store_is_postgresql(w.db)) return;
  PGconn *conn = PQconnectdb(w.db);
  PQclear(PQexec(conn, "SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"));
  PQfinish(conn);
  for (int i = 0; i < HUBS; i++) {
    cr_assert_eq(srv_store_open(&w.stores[i], w.db), 0, "%s", srv_store_error(w.stores[i]));
    cr_assert_eq(srv_store_node(w.stores[i], names[i], 3000), 0, "%s", srv_store_error(w.stores[i]));
    start_hub(i);
  }
  bus_state(true);
  run(1500); /* every hub hears the others */
}

static void teardown(void) {
  pump();
  for (int i = 0; i < HUBS; i++) {
    srv_hub_free(w.hubs[i]);
    srv_store_close(w.stores[i]);
    for (int c = 0; c <= CLIENTS; c++) {
      json_decref(w.clients[i][c].last_state);
      json_decref(w.clients[i][c].last_tables);
      json_decref(w.clients[i][c].last_ks);
    }
  }
}

TestSuite(cluster, .init = setup, .fini = teardown);

static void say(int hub, uint64_t client, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(int hub, uint64_t client, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  srv_hub_receive(w.hubs[hub], client, text, strlen(text));
  pump();
}

static bool skipped(void) {
  if (w.hubs[0]) return false;
  cr_log_warn("GOITA_TEST_DB names no PostgreSQL database: several servers need one (tests/cli/store_postgresql.sh)");
  return true;
}

static json_int_t state_int(const client_log *c, const char *field) {
  return json_integer_value(json_object_get(c->last_state, field));
}

static json_t *game_of(const client_log *c) { return json_object_get(c->last_state, "game"); }

/* Ann says hello to a (client 1), Ben to b (client 1). */
static void hellos(void) {
  say(0, 1, "{\"type\":\"hello\",\"name\":\"Ann\"}");
  say(1, 1, "{\"type\":\"hello\",\"name\":\"Ben\"}");
}

/* A table of hub a with client 1 of a in seat 0, client 1 of b in seat 1 and computers in 2
 * and 3 (their turns never come in these tests), started. Returns its id. */
static int64_t shared_table(void) {
  hellos();
  say(0, 1, "{\"type\":\"create\",\"rules\":\"\"}");
  run(200);
  say(0, 1, "{\"type\":\"sit\",\"table\":1,\"seat\":0}");
  say(1, 1, "{\"type\":\"sit\",\"table\":1,\"seat\":1}");
  cr_assert_eq(w.clients[1][1].seated, 1, "b's client is not seated at a's table: %s", w.clients[1][1].last_error);
  say(1, 1, "{\"type\":\"bot\",\"table\":1,\"seat\":2,\"level\":\"rules\"}");
  say(1, 1, "{\"type\":\"bot\",\"table\":1,\"seat\":3,\"level\":\"rules\"}");
  say(1, 1, "{\"type\":\"start\",\"table\":1}");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[0][1].last_state, "status")), "playing");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1][1].last_state, "status")), "playing");
  return 1;
}

Test(cluster, the_lobby_of_each_server_shows_every_table) {
  if (skipped()) return;
  say(2, 1, "{\"type\":\"list\"}");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[2][1].last_tables, "total")), 0);
  hellos();
  say(0, 1, "{\"type\":\"create\",\"rules\":\"\"}");
  say(1, 1, "{\"type\":\"create\",\"rules\":\"\"}");
  run(200);
  cr_expect_eq(w.clients[2][1].lobby_events, 2, "c's listener heard of the tables of a and b");
  say(2, 1, "{\"type\":\"list\"}");
  json_t *page = w.clients[2][1].last_tables, *rows = json_object_get(page, "tables");
  cr_assert_eq(json_integer_value(json_object_get(page, "total")), 2);
  cr_assert_eq(json_array_size(rows), 2);
  cr_expect_eq(json_integer_value(json_object_get(json_array_get(rows, 0), "id")), 1, "in id order");
  cr_expect_eq(json_integer_value(json_object_get(json_array_get(rows, 1), "id")), 2);
  say(2, 1, "{\"type\":\"list\",\"after\":1,\"limit\":1}");
  cr_expect_eq(json_array_size(json_object_get(w.clients[2][1].last_tables, "tables")), 1, "the cursor pages them");
  /* a seat taken at a's table changes its row in c's lobby */
  const int before = w.clients[2][1].lobby_events;
  say(0, 1, "{\"type\":\"sit\",\"table\":1,\"seat\":0}");
  run(200);
  cr_expect_eq(w.clients[2][1].lobby_events, before + 1);
  say(2, 1, "{\"type\":\"list\",\"limit\":1}");
  json_t *seat0 = json_array_get(json_object_get(json_array_get(json_object_get(w.clients[2][1].last_tables, "tables"), 0), "seats"), 0);
  cr_expect_str_eq(json_string_value(json_object_get(seat0, "name")), "Ann");
}

Test(cluster, a_table_of_another_server_is_played_and_watched_through_the_bus) {
  if (skipped()) return;
  shared_table();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1], *spectator = &w.clients[2][2];
  say(2, 2, "{\"type\":\"watch\",\"table\":1}");
  cr_assert_eq(state_int(spectator, "seat"), -1);
  cr_expect(!json_object_get(game_of(spectator), "hand"), "a spectator on c gets no hand");
  cr_expect_eq(state_int(ben, "seat"), 1);
  cr_expect_eq(json_string_length(json_object_get(game_of(ben), "hand")),
               (size_t)json_integer_value(json_array_get(json_object_get(game_of(ben), "sizes"), 1)),
               "b's client gets seat 2's own hand");
  cr_expect_str_neq(json_string_value(json_object_get(game_of(ben), "hand")),
                    json_string_value(json_object_get(game_of(ann), "hand")));
  /* the players of a and b play until a computer's turn; everyone sees every move */
  for (int moves = 0; moves < 4; moves++) {
    const json_int_t turn = json_integer_value(json_object_get(game_of(ann), "turn"));
    if (turn > 1) break;
    const int hub = (int)turn;
    client_log *mover = &w.clients[hub][1];
    const char *move = json_string_value(json_array_get(json_object_get(game_of(mover), "legal"), 0));
    cr_assert(move, "seat %d has no legal move", (int)turn + 1);
    const size_t logged = json_array_size(json_object_get(game_of(spectator), "log"));
    say(hub, 1, "{\"type\":\"move\",\"table\":1,\"move\":\"%s\"}", move);
    cr_assert_eq(mover->errors, 0, "%s", mover->last_error);
    cr_expect_eq(json_array_size(json_object_get(game_of(spectator), "log")), logged + 1, "the spectator on c saw it");
    cr_expect_eq(json_array_size(json_object_get(game_of(ann), "log")), json_array_size(json_object_get(game_of(ben), "log")));
  }
  cr_expect(!spectator->hand_seen_by_spectator);
  /* chat from b reaches a */
  say(1, 1, "{\"type\":\"chat\",\"table\":1,\"text\":\"hello from b\"}");
  cr_expect_eq(ben->errors, 0, "%s", ben->last_error);
  /* b's client goes: a shows its seat disconnected */
  srv_hub_disconnect(w.hubs[1], 1);
  pump();
  json_t *seat1 = json_array_get(json_object_get(ann->last_state, "seats"), 1);
  cr_expect(json_is_false(json_object_get(seat1, "connected")), "a still shows b's player connected");
}

Test(cluster, while_the_bus_is_away_forwarded_requests_are_refused_and_then_resent) {
  if (skipped()) return;
  shared_table();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1];
  bus_state(false);
  cr_assert_eq(ben->errors, 1, "a client cut off from its table's server was not told");
  cr_expect(strstr(ben->last_error, "lost its link to server a") != NULL, "%s", ben->last_error);
  say(1, 1, "{\"type\":\"chat\",\"table\":1,\"text\":\"anyone?\"}");
  cr_assert_eq(ben->errors, 2);
  cr_expect(strstr(ben->last_error, "message bus is unreachable") != NULL, "%s", ben->last_error);
  /* a's own client plays on at a's table (when it is its turn) */
  if (json_integer_value(json_object_get(game_of(ann), "turn")) == 0) {
    const char *move = json_string_value(json_array_get(json_object_get(game_of(ann), "legal"), 0));
    say(0, 1, "{\"type\":\"move\",\"table\":1,\"move\":\"%s\"}", move);
    cr_expect_eq(ann->errors, 0, "%s", ann->last_error);
  }
  const int seated = ben->seated;
  bus_state(true);
  run(1500); /* b hears a again and sends its client there again */
  cr_expect_gt(ben->seated, seated, "b's client was not seated again after the bus came back");
  cr_expect_eq(json_array_size(json_object_get(game_of(ann), "log")), json_array_size(json_object_get(game_of(ben), "log")),
               "b's client has the table as it is now");
}

Test(cluster, a_private_table_of_another_server_is_joined_by_its_invite_and_resumed_by_its_token) {
  if (skipped()) return;
  hellos();
  say(2, 1, "{\"type\":\"list\"}");
  say(0, 1, "{\"type\":\"create\",\"rules\":\"\",\"private\":true}");
  run(200);
  cr_expect_eq(w.clients[2][1].lobby_events, 0, "a private table is in no server's lobby");
  client_log *ben = &w.clients[1][1];
  cr_assert_str_neq(w.clients[0][1].invite, "");
  say(1, 1, "{\"type\":\"join\",\"invite\":\"%s\"}", w.clients[0][1].invite);
  cr_assert_eq(ben->joined, 1, "b's client did not join a's private table: %s", ben->last_error);
  say(1, 1, "{\"type\":\"sit\",\"table\":1,\"seat\":1}");
  cr_assert_eq(ben->seated, 1, "%s", ben->last_error);
  /* the same player on c, with the seat token: c finds the table in the database and a seats it */
  client_log *again = &w.clients[2][3];
  say(2, 3, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", ben->seat_token);
  cr_assert_eq(again->seated, 1, "the seat token did not bring its seat back through c: %s", again->last_error);
  cr_expect_eq(state_int(again, "seat"), 1);
  cr_expect(strstr(ben->last_error, "taken back") != NULL, "b's client was not told: %s", ben->last_error);
}

Test(cluster, a_restarted_owner_gets_the_clients_of_the_other_servers_back) {
  if (skipped()) return;
  shared_table();
  client_log *ben = &w.clients[1][1];
  const int seated = ben->seated;
  /* a stops and starts again at once (before anyone calls it dead), with its tables */
  srv_hub_free(w.hubs[0]);
  start_hub(0);
  srv_hub_bus_state(w.hubs[0], true);
  pump();
  run(1500);
  cr_expect_gt(ben->seated, seated, "b's client was not seated again at the restarted a");
  cr_expect_eq(state_int(ben, "seat"), 1);
  say(0, 2, "{\"type\":\"watch\",\"table\":1}");
  json_t *seat1 = json_array_get(json_object_get(w.clients[0][2].last_state, "seats"), 1);
  cr_expect(json_is_true(json_object_get(seat1, "connected")), "a does not show b's player back");
}

/* Plays a table of four people (client 1 and 2 of a in seats 0 and 2, of b in seats 1 and 3)
 * to its end, each move by the seat to move from its own server. */
static void play_to_the_end(int64_t table) {
  for (int moves = 0; moves < 2000; moves++) {
    json_t *state = w.clients[0][1].last_state;
    if (strcmp(json_string_value(json_object_get(state, "status")), "over") == 0) return;
    const json_int_t turn = json_integer_value(json_object_get(json_object_get(state, "game"), "turn"));
    const int hub = (int)(turn % 2);
    const uint64_t client = turn < 2 ? 1 : 2;
    client_log *mover = &w.clients[hub][client];
    const char *move = json_string_value(json_array_get(json_object_get(game_of(mover), "legal"), 0));
    if (!move) { /* between rounds: the next deal comes with the tick */
      run(100);
      continue;
    }
    say(hub, client, "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
    cr_assert_eq(mover->errors, 0, "%s", mover->last_error);
  }
  cr_assert_fail("the game did not end");
}

Test(cluster, a_game_of_people_on_two_servers_ends_and_its_rematch_is_made_through_the_bus) {
  if (skipped()) return;
  for (int hub = 0; hub < 2; hub++)
    for (uint64_t c = 1; c <= 2; c++) say(hub, c, "{\"type\":\"hello\",\"name\":\"P%d%d\"}", hub, (int)c);
  say(0, 1, "{\"type\":\"create\",\"rules\":\"target=50\"}");
  for (int seat = 0; seat < 4; seat++) {
    say(seat % 2, seat < 2 ? 1 : 2, "{\"type\":\"sit\",\"table\":1,\"seat\":%d}", seat);
    cr_assert_eq(w.clients[seat % 2][seat < 2 ? 1 : 2].seated, 1, "%s", w.clients[seat % 2][seat < 2 ? 1 : 2].last_error);
  }
  say(1, 2, "{\"type\":\"start\",\"table\":1}");
  play_to_the_end(1);
  cr_expect(json_integer_value(json_object_get(w.clients[1][1].last_state, "game_id")) > 0, "b's player saw the game saved");
  for (int seat = 0; seat < 4; seat++) say(seat % 2, seat < 2 ? 1 : 2, "{\"type\":\"rematch\",\"table\":1}");
  run(200);
  for (int seat = 0; seat < 4; seat++) {
    client_log *c = &w.clients[seat % 2][seat < 2 ? 1 : 2];
    cr_expect_eq(c->seated, 2, "seat %d was not seated at the rematch: %s", seat + 1, c->last_error);
    cr_expect_eq(state_int(c, "table"), 2);
    cr_expect_eq(state_int(c, "seat"), seat);
  }
  /* b's players play at the new table through the bus: it knows where the rematch is */
  const json_int_t turn = json_integer_value(json_object_get(game_of(&w.clients[0][1]), "turn"));
  say((int)(turn % 2), turn < 2 ? 1 : 2, "{\"type\":\"chat\",\"table\":2,\"text\":\"again\"}");
  cr_expect_eq(w.clients[(int)(turn % 2)][turn < 2 ? 1 : 2].errors, 0, "%s", w.clients[(int)(turn % 2)][turn < 2 ? 1 : 2].last_error);
}

/* Players asking for a quick match on different servers wait in one queue (kept by the live
 * server whose name sorts first, a) and are seated together at a table of a; one who cancels
 * on c leaves that queue. */
Test(cluster, players_on_two_servers_are_matched_by_one_quick_match_queue) {
  if (skipped()) return;
  client_log *ben = &w.clients[1][1], *cat = &w.clients[2][1], *dan = &w.clients[2][2];
  say(1, 1, "{\"type\":\"hello\",\"name\":\"Ben\"}");
  say(2, 1, "{\"type\":\"hello\",\"name\":\"Cat\"}");
  say(2, 2, "{\"type\":\"hello\",\"name\":\"Dan\"}");
  say(1, 1, "{\"type\":\"quick\",\"rules\":\"\",\"wait_seconds\":2,\"level\":\"rules\"}");
  say(2, 1, "{\"type\":\"quick\",\"rules\":\"\",\"wait_seconds\":2,\"level\":\"rules\"}");
  say(2, 2, "{\"type\":\"quick\",\"rules\":\"\",\"wait_seconds\":2,\"level\":\"rules\"}");
  say(2, 2, "{\"type\":\"quick_cancel\"}");
  cr_assert_eq(ben->errors + cat->errors + dan->errors, 0, "%s%s%s", ben->last_error, cat->last_error, dan->last_error);
  run(2500); /* the wait ends: computers take the seats nobody took */
  cr_assert_eq(ben->seated, 1, "Ben on b was not seated: %s", ben->last_error);
  cr_assert_eq(cat->seated, 1, "Cat on c was not seated: %s", cat->last_error);
  cr_expect_eq(dan->seated, 0, "Dan cancelled, yet was seated");
  cr_assert_eq(state_int(ben, "table"), state_int(cat, "table"), "b's and c's players were matched apart");
  json_t *seats = json_object_get(cat->last_state, "seats");
  int people = 0;
  for (size_t i = 0; i < json_array_size(seats); i++)
    people += strcmp(json_string_value(json_object_get(json_array_get(seats, i), "bot")), "") == 0;
  cr_expect_eq(people, 2, "Ben and Cat, and computers in the other seats");
  char key[24], node[SRV_NODE_SIZE] = "";
  snprintf(key, sizeof key, "%lld", (long long)state_int(cat, "table"));
  int64_t table = 0;
  bool found = false;
  cr_assert_eq(srv_store_table_owner(w.stores[0], SRV_KEY_ID, key, &table, node, &found), 0);
  cr_expect(found && strcmp(node, "a") == 0, "the quick match's table is served by %s, not by a", node);
}

/* net.c gives srv_hub_receive the session's receive buffer, and a send that overflows the
 * client's queue frees the session with it (hub.h): the hub must not read the text after a send.
 * A guest's quick match sends it its player row first, then forwards the text to the matchmaker
 * (server a). Under ASan this was a heap use after free. */
Test(cluster, a_send_that_frees_the_receive_buffer_leaves_the_forwarded_request_whole) {
  if (skipped()) return;
  say(1, 1, "{\"type\":\"hello\",\"name\":\"Ben\"}");
  char *rx = strdup("{\"type\":\"quick\",\"rules\":\"\",\"wait_seconds\":2,\"level\":\"rules\"}");
  w.free_on_send = rx;
  srv_hub_receive(w.hubs[1], 1, rx, strlen(rx));
  cr_assert_null(w.free_on_send, "the hub sent nothing to the guest before forwarding: the test tests nothing");
  pump();
  run(2500);
  cr_expect_eq(w.clients[1][1].seated, 1, "Ben's quick match through a was lost: %s", w.clients[1][1].last_error);
}

/* Runs SQL on the test database and returns the first column of the first row as a number. */
static long long sql(const char *query) {
  PGconn *conn = PQconnectdb(w.db);
  PGresult *r = PQexec(conn, query);
  cr_assert(PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK, "%s: %s", query,
            PQerrorMessage(conn));
  const long long v = PQntuples(r) > 0 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
  PQclear(r);
  PQfinish(conn);
  return v;
}

/* The moves stored for a table, space-separated, in order. */
static void stored_moves(int64_t table, char *out, size_t size) {
  char query[128];
  snprintf(query, sizeof query, "SELECT string_agg(move, ' ' ORDER BY seq) FROM moves WHERE table_id = %lld",
           (long long)table);
  PGconn *conn = PQconnectdb(w.db);
  PGresult *r = PQexec(conn, query);
  snprintf(out, size, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
  PQclear(r);
  PQfinish(conn);
}

/* Plays the first legal move of seat 0 or 1 while one of them is to move, at most n moves, each
 * by the client acting for that seat: clients[seat] on hubs[seat]. */
static int play_people(int64_t table, const int hubs[2], const uint64_t clients[2], int n) {
  int played = 0;
  for (; played < n; played++) {
    client_log *first = &w.clients[hubs[0]][clients[0]];
    const json_int_t turn = json_integer_value(json_object_get(game_of(first), "turn"));
    if (turn > 1) break;
    client_log *mover = &w.clients[hubs[turn]][clients[turn]];
    const char *move = json_string_value(json_array_get(json_object_get(game_of(mover), "legal"), 0));
    if (!move) break;
    const int errors = mover->errors;
    say(hubs[turn], clients[turn], "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
    cr_assert_eq(mover->errors, errors, "%s", mover->last_error);
  }
  return played;
}

/* The paused owner (issue: a server paused past its lease, woken after the server that took
 * its table over died, wrote its stale copy over the other's moves). a is paused past its
 * lease; b takes the table over and its moves are played there; b dies; a wakes with its stale
 * copy. a must write nothing at the table, let it go and tell its clients, and take it over
 * only from the database, with b's moves. */
Test(cluster, a_paused_owner_woken_after_a_takeover_writes_nothing_and_takes_the_table_only_from_the_database) {
  if (skipped()) return;
  shared_table();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1];
  char before[256];
  stored_moves(1, before, sizeof before);
  /* a is paused past its lease (c too, out of the way): b claims the table */
  w.paused[0] = w.paused[2] = true;
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'a'");
  run(1500);
  cr_assert_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND node = 'b'"), 1, "b did not take the table over");
  /* Ann's browser, cut off from a, reconnects to b with her seat token */
  say(1, 3, "{\"type\":\"hello\",\"name\":\"Ann\"}");
  say(1, 3, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", ann->seat_token);
  cr_assert_eq(w.clients[1][3].seated, 1, "Ann was not seated again on b: %s", w.clients[1][3].last_error);
  run(200);
  const int played = play_people(1, (const int[]){1, 1}, (const uint64_t[]){3, 1}, 3);
  cr_assert_gt(played, 0, "no move was played on b");
  char after_b[256];
  stored_moves(1, after_b, sizeof after_b);
  cr_assert(strncmp(after_b, before, strlen(before)) == 0, "b's moves do not follow a's: \"%s\" then \"%s\"", before,
            after_b);
  /* a wakes, its copy of the table as it was before the pause; the player to move in that copy
   * is at a (Ben's browser reconnects to a when that is Ben) */
  w.paused[0] = false;
  const json_int_t stale_turn = json_integer_value(json_object_get(game_of(ann), "turn"));
  cr_assert(stale_turn <= 1, "a's copy has a computer to move");
  client_log *mover = ann;
  if (stale_turn == 1) {
    say(0, 4, "{\"type\":\"hello\",\"name\":\"Ben\"}");
    say(0, 4, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", ben->seat_token);
    mover = &w.clients[0][4];
  }
  const uint64_t mover_id = stale_turn == 1 ? 4 : 1;
  /* (its last legal move: b's players played their first) */
  json_t *legal = json_object_get(game_of(mover), "legal");
  char stale[16];
  snprintf(stale, sizeof stale, "%s", json_string_value(json_array_get(legal, json_array_size(legal) - 1)));
  run(300); /* a's first renewal: the table is b's */
  cr_expect_eq(mover->moved, 1, "a did not tell the players at the table it lost that it moved");
  /* b dies; after a grace of a lease a takes b's table over */
  w.paused[1] = true;
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'b'");
  run(4500);
  cr_assert_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND node = 'a'"), 1, "a did not take b's table over");
  /* the move the player saw last on a, sent now: it must not replace a stored move */
  say(0, mover_id, "{\"type\":\"move\",\"table\":1,\"move\":\"%s\"}", stale);
  char now_stored[256];
  stored_moves(1, now_stored, sizeof now_stored);
  cr_expect(strncmp(now_stored, after_b, strlen(after_b)) == 0, "stored moves replaced: \"%s\", then \"%s\"", after_b,
            now_stored);
  cr_expect_eq(sql("SELECT count(*) FROM games"), 0, "a stored a game for the table");
  /* Ann resumes on a: she is shown the stored table */
  say(0, 1, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", ann->seat_token);
  cr_assert_gt(ann->seated, 1, "Ann was not seated again on a: %s", ann->last_error);
  /* (the moves of this test are all in its first round, whose log the state shows) */
  cr_expect_eq((long long)json_array_size(json_object_get(game_of(ann), "log")),
               sql("SELECT count(*) FROM moves WHERE table_id = 1"),
               "a serves a table that is not the stored one (%d moves played on b)", played);
  cr_expect_eq(sql("SELECT count(*) FROM (SELECT epoch FROM moves WHERE table_id = 1 GROUP BY epoch "
                   "HAVING count(DISTINCT node) > 1) e"),
               0, "two servers wrote the table in one epoch");
}

/* A game saved away from the loop (issue: under load, one server alone lost a table at its
 * game's end, "the database names another server as its owner"). The store thread had closed
 * the table in the database, and a lease renewal on the loop heard that it owns it no more
 * before the loop heard that the game was saved. The table must end as any other: over, its
 * players told, nobody sent elsewhere. */
Test(cluster, a_lease_renewal_between_a_games_save_and_its_answer_keeps_the_table) {
  if (skipped()) return;
  srv_hub_free(w.hubs[0]);
  w.save_game = held_save_game;
  start_hub(0);
  for (uint64_t c = 1; c <= 4; c++) say(0, c, "{\"type\":\"hello\",\"name\":\"P%llu\"}", (unsigned long long)c);
  say(0, 1, "{\"type\":\"create\",\"rules\":\"target=1\"}");
  for (uint64_t c = 1; c <= 4; c++) say(0, c, "{\"type\":\"sit\",\"table\":1,\"seat\":%llu}", (unsigned long long)(c - 1));
  say(0, 1, "{\"type\":\"start\",\"table\":1}");
  for (int moves = 0; !w.holding_game; moves++) {
    cr_assert_lt(moves, 200, "the one-round game did not end");
    const json_int_t turn = json_integer_value(json_object_get(game_of(&w.clients[0][1]), "turn"));
    client_log *mover = &w.clients[0][turn + 1];
    const char *move = json_string_value(json_array_get(json_object_get(game_of(mover), "legal"), 0));
    cr_assert(move, "seat %lld has no legal move", (long long)turn);
    say(0, (uint64_t)turn + 1, "{\"type\":\"move\",\"table\":1,\"move\":\"%s\"}", move);
  }
  cr_assert_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND status = 2"), 1, "the game's save did not close the table");
  run(1500); /* a renews its lease: the table is closed in the database, and its answer not heard yet */
  deliver_held_game();
  for (uint64_t c = 1; c <= 4; c++) {
    cr_expect_eq(w.clients[0][c].moved, 0, "player %llu was sent to another server", (unsigned long long)c);
    cr_expect_str_eq(json_string_value(json_object_get(w.clients[0][c].last_state, "status")), "over",
                     "player %llu was not shown the game's end", (unsigned long long)c);
  }
  w.save_game = NULL;
}

/* PostgreSQL away for longer than the lease (issue: when it came back, the first server to
 * renew claimed every other live server's tables). Every lease has run out by the database's
 * clock when it returns; a live server renews within its renewal period, so no server claims
 * another's table before a lease's grace has passed. */
Test(cluster, after_a_database_outage_longer_than_the_lease_no_live_server_takes_anothers_tables) {
  const char *stop = getenv("GOITA_TEST_DB_STOP"), *start = getenv("GOITA_TEST_DB_START");
  if (skipped() || !stop || !start) return;
  shared_table(); /* table 1, a's */
  say(1, 1, "{\"type\":\"create\",\"rules\":\"\"}"); /* table 2, b's */
  run(200);
  cr_assert_eq(sql("SELECT count(*) FROM tables WHERE id = 2 AND node = 'b'"), 1);
  cr_assert_eq(system(stop), 0);
  run(3000); /* every renewal fails */
  cr_assert_eq(system(start), 0);
  sql("UPDATE nodes SET lease_until = now() - interval '1 second'"); /* the outage outlasted every lease */
  run(6000);
  cr_expect_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND node = 'a'"), 1, "a's table was taken from it");
  cr_expect_eq(sql("SELECT count(*) FROM tables WHERE id = 2 AND node = 'b'"), 1, "b's table was taken from it");
  cr_expect_eq(sql("SELECT max(epoch) FROM tables"), 1, "a table was claimed");
  /* a server that died during the outage has its tables taken over after the grace */
  w.paused[1] = true;
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'b'");
  run(1500);
  cr_expect_eq(sql("SELECT count(*) FROM tables WHERE id = 2 AND node != 'b'"), 1, "b's table was not taken over");
}

/* An owner paused inside a transaction (issue: the takeover's claim waited for the table's row
 * lock, and the claiming server's loop with it, for as long as the owner slept). Here the lock
 * is held by a session of the test's own; the owner's own sessions end such a transaction after
 * a lease (tests/e2e/chaos-cases.js, paused-mid-transaction). The claim skips the locked table,
 * the other servers go on, and it is taken over at a renewal after the lock is let go. */
Test(cluster, a_table_locked_by_a_paused_owner_is_claimed_after_the_lock_and_nobody_waits_for_it, .timeout = 20) {
  if (skipped()) return;
  shared_table();
  PGconn *holder = PQconnectdb(w.db);
  PQclear(PQexec(holder, "BEGIN"));
  PGresult *r = PQexec(holder, "SELECT id FROM tables WHERE id = 1 FOR UPDATE");
  cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(holder));
  PQclear(r);
  w.paused[0] = true;
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'a'");
  run(1500); /* (a claim that waits for the lock never returns: the test's timeout fails it) */
  cr_expect_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND node = 'a'"), 1, "a locked table was claimed");
  say(1, 2, "{\"type\":\"hello\",\"name\":\"Cy\"}");
  cr_expect(w.clients[1][2].player_token[0], "b does not answer while a's table is locked");
  PQclear(PQexec(holder, "ROLLBACK"));
  PQfinish(holder);
  run(1500);
  cr_expect_eq(sql("SELECT count(*) FROM tables WHERE id = 1 AND node IN ('b', 'c') AND epoch = 2"), 1,
               "a's table was not taken over once its lock was let go");
}

/* A request forwarded to a server that does not answer (it died, or the bus lost the request)
 * gets an error within a bounded time (issue: a client waited 15 s for nothing). */
Test(cluster, a_request_forwarded_to_a_server_that_does_not_answer_gets_an_error_in_time) {
  if (skipped()) return;
  shared_table();
  client_log *ben = &w.clients[1][1];
  w.paused[0] = true; /* a hears nothing more */
  const int errors = ben->errors;
  say(1, 1, "{\"type\":\"chat\",\"table\":1,\"text\":\"anyone?\"}");
  run(4000);
  cr_expect_eq(ben->errors, errors, "an error before the deadline: %s", ben->last_error);
  run(1500);
  cr_assert_eq(ben->errors, errors + 1, "no answer and no error 5.5 s after the request");
  cr_expect(strstr(ben->last_error, "did not answer") != NULL, "%s", ben->last_error);
  /* an answered request is not given up */
  w.paused[0] = false;
  run(1500); /* b hears a again */
  const int later = ben->errors;
  say(1, 1, "{\"type\":\"chat\",\"table\":1,\"text\":\"there?\"}");
  run(6000);
  cr_expect_eq(ben->errors, later, "an answered request was given up: %s", ben->last_error);
}

/* ---- Ko shogi tables on several servers (docs/SERVER.md "Ko shogi tables") ---- */

static const char *ks_text(const client_log *c, const char *key) {
  return json_string_value(json_object_get(c->last_ks, key));
}

static long long ks_moves_seen(const client_log *c) {
  return (long long)json_array_size(json_object_get(c->last_ks, "moves"));
}

static json_int_t ks_main_left(const client_log *c, const char *side) {
  return json_integer_value(json_object_get(json_object_get(json_object_get(c->last_ks, "clock"), side), "main_ms"));
}

/* The first legal move of the position the client was last sent. */
static void first_legal(const client_log *c, char move[KS_MOVE_TEXT]) {
  ks_position pos;
  int number;
  char err[256];
  cr_assert_eq(ks_position_parse(ks_text(c, "position"), &pos, &number, err, sizeof err), 0, "%s", err);
  ks_move moves[512];
  cr_assert_gt(ks_legal_moves(&pos, moves, 512), 0);
  cr_assert_gt(ks_move_format(&pos, &moves[0], move, KS_MOVE_TEXT), 0);
}

/* The client at hub `hub` plays the first legal move of the position it was last sent. */
static void play_first_legal(int hub, uint64_t client, int64_t table) {
  client_log *c = &w.clients[hub][client];
  char move[KS_MOVE_TEXT];
  first_legal(c, move);
  const int errors = c->errors;
  say(hub, client, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, move);
  cr_assert_eq(c->errors, errors, "the move on %s was refused: %s", names[hub], c->last_error);
}

static long long ks_sql(const char *fmt, int64_t table) {
  char query[256];
  snprintf(query, sizeof query, fmt, (long long)table);
  return sql(query);
}

/* Ann (client 1 of a) makes a Ko shogi table on a at Black; Ben (client 1 of b) sits at White
 * through b, his request sent to a over the bus. Returns the table's number. */
static int64_t ks_game_across_servers(void) {
  hellos();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1];
  say(0, 1, "{\"type\":\"ks_create\",\"side\":\"black\",\"main_minutes\":10,\"byoyomi_seconds\":30}");
  cr_assert(ann->last_ks, "no table for Ann: %s", ann->last_error);
  const int64_t table = (int64_t)json_integer_value(json_object_get(ann->last_ks, "table"));
  cr_assert_gt(table, INT64_C(1) << 40, "a Ko shogi number: %lld", (long long)table);
  cr_assert_eq(ks_sql("SELECT count(*) FROM ks_tables WHERE id = %lld AND node = 'a' AND epoch = 1", table), 1,
               "the table is stored as a's, in epoch 1");
  say(1, 1, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  cr_assert(ben->last_ks, "Ben, on b, was not seated at a's table: %s", ben->last_error);
  cr_assert_str_eq(ks_text(ben, "status"), "playing");
  cr_assert_str_eq(ks_text(ben, "you"), "white");
  cr_assert_str_eq(ks_text(ann, "status"), "playing");
  return table;
}

/* Servers number Ko shogi tables from the database: tables made on a and b at once differ. */
Test(cluster, ko_shogi_tables_made_on_two_servers_get_different_numbers_and_every_lobby_lists_both) {
  if (skipped()) return;
  hellos();
  say(0, 1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  say(1, 1, "{\"type\":\"ks_create\",\"side\":\"black\"}");
  const json_int_t on_a = json_integer_value(json_object_get(w.clients[0][1].last_ks, "table"));
  const json_int_t on_b = json_integer_value(json_object_get(w.clients[1][1].last_ks, "table"));
  cr_assert(on_a > 0 && on_b > 0 && on_a != on_b, "tables %lld and %lld", (long long)on_a, (long long)on_b);
  run(300);
  say(2, 1, "{\"type\":\"list\"}");
  json_t *koshogi = json_object_get(w.clients[2][1].last_tables, "koshogi");
  cr_assert_eq(json_array_size(koshogi), 2, "c's lobby lists %zu Ko shogi tables", json_array_size(koshogi));
  cr_expect_eq(json_array_size(json_object_get(w.clients[2][1].last_tables, "tables")), 0,
               "Ko shogi rows are listed apart from Goita's");
}

/* A request on b for a table a owns is played there, and what a sends reaches b's and c's clients. */
Test(cluster, a_ko_shogi_table_of_another_server_is_played_and_watched_through_the_bus) {
  if (skipped()) return;
  const int64_t table = ks_game_across_servers();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1], *cid = &w.clients[2][1];
  say(2, 1, "{\"type\":\"hello\",\"name\":\"Cid\"}");
  say(2, 1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert(cid->last_ks, "Cid, on c, does not watch a's table: %s", cid->last_error);
  cr_assert(json_is_null(json_object_get(cid->last_ks, "you")), "a spectator has no side");
  play_first_legal(0, 1, table);
  play_first_legal(1, 1, table); /* Ben's move, sent to a */
  cr_assert_eq(ks_sql("SELECT count(*) FROM ks_moves WHERE table_id = %lld", table), 2, "a stored both moves");
  cr_expect_eq(ks_moves_seen(ann), 2);
  cr_expect_eq(ks_moves_seen(ben), 2);
  cr_expect_eq(ks_moves_seen(cid), 2, "the spectator on c sees both moves");
  say(1, 1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(ks_text(cid, "status"), "over", "%s", ben->last_error);
  cr_expect_eq(ks_sql("SELECT count(*) FROM ks_games WHERE result = 'black' AND moves = 2 AND %lld > 0", table), 1);
}

/* a stops answering and its lease runs out: another server takes its Ko shogi table over with
 * the clocks as stored (the outage is nobody's), the players come back by watching it on any
 * server, the game is played to its end there and its result stored once; a woken later finds
 * the table gone from it. */
Test(cluster, a_ko_shogi_table_is_taken_over_when_its_servers_lease_runs_out_and_played_to_the_end) {
  if (skipped()) return;
  const int64_t table = ks_game_across_servers();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1];
  play_first_legal(0, 1, table);
  run(3000);
  play_first_legal(1, 1, table); /* White took 3 s */
  const json_int_t white_left = ks_main_left(ann, "white");
  cr_assert_lt(white_left, 600000);
  w.paused[0] = true;
  run(1000); /* a second of outage, Black to move: not Black's time */
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'a'");
  bool taken = false;
  for (int ms = 0; ms < 3000 && !taken; ms += 100) {
    run(100);
    taken = ks_sql("SELECT count(*) FROM ks_tables WHERE id = %lld AND node IN ('b', 'c') AND epoch = 2", table) == 1;
  }
  cr_assert(taken, "no live server took a's table over");
  /* Ann comes back through c, as her player */
  client_log *ann_c = &w.clients[2][3];
  say(2, 3, "{\"type\":\"hello\",\"player_token\":\"%s\"}", ann->player_token);
  say(2, 3, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert(ann_c->last_ks, "Ann does not find her table through c: %s", ann_c->last_error);
  cr_assert_str_eq(ks_text(ann_c, "you"), "black", "Ann is Black again");
  cr_assert_eq(ks_moves_seen(ann_c), 2);
  cr_expect_geq(ks_main_left(ann_c, "black"), 600000 - 100, "Black's time as stored, its turn from the takeover: %lld",
                (long long)ks_main_left(ann_c, "black"));
  cr_expect_eq(ks_main_left(ann_c, "white"), white_left, "White's time as stored");
  say(1, 1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(ks_text(ben, "you"), "white", "%s", ben->last_error);
  play_first_legal(2, 3, table);
  play_first_legal(1, 1, table);
  cr_assert_eq(ks_sql("SELECT count(*) FROM ks_moves WHERE table_id = %lld", table), 4);
  say(1, 1, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table);
  cr_assert_str_eq(ks_text(ann_c, "status"), "over", "%s", ben->last_error);
  cr_assert_eq(sql("SELECT count(*) FROM ks_games WHERE moves = 4 AND result = 'black'"), 1, "the result stored once");
  const long long history_rows = sql("SELECT count(*) FROM ks_rating_history");
  cr_expect_eq(ks_sql("SELECT count(*) FROM ks_tables WHERE id = %lld", table), 0, "the save closed the table");
  /* a wakes: its first renewal finds the table gone, its players told */
  w.paused[0] = false;
  run(300);
  cr_expect_eq(ann->moved, 1, "a did not tell Ann the table moved");
  cr_expect_eq(sql("SELECT count(*) FROM ks_games"), 1, "a stored a second result");
  cr_expect_eq(sql("SELECT count(*) FROM ks_rating_history"), history_rows, "a stored a second game's rating changes");
}

/* A paused owner wakes after its table was taken over, and a move of its stale copy arrives
 * before its first renewal: the database refuses it, nothing stored is changed, the table leaves
 * a and its players are told it moved; the game goes on at the new owner. */
Test(cluster, a_paused_ko_shogi_owner_woken_after_a_takeover_stores_nothing) {
  if (skipped()) return;
  const int64_t table = ks_game_across_servers();
  client_log *ann = &w.clients[0][1], *ben = &w.clients[1][1];
  play_first_legal(0, 1, table);
  play_first_legal(1, 1, table);
  w.paused[0] = true;
  sql("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'a'");
  run(1500);
  cr_assert_eq(ks_sql("SELECT count(*) FROM ks_tables WHERE id = %lld AND node != 'a'", table), 1,
               "no live server took a's table over");
  /* a wakes; Black's move reaches it before its lease renewal */
  w.paused[0] = false;
  const int errors = ann->errors;
  char stale[KS_MOVE_TEXT];
  first_legal(ann, stale);
  say(0, 1, "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table, stale);
  cr_expect_gt(ann->errors, errors, "a's stale move was not refused");
  cr_expect_eq(ks_sql("SELECT count(*) FROM ks_moves WHERE table_id = %lld", table), 2,
               "a stored a move of a table another server owns");
  cr_expect_eq(ann->moved, 1, "Ann was not told the table moved");
  /* Ann watches again through a: her request goes to the owner, which serves the stored game;
   * Ben is at the owner's table (sent there by b when it took the table over or when a told
   * him the table moved) */
  say(0, 1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  cr_assert_eq(ks_moves_seen(ann), 2, "%s", ann->last_error);
  if (ben->moved) say(1, 1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  play_first_legal(0, 1, table);
  cr_expect_eq(ks_sql("SELECT count(*) FROM ks_moves WHERE table_id = %lld AND ply = 2", table), 1,
               "Ann's move through a is stored by the owner");
  cr_expect_eq(ks_moves_seen(ben), 3, "Ben does not see the game at its owner");
}

/* The server's hub, driven directly (no network): whole games through the message protocol,
 * a scan of every message for hidden pieces, seat tokens, restarts from the database, strict
 * request checking, turn timers and a full disk. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "goita/goita.h"
#include "hub.h"
#include "hub_internal.h"
#include "protocol.h"
#include "store.h"

/* ---- a fake world around the hub ---- */

#define MAX_CLIENTS 16
#define MAX_JOBS 64

typedef struct client_state {
  int table;
  int seat; /* -1: none or watching */
  bool watching;
  char seat_token[SRV_TOKEN_SIZE];
  char player_token[SRV_TOKEN_SIZE];
  json_t *last; /* the last message */
  json_t *last_state;
  int errors;
  char last_error[256];
  int received;        /* messages of any type */
  size_t last_len;     /* the last message's length in bytes */
  int lobby_events;    /* "lobby" messages */
  size_t largest_lobby; /* the longest "lobby" message, in bytes */
  json_int_t last_removed; /* the table of the last "removed" event */
  int created_events;
  json_t *last_lobby;
} client_state;

static struct {
  srv_store *store;
  srv_hub *hub;
  char db[64];
  client_state clients[MAX_CLIENTS + 1];
  srv_think_job jobs[MAX_JOBS];
  int njobs;
  int64_t now;
  goita_rng rng;
  long messages, scanned;
  bool scan;
  srv_hub_options options;
  int64_t counted_table;           /* think jobs for this table are counted per seat */
  int seat_jobs[GOITA_MAX_SEATS];
} w;

static void scan_message(uint64_t client, const char *text, json_t *msg);

static void fake_send(void *ctx, uint64_t client, const char *text, size_t len) {
  (void)ctx;
  cr_assert_leq(client, MAX_CLIENTS);
  cr_assert_eq(strlen(text), len);
  json_error_t jerr;
  json_t *msg = json_loads(text, 0, &jerr);
  cr_assert(msg, "the hub sent something that is not JSON: %s", text);
  w.messages++;
  client_state *c = &w.clients[client];
  c->received++;
  c->last_len = len;
  const char *type = json_string_value(json_object_get(msg, "type"));
  cr_assert(type, "a message without a type: %s", text);
  if (strcmp(type, "seated") == 0) {
    c->table = (int)json_integer_value(json_object_get(msg, "table"));
    c->seat = (int)json_integer_value(json_object_get(msg, "seat"));
    snprintf(c->seat_token, sizeof c->seat_token, "%s", json_string_value(json_object_get(msg, "seat_token")));
  } else if (strcmp(type, "welcome") == 0) {
    snprintf(c->player_token, sizeof c->player_token, "%s", json_string_value(json_object_get(msg, "player_token")));
  } else if (strcmp(type, "error") == 0) {
    c->errors++;
    snprintf(c->last_error, sizeof c->last_error, "%s", json_string_value(json_object_get(msg, "error")));
  } else if (strcmp(type, "lobby") == 0) {
    c->lobby_events++;
    if (len > c->largest_lobby) c->largest_lobby = len;
    json_decref(c->last_lobby);
    c->last_lobby = json_incref(msg);
    const char *event = json_string_value(json_object_get(msg, "event"));
    json_t *id = json_object_get(json_object_get(msg, "table"), "id");
    if (strcmp(event, "removed") == 0) c->last_removed = json_integer_value(id);
    if (strcmp(event, "created") == 0) c->created_events++;
  } else if (strcmp(type, "state") == 0) {
    if (w.scan) scan_message(client, text, msg);
    json_decref(c->last_state);
    c->last_state = json_incref(msg);
  }
  json_decref(c->last);
  c->last = msg;
}

static void fake_think(void *ctx, const srv_think_job *job) {
  (void)ctx;
  if (job->table == w.counted_table) w.seat_jobs[job->view.seat]++;
  cr_assert_lt(w.njobs, MAX_JOBS);
  w.jobs[w.njobs++] = *job;
}

static void fake_random(void *ctx, void *buf, size_t len) {
  (void)ctx;
  uint8_t *p = buf;
  for (size_t i = 0; i < len; i++) p[i] = (uint8_t)goita_rng_next(&w.rng);
}

static int64_t fake_now(void *ctx) {
  (void)ctx;
  return w.now;
}

static const srv_hub_io io = {NULL, fake_send, fake_think, fake_random, fake_now};

/* Opens the hub with w.options: tests that are not about limits run with none. */
static void open_hub(int round_pause_ms) {
  cr_assert_eq(srv_store_open(&w.store, w.db), 0);
  srv_hub_options o = w.options;
  o.round_pause_ms = round_pause_ms;
  char err[256] = "";
  cr_assert_eq(srv_hub_new(&w.hub, w.store, &io, &o, err, sizeof err), 0, "%s", err);
}

/* A server killed: nothing but the database survives. */
static void close_hub(void) {
  srv_hub_free(w.hub);
  srv_store_close(w.store);
  w.hub = NULL;
  w.store = NULL;
  w.njobs = 0;
  for (int i = 0; i <= MAX_CLIENTS; i++) {
    json_decref(w.clients[i].last);
    json_decref(w.clients[i].last_state);
    json_decref(w.clients[i].last_lobby);
    w.clients[i].last = w.clients[i].last_state = w.clients[i].last_lobby = NULL;
  }
}

static void setup(void) {
  memset(&w, 0, sizeof w);
  snprintf(w.db, sizeof w.db, "/tmp/goita-test-server-%d.db", getpid());
  unlink(w.db);
  goita_rng_seed(&w.rng, 42);
  w.now = 1000000;
  srv_hub_options_default(&w.options);
  w.options.max_tables_per_player = 0;
  w.options.player_rate_per_second = 0;
  open_hub(0);
  for (int i = 0; i <= MAX_CLIENTS; i++) w.clients[i].seat = -1;
}

static void teardown(void) {
  close_hub();
  char path[80];
  unlink(w.db);
  snprintf(path, sizeof path, "%s-wal", w.db);
  unlink(path);
  snprintf(path, sizeof path, "%s-shm", w.db);
  unlink(path);
}

static void say(uint64_t client, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(uint64_t client, const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  srv_hub_receive(w.hub, client, text, strlen(text));
}

static void connect_client(uint64_t id, const char *name) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"name\":\"%s\"}", name);
  cr_assert_eq(w.clients[id].errors, 0, "%s", w.clients[id].last_error);
}

/* Answers every computer player's turn with a random legal move. */
static void run_jobs(void) {
  while (w.njobs > 0) {
    const srv_think_job job = w.jobs[--w.njobs];
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_view_legal_moves(&job.view, moves);
    cr_assert_gt(n, 0);
    srv_hub_bot_move(w.hub, job.table, job.version, moves[goita_rng_below(&w.rng, (uint32_t)n)]);
  }
}

/* The client plays a random legal move from its last state when it is its turn; returns
 * whether it did. */
static bool play_if_turn(uint64_t id) {
  client_state *c = &w.clients[id];
  json_t *game = c->last_state ? json_object_get(c->last_state, "game") : NULL;
  if (!game || c->seat < 0) return false;
  json_t *legal = json_object_get(game, "legal");
  const size_t n = json_array_size(legal);
  if (n == 0) return false;
  const char *move = json_string_value(json_array_get(legal, goita_rng_below(&w.rng, (uint32_t)n)));
  const int errors = c->errors;
  say(id, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", c->table, move);
  cr_assert_eq(c->errors, errors, "a legal move was refused: %s", c->last_error);
  return true;
}

static const char *status_of(uint64_t id) {
  json_t *st = w.clients[id].last_state;
  return st ? json_string_value(json_object_get(st, "status")) : "";
}

/* ---- the hidden-information scan ---- */

/* The truth, rebuilt beside the hub from the database: the table's seed and every saved move. */
typedef struct truth {
  int table;
  goita_rules rules;
  uint64_t seed;
  char tokens[GOITA_MAX_SEATS][SRV_TOKEN_SIZE];
  goita_game game;
  int applied;
} truth;

static truth truths[64];
static int ntruths;

static void find_table(void *ctx, const srv_table_row *row) {
  truth *t = ctx;
  if (row->id != t->table) return;
  t->seed = row->seed;
  goita_rules_default(&t->rules);
  cr_assert_eq(goita_rules_parse(&t->rules, row->rules, NULL), GOITA_OK);
  for (int s = 0; s < GOITA_MAX_SEATS; s++) memcpy(t->tokens[s], row->seats[s].token, SRV_TOKEN_SIZE);
}

static int move_seq;
static void replay_move(void *ctx, const char *text) {
  truth *t = ctx;
  if (move_seq++ < t->applied) return;
  if (goita_round_over(&t->game.round) && !t->game.over) goita_game_next_round(&t->game, NULL);
  goita_move m;
  cr_assert_eq(goita_move_parse(text, strlen(text), &m), GOITA_OK);
  cr_assert_eq(goita_game_apply(&t->game, m, NULL), GOITA_OK);
  t->applied++;
}

static truth *truth_of(int table, int round_index) {
  truth *t = NULL;
  for (int i = 0; i < ntruths && !t; i++)
    if (truths[i].table == table) t = &truths[i];
  if (!t) {
    cr_assert_lt(ntruths, 64);
    t = &truths[ntruths++];
    memset(t, 0, sizeof *t);
    t->table = table;
    srv_store_tables_open(w.store, find_table, t);
    cr_assert_neq(t->seed, 0, "table %d is not open in the database", table);
    cr_assert_eq(goita_game_start(&t->game, &t->rules, t->seed, NULL), GOITA_OK);
  }
  move_seq = 0;
  cr_assert_eq(srv_store_moves(w.store, table, replay_move, t), 0);
  while (t->game.round_index < round_index && goita_round_over(&t->game.round) && !t->game.over)
    goita_game_next_round(&t->game, NULL);
  cr_assert_eq(t->game.round_index, round_index);
  return t;
}

static void no_secret_keys(json_t *value, const char *text) {
  static const char *const secrets[] = {"hands", "deal", "seed", "aside", "token", "seat_token", "player_token"};
  if (json_is_array(value)) {
    for (size_t i = 0; i < json_array_size(value); i++) no_secret_keys(json_array_get(value, i), text);
    return;
  }
  if (!json_is_object(value)) return;
  const char *key;
  json_t *v;
  json_object_foreach(value, key, v) {
    for (size_t i = 0; i < sizeof secrets / sizeof *secrets; i++)
      cr_assert_neq(strcmp(key, secrets[i]), 0, "field \"%s\" in a state message: %s", key, text);
    no_secret_keys(v, text);
  }
}

/* Whether seat may see block i of seat t in round r. */
static bool block_visible(const goita_round *r, int viewer, int t, int i) {
  if (!((r->face_down[t] >> i) & 1u) || t == viewer) return true;
  return r->phase == GOITA_PHASE_OVER && r->result.end == GOITA_END_FINISH && t == r->result.winner &&
         i == r->plays[t] - 1; /* the finishing lead is turned face-up */
}

static const char *scanning;
static void check_move_token(const char *token, const goita_round *r, int j, int viewer) {
  const int seat = token[0] - '1';
  if (strlen(token) != 3 || seat == viewer) return;
  const bool lead = (r->lead_log >> j) & 1u;
  const bool reveal = r->phase == GOITA_PHASE_OVER && r->result.end == GOITA_END_FINISH && j == r->nlog - 1;
  if (lead && !reveal)
    cr_assert_eq(token[1], 'x', "move %d \"%s\" shows a face-down block to seat %d: %s", j, token, viewer, scanning);
}

static void scan_message(uint64_t client, const char *text, json_t *msg) {
  client_state *c = &w.clients[client];
  scanning = text;
  no_secret_keys(msg, text);
  for (int i = 0; i < ntruths; i++)
    for (int s = 0; s < GOITA_MAX_SEATS; s++)
      cr_assert(!truths[i].tokens[s][0] || !strstr(text, truths[i].tokens[s]), "a seat token in a state message");
  const int viewer = (int)json_integer_value(json_object_get(msg, "seat"));
  cr_assert_eq(viewer, c->watching ? -1 : c->seat, "a state for seat %d sent to a client of seat %d", viewer,
               c->watching ? -1 : c->seat);
  if (viewer >= 0) cr_assert_null(json_object_get(msg, "previous_round"), "a full round shown to a seat");
  json_t *game = json_object_get(msg, "game");
  if (!game) return;
  w.scanned++;
  const truth *t = truth_of((int)json_integer_value(json_object_get(msg, "table")),
                            (int)json_integer_value(json_object_get(game, "round")));
  const goita_round *r = &t->game.round;
  /* the hand: the viewer's own, exactly */
  json_t *hand = json_object_get(game, "hand");
  if (viewer < 0) {
    cr_assert_null(hand, "an observer was sent a hand");
  } else {
    int counts[GOITA_KIND_SLOTS] = {0};
    for (const char *p = json_string_value(hand); *p; p++) counts[goita_mark_kind(*p - '0')]++;
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) cr_assert_eq(counts[k], r->hand[viewer][k], "hand of seat %d", viewer);
  }
  /* the rows: face-down pieces of others as 0 */
  json_t *rows = json_object_get(game, "rows");
  for (int s = 0; s < r->players; s++) {
    const char *blocks = json_string_value(json_object_get(json_array_get(rows, (size_t)s), "blocks"));
    const char *attacks = json_string_value(json_object_get(json_array_get(rows, (size_t)s), "attacks"));
    cr_assert_eq((int)strlen(blocks), r->plays[s]);
    for (int i = 0; i < r->plays[s]; i++) {
      const int expected = block_visible(r, viewer, s, i) ? r->block_row[s][i] : 0;
      cr_assert_eq(blocks[i] - '0', expected, "seat %d's block %d as seat %d sees it: %s", s, i, viewer, text);
      cr_assert_eq(attacks[i] - '0', r->attack_row[s][i]);
    }
  }
  /* the history string: others' hands only as the pieces they have shown */
  const char *history = json_string_value(json_object_get(game, "history"));
  cr_assert(history);
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", history);
  int index = 0, move = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","), index++) {
    if (index < r->players) {
      if (index == viewer) continue;
      int shown[GOITA_KIND_SLOTS] = {0}, allowed[GOITA_KIND_SLOTS] = {0};
      for (const char *p = tok; *p; p++)
        if (*p != 'x') shown[goita_mark_kind(*p - '0')]++;
      for (int i = 0; i < r->plays[index]; i++) {
        allowed[goita_mark_kind(r->attack_row[index][i])]++;
        if (block_visible(r, viewer, index, i)) allowed[goita_mark_kind(r->block_row[index][i])]++;
      }
      if ((r->goshi >> index) & 1u) allowed[GOITA_PAWN] = 10;
      if (r->result.end == GOITA_END_TEYAKU && r->result.winner == index)
        for (int k = GOITA_PAWN; k <= GOITA_KING; k++) allowed[k] = 10;
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
        cr_assert_leq(shown[k], allowed[k], "seat %d's hand in the history shows unseen pieces to %d: %s", index, viewer,
                      history);
    } else if (index > r->players) {
      /* 5-pawn decisions are in the log but ride on the dealer token of the history */
      int j = 0;
      for (int plays = -1; j < r->nlog; j++)
        if (r->log[j].type == GOITA_MOVE_PLAY || r->log[j].type == GOITA_MOVE_PASS)
          if (++plays == move) break;
      move++;
      check_move_token(tok, r, j, viewer);
    }
  }
  json_t *log = json_object_get(game, "log");
  for (size_t j = 0; j < json_array_size(log); j++)
    check_move_token(json_string_value(json_array_get(log, j)), r, (int)j, viewer);
}

/* ---- tests ---- */

TestSuite(server, .init = setup, .fini = teardown);

/* Sets up a table: client 1 creates it; clients sit in the given seats, computer players fill
 * the rest; client 1 (seated) starts it. Returns the table. */
static int table_with(const char *rules, int turn_seconds, const uint64_t *seated, int nseated, const char *bot) {
  say(seated[0], "{\"type\":\"create\",\"rules\":\"%s\",\"turn_seconds\":%d}", rules, turn_seconds);
  const int table = (int)json_integer_value(json_object_get(w.clients[seated[0]].last, "table"));
  cr_assert_gt(table, 0, "create failed: %s", w.clients[seated[0]].last_error);
  goita_rules parsed;
  goita_rules_default(&parsed);
  goita_rules_parse(&parsed, rules, NULL);
  for (int s = 0; s < parsed.players; s++) {
    if (s < nseated) {
      say(seated[s], "{\"type\":\"sit\",\"table\":%d,\"seat\":%d}", table, s);
      cr_assert_eq(w.clients[seated[s]].errors, 0, "%s", w.clients[seated[s]].last_error);
    } else {
      say(seated[0], "{\"type\":\"bot\",\"table\":%d,\"seat\":%d,\"level\":\"%s\"}", table, s, bot);
    }
  }
  say(seated[0], "{\"type\":\"start\",\"table\":%d}", table);
  cr_assert_eq(w.clients[seated[0]].errors, 0, "%s", w.clients[seated[0]].last_error);
  return table;
}

/* Plays until every seated client's last state says the game is over. */
static void play_out(const uint64_t *seated, int nseated) {
  for (int steps = 0; steps < 5000; steps++) {
    run_jobs();
    bool moved = false, over = true;
    for (int i = 0; i < nseated; i++) {
      moved |= play_if_turn(seated[i]);
      over &= strcmp(status_of(seated[i]), "over") == 0;
    }
    if (over) return;
    if (!moved && w.njobs == 0) {
      w.now += 10000; /* a paused round: let the next one be dealt */
      srv_hub_tick(w.hub);
    }
  }
  char *dbg = json_dumps(w.clients[seated[0]].last_state, JSON_COMPACT); cr_assert_fail("the game did not end: %s", dbg);
}

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

/* The game part of a client's last state, as text, for comparisons. */
static char *game_text(uint64_t id) {
  json_t *game = json_object_get(w.clients[id].last_state, "game");
  return game ? json_dumps(game, JSON_COMPACT | JSON_SORT_KEYS) : strdup("");
}

/* A server killed mid-game and started again: every table, seat and move comes back from the
 * database; the players reconnect with their seat tokens to the same view and finish the game. */
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

/* Requests are checked strictly; each error names what was wrong, and the connection goes on. */
Test(server, bad_requests_get_clear_errors) {
  srv_hub_connect(w.hub, 1);
  static const struct {
    const char *request, *error;
  } cases[] = {
      {"not json", "not JSON"},
      {"[1,2]", "expected a JSON object"},
      {"{\"kind\":\"hello\"}", "field \"type\": expected a string"},
      {"{\"type\":\"dance\"}", "unknown type \"dance\""},
      {"{\"type\":\"hello\",\"nmae\":\"x\"}", "hello: unknown field \"nmae\""},
      {"{\"type\":\"hello\",\"name\":5}", "field \"name\": expected a string"},
      {"{\"type\":\"hello\",\"name\":\"\"}", "field \"name\": expected 1 to 39 bytes"},
      {"{\"type\":\"hello\",\"name\":\"a\\u0007b\"}", "no control characters"},
      {"{\"type\":\"hello\",\"player_token\":\"XYZ\"}", "expected 32 lowercase hex digits"},
      {"{\"type\":\"hello\",\"player_token\":\"0123456789abcdef0123456789abcdef\"}", "unknown player_token"},
      {"{\"type\":\"create\"}", "say hello first"},
      {"{\"type\":\"sit\",\"table\":1}", "sit: missing field \"seat\""},
      {"{\"type\":\"sit\",\"table\":1,\"seat\":4}", "expected a seat from 0 to 3"},
      {"{\"type\":\"sit\",\"table\":1.5,\"seat\":0}", "field \"table\": expected an integer"},
      {"{\"type\":\"move\",\"table\":1,\"move\":\"9zz\"}", "not a move token"},
      {"{\"type\":\"bot\",\"table\":1,\"seat\":0,\"level\":\"genius\"}", "not a level"},
      {"{\"type\":\"watch\",\"table\":77}", "no table 77"},
      {"{\"type\":\"create\",\"turn_seconds\":-1}", "expected 0 (off) to 3600 seconds"},
      {"{\"type\":\"ping\",\"type\":\"ping\"}", "not JSON"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const int errors = w.clients[1].errors;
    srv_hub_receive(w.hub, 1, cases[i].request, strlen(cases[i].request));
    cr_assert_eq(w.clients[1].errors, errors + 1, "no error for %s", cases[i].request);
    cr_assert(strstr(w.clients[1].last_error, cases[i].error), "%s: \"%s\" does not say \"%s\"", cases[i].request,
              w.clients[1].last_error, cases[i].error);
  }
  char big[SRV_MAX_REQUEST + 100];
  memset(big, ' ', sizeof big);
  memcpy(big, "{\"type\":\"ping\"}", 15);
  srv_hub_receive(w.hub, 1, big, sizeof big);
  cr_assert(strstr(w.clients[1].last_error, "message too long"));
  w.clients[1].errors = 0;
  connect_client(1, "Ann"); /* still usable */
  say(1, "{\"type\":\"create\",\"rules\":\"players=5\"}");
  cr_assert(strstr(w.clients[1].last_error, "rules: "), "%s", w.clients[1].last_error);
  say(1, "{\"type\":\"ping\"}");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last, "type")), "pong");
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

/* With a turn timer, a stand-in computer player moves for a person who lets it run out. */
Test(server, turn_timer_moves_for_an_absent_player) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  const int table = table_with("", 5, one, 1, "random");
  for (int guard = 0; guard < 100 && json_array_size(json_object_get(json_object_get(w.clients[1].last_state, "game"),
                                                                     "legal")) == 0;
       guard++)
    run_jobs();
  json_t *game = json_object_get(w.clients[1].last_state, "game");
  cr_assert_gt(json_array_size(json_object_get(game, "legal")), 0, "Ann's turn never came");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].last_state, "seconds_left")), 5);
  char *before = game_text(1);
  w.now += 4000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 0, "the stand-in moved before the time ran out");
  w.now += 1500;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 1, "no stand-in after the time ran out");
  cr_assert_eq(w.jobs[0].view.seat, 0);
  cr_assert_eq(w.jobs[0].table, table);
  run_jobs();
  char *after = game_text(1);
  cr_assert_str_neq(after, before, "the stand-in's move was not played");
  free(before);
  free(after);
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

/* Ratings move after a game: the winners' side up, the losers' down, by equal and opposite
 * amounts when the sides were rated alike. */
Test(server, ratings_follow_results) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  table_with("", 0, one, 1, "random");
  play_out(one, 1);
  json_t *seats = json_object_get(w.clients[1].last_state, "seats");
  const json_int_t ann = json_integer_value(json_object_get(json_array_get(seats, 0), "rating"));
  const json_int_t partner = json_integer_value(json_object_get(json_array_get(seats, 2), "rating"));
  const json_int_t other = json_integer_value(json_object_get(json_array_get(seats, 1), "rating"));
  cr_assert_eq(ann, partner);
  cr_assert(ann == 1516 || ann == 1484, "rating %lld", (long long)ann);
  cr_assert_eq(ann - 1500, 1500 - other);
}

/* A table created with a rule set: the lobby names it and its scale, every state carries the
 * scale, and the game is played to the end under it (docs/RULES.md 10-11). */
Test(server, rule_sets_are_named_and_scaled) {
  connect_client(1, "ann");
  const uint64_t seated[] = {1};
  const int table = table_with("preset=french,target=5", 0, seated, 1, "random");
  say(1, "{\"type\":\"list\"}");
  json_t *tables = json_object_get(w.clients[1].last, "tables");
  cr_assert(json_is_array(tables), "no table list");
  json_t *row = json_array_get(tables, 0);
  cr_assert_eq(json_integer_value(json_object_get(row, "id")), table);
  cr_expect_str_eq(json_string_value(json_object_get(row, "preset")), "french");
  cr_expect_str_eq(json_string_value(json_object_get(row, "scale")), "ones");
  json_t *game = json_object_get(w.clients[1].last_state, "game");
  cr_expect_str_eq(json_string_value(json_object_get(game, "scale")), "ones");
  cr_expect_eq(json_integer_value(json_object_get(game, "target")), 50, "targets are sent in tens");
  play_out(seated, 1);
  say(1, "{\"type\":\"games\"}");
  json_t *games = json_object_get(w.clients[1].last, "games");
  cr_assert(json_is_array(games) && json_array_size(games) == 1, "one finished game");
  cr_expect_str_eq(json_string_value(json_object_get(json_array_get(games, 0), "preset")), "french");
}

/* The schema is versioned: a database written by an older server (no version row) comes up to
 * the newest version and keeps its data; one from a newer server is refused, untouched. */
Test(server, schema_migrations_bring_old_databases_up_and_refuse_newer_ones) {
  connect_client(1, "ann");
  const uint64_t seated[] = {1};
  table_with("target=10", 0, seated, 1, "random");
  close_hub();
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  /* back to the schema of before versions were counted: what later migrations added goes */
  cr_assert_eq(sqlite3_exec(db,
                            "DROP TABLE schema_version;"
                            "ALTER TABLE tables DROP COLUMN owner; ALTER TABLE tables DROP COLUMN ended;"
                            "ALTER TABLE seats DROP COLUMN stand_in; ALTER TABLE games DROP COLUMN ended;",
                            NULL, NULL, NULL),
               SQLITE_OK, "%s", sqlite3_errmsg(db));
  sqlite3_close(db);
  open_hub(0); /* as a database from before versions were counted */
  close_hub();
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*), max(version) FROM schema_version", -1, &st, NULL), SQLITE_OK);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  cr_expect_eq(sqlite3_column_int(st, 0), 1, "one version row");
  const int newest = sqlite3_column_int(st, 1);
  cr_expect_geq(newest, 1);
  sqlite3_finalize(st);
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

/* ---- the lobby, per-player limits and the table lifecycle ---- */

static const char *type_of(uint64_t id) {
  return w.clients[id].last ? json_string_value(json_object_get(w.clients[id].last, "type")) : "";
}

static int create_table(uint64_t id) {
  say(id, "{\"type\":\"create\"}");
  cr_assert_str_eq(type_of(id), "created", "%s", w.clients[id].last_error);
  return (int)json_integer_value(json_object_get(w.clients[id].last, "table"));
}

/* The lobby's row of a table as a page from `list` shows it, or NULL when it is not listed. */
static json_t *listed(uint64_t id, int table) {
  say(id, "{\"type\":\"list\",\"after\":%d,\"limit\":1}", table - 1);
  json_t *row = json_array_get(json_object_get(w.clients[id].last, "tables"), 0);
  return row && json_integer_value(json_object_get(row, "id")) == table ? row : NULL;
}

static json_int_t total_tables(uint64_t id) {
  say(id, "{\"type\":\"list\",\"limit\":1}");
  return json_integer_value(json_object_get(w.clients[id].last, "total"));
}

static const char *last_event(uint64_t id, json_int_t *table) {
  json_t *e = w.clients[id].last_lobby;
  if (table) *table = e ? json_integer_value(json_object_get(json_object_get(e, "table"), "id")) : 0;
  return e ? json_string_value(json_object_get(e, "event")) : "";
}

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
  cr_assert_str_eq(type_of(2), "tables");
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

/* One player floods `create`: three tables, then the table limit, then the request bucket say
 * no. Another player's game goes on, a lobby listener gets three events for the flood and the
 * events of others' tables as before, and the bucket fills again as the clock runs. */
Test(server, per_player_limits_refuse_a_flood_and_nobody_else_notices) {
  close_hub();
  w.options.max_tables_per_player = 3;
  w.options.player_rate_per_second = 5;
  w.options.player_rate_burst = 20;
  open_hub(0);
  connect_client(1, "Flood");
  connect_client(2, "Ben");
  srv_hub_connect(w.hub, 3);
  const uint64_t ben[1] = {2};
  table_with("", 0, ben, 1, "random");
  say(3, "{\"type\":\"list\"}");
  srv_hub_tick(w.hub);
  const int events = w.clients[3].created_events;
  int created = 0, too_many_tables = 0, too_fast = 0, ben_moves = 0;
  for (int i = 0; i < 100; i++) {
    say(1, "{\"type\":\"create\"}");
    if (strcmp(type_of(1), "created") == 0)
      created++;
    else if (strstr(w.clients[1].last_error, "you already have 3 open tables"))
      too_many_tables++;
    else if (strstr(w.clients[1].last_error, "too many requests: at most 5 a second"))
      too_fast++;
    else
      cr_assert_fail("unexpected reply: %s", w.clients[1].last_error);
    if (i % 5 == 0) { /* Ben's game goes on meanwhile */
      run_jobs();
      ben_moves += play_if_turn(2); /* asserts that the move is accepted */
    }
  }
  cr_assert_eq(created, 3);
  cr_assert_eq(too_many_tables, 17);
  cr_assert_eq(too_fast, 80);
  cr_assert_gt(ben_moves, 0, "Ben's game did not go on");
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[3].created_events, events + 3, "the listener got %d tables", w.clients[3].created_events - events);
  connect_client(4, "Cat");
  const int cat = create_table(4);
  srv_hub_tick(w.hub);
  json_int_t id;
  cr_assert_str_eq(last_event(3, &id), "created");
  cr_assert_eq(id, cat);
  /* a second later there are 5 more requests in the flooder's bucket, and no more */
  w.now += 1000;
  for (int i = 0; i < 5; i++) {
    say(1, "{\"type\":\"games\"}");
    cr_assert_str_eq(type_of(1), "games", "%s", w.clients[1].last_error);
  }
  say(1, "{\"type\":\"games\"}");
  cr_assert(strstr(w.clients[1].last_error, "too many requests"), "%s", w.clients[1].last_error);
}

static bool stood_in(uint64_t viewer, int seat) {
  json_t *s = json_array_get(json_object_get(w.clients[viewer].last_state, "seats"), (size_t)seat);
  return json_is_true(json_object_get(s, "stand_in"));
}

static void resume(uint64_t id, const char *token) {
  srv_hub_connect(w.hub, id);
  w.clients[id].errors = 0;
  say(id, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", token);
  cr_assert_eq(w.clients[id].errors, 0, "%s", w.clients[id].last_error);
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
  cr_assert_eq(srv_store_game_text(w.store, abandoned, false, &record), 0);
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
  w.now = ben_freed + expiry - 2000;
  srv_hub_tick(w.hub);
  cr_assert_null(listed(6, a), "the table of computers did not expire");
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

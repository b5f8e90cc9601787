/* The fake world around the hub that the server's tests share (hub_harness.h). */
#include "hub_harness.h"

#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "secret.h"

hub_world w;

static void scan_message(uint64_t client, const char *text, json_t *msg);

/* Every error the hub sends, in any test, carries a code of protocol.h's list (the one
 * docs/SERVER.md shows), and a retry_ms (a positive number of milliseconds) exactly when its
 * code says when to try again. */
static void check_error_code(const char *text, json_t *msg) {
  const char *code = json_string_value(json_object_get(msg, "code"));
  cr_assert(code, "an error without a code: %s", text);
  int error = 0;
  for (int e = 1; e < SRV_ERROR_COUNT && !error; e++)
    if (strcmp(srv_error_code(e), code) == 0) error = e;
  cr_assert(error, "an error with a code not in the list: %s", text);
  json_t *retry = json_object_get(msg, "retry_ms");
  if (srv_error_retries(error))
    cr_assert(json_is_integer(retry) && json_integer_value(retry) > 0, "a %s error without retry_ms: %s", code, text);
  else
    cr_assert(!retry, "a %s error with a retry_ms: %s", code, text);
}

/* Every seat token the hub has handed out, which no state message may show. */
static char seen_tokens[256][SRV_TOKEN_SIZE];

static int nseen_tokens;

/* Keeps the message in the slot, in place of what the slot held. */
static void keep(json_t **slot, json_t *msg) {
  json_decref(*slot);
  *slot = json_incref(msg);
}

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
  if (c->received <= 64) snprintf(c->types[c->received - 1], sizeof c->types[0], "%s", type);
  if (strcmp(type, "seated") == 0) {
    keep(&c->seated, msg);
    c->table = (int)json_integer_value(json_object_get(msg, "table"));
    c->seat = (int)json_integer_value(json_object_get(msg, "seat"));
    snprintf(c->seat_token, sizeof c->seat_token, "%s", json_string_value(json_object_get(msg, "seat_token")));
    if (nseen_tokens < 256) memcpy(seen_tokens[nseen_tokens++], c->seat_token, SRV_TOKEN_SIZE);
  } else if (strcmp(type, "welcome") == 0 || strcmp(type, "player") == 0) {
    if (type[0] == 'w') {
      c->welcomes++;
      snprintf(c->player_token, sizeof c->player_token, "%s", json_string_value(json_object_get(msg, "player_token")));
      keep(&c->choices, json_object_get(msg, "choices"));
    } else
      c->players++;
    keep(&c->player, json_object_get(msg, "player"));
  } else if (strcmp(type, "error") == 0) {
    c->errors++;
    snprintf(c->last_error, sizeof c->last_error, "%s", json_string_value(json_object_get(msg, "error")));
    check_error_code(text, msg);
    snprintf(c->last_code, sizeof c->last_code, "%s", json_string_value(json_object_get(msg, "code")));
    c->last_retry_ms = json_integer_value(json_object_get(msg, "retry_ms"));
  } else if (strcmp(type, "lobby") == 0) {
    c->lobby_events++;
    if (len > c->largest_lobby) c->largest_lobby = len;
    keep(&c->last_lobby, msg);
    const char *event = json_string_value(json_object_get(msg, "event"));
    json_t *id = json_object_get(json_object_get(msg, "table"), "id");
    if (strcmp(event, "removed") == 0) c->last_removed = json_integer_value(id);
    if (strcmp(event, "created") == 0) c->created_events++;
  } else if (strcmp(type, "created") == 0) {
    keep(&c->created, msg);
    if (json_object_get(msg, "invite"))
      snprintf(c->invite, sizeof c->invite, "%s", json_string_value(json_object_get(msg, "invite")));
  } else if (strcmp(type, "queued") == 0) {
    keep(&c->queued, msg);
  } else if (strcmp(type, "chat") == 0) {
    c->chats++;
    keep(&c->chat, msg);
  } else if (strcmp(type, "chat_history") == 0) {
    keep(&c->chat_history, msg);
  } else if (strcmp(type, "tables") == 0) {
    keep(&c->tables, msg);
  } else if (strcmp(type, "match") == 0) {
    keep(&c->match, msg);
  } else if (strcmp(type, "ks_table") == 0) {
    c->ks_tables++;
    keep(&c->ks_table, msg);
  } else if (strcmp(type, "state") == 0) {
    if (w.scan) scan_message(client, text, msg);
    keep(&c->last_state, msg);
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

/* Password jobs: done at once (argon2id, for real) and answered from inside the call, or held
 * until run_passwords when w.hold_passwords is set. */
static void fake_password(void *ctx, const srv_password_job *job) {
  (void)ctx;
  if (w.hold_passwords) {
    cr_assert_lt(w.npasswords, MAX_JOBS);
    w.passwords[w.npasswords++] = *job;
    return;
  }
  srv_password_job copy = *job;
  srv_password_answer a;
  srv_password_work(&copy, &a);
  srv_hub_password_done(w.hub, &a);
}

void run_passwords(void) {
  for (int i = 0; i < w.npasswords; i++) {
    srv_password_answer a;
    srv_password_work(&w.passwords[i], &a);
    srv_hub_password_done(w.hub, &a);
  }
  w.npasswords = 0;
}

/* Moves to save, as the store thread saves them (srv_store_moves_add, answered through
 * srv_hub_move_saved), at once from inside the call, or held until save_moves when
 * w.hold_saves is set. */
static int fake_save_move(void *ctx, const srv_move_write *move) {
  (void)ctx;
  cr_assert_lt(w.nsaves, MAX_JOBS);
  w.saves[w.nsaves++] = *move;
  if (w.hold_saves) return 0;
  srv_store_moves_add(w.store, w.saves, w.nsaves);
  w.nsaves = 0;
  srv_hub_move_saved(w.hub, &w.saves[0]);
  return 0;
}

void save_moves(void) {
  srv_store_moves_add(w.store, w.saves, w.nsaves);
  const int n = w.nsaves;
  w.nsaves = 0;
  for (int i = 0; i < n; i++) srv_hub_move_saved(w.hub, &w.saves[i]);
}

/* A finished game, as the store thread saves it: saved and answered from inside the call, or
 * held when w.hold_saves is set (save_held_game does the rest). */
static int fake_save_game(void *ctx, const srv_game_write *game) {
  (void)ctx;
  if (w.hold_saves) {
    cr_assert(!w.game_held, "a second game was sent while one was held");
    w.held_game = *game;
    w.game_held = true;
    return 0;
  }
  srv_game_write g = *game;
  g.status = srv_store_game_finish(w.store, &g.game, g.record_json, g.histories);
  snprintf(g.error, sizeof g.error, "%s", g.status != 0 ? srv_store_error(w.store) : "");
  srv_hub_game_saved(w.hub, &g);
  free(g.record_json);
  free(g.histories);
  return 0;
}

void save_held_game(void) {
  cr_assert(w.game_held);
  w.game_held = false;
  w.hold_saves = false;
  fake_save_game(NULL, &w.held_game);
}

/* A saved game to analyse for the career statistics: analysed in place and answered from inside
 * the call when w.analyse is set, else dropped (most tests need no exact solving). */
static int fake_analyse(void *ctx, const srv_game_job *job) {
  (void)ctx;
  srv_game_job j = *job;
  if (w.analyse) {
    goita_solver *solver = NULL;
    cr_assert_eq(goita_solver_new(&solver, (size_t)4 << 20), GOITA_OK);
    srv_game_stats stats;
    cr_assert_eq(srv_game_analyse(&j, solver, 0, NULL, &stats), 0);
    goita_solver_free(solver);
    w.analysed++;
    srv_hub_game_analysed(w.hub, &stats);
  }
  srv_game_job_free(&j);
  return 0;
}

static const srv_hub_io io = {NULL, fake_send, fake_think, fake_random, fake_now, fake_password, NULL, NULL,
                              fake_save_move, fake_save_game, NULL, NULL, fake_analyse};

void open_hub(int round_pause_ms) {
  cr_assert_eq(srv_store_open(&w.store, w.db), 0);
  srv_hub_options o = w.options;
  o.round_pause_ms = round_pause_ms;
  char err[256] = "";
  cr_assert_eq(srv_hub_new(&w.hub, w.store, &io, &o, err, sizeof err), 0, "%s", err);
}

void close_hub(void) {
  srv_hub_free(w.hub);
  srv_store_close(w.store);
  w.hub = NULL;
  w.store = NULL;
  w.njobs = 0;
  for (int i = 0; i <= MAX_CLIENTS; i++) {
    json_decref(w.clients[i].last);
    json_decref(w.clients[i].last_state);
    json_decref(w.clients[i].last_lobby);
    json_decref(w.clients[i].player);
    json_decref(w.clients[i].choices);
    json_decref(w.clients[i].queued);
    json_decref(w.clients[i].chat);
    json_decref(w.clients[i].chat_history);
    json_decref(w.clients[i].tables);
    json_decref(w.clients[i].match);
    json_decref(w.clients[i].created);
    json_decref(w.clients[i].seated);
    json_decref(w.clients[i].ks_table);
    w.clients[i].ks_table = NULL;
    w.clients[i].last = w.clients[i].last_state = w.clients[i].last_lobby = w.clients[i].player = NULL;
    w.clients[i].choices = NULL;
    w.clients[i].queued = w.clients[i].chat = w.clients[i].chat_history = NULL;
    w.clients[i].tables = w.clients[i].match = w.clients[i].created = w.clients[i].seated = NULL;
  }
}

/* Removes the database's files: the main one, its write-ahead log and its shared memory. */
static void remove_database(void) {
  char path[80];
  unlink(w.db);
  snprintf(path, sizeof path, "%s-wal", w.db);
  unlink(path);
  snprintf(path, sizeof path, "%s-shm", w.db);
  unlink(path);
}

void hub_harness_setup(void) {
  memset(&w, 0, sizeof w);
  nseen_tokens = 0;
  snprintf(w.db, sizeof w.db, "/tmp/goita-test-server-%d.db", getpid());
  remove_database(); /* a log left by an earlier process of this pid would be read into the new file */
  goita_rng_seed(&w.rng, 42);
  w.now = 1000000;
  srv_hub_options_default(&w.options);
  w.options.max_tables_per_player = 0;
  w.options.player_rate_per_second = 0;
  open_hub(0);
  for (int i = 0; i <= MAX_CLIENTS; i++) w.clients[i].seat = -1;
}

void hub_harness_teardown(void) {
  close_hub();
  remove_database();
}

void say(uint64_t client, const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  w.clients[client].errors_before_request = w.clients[client].errors;
  srv_hub_receive(w.hub, client, text, strlen(text));
}

void connect_client(uint64_t id, const char *name) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"name\":\"%s\"}", name);
  cr_assert_eq(w.clients[id].errors, 0, "%s", w.clients[id].last_error);
}

void run_jobs(void) {
  while (w.njobs > 0) {
    const srv_think_job job = w.jobs[--w.njobs];
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_view_legal_moves(&job.view, moves);
    cr_assert_gt(n, 0);
    srv_hub_bot_move(w.hub, job.table, job.version, moves[goita_rng_below(&w.rng, (uint32_t)n)]);
  }
}

bool play_if_turn(uint64_t id) {
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

const char *status_of(uint64_t id) {
  json_t *st = w.clients[id].last_state;
  return st ? json_string_value(json_object_get(st, "status")) : "";
}

/* The truth, rebuilt beside the hub from the database: the table's seed and every saved move. */
typedef struct truth {
  int table;
  goita_rules rules;
  uint64_t seed;
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
  for (int i = 0; i < nseen_tokens; i++) cr_assert(!strstr(text, seen_tokens[i]), "a seat token in a state message");
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

int table_with(const char *rules, int turn_seconds, const uint64_t *seated, int nseated, const char *bot) {
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

void play_out(const uint64_t *seated, int nseated) {
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

char *game_text(uint64_t id) {
  json_t *game = json_object_get(w.clients[id].last_state, "game");
  return game ? json_dumps(game, JSON_COMPACT | JSON_SORT_KEYS) : strdup("");
}

const char *last_type(uint64_t id) {
  return w.clients[id].last ? json_string_value(json_object_get(w.clients[id].last, "type")) : "";
}

int create_table(uint64_t id) {
  say(id, "{\"type\":\"create\"}");
  cr_assert_str_eq(last_type(id), "created", "%s", w.clients[id].last_error);
  return (int)json_integer_value(json_object_get(w.clients[id].last, "table"));
}

json_t *listed(uint64_t id, int table) {
  say(id, "{\"type\":\"list\",\"after\":%d,\"limit\":1}", table - 1);
  json_t *row = json_array_get(json_object_get(w.clients[id].last, "tables"), 0);
  return row && json_integer_value(json_object_get(row, "id")) == table ? row : NULL;
}

json_int_t total_tables(uint64_t id) {
  say(id, "{\"type\":\"list\",\"limit\":1}");
  return json_integer_value(json_object_get(w.clients[id].last, "total"));
}

const char *last_event(uint64_t id, json_int_t *table) {
  json_t *e = w.clients[id].last_lobby;
  if (table) *table = e ? json_integer_value(json_object_get(json_object_get(e, "table"), "id")) : 0;
  return e ? json_string_value(json_object_get(e, "event")) : "";
}

void resume(uint64_t id, const char *token) {
  srv_hub_connect(w.hub, id);
  w.clients[id].errors = 0;
  say(id, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", token);
  cr_assert_eq(w.clients[id].errors, 0, "%s", w.clients[id].last_error);
}

int count_rows_with(const char *sql, const char *param) {
  sqlite3 *db;
  sqlite3_stmt *st;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
  if (param) sqlite3_bind_text(st, 1, param, -1, SQLITE_TRANSIENT);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  const int n = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

int count_rows(const char *sql) { return count_rows_with(sql, NULL); }

bool database_holds(const char *text) {
  const char *suffixes[] = {"", "-wal"};
  bool found = false;
  for (int i = 0; i < 2 && !found; i++) {
    char path[96];
    snprintf(path, sizeof path, "%s%s", w.db, suffixes[i]);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc((size_t)size + 1);
    cr_assert(bytes);
    cr_assert_eq(fread(bytes, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    const size_t n = strlen(text);
    for (long at = 0; at + (long)n <= size && !found; at++) found = memcmp(bytes + at, text, n) == 0;
    free(bytes);
  }
  return found;
}

const char *error_of(uint64_t id) { return w.clients[id].last_error; }

const char *error_code(uint64_t id) {
  const client_state *c = &w.clients[id];
  return c->errors > c->errors_before_request ? c->last_code : "";
}

json_int_t player_field(uint64_t id, const char *field) {
  return json_integer_value(json_object_get(w.clients[id].player, field));
}

int first_of_type(uint64_t id, const char *type) {
  const client_state *c = &w.clients[id];
  for (int i = 0; i < c->received && i < 64; i++)
    if (strcmp(c->types[i], type) == 0) return i;
  return -1;
}

const char *type_of(json_t *msg) { return msg ? json_string_value(json_object_get(msg, "type")) : ""; }

json_int_t int_of(json_t *msg, const char *key) { return json_integer_value(json_object_get(msg, key)); }

void expect_error(uint64_t id, const char *what) {
  cr_assert_str_eq(type_of(w.clients[id].last), "error", "no error; the last message was %s",
                   type_of(w.clients[id].last));
  cr_assert(strstr(w.clients[id].last_error, what), "the error \"%s\" does not say \"%s\"", w.clients[id].last_error,
            what);
}

const char *seat_name(uint64_t id, int seat) {
  json_t *s = json_array_get(json_object_get(w.clients[id].last_state, "seats"), (size_t)seat);
  return s ? json_string_value(json_object_get(s, "name")) : "(empty)";
}

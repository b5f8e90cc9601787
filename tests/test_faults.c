/* Fault injection as SQLite tests it (docs/SERVER.md "Fault injection"): one scenario run again
 * and again, the N-th allocation (tests/fault_alloc.h) or the N-th store call (store_impl.h
 * srv_store_fail_call) failing in run N, for every N until a run meets no fault. Each run must
 * end without a crash or a leak (the sanitizer build checks after every run), every refusal
 * carries a code a fault explains, every request is answered, the refused request succeeds
 * when sent again, the saved record replays whole, and the server serves a newcomer afterwards.
 * The scenario ends with a Ko shogi game at the same server: its moves, each stored before it is
 * announced, its resignation, and its record saved whole through whatever fault the run meets.
 * The library's constructors are swept the same way.
 * GOITA_FAULT_STRIDE=k tries every k-th N (CI's default keeps the run short; 1 is the whole
 * sweep), GOITA_FAULT_FROM=N starts there, GOITA_FAULT_ONLY=N runs only that N, and
 * GOITA_FAULT_TRACE=1 shows where the failing allocation was made (tests/fault_alloc.c). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault_alloc.h"
#include "goita/goita.h"
#include "goita/record.h"
#include "hub.h"
#include "koshogi/koshogi.h"
#include "protocol.h"
#include "store_impl.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAK_CHECK() __lsan_do_recoverable_leak_check()
#else
#define LEAK_CHECK() 0
#endif

/* ---- which runs ---- */

static long env_long(const char *name, long fallback) {
  const char *text = getenv(name);
  return text && *text ? strtol(text, NULL, 10) : fallback;
}

/* ---- the library ---- */

static long library_n; /* the failing allocation of the library's sweep */

/* What each of the library's constructors makes of a failed allocation: GOITA_ENOMEM and
 * nothing to free, never a crash. Returns whether everything was made. */
static bool library_round(void) {
  bool whole = true;
  goita_error err;
  for (const char *const *level = goita_player_levels(); *level; level++) {
    goita_player *p = NULL;
    const int status = goita_player_new(&p, *level, &err);
    cr_assert(status == GOITA_OK || status == GOITA_ENOMEM, "goita_player_new(%s): %s", *level, err.message);
    if (status == GOITA_ENOMEM) cr_assert_null(p, "a player left behind by a failed goita_player_new(%s)", *level);
    whole &= status == GOITA_OK;
    goita_player_free(p);
  }
  goita_solver *solver = NULL;
  const int solver_status = goita_solver_new(&solver, 1 << 16);
  cr_assert(solver_status == GOITA_OK || solver_status == GOITA_ENOMEM);
  whole &= solver_status == GOITA_OK;
  goita_solver_free(solver);
  /* a pool: its solvers, and its threads (whose making may allocate too) */
  goita_solver_pool *pool = NULL;
  const int pool_status = goita_solver_pool_new(&pool, 3, 1 << 16);
  cr_assert(pool_status == GOITA_OK || pool_status == GOITA_ENOMEM, "goita_solver_pool_new said %d", pool_status);
  cr_assert_eq(pool_status == GOITA_OK, pool != NULL);
  whole &= pool_status == GOITA_OK;
  goita_solver_pool_free(pool);

  goita_rules rules;
  goita_rules_default(&rules);
  rules.target = 1;
  goita_game game;
  cr_assert_eq(goita_game_start(&game, &rules, 7, NULL), GOITA_OK);
  goita_rng rng;
  goita_rng_seed(&rng, 7);
  while (!goita_round_over(&game.round)) {
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_round_legal_moves(&game.round, moves);
    cr_assert_eq(goita_game_apply(&game, moves[goita_rng_below(&rng, (uint32_t)n)], NULL), GOITA_OK);
  }
  goita_record rec;
  goita_record_init(&rec, &game);
  int status = goita_record_add_round(&rec, &game, NULL, NULL, &err);
  cr_assert(status == GOITA_OK || status == GOITA_ENOMEM, "goita_record_add_round: %s", err.message);
  whole &= status == GOITA_OK;
  char *json = NULL;
  if (status == GOITA_OK) {
    status = goita_record_write_json(&rec, &json, &err);
    cr_assert(status == GOITA_OK || status == GOITA_ENOMEM, "goita_record_write_json: %s", err.message);
    whole &= status == GOITA_OK;
  }
  goita_record_free(&rec);
  if (json) {
    goita_record back;
    status = goita_record_read_json(&back, json, strlen(json), &err);
    cr_assert(status == GOITA_OK || status == GOITA_ENOMEM, "allocation %ld: goita_record_read_json said %d: %s",
              library_n, status, err.message);
    whole &= status == GOITA_OK;
    goita_record_free(&back);
    free(json);
  }
  return whole;
}

/* The stride of a sweep: the environment's GOITA_FAULT_STRIDE, or CI's default for it (its
 * runs take a few seconds under the sanitizers, each with a leak check). */
static long stride_or(long ci_default) {
  const long stride = env_long("GOITA_FAULT_STRIDE", ci_default);
  cr_assert_gt(stride, 0, "GOITA_FAULT_STRIDE must be 1 or more");
  return stride;
}

Test(faults, the_library_answers_every_failed_allocation_with_enomem) {
  fault_alloc_install();
  const long stride = stride_or(13);
  long runs = 0;
  for (long n = 1;; n += stride) {
    runs++;
    library_n = n;
    fault_alloc_fail_at(n);
    const bool whole = library_round();
    const bool fired = fault_alloc_fired();
    fault_alloc_fail_at(0);
    cr_assert_eq(LEAK_CHECK(), 0, "a leak after allocation %ld failed", n);
    if (!fired) {
      cr_assert(whole, "nothing failed, yet something was not made");
      break;
    }
  }
  cr_assert_gt(runs, 10, "only %ld runs: is the allocator wrapped?", runs);
  fprintf(stderr, "library: %ld runs, a stride of %ld allocations, the last with none failing\n", runs, stride);
}

/* ---- the server: a fake world around the hub, like tests/hub_harness.c but its own ---- */

#define CLIENTS 3

typedef struct client {
  int received; /* messages of any kind */
  int errors;
  char code[32], error[256];
  int table, seat;
  char seat_token[SRV_TOKEN_SIZE];
  json_t *state, *games, *player;
  json_t *ks, *tables; /* the last "ks_table" and "tables" */
  bool created;
  bool lost; /* a message to it was lost: it resumes its seat, watches its Ko shogi table again */
} client;

enum fault_kind { FAULT_ALLOC, FAULT_STORE };

static struct {
  srv_store *store;
  srv_hub *hub;
  char db[64];
  int64_t now;
  uint64_t random_word;
  goita_rng moves; /* the clients' choices */
  client clients[CLIENTS + 1];
  srv_think_job jobs[16];
  int njobs;
  enum fault_kind kind;
  long n; /* the run's failing allocation or store call */
  bool store_fault_fired; /* in a store closed since */
} w;

static bool fault_fired(void) {
  if (w.kind == FAULT_ALLOC) return fault_alloc_fired();
  return w.store_fault_fired || (w.store && srv_store_fault_fired(w.store));
}

static void keep(json_t **slot, json_t *msg) {
  json_decref(*slot);
  *slot = json_incref(msg);
}

/* The errors a fault may cause: out of memory, the database failed, a finished game that the
 * server keeps trying to save, a message that could not be made. */
static const srv_error fault_errors[] = {SRV_ERR_SERVER_BUSY, SRV_ERR_STORAGE_FAILED, SRV_ERR_GAME_NOT_SAVED,
                                         SRV_ERR_MESSAGE_LOST};

/* The error of that code a fault may cause, or SRV_ERROR_NONE. */
static srv_error fault_error(const char *code) {
  for (size_t i = 0; i < sizeof fault_errors / sizeof *fault_errors; i++)
    if (strcmp(code, srv_error_code((int)fault_errors[i])) == 0) return fault_errors[i];
  return SRV_ERROR_NONE;
}

static void fake_send(void *ctx, uint64_t id, const char *text, size_t len) {
  (void)ctx;
  (void)len;
  fault_alloc_pause();
  cr_assert_leq(id, CLIENTS);
  json_t *msg = json_loads(text, 0, NULL);
  cr_assert(msg, "not JSON: %s", text);
  client *c = &w.clients[id];
  c->received++;
  const char *type = json_string_value(json_object_get(msg, "type"));
  cr_assert(type, "no type: %s", text);
  if (strcmp(type, "error") == 0) {
    c->errors++;
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(msg, "code")));
    snprintf(c->error, sizeof c->error, "%s", json_string_value(json_object_get(msg, "error")));
    cr_assert(fault_fired(), "run %ld: an error with no fault: %s", w.n, text);
    const srv_error error = fault_error(c->code);
    c->lost |= error == SRV_ERR_MESSAGE_LOST;
    cr_assert(error != SRV_ERROR_NONE, "run %ld: an error no fault explains: %s", w.n, text);
    cr_assert_eq(json_integer_value(json_object_get(msg, "retry_ms")) > 0, srv_error_retries((int)error),
                 "run %ld: retry_ms wrong for its code: %s", w.n, text);
  } else if (strcmp(type, "created") == 0) {
    c->created = true;
    c->table = (int)json_integer_value(json_object_get(msg, "table"));
  } else if (strcmp(type, "seated") == 0) {
    c->table = (int)json_integer_value(json_object_get(msg, "table"));
    c->seat = (int)json_integer_value(json_object_get(msg, "seat"));
    snprintf(c->seat_token, sizeof c->seat_token, "%s", json_string_value(json_object_get(msg, "seat_token")));
  } else if (strcmp(type, "state") == 0) { /* its table and seat too, should "seated" be lost */
    keep(&c->state, msg);
    c->table = (int)json_integer_value(json_object_get(msg, "table"));
    c->seat = (int)json_integer_value(json_object_get(msg, "seat"));
  } else if (strcmp(type, "games") == 0) {
    keep(&c->games, msg);
  } else if (strcmp(type, "ks_table") == 0) {
    keep(&c->ks, msg);
  } else if (strcmp(type, "tables") == 0) {
    keep(&c->tables, msg);
  } else if (strcmp(type, "welcome") == 0 || strcmp(type, "player") == 0) {
    keep(&c->player, json_object_get(msg, "player"));
  }
  json_decref(msg);
  fault_alloc_resume();
}

static void fake_think(void *ctx, const srv_think_job *job) {
  (void)ctx;
  cr_assert_lt(w.njobs, 16);
  w.jobs[w.njobs++] = *job;
}

static void fake_random(void *ctx, void *buf, size_t len) {
  (void)ctx;
  unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) {
    w.random_word = w.random_word * 6364136223846793005u + 1442695040888963407u; /* Knuth's MMIX step */
    p[i] = (unsigned char)(w.random_word >> 56);
  }
}

static int64_t fake_now(void *ctx) {
  (void)ctx;
  return w.now;
}

/* Passwords: the scenario's one password is hashed for real once per process (argon2id takes a
 * tenth of a second, and there are thousands of runs) and that answer given again. */
static void fake_password(void *ctx, const srv_password_job *job) {
  (void)ctx;
  static srv_password_answer hashed;
  fault_alloc_pause();
  srv_password_job copy = *job;
  srv_password_answer a;
  if (job->kind == SRV_PASSWORD_HASH && hashed.ok) {
    a = hashed;
  } else {
    srv_password_work(&copy, &a);
    if (job->kind == SRV_PASSWORD_HASH && a.ok) hashed = a;
  }
  a.client = job->client;
  a.serial = job->serial;
  fault_alloc_resume();
  srv_hub_password_done(w.hub, &a);
}

static const srv_hub_io io = {NULL, fake_send, fake_think, fake_random, fake_now, fake_password, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

/* ---- the scenario's steps ---- */

static void send_text(uint64_t id, const char *text) { srv_hub_receive(w.hub, id, text, strlen(text)); }

static json_int_t ks_table_of(const client *c) { return json_integer_value(json_object_get(c->ks, "table")); }

/* What a client whose message was lost does: takes its seat again by its token, which sends it
 * the table's state afresh, or watches its Ko shogi table again, which sends the table. */
static void catch_up(void) {
  for (uint64_t id = 1; id <= CLIENTS; id++) {
    client *c = &w.clients[id];
    if (!c->lost || (!c->seat_token[0] && !c->ks)) continue;
    c->lost = false;
    char text[128];
    if (c->ks)
      snprintf(text, sizeof text, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)ks_table_of(c));
    else
      snprintf(text, sizeof text, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", c->seat_token);
    const int errors = c->errors;
    send_text(id, text);
    cr_assert_eq(c->errors, errors, "run %ld: %s refused after the fault: %s", w.n, text, c->error);
  }
}

/* Sends a request the scenario needs. When it is refused (a fault's error, fake_send checked),
 * it is sent again, and must succeed: one fault fails one thing. A request whose answer was
 * lost, or a game's last move whose record is not saved yet, was done: not sent again. */
static void request(uint64_t id, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void request(uint64_t id, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  client *c = &w.clients[id];
  const int errors = c->errors, received = c->received;
  send_text(id, text);
  cr_assert_gt(c->received, received, "run %ld: %s was answered by nothing", w.n, text);
  const srv_error error = c->errors == errors ? SRV_ERROR_NONE : fault_error(c->code);
  if (error == SRV_ERR_SERVER_BUSY || error == SRV_ERR_STORAGE_FAILED) {
    send_text(id, text);
    cr_assert_eq(c->errors, errors + 1, "run %ld: %s refused again after the fault: %s %s", w.n, text, c->code,
                 c->error);
  }
  catch_up();
}

/* Opens the store and the hub; a fault in either makes it fail, with a reason, and the next
 * try (the fault has come) succeeds. */
static void open_server(void) {
  for (int attempt = 0;; attempt++) {
    cr_assert_lt(attempt, 2, "run %ld: the server did not start after its fault", w.n);
    if (w.kind == FAULT_ALLOC && attempt == 0) fault_alloc_fail_at(w.n);
    if (srv_store_open(&w.store, w.db) != 0) {
      cr_assert(fault_alloc_fired(), "run %ld: the store did not open with no fault: %s", w.n,
                w.store ? srv_store_error(w.store) : "");
      srv_store_close(w.store);
      w.store = NULL;
      continue;
    }
    if (w.kind == FAULT_STORE && attempt == 0) srv_store_fail_call(w.store, w.n);
    srv_hub_options o;
    srv_hub_options_default(&o);
    o.round_pause_ms = 0;
    char err[256] = "";
    if (srv_hub_new(&w.hub, w.store, &io, &o, err, sizeof err) == 0) return;
    cr_assert(fault_fired(), "run %ld: the hub did not start with no fault: %s", w.n, err);
    cr_assert(err[0], "run %ld: the hub did not start and did not say why", w.n);
    w.store_fault_fired |= srv_store_fault_fired(w.store);
    srv_store_close(w.store);
    w.store = NULL;
  }
}

static void answer_computers(void) {
  while (w.njobs > 0) {
    const srv_think_job job = w.jobs[--w.njobs];
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_view_legal_moves(&job.view, moves);
    srv_hub_bot_move(w.hub, job.table, job.version, moves[goita_rng_below(&w.moves, (uint32_t)n)]);
  }
}

static const char *status_of(uint64_t id) {
  json_t *st = w.clients[id].state;
  return st ? json_string_value(json_object_get(st, "status")) : "";
}

/* The client's move when its last state offers it one; returns whether it moved. */
static bool move_if_turn(uint64_t id) {
  client *c = &w.clients[id];
  json_t *legal = json_object_get(json_object_get(c->state, "game"), "legal");
  const size_t n = json_array_size(legal);
  if (n == 0) return false;
  char move[16];
  snprintf(move, sizeof move, "%s", json_string_value(json_array_get(legal, goita_rng_below(&w.moves, (uint32_t)n))));
  request(id, "{\"type\":\"move\",\"table\":%d,\"move\":\"%s\"}", c->table, move);
  return true;
}

/* Plays the table to its end: clients 1 and 2 move, a computer the others; a finished game not
 * saved yet is saved at a later tick. */
static void play_to_the_end(void) {
  for (int steps = 0; steps < 500; steps++) {
    answer_computers();
    catch_up();
    const bool moved_1 = move_if_turn(1); /* both clients get their chance each step */
    const bool moved = move_if_turn(2) || moved_1;
    if (strcmp(status_of(1), "over") == 0 && strcmp(status_of(2), "over") == 0) return;
    if (!moved && w.njobs == 0) {
      w.now += 10000;
      srv_hub_tick(w.hub);
    }
  }
  char *state = json_dumps(w.clients[1].state, JSON_COMPACT);
  cr_assert_fail("run %ld: the game did not end: %s", w.n, state);
}

/* The scenario: two people (one registers a name) play a game against two computers to its
 * end, then read the games page and the game's record. */
static void scenario(void) {
  request(1, "{\"type\":\"hello\",\"name\":\"Aki\"}");
  request(2, "{\"type\":\"hello\",\"name\":\"Ben\"}");
  request(1, "{\"type\":\"register\",\"name\":\"Aki\",\"password\":\"goita at the kitchen table\"}");
  request(1, "{\"type\":\"create\",\"rules\":\"target=1\",\"sit\":true}");
  const int table = w.clients[1].table; /* from "created", or "seated" when that was lost */
  cr_assert_gt(table, 0, "run %ld: no table", w.n);
  request(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":1}", table);
  request(1, "{\"type\":\"bot\",\"table\":%d,\"seat\":2,\"level\":\"random\"}", table);
  request(1, "{\"type\":\"bot\",\"table\":%d,\"seat\":3,\"level\":\"random\"}", table);
  request(1, "{\"type\":\"start\",\"table\":%d}", table);
  play_to_the_end();
  request(2, "{\"type\":\"games\"}");
  if (!w.clients[2].games) request(2, "{\"type\":\"games\"}"); /* its answer was lost: asked again */
  json_t *games = json_object_get(w.clients[2].games, "games");
  cr_assert_eq(json_array_size(games), 1, "run %ld: the game is not listed", w.n);
  const json_int_t game = json_integer_value(json_object_get(json_array_get(games, 0), "id"));
  char *record = NULL;
  if (srv_store_game_text(w.store, game, NULL, false, &record) != 0)
    cr_assert_eq(srv_store_game_text(w.store, game, NULL, false, &record), 0, "run %ld: %s", w.n,
                 srv_store_error(w.store));
  cr_assert(record, "run %ld: no record", w.n);
  /* the whole game: every round, replayed and checked by the library */
  fault_alloc_pause();
  goita_record rec;
  goita_error err;
  cr_assert_eq(goita_record_read_json(&rec, record, strlen(record), &err), GOITA_OK, "run %ld: the record: %s", w.n,
               err.message);
  cr_assert(rec.over && rec.nrounds >= 1, "run %ld: the record is not of the whole game", w.n);
  goita_record_free(&rec);
  fault_alloc_resume();
  free(record);
}

/* A Ko shogi game's first moves (each legal after those before it), then White resigns. */
static const char *const ks_moves[] = {"P6o-5o", "P-3e", "P-4p", "P-5e"};

static json_int_t ks_moves_seen(uint64_t id) {
  return (json_int_t)json_array_size(json_object_get(w.clients[id].ks, "moves"));
}

/* Aki (Black) and Ben (White) play Ko shogi: the table made (found in the lobby when the answer
 * was lost), four moves, White's resignation; then the game is saved, at a later tick when its
 * save failed, and its record replays to the same end. */
static void ko_shogi_scenario(void) {
  request(1, "{\"type\":\"ks_create\",\"side\":\"black\",\"main_minutes\":10,\"byoyomi_seconds\":30}");
  if (!w.clients[1].ks) { /* its answer was lost: the table is in the lobby */
    request(1, "{\"type\":\"list\"}");
    if (!w.clients[1].tables) request(1, "{\"type\":\"list\"}");
    json_t *row = json_array_get(json_object_get(w.clients[1].tables, "koshogi"), 0);
    cr_assert(row, "run %ld: the Ko shogi table is not in the lobby", w.n);
    request(1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)json_integer_value(json_object_get(row, "id")));
  }
  const json_int_t table = ks_table_of(&w.clients[1]);
  cr_assert_gt(table, 0, "run %ld: no Ko shogi table", w.n);
  request(2, "{\"type\":\"ks_sit\",\"table\":%lld,\"side\":\"white\"}", (long long)table);
  if (!w.clients[2].ks) request(2, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  for (int ply = 0; ply < 4; ply++) {
    request(1 + (uint64_t)(ply % 2), "{\"type\":\"ks_move\",\"table\":%lld,\"move\":\"%s\"}", (long long)table,
            ks_moves[ply]);
    if (ks_moves_seen(1) != ply + 1) request(1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
    cr_assert_eq(ks_moves_seen(1), ply + 1, "run %ld: move %d not played", w.n, ply + 1);
  }
  request(2, "{\"type\":\"ks_resign\",\"table\":%lld}", (long long)table);
  /* saved, at a later tick when the save failed */
  for (int tick = 0; tick < 5 && !json_integer_value(json_object_get(w.clients[1].ks, "game_id")); tick++) {
    w.now += 10000;
    srv_hub_tick(w.hub);
    request(1, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)table);
  }
  const json_int_t game = json_integer_value(json_object_get(w.clients[1].ks, "game_id"));
  cr_assert_gt(game, 0, "run %ld: the Ko shogi game was not saved", w.n);
  char *text = NULL;
  if (srv_store_ks_game_text(w.store, game, NULL, &text) != 0)
    cr_assert_eq(srv_store_ks_game_text(w.store, game, NULL, &text), 0, "run %ld: %s", w.n, srv_store_error(w.store));
  cr_assert(text, "run %ld: no Ko shogi record", w.n);
  fault_alloc_pause();
  ks_game *played = malloc(sizeof *played);
  cr_assert(played);
  char err[256];
  cr_assert_eq(ks_record_read(played, text, NULL, NULL, err, sizeof err), 0, "run %ld: the Ko shogi record: %s", w.n,
               err);
  const int plies = played->nplies, result = played->result;
  ks_game_free(played);
  free(played);
  cr_assert(plies == 4 && result == KS_BLACK_WINS, "run %ld: the Ko shogi record has %d plies", w.n, plies);
  fault_alloc_resume();
  free(text);
}

/* One run: a fresh server, the fault armed at w.n, the scenario, then with no fault a newcomer
 * served; everything freed. Returns whether the fault came. */
static bool run(void) {
  memset(w.clients, 0, sizeof w.clients);
  w.now = 1000000;
  w.random_word = 7;
  w.njobs = 0;
  w.store_fault_fired = false;
  goita_rng_seed(&w.moves, 42);
  /* in memory when the system has it: thousands of runs each make a database */
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(w.db, sizeof w.db, "%s/goita-test-faults-%d.db", dir, getpid());
  unlink(w.db);
  open_server();
  for (uint64_t id = 1; id <= CLIENTS; id++)
    if (srv_hub_connect(w.hub, id) != 0) { /* refused (net.c closes it): the client connects again */
      cr_assert(fault_fired(), "run %ld: a connection refused with no fault", w.n);
      cr_assert_eq(srv_hub_connect(w.hub, id), 0, "run %ld: the connection refused again", w.n);
    }
  scenario();
  ko_shogi_scenario();
  const bool fired = fault_fired();
  fault_alloc_fail_at(0);
  srv_store_fail_call(w.store, 0);
  /* the server goes on serving */
  client *c = &w.clients[3];
  send_text(3, "{\"type\":\"hello\",\"name\":\"Cai\"}");
  send_text(3, "{\"type\":\"create\",\"rules\":\"players=2\",\"sit\":true}");
  cr_assert(c->errors == 0 && c->created && c->seat == 0, "run %ld: a newcomer was not served: %s", w.n, c->error);

  srv_hub_free(w.hub);
  srv_store_close(w.store);
  for (int i = 0; i <= CLIENTS; i++) {
    json_decref(w.clients[i].state);
    json_decref(w.clients[i].games);
    json_decref(w.clients[i].player);
    json_decref(w.clients[i].ks);
    json_decref(w.clients[i].tables);
  }
  char path[80];
  unlink(w.db);
  snprintf(path, sizeof path, "%s-wal", w.db);
  unlink(path);
  snprintf(path, sizeof path, "%s-shm", w.db);
  unlink(path);
  cr_assert_eq(LEAK_CHECK(), 0, "run %ld: a leak", w.n);
  return fired;
}

/* Runs the sweep: N = 1, 1 + stride, ... until a run meets no fault. */
static void sweep(enum fault_kind kind, long ci_stride) {
  /* not fault_alloc_install: the hub sends jansson's allocations through its own counting
   * functions (srv_json_setup), whose malloc is the wrapped one */
  w.kind = kind;
  const long only = env_long("GOITA_FAULT_ONLY", 0);
  const long stride = stride_or(ci_stride);
  if (only > 0) {
    w.n = only;
    fprintf(stderr, "run %ld: %s\n", only, run() ? "the fault came" : "no fault came: the scenario is shorter");
    return;
  }
  long runs = 0;
  for (w.n = env_long("GOITA_FAULT_FROM", 1);; w.n += stride) {
    runs++;
    if (!run()) break;
  }
  cr_assert_gt(runs, 1, "the first run met no fault: is the injection wired?");
  fprintf(stderr, "%s faults: %ld runs, a stride of %ld, the last N %ld\n",
          kind == FAULT_ALLOC ? "allocation" : "store", runs, stride, w.n);
}

/* About 7,600 allocations: CI tries every 397th (a prime, so that the runs fall at every step). */
Test(faults, every_failed_allocation_is_refused_cleanly_and_the_server_goes_on) { sweep(FAULT_ALLOC, 397); }

/* 48 store calls: CI tries every 5th. */
Test(faults, every_failed_store_call_is_refused_cleanly_and_the_server_goes_on) { sweep(FAULT_STORE, 5); }

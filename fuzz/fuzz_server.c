/* Fuzz target: the server's message handling. Each input line is one WebSocket message from
 * one of three clients (the line's first byte picks it); the hub runs on an in-memory database,
 * computer players answer at once, and the clock moves. Every reply must be a JSON object with
 * a type, whatever came in. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "goita/goita.h"
#include "hub.h"

static srv_think_job jobs[64];
static int njobs;
static int64_t clock_ms;
static goita_rng rng;

static void check_send(void *ctx, uint64_t client, const char *text, size_t len) {
  (void)ctx;
  FUZZ_CHECK(client >= 1 && client <= 3);
  FUZZ_CHECK(strlen(text) == len);
  json_t *msg = json_loadb(text, len, 0, NULL);
  FUZZ_CHECK(json_is_object(msg) && json_is_string(json_object_get(msg, "type")));
  json_decref(msg);
}

static void queue_think(void *ctx, const srv_think_job *job) {
  (void)ctx;
  if (njobs < 64) jobs[njobs++] = *job;
}

/* The Ko shogi computer is not asked here: a search of up to 100,000 nodes a move would slow
 * every input that made a table with it (tests/test_server_koshogi.c plays against it). */
static void drop_ks_think(void *ctx, const srv_ks_think_job *job) {
  (void)ctx;
  free(job->record);
}

static void fill_random(void *ctx, void *buf, size_t len) {
  (void)ctx;
  uint8_t *p = buf;
  for (size_t i = 0; i < len; i++) p[i] = (uint8_t)goita_rng_next(&rng);
}

static srv_hub *current_hub; /* the hub a password answer goes back to */

static int64_t now(void *ctx) {
  (void)ctx;
  return clock_ms;
}

/* Answers a password job at once without argon2id (too slow for fuzzing): any password hashes,
 * none matches. */
static void answer_password(void *ctx, const srv_password_job *job) {
  (void)ctx;
  srv_password_answer a = {.client = job->client, .serial = job->serial, .kind = job->kind};
  a.ok = job->kind == SRV_PASSWORD_HASH;
  if (a.ok) snprintf(a.hash, sizeof a.hash, "fuzz");
  srv_hub_password_done(current_hub, &a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 20000) return 0;
  srv_store *store = NULL;
  FUZZ_CHECK(srv_store_open(&store, ":memory:") == 0);
  const srv_hub_io io = {NULL, check_send, queue_think, fill_random, now, answer_password, NULL, NULL, NULL, NULL,
                         drop_ks_think, NULL, NULL};
  srv_hub_options options;
  srv_hub_options_default(&options);
  options.round_pause_ms = 0;
  srv_hub *hub = NULL;
  char err[256];
  njobs = 0;
  clock_ms = 0;
  goita_rng_seed(&rng, 1);
  FUZZ_CHECK(srv_hub_new(&hub, store, &io, &options, err, sizeof err) == 0);
  current_hub = hub;
  for (uint64_t c = 1; c <= 3; c++) srv_hub_connect(hub, c);
  const char *p = (const char *)data, *end = p + size;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    if (line_end > p) {
      const uint64_t client = (uint64_t)((unsigned char)*p % 3) + 1;
      if (*p == '!')
        srv_hub_disconnect(hub, client), srv_hub_connect(hub, client); /* a reconnection */
      else
        srv_hub_receive(hub, client, p + 1, (size_t)(line_end - p - 1));
    }
    while (njobs > 0) { /* computer players answer with their first legal move */
      const srv_think_job job = jobs[--njobs];
      goita_move moves[GOITA_MAX_LEGAL];
      if (goita_view_legal_moves(&job.view, moves) > 0) srv_hub_bot_move(hub, job.table, job.version, moves[0]);
    }
    clock_ms += 1500;
    srv_hub_tick(hub);
    p = line_end + 1;
  }
  srv_hub_free(hub);
  srv_store_close(store);
  return 0;
}

/* What a table's creator may ask for at its creation (docs/SERVER.md "create"), through the
 * hub driven directly (no network, a fake clock): "sit": true seats the creator in the first
 * seat; without it the creator only watches, as before; a bad value is refused. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hub.h"
#include "store.h"

#define CLIENTS 4

/* What one fake client was sent: its messages by type, in order. */
typedef struct client_log {
  char types[64][16];
  int n;
  json_t *created, *seated, *state, *error;
} client_log;

static struct {
  srv_store *store;
  srv_hub *hub;
  char db[64];
  int64_t now;
  uint64_t random_word;
  client_log clients[CLIENTS + 1];
} w;

static void keep(json_t **slot, json_t *msg) {
  json_decref(*slot);
  *slot = json_incref(msg);
}

static void fake_send(void *ctx, uint64_t client, const char *text, size_t len) {
  (void)ctx;
  (void)len;
  cr_assert_leq(client, CLIENTS);
  json_t *msg = json_loads(text, 0, NULL);
  cr_assert(msg, "not JSON: %s", text);
  client_log *c = &w.clients[client];
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (c->n < 64) snprintf(c->types[c->n++], sizeof c->types[0], "%s", type);
  if (strcmp(type, "created") == 0) keep(&c->created, msg);
  if (strcmp(type, "seated") == 0) keep(&c->seated, msg);
  if (strcmp(type, "state") == 0) keep(&c->state, msg);
  if (strcmp(type, "error") == 0) keep(&c->error, msg);
  json_decref(msg);
}

static void fake_think(void *ctx, const srv_think_job *job) {
  (void)ctx;
  (void)job;
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

static const srv_hub_io io = {NULL, fake_send, fake_think, fake_random, fake_now, NULL, NULL, NULL, NULL, NULL};

static void setup(void) {
  memset(&w, 0, sizeof w);
  w.now = 1000000;
  w.random_word = 7;
  snprintf(w.db, sizeof w.db, "/tmp/goita-test-table-options-%d.db", getpid());
  unlink(w.db);
  cr_assert_eq(srv_store_open(&w.store, w.db), 0);
  srv_hub_options o;
  srv_hub_options_default(&o);
  char err[256] = "";
  cr_assert_eq(srv_hub_new(&w.hub, w.store, &io, &o, err, sizeof err), 0, "%s", err);
}

static void teardown(void) {
  srv_hub_free(w.hub);
  srv_store_close(w.store);
  for (int i = 0; i <= CLIENTS; i++) {
    client_log *c = &w.clients[i];
    json_decref(c->created);
    json_decref(c->seated);
    json_decref(c->state);
    json_decref(c->error);
  }
  char path[80];
  unlink(w.db);
  snprintf(path, sizeof path, "%s-wal", w.db);
  unlink(path);
  snprintf(path, sizeof path, "%s-shm", w.db);
  unlink(path);
}

static void say(uint64_t client, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(uint64_t client, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  srv_hub_receive(w.hub, client, text, strlen(text));
}

static void connect_client(uint64_t id, const char *name) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"name\":\"%s\"}", name);
  cr_assert_null(w.clients[id].error);
}

/* The index of the first message of this type the client was sent, or -1. */
static int first(const client_log *c, const char *type) {
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->types[i], type) == 0) return i;
  return -1;
}

TestSuite(table_options, .init = setup, .fini = teardown);

Test(table_options, sit_on_create_seats_the_creator_first) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":true}");
  client_log *c = &w.clients[1];
  cr_assert_null(c->error, "%s", json_dumps(c->error, 0));
  cr_assert(c->created && c->seated && c->state, "created, seated and state expected");
  const json_int_t table = json_integer_value(json_object_get(c->created, "table"));
  cr_assert_eq(json_integer_value(json_object_get(c->created, "seat")), 0, "created says the seat taken");
  cr_assert_lt(first(c, "created"), first(c, "seated"), "created comes before seated");
  cr_assert_eq(json_integer_value(json_object_get(c->seated, "table")), table);
  cr_assert_eq(json_integer_value(json_object_get(c->seated, "seat")), 0);
  cr_assert_eq(json_integer_value(json_object_get(c->state, "seat")), 0, "the state is the first seat's");
  json_t *seat0 = json_array_get(json_object_get(c->state, "seats"), 0);
  cr_assert_str_eq(json_string_value(json_object_get(seat0, "name")), "Aki");

  /* the seat is a seat like any other: another person cannot take it, and sitting again is refused */
  connect_client(2, "Ben");
  say(2, "{\"type\":\"sit\",\"table\":%lld,\"seat\":0}", (long long)table);
  cr_assert(w.clients[2].error, "a taken seat was given to another");
  say(1, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)table);
  cr_assert(c->error, "the creator sat twice");
  cr_assert(strstr(json_string_value(json_object_get(c->error, "error")), "already sit"), "%s",
            json_string_value(json_object_get(c->error, "error")));
}

Test(table_options, without_sit_the_creator_only_creates) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\"}");
  client_log *c = &w.clients[1];
  cr_assert_null(c->error);
  cr_assert(c->created);
  cr_assert_null(json_object_get(c->created, "seat"));
  cr_assert_eq(first(c, "seated"), -1, "seated without asking");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":false}");
  cr_assert_null(c->error);
  cr_assert_eq(first(c, "seated"), -1, "seated with sit false");
}

Test(table_options, sit_must_be_true_or_false) {
  connect_client(1, "Aki");
  say(1, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":1}");
  client_log *c = &w.clients[1];
  cr_assert(c->error, "sit: 1 was taken");
  cr_assert_str_eq(json_string_value(json_object_get(c->error, "error")), "field \"sit\": expected true or false");
  cr_assert_null(c->created);
}

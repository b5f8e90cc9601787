/* What /healthz says (net_health.h), on a SQLite store and a fake clock: a refused call is not a
 * database outage, a database that stops answering is found by the check's own read at its
 * interval and reported with the time and the reason until it answers again, and the bus's line
 * follows its connection. (tests/cli/serve_health.sh does the same with a real PostgreSQL and
 * nats-server under goita serve.) */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "net_health.h"
#include "store.h"

static struct {
  char db[128];
  srv_store *store;
} w;

static void setup(void) {
  snprintf(w.db, sizeof w.db, "/tmp/goita-test-health-%d.db", getpid());
  unlink(w.db);
  cr_assert_eq(srv_store_open(&w.store, w.db), 0);
}

static void teardown(void) {
  srv_store_close(w.store);
  char path[160];
  unlink(w.db);
  snprintf(path, sizeof path, "%s-wal", w.db);
  unlink(path);
  snprintf(path, sizeof path, "%s-shm", w.db);
  unlink(path);
}

TestSuite(health, .init = setup, .fini = teardown);

/* Runs SQL on the database behind the store's back. */
static void raw(const char *sql) {
  sqlite3 *db = NULL;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
  sqlite3_close(db);
}

/* The page and its status, the text into buf. */
static unsigned page(const srv_health *h, char *buf, size_t size) {
  unsigned status = 0;
  char *text = srv_health_text(h, &status);
  cr_assert(text);
  snprintf(buf, size, "%s", text);
  free(text);
  return status;
}

#define WALL 1795784645000 /* 2026-11-27T13:04:05Z */

Test(health, a_call_refused_on_its_merits_leaves_the_server_healthy) {
  srv_health h;
  srv_health_init(&h, false, WALL);
  srv_health_db_check(&h, w.store, 0, WALL);
  /* a SQLite file refuses a server's name: the call fails, the database answers */
  cr_assert_neq(srv_store_node(w.store, "a", 10000), 0);
  cr_assert(srv_store_failing(w.store));
  srv_health_db_check(&h, w.store, 100, WALL + 100);
  char text[1024];
  cr_expect_eq(page(&h, text, sizeof text), 200);
  cr_expect_str_eq(text, "ok\n");
}

Test(health, a_database_that_stops_answering_is_down_until_it_answers_again) {
  srv_health h;
  srv_health_init(&h, false, WALL);
  srv_health_db_check(&h, w.store, 0, WALL);
  char text[1024];
  cr_assert_eq(page(&h, text, sizeof text), 200);
  raw("ALTER TABLE games RENAME TO games_away"); /* the check's read fails from now on */
  srv_health_db_check(&h, w.store, SRV_HEALTH_CHECK_MS - 1, WALL + 1000);
  cr_expect_eq(page(&h, text, sizeof text), 200, "not read again before its interval");
  srv_health_db_check(&h, w.store, SRV_HEALTH_CHECK_MS, WALL + 2000);
  cr_expect_eq(page(&h, text, sizeof text), 503);
  cr_expect(strncmp(text, "database down since 2026-11-27T13:04:07Z: ", 42) == 0, "%s", text);
  cr_expect(strstr(text, "games") != NULL, "the reason: %s", text);
  int64_t t = SRV_HEALTH_CHECK_MS;
  srv_health_db_check(&h, w.store, t + SRV_HEALTH_RETRY_MS - 1, WALL + 2900);
  cr_expect_eq(page(&h, text, sizeof text), 503, "not read again before the retry interval");
  cr_assert_neq(srv_store_node(w.store, "a", 10000), 0); /* a failed call while it is down */
  const long long failures = srv_store_failures(w.store);
  srv_health_db_check(&h, w.store, t + 1, WALL + 2001);
  cr_expect_eq(srv_store_failures(w.store), failures, "no read for a failed call while it is down");
  srv_health_db_check(&h, w.store, t += SRV_HEALTH_RETRY_MS, WALL + 3000);
  cr_expect_eq(srv_store_failures(w.store), failures + 1, "read again after the retry interval");
  /* each failed read doubles the wait before the next, up to its maximum */
  srv_health_db_check(&h, w.store, t + 2 * SRV_HEALTH_RETRY_MS - 1, WALL + 4000);
  cr_expect_eq(srv_store_failures(w.store), failures + 1, "not read again before twice the interval");
  srv_health_db_check(&h, w.store, t += 2 * SRV_HEALTH_RETRY_MS, WALL + 5000);
  cr_expect_eq(srv_store_failures(w.store), failures + 2);
  for (int i = 0; i < 5; i++) srv_health_db_check(&h, w.store, t += SRV_HEALTH_RETRY_MAX_MS, WALL + 6000);
  cr_expect_eq(srv_store_failures(w.store), failures + 7, "at most SRV_HEALTH_RETRY_MAX_MS apart");
  raw("ALTER TABLE games_away RENAME TO games");
  srv_health_db_check(&h, w.store, t += SRV_HEALTH_RETRY_MAX_MS, WALL + 9000);
  cr_expect_eq(page(&h, text, sizeof text), 200);
  cr_expect_str_eq(text, "ok\n");
}

Test(health, a_call_that_succeeds_brings_the_database_back_at_once) {
  srv_health h;
  srv_health_init(&h, false, WALL);
  raw("ALTER TABLE games RENAME TO games_away");
  srv_health_db_check(&h, w.store, 0, WALL);
  char text[1024];
  cr_assert_eq(page(&h, text, sizeof text), 503);
  raw("ALTER TABLE games_away RENAME TO games");
  srv_player p;
  bool found;
  cr_assert_eq(srv_store_player_by_token(w.store, "x", &p, &found), 0); /* a call of the server's own */
  srv_health_db_check(&h, w.store, 1, WALL + 1);
  cr_expect_eq(page(&h, text, sizeof text), 200);
}

Test(health, a_failed_call_is_looked_at_before_the_interval) {
  srv_health h;
  srv_health_init(&h, false, WALL);
  srv_health_db_check(&h, w.store, 0, WALL);
  raw("ALTER TABLE games RENAME TO games_away");
  cr_assert_neq(srv_store_node(w.store, "a", 10000), 0); /* any failed call */
  srv_health_db_check(&h, w.store, 1, WALL + 1);
  char text[1024];
  cr_expect_eq(page(&h, text, sizeof text), 503, "read at once after a failed call");
}

/* The store thread's calls go over a connection of their own: one answered says the database
 * is back at once, one failed has the database read at the next look. */
Test(health, the_store_threads_calls_count_as_the_servers_own) {
  srv_health h;
  srv_health_init(&h, false, WALL);
  raw("ALTER TABLE games RENAME TO games_away");
  srv_health_db_check(&h, w.store, 0, WALL);
  char text[1024];
  cr_assert_eq(page(&h, text, sizeof text), 503);
  raw("ALTER TABLE games_away RENAME TO games");
  srv_health_db_writer(&h, true, WALL + 1); /* a batch of moves saved */
  cr_expect_eq(page(&h, text, sizeof text), 200, "a saved batch did not say the database is back");
  srv_health_db_check(&h, w.store, 1, WALL + 2);
  raw("ALTER TABLE games RENAME TO games_away");
  srv_health_db_writer(&h, false, WALL + 3); /* a batch that failed */
  srv_health_db_check(&h, w.store, 2, WALL + 4);
  cr_expect_eq(page(&h, text, sizeof text), 503, "a failed batch was not looked at before the interval");
}

Test(health, the_bus_line_follows_its_connection_and_leaves_the_status) {
  srv_health h;
  srv_health_init(&h, true, WALL);
  char text[1024];
  cr_expect_eq(page(&h, text, sizeof text), 200);
  cr_expect_str_eq(text, "ok\nbus: unreachable since 2026-11-27T13:04:05Z: not connected yet\n");
  srv_health_bus(&h, true, "", WALL + 1000);
  cr_expect_eq(page(&h, text, sizeof text), 200);
  cr_expect_str_eq(text, "ok\nbus: connected since 2026-11-27T13:04:06Z\n");
  srv_health_bus(&h, false, "lost the connection to nats://127.0.0.1:4222", WALL + 61000);
  cr_expect_eq(page(&h, text, sizeof text), 200);
  cr_expect_str_eq(text,
                   "ok\nbus: unreachable since 2026-11-27T13:05:06Z: lost the connection to nats://127.0.0.1:4222\n");
}

static void no_wake(void *ctx) { (void)ctx; }

Test(health, the_bus_is_shown_without_its_password) {
  srv_bus *bus = NULL;
  char err[256] = "";
  const char *subjects[] = {"goita.lobby"};
  /* nothing listens on port 1: the client keeps trying, and says why it is not connected */
  cr_assert_eq(srv_bus_open(&bus, "nats://goita:s3cret@127.0.0.1:1", "t", subjects, 1, no_wake, NULL, err, sizeof err),
               0, "%s", err);
  cr_expect_str_eq(srv_bus_address(bus), "nats://127.0.0.1:1");
  cr_expect(strstr(srv_bus_error(bus), "s3cret") == NULL, "%s", srv_bus_error(bus));
  cr_expect(strstr(srv_bus_error(bus), "nats://127.0.0.1:1") != NULL, "%s", srv_bus_error(bus));
  srv_bus_close(bus);
}

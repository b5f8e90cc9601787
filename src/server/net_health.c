/* The server's health as /healthz tells it, and the log lines of its changes (net_health.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "net_health.h"

/* A wall-clock time in ms as UTC to the second: "2026-11-27T13:04:05Z". */
static void format_utc(char buf[32], int64_t wall_ms) {
  const time_t t = (time_t)(wall_ms / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  if (strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) snprintf(buf, 32, "?");
}

void srv_health_init(srv_health *h, bool has_bus, int64_t wall_ms) {
  memset(h, 0, sizeof *h);
  h->db_since = h->bus_since = wall_ms;
  h->db_checked = -1;
  h->has_bus = has_bus;
  snprintf(h->bus_error, sizeof h->bus_error, "not connected yet");
}

/* The cheapest read both stores have: the finished games below number 1, of which there are
 * none (an index lookup). It reconnects first when the connection was lost, as every call does. */
static int read_database(srv_store *store) {
  srv_game_row row;
  int count = 0;
  return srv_store_games(store, 1, &row, 1, &count);
}

/* Notes the database answering or not, logging a change. */
static void db_set(srv_health *h, bool down, const char *why, int64_t wall_ms) {
  if (down) snprintf(h->db_error, sizeof h->db_error, "%s", why);
  if (down && h->db_down) /* one more failed read: wait longer */
    h->db_retry = h->db_retry * 2 < SRV_HEALTH_RETRY_MAX_MS ? h->db_retry * 2 : SRV_HEALTH_RETRY_MAX_MS;
  if (down == h->db_down) return;
  h->db_retry = SRV_HEALTH_RETRY_MS;
  if (down)
    srv_log("database down: %s", why);
  else
    srv_log("database back after %.1f s", (double)(wall_ms - h->db_since) / 1000);
  h->db_down = down;
  h->db_since = wall_ms;
}

void srv_health_db_check(srv_health *h, srv_store *store, int64_t now_ms, int64_t wall_ms) {
  const long long failures = srv_store_failures(store);
  const bool call_failed = failures != h->db_failures;
  h->db_failures = failures;
  if (h->db_down && !call_failed && !srv_store_failing(store)) {
    /* a call of the server's own succeeded since the failed read */
    db_set(h, false, NULL, wall_ms);
    h->db_checked = now_ms;
    return;
  }
  const int64_t interval = h->db_down ? h->db_retry : SRV_HEALTH_CHECK_MS;
  const bool due = h->db_checked < 0 || now_ms - h->db_checked >= interval;
  /* a failed call is looked at at once while the database answered; while it is down, it
   * says only what is known */
  if (!due && (h->db_down || !call_failed)) return;
  const bool down = read_database(store) != 0;
  h->db_checked = now_ms;
  h->db_failures = srv_store_failures(store);
  db_set(h, down, srv_store_error(store), wall_ms);
}

void srv_health_db_writer(srv_health *h, bool answered, int64_t wall_ms) {
  if (answered && h->db_down)
    db_set(h, false, NULL, wall_ms);
  else if (!answered && !h->db_down)
    h->db_checked = -1;
}

void srv_health_bus(srv_health *h, bool up, const char *why, int64_t wall_ms) {
  if (!up) snprintf(h->bus_error, sizeof h->bus_error, "%s", why && *why ? why : "not connected");
  if (up == h->bus_up) return;
  if (up && !h->bus_seen)
    srv_log("bus connected");
  else if (up)
    srv_log("bus back after %.1f s", (double)(wall_ms - h->bus_since) / 1000);
  else
    srv_log("bus down: %s", h->bus_error);
  h->bus_seen = h->bus_seen || up;
  h->bus_up = up;
  h->bus_since = wall_ms;
}

char *srv_health_text(const srv_health *h, unsigned *status) {
  char text[1024], since[32];
  int n;
  format_utc(since, h->db_since);
  if (h->db_down) {
    *status = 503;
    n = snprintf(text, sizeof text, "database down since %s: %s\n", since, h->db_error);
  } else {
    *status = 200;
    n = snprintf(text, sizeof text, "ok\n");
  }
  format_utc(since, h->bus_since);
  if (h->has_bus && h->bus_up)
    snprintf(text + n, sizeof text - (size_t)n, "bus: connected since %s\n", since);
  else if (h->has_bus)
    snprintf(text + n, sizeof text - (size_t)n, "bus: unreachable since %s: %s\n", since, h->bus_error);
  return strdup(text);
}

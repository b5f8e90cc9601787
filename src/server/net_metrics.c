/* /metrics: its text, from the hub's counts, the store's failures and the move-time histogram
 * that net.c keeps (/healthz is net_health.c's). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_metrics.h"

/* The upper bounds of the move-time buckets, in seconds (the last bucket is everything above). */
static const double bounds[SRV_MOVE_BUCKETS - 1] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5};

void srv_metrics_move(srv_metrics *m, double seconds) {
  int i = 0;
  while (i < SRV_MOVE_BUCKETS - 1 && seconds > bounds[i]) i++;
  m->buckets[i]++;
  m->count++;
  m->sum += seconds;
}

/* A growing text. */
typedef struct text {
  char *buf;
  size_t len, cap;
  bool failed;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
  if (t->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      t->failed = true;
      return;
    }
    if (t->buf && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    const size_t cap = (t->cap ? 2 * t->cap : 2048) + (size_t)n;
    char *grown = realloc(t->buf, cap);
    if (!grown) {
      t->failed = true;
      return;
    }
    t->buf = grown;
    t->cap = cap;
  }
}

/* One metric with its help and type lines. */
static void metric(text *t, const char *name, const char *type, const char *help, long long value) {
  add(t, "# HELP %s %s\n# TYPE %s %s\n%s %lld\n", name, help, name, type, name, value);
}

char *srv_metrics_text(const srv_metrics *m, const srv_hub *hub, const srv_store *store, long long writer_failures,
                       const srv_health *health, const srv_bus *bus, const srv_bots_stats *bots) {
  srv_hub_stats st;
  srv_hub_stats_get(hub, &st);
  text t = {0};
  metric(&t, "goita_tables", "gauge", "Open tables (waiting or playing) this server holds.", st.tables);
  metric(&t, "goita_tables_playing", "gauge", "Tables of this server with a game being played.", st.playing);
  metric(&t, "goita_connections", "gauge", "WebSocket connections.", st.clients);
  metric(&t, "goita_moves_total", "counter", "Moves played at this server's tables (rate() gives moves/s).",
         st.moves);
  metric(&t, "goita_store_errors_total", "counter", "Database calls that failed.", srv_store_failures(store) + writer_failures);
  metric(&t, "goita_database_up", "gauge", "1 while the database answers (what /healthz says), else 0.",
         !health->db_down);
  if (bus) {
    metric(&t, "goita_bus_connected", "gauge", "1 while the message bus between the servers is connected, else 0.",
           srv_bus_connected(bus));
    metric(&t, "goita_bus_errors_total", "counter",
           "Messages the bus could not take and connections to it lost.", srv_bus_errors(bus));
    metric(&t, "goita_remote_clients", "gauge",
           "Clients of other servers at this server's tables, through the bus.", st.remote_clients);
  }
  metric(&t, "goita_think_workers", "gauge", "Threads thinking for the computer players.", bots->workers);
  metric(&t, "goita_think_jobs_total", "counter", "Computer players' moves begun.", bots->jobs);
  metric(&t, "goita_think_shrunk_total", "counter",
         "Of them, thought on less than the level's budget because others waited.", bots->shrunk);
  metric(&t, "goita_think_cheapest_total", "counter",
         "Of them, answered by the rules level because so many waited.", bots->cheapest);
  add(&t, "# HELP goita_think_wait_seconds_max The longest a computer player's move waited to be begun.\n"
          "# TYPE goita_think_wait_seconds_max gauge\ngoita_think_wait_seconds_max %.3f\n",
      bots->max_wait_ms / 1000);
  add(&t, "# HELP goita_think_ahead_budgets_max The most work begun while one move waited, in full thinking "
          "budgets per thread (at most 1).\n# TYPE goita_think_ahead_budgets_max gauge\n"
          "goita_think_ahead_budgets_max %.4f\n",
      bots->max_ahead);
  add(&t, "# HELP goita_move_seconds From a person's move arriving to its state being sent to the table.\n"
          "# TYPE goita_move_seconds histogram\n");
  long long cumulative = 0;
  for (int i = 0; i < SRV_MOVE_BUCKETS - 1; i++) {
    cumulative += m->buckets[i];
    add(&t, "goita_move_seconds_bucket{le=\"%g\"} %lld\n", bounds[i], cumulative);
  }
  add(&t, "goita_move_seconds_bucket{le=\"+Inf\"} %lld\ngoita_move_seconds_sum %.6f\ngoita_move_seconds_count %lld\n",
      m->count, m->sum, m->count);
  if (t.failed) {
    free(t.buf);
    return NULL;
  }
  return t.buf;
}

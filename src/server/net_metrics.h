/* What a server tells its operators on /metrics (Prometheus text format: tables, connections,
 * moves, the time a move takes from its arrival to its broadcast, store failures). */
#ifndef GOITA_SERVER_NET_METRICS_H
#define GOITA_SERVER_NET_METRICS_H

#include "bots.h"
#include "bus.h"
#include "hub.h"
#include "net_health.h"
#include "store.h"

#define SRV_MOVE_BUCKETS 10

/* The histogram of move times, in seconds. */
typedef struct srv_metrics {
  long long buckets[SRV_MOVE_BUCKETS]; /* moves at most srv_move_bucket_bounds[i], not cumulative */
  long long count;
  double sum;
} srv_metrics;

/* Counts one move that took `seconds` from its arrival to its broadcast. */
void srv_metrics_move(srv_metrics *m, double seconds);
/* The /metrics page (malloc'd, NULL when out of memory); bus is NULL for a server without one. */
/* writer_failures: the failed calls of the store thread's own connection (store_async.h). */
char *srv_metrics_text(const srv_metrics *m, const srv_hub *hub, const srv_store *store, long long writer_failures,
                       const srv_health *health, const srv_bus *bus, const srv_bots_stats *bots);

#endif

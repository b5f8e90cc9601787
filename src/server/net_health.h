/* What /healthz says: whether the database answers now and whether the message bus is
 * connected, each with the time it changed, and the operators' log line (log.h) at each change.
 *
 * The database is judged by a cheap read of its own (srv_health_db_check), not by the result of
 * the last call: a write refused on its merits (another server owns the table now, a full SQLite
 * file) says nothing about whether the database answers, and a database that went away while no
 * call was made is found all the same. Times come in as arguments (monotonic ms for intervals,
 * wall-clock ms for what is shown), so nothing here reads a clock. */
#ifndef GOITA_SERVER_NET_HEALTH_H
#define GOITA_SERVER_NET_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* The database is read every this long while it answers, and while it does not after
 * SRV_HEALTH_RETRY_MS, then twice as long after each failed read up to SRV_HEALTH_RETRY_MAX_MS:
 * a read of a database host that does not answer holds the event loop until libpq's connect
 * timeout (5 s), so reads must not follow each other. A failed call of the server's own is
 * looked at at once, and one that succeeds says the database is back without a read. */
#define SRV_HEALTH_CHECK_MS 2000
#define SRV_HEALTH_RETRY_MS 1000
#define SRV_HEALTH_RETRY_MAX_MS 8000

typedef struct srv_health {
  bool db_down;
  char db_error[256];   /* why, while it is down */
  int64_t db_since;     /* wall-clock ms of the last change (down or back) */
  int64_t db_checked;   /* monotonic ms of the last read */
  int64_t db_retry;     /* while down: the wait before the next read */
  long long db_failures; /* srv_store_failures after the last look */
  bool has_bus;
  bool bus_up, bus_seen; /* connected now; has been connected once */
  char bus_error[256];
  int64_t bus_since;    /* wall-clock ms of the last change */
} srv_health;

/* A server that starts now (wall-clock ms), its database answering (it was just opened), with or
 * without a bus (not connected yet). */
void srv_health_init(srv_health *h, bool has_bus, int64_t wall_ms);
/* Looks at the database: reads it when one of the server's calls failed since the last look, or
 * when the last read is older than the interval above; a call that succeeded after a failed read
 * says it is back without another. Logs "database down: ..." and "database back after N s" at
 * each change. */
void srv_health_db_check(srv_health *h, srv_store *store, int64_t now_ms, int64_t wall_ms);
/* A call of the store thread's (store_async.h), on its own connection, came back: answered
 * (saved, or refused by fencing) says the database is back at once; failed has the database
 * read at the next look. */
void srv_health_db_writer(srv_health *h, bool answered, int64_t wall_ms);
/* The bus connected (up) or lost, with the bus's reason; logs the change. */
void srv_health_bus(srv_health *h, bool up, const char *why, int64_t wall_ms);
/* The /healthz page (malloc'd, NULL when out of memory) and its HTTP status: 200 while the
 * database answers, else 503, with a first line "ok" or "database down since UTC: REASON". With
 * a bus, a second line "bus: connected since UTC" or "bus: unreachable since UTC: REASON"; the
 * bus does not change the status, since a server without it still serves its own tables. */
char *srv_health_text(const srv_health *h, unsigned *status);

#endif

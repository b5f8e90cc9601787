/* The message bus between the servers sharing one PostgreSQL database (docs/SERVER.md "Several
 * servers"): NATS, through its C client (bus_nats.c). The network layer owns it; the hub never
 * sees it, only its hub.h callbacks (publish) and entry points (srv_hub_bus_message,
 * srv_hub_bus_state), so the hub's tests join hubs through a bus of their own in memory.
 *
 * The client's callbacks run on its own threads: each message, and each change of the
 * connection, waits in a locked queue, and wake(ctx) is called so that the event loop takes
 * them with srv_bus_next on its own thread (as bots.c hands back its answers). */
#ifndef GOITA_SERVER_BUS_H
#define GOITA_SERVER_BUS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct srv_bus srv_bus;

typedef enum srv_bus_event_kind {
  SRV_BUS_MESSAGE = 1, /* a message on a subject this server listens to */
  SRV_BUS_UP = 2,      /* connected, or connected again after an outage */
  SRV_BUS_DOWN = 3,    /* the connection was lost: the client tries again by itself */
} srv_bus_event_kind;

typedef struct srv_bus_event {
  int kind;      /* srv_bus_event_kind */
  char *subject; /* SRV_BUS_MESSAGE: the subject and the data (zero-terminated), malloc'd, */
  char *data;    /* freed with srv_bus_event_free */
  size_t len;
} srv_bus_event;

/* Whether url names a NATS server the way --bus takes it: nats://HOST:PORT. */
bool srv_bus_url_valid(const char *url);

/* Connects to the NATS server at url and listens to the given subjects. The client keeps trying
 * when the server is not there yet or goes away, so this fails only on a bad URL or option.
 * Returns 0, or -1 with the reason in err. */
int srv_bus_open(srv_bus **bus, const char *url, const char *name, const char *const *subjects, int nsubjects,
                 void (*wake)(void *ctx), void *ctx, char *err, size_t errsize);
/* Publishes data on a subject. Returns 0, or -1 with the reason (srv_bus_error) when the bus is
 * not connected now: nothing is queued for later. */
int srv_bus_publish(srv_bus *bus, const char *subject, const char *data, size_t len);
/* Takes the next event waiting for the event loop; false when none is waiting. */
bool srv_bus_next(srv_bus *bus, srv_bus_event *event);
void srv_bus_event_free(srv_bus_event *event);
/* Whether the connection is up now. */
bool srv_bus_connected(const srv_bus *bus);
/* Failed publishes and lost connections since the bus was opened (for /metrics). */
long long srv_bus_errors(const srv_bus *bus);
/* The bus's address as messages and logs show it: nats://HOST:PORT, without a user or password
 * that --bus may hold. */
const char *srv_bus_address(const srv_bus *bus);
/* Why the bus is not connected, or the last failure (for /healthz and error replies). */
const char *srv_bus_error(const srv_bus *bus);
/* Closes the connection and frees what is left in the queue. */
void srv_bus_close(srv_bus *bus);

#endif

/* Several servers over the bus (hub_bus.c): the peers and the messages between servers. Which
 * server serves a request is the routing seam's (hub_route.h). */
#ifndef GOITA_SERVER_HUB_BUS_H
#define GOITA_SERVER_HUB_BUS_H

#include "hub_state.h"

/* Publishes a message (consumed) on the lobby's subject (node NULL) or to one server. */
int hub_bus_publish(srv_hub *h, const char *node, json_t *msg);

/* Whether this hub talks to other servers over a bus. */
bool hub_bus_on(const srv_hub *h);

/* Says this server is alive, notices servers that are not, and sends clients at a table that
 * moved to another server (a takeover) there. */
void hub_bus_tick(srv_hub *h, int64_t now);

void hub_bus_free(srv_hub *h);

/* The ids of remote clients (of another server, reached over the bus) have their top bit set;
 * the network layer's never do. */
#define HUB_REMOTE_ID_BIT (UINT64_C(1) << 63)
/* Sends text to a client of another server, over the bus. */
void hub_bus_send(srv_hub *h, uint64_t client, const char *text, size_t len);

/* How long a server not heard from is still called alive: a lease's worth (by then its tables
 * are being taken over). */
int64_t hub_bus_dead_after_ms(const srv_hub *h);
/* Whether a server answers on the bus: heard lately, or never heard of (a new one). */
bool hub_bus_peer_alive(srv_hub *h, const char *node);
/* The server that keeps the quick-match queue of all of them (this one, or another). */
const char *hub_bus_matchmaker(const srv_hub *h);

#endif

/* Several servers over the bus (hub_bus.c): the peers, the messages between servers, and the
 * routing seam that sends a request to the server that owns its table. */
#ifndef GOITA_SERVER_HUB_BUS_H
#define GOITA_SERVER_HUB_BUS_H

#include "hub_state.h"

/* Publishes a message (consumed) on the lobby's subject (node NULL) or to one server. */
int hub_bus_publish(srv_hub *h, const char *node, json_t *msg);

/* Whether this hub talks to other servers over a bus. */
bool hub_bus_on(const srv_hub *h);

/* Forwards a request naming a table of another server to it; returns whether it was (or was
 * refused with an error), false when it is this server's to handle. */
bool hub_route_elsewhere(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len);

/* A table of another server this one has taken over: this server's clients at it get their
 * seats (or their places as spectators) here. */
void hub_bus_table_here(srv_hub *h, const hub_table *t);

/* A client connected here has gone: the server its table is at is told. */
void hub_bus_client_gone(srv_hub *h, const hub_client *c);

/* Says this server is alive, notices servers that are not, and sends clients at a table that
 * moved to another server (a takeover) there. */
void hub_bus_tick(srv_hub *h, int64_t now);

void hub_bus_free(srv_hub *h);

/* The ids of remote clients (of another server, reached over the bus) have their top bit set;
 * the network layer's never do. */
#define HUB_REMOTE_ID_BIT (UINT64_C(1) << 63)
/* Sends text to a client of another server, over the bus. */
void hub_bus_send(srv_hub *h, uint64_t client, const char *text, size_t len);

#endif

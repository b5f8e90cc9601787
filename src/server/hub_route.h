/* The routing seam (hub_route.c): a request goes to the server that owns its table, by the
 * ROUTE column of the request table (requests.h); this server's clients at other servers'
 * tables follow their tables. */
#ifndef GOITA_SERVER_HUB_ROUTE_H
#define GOITA_SERVER_HUB_ROUTE_H

#include "hub_state.h"

/* Sends a request that another server serves there; returns whether it was (or was refused
 * with an error), false when it is this server's to handle. */
bool hub_route_elsewhere(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len);

/* A table of another server this one has taken over: this server's clients at it get their
 * seats (or their places as spectators) here. */
void hub_route_table_here(srv_hub *h, const hub_table *t);
/* The same for a table by number (a Ko shogi table's). */
void hub_route_table_id_here(srv_hub *h, int64_t table);

/* A client connected here has gone: the server its table is at is told. */
void hub_route_client_gone(srv_hub *h, const hub_client *c);

/* Looks up where the table of each client here at another server's table is now, and sends it
 * there again: those at server `all` (heard again after the bus was away), or those whose server
 * is dead (all NULL). */
void hub_route_rehome(srv_hub *h, const char *all);

/* Tells each client whose request another server has not answered in time that it was not. */
void hub_route_unanswered(srv_hub *h, int64_t now);

/* Tells a server (that of the client's table when node is NULL) that the client is gone from
 * there. */
void hub_route_close(srv_hub *h, const hub_client *c, const char *node);

/* Clears where a client's table requests go, wiping its seat token. */
void hub_route_via_clear(hub_client *c);

#endif

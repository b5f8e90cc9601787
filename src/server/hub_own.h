/* Ownership of tables among several servers (hub_own.c): fencing, leases, tables lost to another
 * server. */
#ifndef GOITA_SERVER_HUB_OWN_H
#define GOITA_SERVER_HUB_OWN_H

#include "hub_state.h"

/* Several servers (hub_own.c). Passes a store call's status on, first marking the table lost
 * when the call was refused by fencing (SRV_STORE_FENCED): another server owns it now. */
int hub_owned(srv_hub *h, hub_table *t, int status);

/* Tells a client at a table this server lost where it is served now (node, "" for unknown). */
void hub_send_moved(srv_hub *h, uint64_t client, int64_t table, const char *node);

/* The server a table is served by now, as the database says, into node: "" when none is known
 * or it is this server again (a table it lost and took back is reloaded here). */
void hub_owner_now(srv_hub *h, int64_t table, char node[SRV_NODE_SIZE]);

/* Marks a table lost (logged once, with why). */
void hub_table_lost(srv_hub *h, hub_table *t, const char *why);

/* Lets every lost table go (Goita's and Ko shogi's): its clients are told it moved ("moved",
 * docs/PROTOCOL.md) and leave it, its computer players' answers are dropped, and it leaves this
 * server's lobby. */
void hub_drop_lost(srv_hub *h);

/* Several servers: every options.lease_renew_ms, renews this server's lease on its tables,
 * lets go those another server owns now, and takes over those of servers whose lease ran out
 * (hub_own.c). */
void hub_lease_tick(srv_hub *h, int64_t now);

#endif

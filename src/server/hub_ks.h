/* Ko shogi tables in the hub (hub_ks.c, docs/SERVER.md "Ko shogi"): the lobby's rows, the
 * clock's flag decided on the hub's tick, the computer's turns, finished games saved. Its
 * request handlers are in hub_requests.h. */
#ifndef GOITA_SERVER_HUB_KS_H
#define GOITA_SERVER_HUB_KS_H

#include "hub_state.h"

/* Ko shogi tables are numbered from here up, apart from Goita's (whose numbers the database
 * gives, far below), so that a client keeps both kinds in one list by number. */
#define SRV_KS_TABLE_BASE (INT64_C(1) << 40)

void hub_ks_free(srv_hub *h);
/* Brings back at start every Ko shogi table the store keeps (docs/KOSHOGI.md "Online"): its
 * seats, its moves replayed by the rules, the clocks resumed with the side to move's turn
 * starting now. Returns 0, or -1 with the reason in err (a move that does not replay). */
int hub_ks_restore(srv_hub *h, char *err, size_t errsize);
/* Runs what is due at the Ko shogi tables: flags that fell, computer moves asked again, games
 * saved again, tables expired or let go, and the lobby's events for them. */
void hub_ks_tick(srv_hub *h, int64_t now);
/* A client disconnected: it watches nothing any more (a seat is the player's, not the
 * connection's: the player comes back by watching the table). */
void hub_ks_client_gone(srv_hub *h, const hub_client *c);
/* The listed Ko shogi tables as the lobby shows them (a new array; NULL when out of memory). */
json_t *hub_ks_lobby_rows(srv_hub *h);

/* Several servers (docs/SERVER.md "Ko shogi tables"): whether this server holds a Ko shogi table,
 * or one with this invite code (else the routing seam looks for its owner). */
bool hub_ks_holds(srv_hub *h, int64_t table);
bool hub_ks_invite_here(srv_hub *h, const char *invite);
/* The Ko shogi part of a lease renewal (hub_own.c): ids and epochs are the Ko shogi tables this
 * server owns, in id order. A table held in no epoch or another is lost; one owned and not held
 * is taken over from the database, its clock resumed as at a restart (the outage is nobody's). */
void hub_ks_reconcile(srv_hub *h, const int64_t *ids, const int64_t *epochs, int n);
/* Lets every lost Ko shogi table go: everyone at it is told it moved, it leaves the lobby. */
void hub_ks_drop_lost(srv_hub *h);

#endif

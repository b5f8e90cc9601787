/* What clients at a table are sent (hub_view.c): a seat's or a spectator's state, built from
 * views only. */
#ifndef GOITA_SERVER_HUB_VIEW_H
#define GOITA_SERVER_HUB_VIEW_H

#include "hub_state.h"

/* Sends one client the table as it may see it: a seat's view, or the observer's. */
void hub_send_state(srv_hub *h, const hub_table *t, uint64_t client, int seat);

void hub_broadcast_state(srv_hub *h, const hub_table *t);

#endif

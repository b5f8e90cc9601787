/* The quick-match queue (hub_quick.c). */
#ifndef GOITA_SERVER_HUB_QUICK_H
#define GOITA_SERVER_HUB_QUICK_H

#include "hub_state.h"

/* Takes a client's place out of the queue (a cancel, a disconnect); returns whether it had one. */
bool hub_quick_forget(srv_hub *h, uint64_t client);

/* Seats those whose wait is over, with computer players in the seats no one waited for. */
void hub_quick_tick(srv_hub *h);

void hub_quick_free(srv_hub *h);

#endif

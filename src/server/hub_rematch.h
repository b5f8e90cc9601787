/* Rematches (hub_rematch.c). */
#ifndef GOITA_SERVER_HUB_REMATCH_H
#define GOITA_SERVER_HUB_REMATCH_H

#include "hub_state.h"

/* Makes the rematches whose wait is over. */
void hub_rematch_tick(srv_hub *h);

#endif

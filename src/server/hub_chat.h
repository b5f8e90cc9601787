/* Table chat (hub_chat.c). */
#ifndef GOITA_SERVER_HUB_CHAT_H
#define GOITA_SERVER_HUB_CHAT_H

#include "hub_state.h"

/* Sends a client that has just come to a table the lines said there before it came. */
void hub_chat_history(srv_hub *h, const hub_table *t, uint64_t client);

void hub_chat_free(hub_table *t);

#endif

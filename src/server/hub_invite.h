/* Private tables (hub_invite.c): who may see and sit at a table. */
#ifndef GOITA_SERVER_HUB_INVITE_H
#define GOITA_SERVER_HUB_INVITE_H

#include "hub_state.h"

/* Whether the lobby lists a table: one not over and not private. The one place that decides,
 * for the whole list and its changes alike. */
bool hub_table_listed(const hub_table *t);

/* Whether a client may watch a table or sit at it by its number: a listed table, or a private
 * one it gave the invite code of or holds a seat at. */
bool hub_table_open_to(const hub_table *t, const hub_client *c);

#endif

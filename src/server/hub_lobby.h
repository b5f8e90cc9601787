/* The lobby (hub_lobby.c): the table list's events, and other servers' listed tables. */
#ifndef GOITA_SERVER_HUB_LOBBY_H
#define GOITA_SERVER_HUB_LOBBY_H

#include "hub_state.h"

/* Notes that a table's lobby row changed (created, seats, status, watchers, over): listeners
 * get one "lobby" event for it at the next tick. */
void hub_lobby_touch(srv_hub *h, hub_table *t);

/* Sends every lobby listener of this server, and over the bus the other servers', an event
 * ("created", "changed", "removed") of a row the lobby shows (consumed): a Ko shogi table's
 * (hub_ks.c). */
void hub_lobby_event(srv_hub *h, const char *event, json_t *row);

/* Sends listeners the events of the tables touched since the last tick. */
void hub_lobby_flush(srv_hub *h);

/* Several servers: a lobby event of another server's table (created, changed or removed),
 * kept and passed on to this server's listeners. */
void hub_lobby_remote(srv_hub *h, const char *node, const char *event, json_t *row);

/* The rows of another server's listed tables: with first, its rows so far are marked stale;
 * with last, those still stale are removed. */
void hub_lobby_remote_rows(srv_hub *h, const char *node, json_t *rows, bool first, bool last);

/* Publishes every listed table of this server's: to one server (node), or to all (NULL). */
void hub_lobby_publish_all(srv_hub *h, const char *node);

/* A table of another server this one now holds: its remote row goes. */
void hub_lobby_remote_forget(srv_hub *h, int64_t table);

void hub_lobby_remote_free(srv_hub *h);

#endif

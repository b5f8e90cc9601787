/* Players (hub_players.c): guests' rows, names, and the password guards. */
#ifndef GOITA_SERVER_HUB_PLAYERS_H
#define GOITA_SERVER_HUB_PLAYERS_H

#include "hub_state.h"

/* Drops the login guards whose tries are forgotten (hub_players.c); all of them at the end (all). */
void hub_login_guards_prune(srv_hub *h, bool all);
/* Stores every account whose key is not its name's key (names.h) under that key: accounts
 * claimed before names had keys, or after ICU's confusables changed. Run at start. */
void hub_accounts_rekey(srv_hub *h);
/* Makes the hub's table of wrong passwords per address (options.login_addresses places). */
int hub_login_throttle_new(srv_hub *h);

/* Makes sure the client has a player row, creating a guest's on its first action that needs one
 * (and telling it with a `player` message). Returns false after sending the request an error. */
bool hub_client_player(srv_hub *h, hub_client *c, const char *request);

/* Copies a name without the spaces around it. */
void hub_trim_name(const char *name, char out[SRV_NAME_SIZE]);

/* Checks a name a person asks for (self: the player asking, 0 for none): not a computer's, not
 * claimed by another player. Returns false after sending the request an error. */
bool hub_name_allowed(srv_hub *h, hub_client *c, const char *request, const char *name, int64_t self);

/* A player as clients see it: {"id","name","rating","deviation","games","registered"}, with
 * "bot" (a computer's level) or "bot_account": true (a program's account) when so. */
json_t *hub_player_json(const srv_player *p);

/* Answers a leaderboard request (type: its name, and its answer's type) with the rows read(store,
 * rows, max, count) gives: {"type":TYPE,"players":[...]} of at most 50; storage_failed when the
 * store cannot be read. */
void hub_send_leaderboard(srv_hub *h, hub_client *c, const char *type,
                          int (*read)(srv_store *store, srv_player *rows, int max, int *count));

/* Answers a rating history request (type: its name, and its answer's type) for r->player with the
 * rows read(store, player, rows, max, count) gives: {"type":TYPE,"player":{...},"games":[...]} of at
 * most 20, newest first; player_unknown for no such player, storage_failed when the store cannot be
 * read. */
void hub_send_history(srv_hub *h, hub_client *c, const srv_request *r, const char *type,
                      int (*read)(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count));

/* Sends a client its player as stored now: {"type":"player","player":{...}}. */
void hub_send_player(srv_hub *h, uint64_t client, int64_t player);

/* Names a computer's seat "Computer N · level" (N counted from 1), so seats of one level differ. */
void hub_bot_seat_name(hub_seat *s, int seat);

#endif

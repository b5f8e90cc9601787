/* Per-player limits (hub_limits.c): request buckets and open tables per player. */
#ifndef GOITA_SERVER_HUB_LIMITS_H
#define GOITA_SERVER_HUB_LIMITS_H

#include "hub_state.h"

/* The entry of a player (or of a guest's bucket, hub_limits.c), made when missing; NULL for 0 or
 * when out of memory. */
hub_player *hub_player_get(srv_hub *h, int64_t player);

/* Takes one request from the sender's bucket; false (with the error sent) when it is empty. */
bool hub_rate_take(srv_hub *h, hub_client *c, const char *request);

/* A guest got its player row: the bucket it drew from as a guest becomes the player's, so
 * becoming a player does not refill it. */
void hub_rate_adopt(srv_hub *h, const char guest[SRV_TOKEN_HASH_SIZE], int64_t player);

/* Whether a player may own one more open table (max_tables_per_player); 0 (no owner) always may. */
bool hub_table_room(srv_hub *h, int64_t player);

/* Counts a table as open for its owner, or no longer (once it is over). */
void hub_count_open(srv_hub *h, hub_table *t, int delta);

/* Drops entries of players with nothing open and a full bucket (every minute). */
void hub_players_prune(srv_hub *h);

#endif

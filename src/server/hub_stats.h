/* Career statistics (hub_stats.c, docs/SERVER.md "Career statistics"): each saved game sent to
 * be analysed, its statistics saved when they come back, and a player's sent on request. */
#ifndef GOITA_SERVER_HUB_STATS_H
#define GOITA_SERVER_HUB_STATS_H

#include "hub_state.h"

/* Sends the game just saved as game (its id set) at table t to be analysed (io.analyse); does
 * nothing without io.analyse, for an abandoned game, or when memory runs out (the game then
 * has no statistics). */
void hub_stats_analyse(srv_hub *h, const hub_table *t, const srv_game_row *game);

#endif

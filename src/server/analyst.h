/* The analysis thread: finished games analysed for the career statistics (game_stats.h), one
 * at a time, on a thread of its own with its own exact solver, so that neither the event loop
 * nor the computer players' workers wait for it. Its results come back to the event loop as a
 * computer player's move does: wake(ctx) from the thread, then srv_analyst_collect on the loop,
 * which hands each to srv_hub_game_analysed. */
#ifndef GOITA_SERVER_ANALYST_H
#define GOITA_SERVER_ANALYST_H

#include <stdbool.h>

#include "game_stats.h"

typedef struct srv_analyst srv_analyst;

/* Starts the thread, whose solver searches each position on at most max_nodes nodes. Returns 0,
 * or -1 (no memory for the solver, no thread). */
int srv_analyst_start(srv_analyst **analyst, uint64_t max_nodes, void (*wake)(void *ctx), void *ctx);
/* Queues a game (its rounds go with it: freed also when this fails). Returns 0, or -1 when
 * memory runs out or 256 games already wait (the game is not analysed). The thread runs at
 * niceness 10, below the computer players'. */
int srv_analyst_submit(srv_analyst *analyst, const srv_game_job *job);
/* Takes one game's statistics; returns whether there was one. */
bool srv_analyst_collect(srv_analyst *analyst, srv_game_stats *out);
/* Stops the thread (games not analysed yet are dropped) and frees everything. */
void srv_analyst_stop(srv_analyst *analyst);

#endif

/* The store thread: the moves and finished games the hub saves are written there, on a connection of its own
 * (srv_store_open_again), so the event loop never waits for a database round trip per move.
 * The thread takes every move queued while it wrote the last ones and saves them in one
 * transaction (srv_store_moves_add): one commit and one flush of the database for the moves of
 * many tables (group commit); a finished game is saved in a transaction of its own, after the
 * moves queued before it. Each outcome comes back to the event loop as a computer player's
 * move does: wake(ctx) from the thread, then srv_store_async_collect on the loop, which hands
 * each to srv_hub_move_saved (srv_hub_game_saved). */
#ifndef GOITA_SERVER_STORE_ASYNC_H
#define GOITA_SERVER_STORE_ASYNC_H

#include "store.h"

typedef struct srv_store_async srv_store_async;

/* Starts the thread on `writer` (which it owns from now on, and closes when stopped); wake(ctx)
 * is called from the thread after each batch is saved. Returns 0, or -1 (out of memory, no
 * thread) with writer still the caller's. */
int srv_store_async_start(srv_store_async **async, srv_store *writer, void (*wake)(void *ctx), void *ctx);
/* Queues a move (copied). Returns 0, or -1 when memory runs out (nothing is queued). */
int srv_store_async_submit(srv_store_async *async, const srv_move_write *move);
/* Queues a game (copied; its texts are the queue's from now on, and go with its outcome).
 * Returns 0, or -1 when memory runs out (nothing is queued, the texts are still the caller's). */
int srv_store_async_submit_game(srv_store_async *async, const srv_game_write *game);
/* Queues a finished Ko shogi game (copied; its record the queue's from now on). Returns 0, or
 * -1 when memory runs out (nothing is queued, the record still the caller's). */
int srv_store_async_submit_ks_game(srv_store_async *async, const srv_ks_game_write *game);
/* Takes one saved Ko shogi game with its outcome (its record the caller's to free). */
bool srv_store_async_collect_ks_game(srv_store_async *async, srv_ks_game_write *out);
/* Takes up to max saved moves with their outcomes, in the order they were queued; returns how
 * many. */
int srv_store_async_collect(srv_store_async *async, srv_move_write *out, int max);
/* Takes one saved game with its outcome (its texts the caller's to free); returns whether
 * there was one. */
bool srv_store_async_collect_game(srv_store_async *async, srv_game_write *out);
/* The writer's failed calls (for /metrics). */
long long srv_store_async_failures(srv_store_async *async);
/* Saves what is queued, stops the thread, closes the writer and frees everything; outcomes
 * not collected are dropped (with their games' texts). */
void srv_store_async_stop(srv_store_async *async);

#endif

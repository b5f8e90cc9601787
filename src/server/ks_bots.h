/* The computer at Ko shogi tables for the network layer: one worker thread with a searcher of
 * its own takes the hub's think jobs (hub.h srv_ks_think_job) in order, chooses a move at the
 * job's level (ks_levels.h: a node budget, so the same on a busy server as on an idle one) and
 * hands it back to the event loop, which alone touches the tables. Apart from Goita's workers
 * (bots.h), whose jobs are views of a seat and whose budgets shrink under load. */
#ifndef GOITA_SERVER_KS_BOTS_H
#define GOITA_SERVER_KS_BOTS_H

#include "hub.h"

typedef struct srv_ks_bots srv_ks_bots;

typedef struct srv_ks_answer {
  int64_t table;
  int version;
  char move[64]; /* in notation; "" when no move was found (the hub asks again later) */
} srv_ks_answer;

/* Starts the worker; wake(ctx) is called from it after each answer. Returns 0, or -1. */
int srv_ks_bots_start(srv_ks_bots **bots, void (*wake)(void *ctx), void *ctx);
/* Queues a job (copied; its record is the queue's from now on, also when it returns -1).
 * Returns 0, or -1 when memory runs out. */
int srv_ks_bots_submit(srv_ks_bots *bots, const srv_ks_think_job *job);
/* Takes up to max answers; returns how many. */
int srv_ks_bots_collect(srv_ks_bots *bots, srv_ks_answer *out, int max);
/* Stops the worker (jobs not started are dropped) and frees everything. */
void srv_ks_bots_stop(srv_ks_bots *bots);

#endif

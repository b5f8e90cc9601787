/* Computer players for the server: worker threads that take think jobs (a seat's view and a
 * level), choose a move, and hand it back to the event loop, which alone touches game state.
 * Passwords are hashed and checked (argon2id is too slow for the event loop) on a worker of
 * their own, so that they never hold a computer's move.
 *
 * Think jobs are scheduled so that no table's computer waits for the others' (docs/SERVER.md,
 * "Computer players under load"): a table has at most one job waiting (a newer one takes the
 * older one's place in line), tables are served in turn, and each job thinks on a budget that
 * shrinks with the number of jobs waiting behind it, so that all the work started ahead of a
 * job adds up to at most one full thinking budget per worker. */
#ifndef GOITA_SERVER_BOTS_H
#define GOITA_SERVER_BOTS_H

#include "hub.h"

typedef struct srv_bots srv_bots;

typedef struct srv_bot_answer {
  bool password; /* a password job's answer (in pw), else a computer player's move */
  int64_t table;
  int version;
  goita_move move;
  srv_password_answer pw;
} srv_bot_answer;

/* What the think workers have done since the start, for /metrics. */
typedef struct srv_bots_stats {
  int workers;
  long long jobs;       /* think jobs started */
  long long shrunk;     /* of them, thought on less than the level's full budget */
  long long cheapest;   /* of them, answered by the rules level (the budget fell below the level's least) */
  double max_wait_ms;   /* the longest a job waited to be started */
  /* The most work started by the pool while one job waited, in full thinking budgets per
   * worker (jobs already running when it came are not counted): the scheduler keeps it at most 1. */
  double max_ahead;
} srv_bots_stats;

/* Starts `threads` workers for computer players (0: one per core) and one for passwords;
 * wake(ctx) is called from a worker after each answer, to wake the event loop (which then
 * calls srv_bots_collect). */
int srv_bots_start(srv_bots **bots, int threads, void (*wake)(void *ctx), void *ctx);
/* Queues a job (copied). */
void srv_bots_submit(srv_bots *bots, const srv_think_job *job);
/* Queues a password job (copied; the copy's password is wiped once done). */
void srv_bots_submit_password(srv_bots *bots, const srv_password_job *job);
/* Takes up to max answers; returns how many. */
int srv_bots_collect(srv_bots *bots, srv_bot_answer *out, int max);
/* Reads the think workers' counts. */
void srv_bots_stats_get(srv_bots *bots, srv_bots_stats *out);
/* Stops the workers (jobs not started are dropped) and frees everything. */
void srv_bots_stop(srv_bots *bots);

/* The scheduler's parts, used by the workers and open to tests. */

/* The think jobs waiting: one per table at most, tables in the order they began to wait. */
typedef struct srv_think_waiting srv_think_waiting;
typedef struct srv_think_queue {
  srv_think_waiting *head, *tail;
  int waiting;         /* tables with a job waiting */
  double started_work; /* full budgets' worth of jobs started so far (each counts its scale) */
} srv_think_queue;

/* Queues a table's job: a table already waiting gets the newer job (the higher version) in
 * its place in line. Returns false when memory runs out (the job is dropped; the table's
 * timer asks again). */
bool srv_think_queue_push(srv_think_queue *q, const srv_think_job *job, int64_t now_ms);
/* Takes the job of the table that has waited longest, the budget scale it thinks on with
 * `workers` workers (srv_think_budget_scale of the jobs left waiting), when it began to wait,
 * and how much work (full budgets per worker) was started meanwhile. Returns false when none waits. */
bool srv_think_queue_pop(srv_think_queue *q, int workers, srv_think_job *job, double *scale, int64_t *since_ms,
                         double *ahead);
/* Drops every waiting job. */
void srv_think_queue_clear(srv_think_queue *q);
/* The share of its level's full budget a job thinks on when `behind` jobs wait after it,
 * with `workers` workers: 1 / (1 + behind / workers)^2. The jobs ahead of one that has
 * N waiting before it were started with at least 1, 2, ... N behind them, so their budgets
 * sum to less than the integral of workers / (workers + x)^2: one full budget per worker. */
double srv_think_budget_scale(int behind, int workers);
/* The parameter that sets a level's budget ("samples", deals sampled, or "ms", work), NULL
 * for a level that does not search. */
const char *srv_think_budget_param(const char *level);

#endif

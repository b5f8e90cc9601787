/* Computer players for the server: worker threads that take think jobs (a seat's view and a
 * level), choose a move, and hand it back to the event loop, which alone touches game state.
 * Passwords are hashed and checked (argon2id is too slow for the event loop) on a worker of
 * their own, so that they never hold a computer's move. */
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

/* Starts `threads` workers for computer players and one for passwords; wake(ctx) is called from a worker after each answer, to wake the
 * event loop (which then calls srv_bots_collect). */
int srv_bots_start(srv_bots **bots, int threads, void (*wake)(void *ctx), void *ctx);
/* Queues a job (copied). */
void srv_bots_submit(srv_bots *bots, const srv_think_job *job);
/* Queues a password job (copied; the copy's password is wiped once done). */
void srv_bots_submit_password(srv_bots *bots, const srv_password_job *job);
/* Takes up to max answers; returns how many. */
int srv_bots_collect(srv_bots *bots, srv_bot_answer *out, int max);
/* Stops the workers (jobs not started are dropped) and frees everything. */
void srv_bots_stop(srv_bots *bots);

#endif

/* The store thread (store_async.h): a queue of moves and one of games, each holding its items
 * from their submission to the collection of their outcomes, and one thread saving them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_async.h"

/* The most moves one transaction saves: a bound on the batch's memory and on how long the
 * first move of a long queue waits for the last. */
#define BATCH_MAX 512

struct srv_store_async {
  srv_store *writer;
  void (*wake)(void *ctx);
  void *ctx;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t queued; /* a move was queued, or the thread is to stop */
  /* Every move from its submission to its collection, oldest first: items[0, saved) are
   * saved (their outcomes wait to be collected), the next `writing` are being saved, the rest
   * wait. Only submit grows it, so the thread needs no memory of its own but its batch. */
  srv_move_write *items;
  int n, cap, saved, writing;
  srv_move_write *batch; /* BATCH_MAX moves: the thread's copy of those it saves */
  /* The games, as the moves: games[0, games_saved) saved, the next one being saved while the
   * thread is in save_game, the rest waiting. */
  srv_game_write *games;
  int ngames, capgames, games_saved;
  /* Finished Ko shogi games, as the games. */
  srv_ks_game_write *ks;
  int nks, capks, ks_saved;
  bool stopping;
  long long failures; /* a copy of the writer's count, read under the lock */
};

/* Saves the first game waiting, in a transaction of its own (the lock held on entry and exit). */
static void save_game(srv_store_async *a) {
  srv_game_write g = a->games[a->games_saved];
  pthread_mutex_unlock(&a->lock);
  g.status = g.abandoned ? srv_store_game_abandon(a->writer, &g.game, g.record_json, g.histories)
                         : srv_store_game_finish(a->writer, &g.game, g.record_json, g.histories);
  snprintf(g.error, sizeof g.error, "%s", g.status != 0 ? srv_store_error(a->writer) : "");
  pthread_mutex_lock(&a->lock);
  a->games[a->games_saved++] = g;
}

/* Saves the first Ko shogi game waiting (the lock held on entry and exit). */
static void save_ks_game(srv_store_async *a) {
  srv_ks_game_write g = a->ks[a->ks_saved];
  pthread_mutex_unlock(&a->lock);
  g.status = srv_store_ks_game_save(a->writer, &g.game, g.record);
  snprintf(g.error, sizeof g.error, "%s", g.status != 0 ? srv_store_error(a->writer) : "");
  pthread_mutex_lock(&a->lock);
  a->ks[a->ks_saved++] = g;
}

/* Whether nothing waits to be saved. */
static bool idle(const srv_store_async *a) {
  return a->saved == a->n && a->games_saved == a->ngames && a->ks_saved == a->nks;
}

/* Waits for moves or games, saves every move queued (up to BATCH_MAX) in one transaction, then
 * the games queued, each in its own, puts the outcomes in their places and wakes the loop;
 * until stopped with nothing left to save. */
static void *writer_main(void *arg) {
  srv_store_async *a = arg;
  pthread_mutex_lock(&a->lock);
  for (;;) {
    while (idle(a) && !a->stopping) pthread_cond_wait(&a->queued, &a->lock);
    if (idle(a)) break;
    /* a game is queued only once its table's last move is saved: games and moves need no order */
    while (a->games_saved < a->ngames) save_game(a);
    while (a->ks_saved < a->nks) save_ks_game(a);
    a->writing = a->n - a->saved < BATCH_MAX ? a->n - a->saved : BATCH_MAX;
    if (a->writing > 0) { /* (none when only games were queued) */
      memcpy(a->batch, &a->items[a->saved], (size_t)a->writing * sizeof *a->batch);
      pthread_mutex_unlock(&a->lock);
      srv_store_moves_add(a->writer, a->batch, a->writing);
      pthread_mutex_lock(&a->lock);
      memcpy(&a->items[a->saved], a->batch, (size_t)a->writing * sizeof *a->batch);
      a->saved += a->writing;
      a->writing = 0;
    }
    a->failures = srv_store_failures(a->writer);
    pthread_mutex_unlock(&a->lock);
    a->wake(a->ctx);
    pthread_mutex_lock(&a->lock);
  }
  pthread_mutex_unlock(&a->lock);
  return NULL;
}

int srv_store_async_start(srv_store_async **out, srv_store *writer, void (*wake)(void *ctx), void *ctx) {
  *out = NULL;
  srv_store_async *a = calloc(1, sizeof *a);
  if (!a) return -1;
  a->writer = writer;
  a->wake = wake;
  a->ctx = ctx;
  a->batch = malloc(BATCH_MAX * sizeof *a->batch);
  if (!a->batch) {
    free(a);
    return -1;
  }
  pthread_mutex_init(&a->lock, NULL);
  pthread_cond_init(&a->queued, NULL);
  if (pthread_create(&a->thread, NULL, writer_main, a) != 0) {
    pthread_cond_destroy(&a->queued);
    pthread_mutex_destroy(&a->lock);
    free(a->batch);
    free(a);
    return -1;
  }
  *out = a;
  return 0;
}

int srv_store_async_submit(srv_store_async *a, const srv_move_write *move) {
  pthread_mutex_lock(&a->lock);
  int status = 0;
  if (a->n == a->cap) {
    const int cap = a->cap ? 2 * a->cap : 64;
    srv_move_write *grown = realloc(a->items, (size_t)cap * sizeof *grown);
    if (grown) a->items = grown, a->cap = cap;
    else status = -1;
  }
  if (status == 0) {
    a->items[a->n++] = *move;
    pthread_cond_signal(&a->queued);
  }
  pthread_mutex_unlock(&a->lock);
  return status;
}

int srv_store_async_submit_game(srv_store_async *a, const srv_game_write *game) {
  pthread_mutex_lock(&a->lock);
  int status = 0;
  if (a->ngames == a->capgames) {
    const int cap = a->capgames ? 2 * a->capgames : 16;
    srv_game_write *grown = realloc(a->games, (size_t)cap * sizeof *grown);
    if (grown) a->games = grown, a->capgames = cap;
    else status = -1;
  }
  if (status == 0) {
    a->games[a->ngames++] = *game;
    pthread_cond_signal(&a->queued);
  }
  pthread_mutex_unlock(&a->lock);
  return status;
}

int srv_store_async_submit_ks_game(srv_store_async *a, const srv_ks_game_write *game) {
  pthread_mutex_lock(&a->lock);
  int status = 0;
  if (a->nks == a->capks) {
    const int cap = a->capks ? 2 * a->capks : 16;
    srv_ks_game_write *grown = realloc(a->ks, (size_t)cap * sizeof *grown);
    if (grown) a->ks = grown, a->capks = cap;
    else status = -1;
  }
  if (status == 0) {
    a->ks[a->nks++] = *game;
    pthread_cond_signal(&a->queued);
  }
  pthread_mutex_unlock(&a->lock);
  return status;
}

bool srv_store_async_collect_ks_game(srv_store_async *a, srv_ks_game_write *out) {
  pthread_mutex_lock(&a->lock);
  const bool any = a->ks_saved > 0;
  if (any) {
    *out = a->ks[0];
    memmove(a->ks, &a->ks[1], (size_t)(a->nks - 1) * sizeof *a->ks);
    a->nks--;
    a->ks_saved--;
  }
  pthread_mutex_unlock(&a->lock);
  return any;
}

bool srv_store_async_collect_game(srv_store_async *a, srv_game_write *out) {
  pthread_mutex_lock(&a->lock);
  const bool any = a->games_saved > 0;
  if (any) {
    *out = a->games[0];
    memmove(a->games, &a->games[1], (size_t)(a->ngames - 1) * sizeof *a->games);
    a->ngames--;
    a->games_saved--;
  }
  pthread_mutex_unlock(&a->lock);
  return any;
}

int srv_store_async_collect(srv_store_async *a, srv_move_write *out, int max) {
  pthread_mutex_lock(&a->lock);
  const int n = a->saved < max ? a->saved : max;
  if (n > 0) { /* (items is NULL before the first move) */
    memcpy(out, a->items, (size_t)n * sizeof *out);
    memmove(a->items, &a->items[n], (size_t)(a->n - n) * sizeof *a->items);
    a->n -= n;
    a->saved -= n;
  }
  pthread_mutex_unlock(&a->lock);
  return n;
}

long long srv_store_async_failures(srv_store_async *a) {
  pthread_mutex_lock(&a->lock);
  const long long failures = a->failures;
  pthread_mutex_unlock(&a->lock);
  return failures;
}

void srv_store_async_stop(srv_store_async *a) {
  if (!a) return;
  pthread_mutex_lock(&a->lock);
  a->stopping = true;
  pthread_cond_signal(&a->queued);
  pthread_mutex_unlock(&a->lock);
  pthread_join(a->thread, NULL);
  srv_store_close(a->writer);
  free(a->items);
  free(a->batch);
  for (int i = 0; i < a->ngames; i++) {
    free(a->games[i].record_json);
    free(a->games[i].histories);
  }
  free(a->games);
  for (int i = 0; i < a->nks; i++) free(a->ks[i].record);
  free(a->ks);
  pthread_cond_destroy(&a->queued);
  pthread_mutex_destroy(&a->lock);
  free(a);
}

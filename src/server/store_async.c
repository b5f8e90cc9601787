/* The store thread (store_async.h): a queue of moves to save, a queue of outcomes to collect,
 * one thread between them. */
#include <pthread.h>
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
  bool stopping;
  long long failures; /* a copy of the writer's count, read under the lock */
};

/* Waits for moves, saves every one queued (up to BATCH_MAX) in one transaction, puts the
 * outcomes in their places and wakes the loop; until stopped with nothing left to save. */
static void *writer_main(void *arg) {
  srv_store_async *a = arg;
  pthread_mutex_lock(&a->lock);
  for (;;) {
    while (a->saved == a->n && !a->stopping) pthread_cond_wait(&a->queued, &a->lock);
    if (a->saved == a->n) break;
    a->writing = a->n - a->saved < BATCH_MAX ? a->n - a->saved : BATCH_MAX;
    memcpy(a->batch, &a->items[a->saved], (size_t)a->writing * sizeof *a->batch);
    pthread_mutex_unlock(&a->lock);
    srv_store_moves_add(a->writer, a->batch, a->writing);
    pthread_mutex_lock(&a->lock);
    memcpy(&a->items[a->saved], a->batch, (size_t)a->writing * sizeof *a->batch);
    a->saved += a->writing;
    a->writing = 0;
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

int srv_store_async_collect(srv_store_async *a, srv_move_write *out, int max) {
  pthread_mutex_lock(&a->lock);
  const int n = a->saved < max ? a->saved : max;
  memcpy(out, a->items, (size_t)n * sizeof *out);
  memmove(a->items, &a->items[n], (size_t)(a->n - n) * sizeof *a->items);
  a->n -= n;
  a->saved -= n;
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
  pthread_cond_destroy(&a->queued);
  pthread_mutex_destroy(&a->lock);
  free(a);
}

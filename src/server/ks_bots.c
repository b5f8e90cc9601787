/* The Ko shogi computer's worker thread (ks_bots.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_bots.h"
#include "ks_levels.h"

/* The searcher's transposition table, in MiB. */
#define KS_HASH_MIB 16

typedef struct job_node {
  srv_ks_think_job job;
  struct job_node *next;
} job_node;

typedef struct answer_node {
  srv_ks_answer answer;
  struct answer_node *next;
} answer_node;

struct srv_ks_bots {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t queued;
  job_node *head, *tail;
  answer_node *answers, *last_answer;
  bool stopping;
  void (*wake)(void *ctx);
  void *ctx;
  ks_searcher *searcher;
};

static void *worker_main(void *arg) {
  srv_ks_bots *b = arg;
  pthread_mutex_lock(&b->lock);
  for (;;) {
    while (!b->head && !b->stopping) pthread_cond_wait(&b->queued, &b->lock);
    if (b->stopping) break;
    job_node *n = b->head;
    b->head = n->next;
    if (!b->head) b->tail = NULL;
    pthread_mutex_unlock(&b->lock);
    answer_node *a = calloc(1, sizeof *a);
    const srv_ks_level *level = srv_ks_level_find(n->job.level);
    if (a) {
      a->answer.table = n->job.table;
      a->answer.version = n->job.version;
      if (!level || srv_ks_think_record(b->searcher, n->job.record, level, a->answer.move) != 0) a->answer.move[0] = '\0';
    }
    free(n->job.record);
    free(n);
    pthread_mutex_lock(&b->lock);
    if (!a) continue; /* out of memory: the hub asks again after a while */
    if (b->last_answer)
      b->last_answer->next = a;
    else
      b->answers = a;
    b->last_answer = a;
    pthread_mutex_unlock(&b->lock);
    b->wake(b->ctx);
    pthread_mutex_lock(&b->lock);
  }
  pthread_mutex_unlock(&b->lock);
  return NULL;
}

int srv_ks_bots_start(srv_ks_bots **out, void (*wake)(void *ctx), void *ctx) {
  *out = NULL;
  srv_ks_bots *b = calloc(1, sizeof *b);
  if (!b) return -1;
  b->wake = wake;
  b->ctx = ctx;
  b->searcher = ks_searcher_new(KS_HASH_MIB);
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->queued, NULL);
  if (!b->searcher || pthread_create(&b->thread, NULL, worker_main, b) != 0) {
    ks_searcher_free(b->searcher);
    pthread_cond_destroy(&b->queued);
    pthread_mutex_destroy(&b->lock);
    free(b);
    return -1;
  }
  *out = b;
  return 0;
}

int srv_ks_bots_submit(srv_ks_bots *b, const srv_ks_think_job *job) {
  job_node *n = malloc(sizeof *n);
  if (!n) {
    free(job->record);
    return -1;
  }
  n->job = *job;
  n->next = NULL;
  pthread_mutex_lock(&b->lock);
  if (b->tail)
    b->tail->next = n;
  else
    b->head = n;
  b->tail = n;
  pthread_cond_signal(&b->queued);
  pthread_mutex_unlock(&b->lock);
  return 0;
}

int srv_ks_bots_collect(srv_ks_bots *b, srv_ks_answer *out, int max) {
  int n = 0;
  pthread_mutex_lock(&b->lock);
  while (b->answers && n < max) {
    answer_node *a = b->answers;
    b->answers = a->next;
    if (!b->answers) b->last_answer = NULL;
    out[n++] = a->answer;
    free(a);
  }
  pthread_mutex_unlock(&b->lock);
  return n;
}

void srv_ks_bots_stop(srv_ks_bots *b) {
  if (!b) return;
  pthread_mutex_lock(&b->lock);
  b->stopping = true;
  ks_searcher_set_stop(b->searcher, true); /* a search under way ends at once */
  pthread_cond_signal(&b->queued);
  pthread_mutex_unlock(&b->lock);
  pthread_join(b->thread, NULL);
  for (job_node *n = b->head; n;) {
    job_node *next = n->next;
    free(n->job.record);
    free(n);
    n = next;
  }
  for (answer_node *a = b->answers; a;) {
    answer_node *next = a->next;
    free(a);
    a = next;
  }
  ks_searcher_free(b->searcher);
  pthread_cond_destroy(&b->queued);
  pthread_mutex_destroy(&b->lock);
  free(b);
}

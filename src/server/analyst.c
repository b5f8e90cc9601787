/* The analysis thread (analyst.h): a list of games waiting, one of results, and one thread. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "analyst.h"

/* The solver's table: later positions of a round reuse what earlier ones proved. */
#define SOLVER_BYTES ((size_t)16 << 20)
/* The most games waiting: beyond it a finished game is not analysed (a burst of games, say a
 * load test, would otherwise hold their rounds in memory for as long as the thread lags). */
#define WAITING_MAX 256
/* The thread's niceness: statistics can wait, the computer players' threads cannot. */
#define ANALYST_NICE 10

typedef struct item {
  struct item *next;
  srv_game_job job;
  srv_game_stats stats;
} item;

struct srv_analyst {
  goita_solver *solver;
  uint64_t max_nodes;
  void (*wake)(void *ctx);
  void *ctx;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t queued; /* a game was queued, or the thread is to stop */
  item *waiting, *waiting_tail; /* oldest first */
  int nwaiting;
  item *done, *done_tail;
  bool stopping;
  atomic_bool cancel; /* set with stopping: the game being analysed is given up */
};

/* Appends it to a list. */
static void push(item **head, item **tail, item *it) {
  it->next = NULL;
  if (*tail) (*tail)->next = it;
  else *head = it;
  *tail = it;
}

/* Takes a list's first item, or NULL. */
static item *pop(item **head, item **tail) {
  item *it = *head;
  if (it) *head = it->next;
  if (!*head) *tail = NULL;
  return it;
}

/* Analyses the games in the order queued until stopped; a game given up has no statistics. */
static void *analyst_main(void *arg) {
  srv_analyst *a = arg;
  /* (Linux gives each thread its own niceness, and 0 names the calling thread; a failure
   * leaves it at the server's) */
  (void)setpriority(PRIO_PROCESS, 0, ANALYST_NICE);
  pthread_mutex_lock(&a->lock);
  for (;;) {
    while (!a->waiting && !a->stopping) pthread_cond_wait(&a->queued, &a->lock);
    if (a->stopping) break;
    item *it = pop(&a->waiting, &a->waiting_tail);
    a->nwaiting--;
    pthread_mutex_unlock(&a->lock);
    const int status = srv_game_analyse(&it->job, a->solver, a->max_nodes, &a->cancel, &it->stats);
    srv_game_job_free(&it->job);
    pthread_mutex_lock(&a->lock);
    if (status != 0) { /* (a record that does not replay: nothing is kept of it) */
      free(it);
      continue;
    }
    push(&a->done, &a->done_tail, it);
    pthread_mutex_unlock(&a->lock);
    a->wake(a->ctx);
    pthread_mutex_lock(&a->lock);
  }
  pthread_mutex_unlock(&a->lock);
  return NULL;
}

int srv_analyst_start(srv_analyst **out, uint64_t max_nodes, void (*wake)(void *ctx), void *ctx) {
  *out = NULL;
  srv_analyst *a = calloc(1, sizeof *a);
  if (!a) return -1;
  if (goita_solver_new(&a->solver, SOLVER_BYTES) != GOITA_OK) {
    free(a);
    return -1;
  }
  a->max_nodes = max_nodes;
  a->wake = wake;
  a->ctx = ctx;
  pthread_mutex_init(&a->lock, NULL);
  pthread_cond_init(&a->queued, NULL);
  if (pthread_create(&a->thread, NULL, analyst_main, a) != 0) {
    pthread_cond_destroy(&a->queued);
    pthread_mutex_destroy(&a->lock);
    goita_solver_free(a->solver);
    free(a);
    return -1;
  }
  *out = a;
  return 0;
}

int srv_analyst_submit(srv_analyst *a, const srv_game_job *job) {
  item *it = malloc(sizeof *it);
  if (!it) {
    srv_game_job copy = *job;
    srv_game_job_free(&copy);
    return -1;
  }
  it->job = *job;
  pthread_mutex_lock(&a->lock);
  if (a->nwaiting == WAITING_MAX) {
    pthread_mutex_unlock(&a->lock);
    srv_game_job_free(&it->job);
    free(it);
    return -1;
  }
  a->nwaiting++;
  push(&a->waiting, &a->waiting_tail, it);
  pthread_cond_signal(&a->queued);
  pthread_mutex_unlock(&a->lock);
  return 0;
}

bool srv_analyst_collect(srv_analyst *a, srv_game_stats *out) {
  pthread_mutex_lock(&a->lock);
  item *it = pop(&a->done, &a->done_tail);
  pthread_mutex_unlock(&a->lock);
  if (!it) return false;
  *out = it->stats;
  free(it);
  return true;
}

void srv_analyst_stop(srv_analyst *a) {
  if (!a) return;
  pthread_mutex_lock(&a->lock);
  a->stopping = true;
  atomic_store(&a->cancel, true);
  pthread_cond_signal(&a->queued);
  pthread_mutex_unlock(&a->lock);
  pthread_join(a->thread, NULL);
  for (item *it; (it = pop(&a->waiting, &a->waiting_tail));) {
    srv_game_job_free(&it->job);
    free(it);
  }
  for (item *it; (it = pop(&a->done, &a->done_tail));) free(it);
  goita_solver_free(a->solver);
  pthread_cond_destroy(&a->queued);
  pthread_mutex_destroy(&a->lock);
  free(a);
}

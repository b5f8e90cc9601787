/* Worker threads for computer players (bots.h). Each worker keeps one player per level, so
 * tables of the sampler and expert levels reuse their transposition tables. Password jobs have
 * their own queue and their own worker: 40 registrations at once (argon2id, about 0.1 s and
 * 64 MiB each) wait for each other there, and never in front of a table's computer move. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"

#define MAX_WORKERS 16
#define MAX_LEVELS 8
/* The password workers: one, so that hashing takes at most one core and one job's memory. */
#define PASSWORD_WORKERS 1

typedef struct job_node {
  bool password; /* a password job (in pw), else a think job */
  srv_think_job job;
  srv_password_job pw;
  struct job_node *next;
} job_node;

typedef struct answer_node {
  srv_bot_answer answer;
  struct answer_node *next;
} answer_node;

/* A queue of jobs and the condition its workers wait on. */
typedef struct job_queue {
  pthread_cond_t work;
  job_node *head, *tail;
} job_queue;

struct srv_bots {
  pthread_mutex_t lock;
  job_queue think, passwords;
  answer_node *answers, *answers_tail;
  bool stopping;
  void (*wake)(void *ctx);
  void *ctx;
  int nthreads;
  pthread_t threads[MAX_WORKERS + PASSWORD_WORKERS];
};

/* What a worker thread is given: its pool and its queue. */
typedef struct worker_arg {
  srv_bots *bots;
  job_queue *queue;
} worker_arg;

/* Queues an answer for the event loop and wakes it. */
static void hand_back(srv_bots *b, answer_node *answer) {
  answer->next = NULL;
  pthread_mutex_lock(&b->lock);
  if (b->answers_tail)
    b->answers_tail->next = answer;
  else
    b->answers = answer;
  b->answers_tail = answer;
  pthread_mutex_unlock(&b->lock);
  b->wake(b->ctx);
}

static void *worker(void *arg) {
  worker_arg *wa = arg;
  srv_bots *b = wa->bots;
  job_queue *q = wa->queue;
  free(wa);
  goita_player *players[MAX_LEVELS] = {0};
  const char *const *levels = goita_player_levels();
  for (;;) {
    pthread_mutex_lock(&b->lock);
    while (!q->head && !b->stopping) pthread_cond_wait(&q->work, &b->lock);
    if (b->stopping) {
      pthread_mutex_unlock(&b->lock);
      break;
    }
    job_node *node = q->head;
    q->head = node->next;
    if (!q->head) q->tail = NULL;
    pthread_mutex_unlock(&b->lock);

    answer_node *answer = malloc(sizeof *answer);
    if (node->password) {
      if (answer) {
        answer->answer = (srv_bot_answer){.password = true};
        srv_password_work(&node->pw, &answer->answer.pw);
      }
      srv_secret_wipe(node->pw.password, sizeof node->pw.password);
      free(node);
      if (answer) hand_back(b, answer);
      continue;
    }
    int level = 0;
    while (levels[level] && strcmp(levels[level], node->job.level) != 0) level++;
    goita_move move;
    bool chosen = false;
    if (levels[level] && level < MAX_LEVELS) {
      if (!players[level]) goita_player_new(&players[level], levels[level], NULL);
      if (players[level]) {
        goita_player_seed(players[level], node->job.seed);
        chosen = goita_player_choose(players[level], &node->job.view, &move, NULL) == GOITA_OK;
      }
    }
    if (answer && chosen) {
      answer->answer = (srv_bot_answer){.table = node->job.table, .version = node->job.version, .move = move};
      hand_back(b, answer);
    } else {
      free(answer); /* no move: the table's timer or the next tick asks again */
    }
    free(node);
  }
  for (int i = 0; i < MAX_LEVELS; i++) goita_player_free(players[i]);
  return NULL;
}

int srv_bots_start(srv_bots **out, int threads, void (*wake)(void *ctx), void *ctx) {
  *out = NULL;
  srv_bots *b = calloc(1, sizeof *b);
  if (!b) return -1;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->think.work, NULL);
  pthread_cond_init(&b->passwords.work, NULL);
  b->wake = wake;
  b->ctx = ctx;
  if (threads < 1) threads = 1;
  if (threads > MAX_WORKERS) threads = MAX_WORKERS;
  int think = 0, passwords = 0;
  for (int i = 0; i < threads + PASSWORD_WORKERS; i++) {
    job_queue *q = i < threads ? &b->think : &b->passwords;
    worker_arg *wa = malloc(sizeof *wa);
    if (!wa) break;
    *wa = (worker_arg){b, q};
    if (pthread_create(&b->threads[b->nthreads], NULL, worker, wa) != 0) {
      free(wa);
      break;
    }
    b->nthreads++;
    if (q == &b->think)
      think++;
    else
      passwords++;
  }
  if (think == 0 || passwords == 0) {
    srv_bots_stop(b);
    return -1;
  }
  *out = b;
  return 0;
}

/* Queues a job node for the workers of its queue. */
static void queue_job(srv_bots *b, job_queue *q, job_node *node) {
  node->next = NULL;
  pthread_mutex_lock(&b->lock);
  if (q->tail)
    q->tail->next = node;
  else
    q->head = node;
  q->tail = node;
  pthread_cond_signal(&q->work);
  pthread_mutex_unlock(&b->lock);
}

void srv_bots_submit(srv_bots *b, const srv_think_job *job) {
  job_node *node = malloc(sizeof *node);
  if (!node) return; /* the table's turn timer or the next tick asks again */
  node->password = false;
  node->job = *job;
  queue_job(b, &b->think, node);
}

void srv_bots_submit_password(srv_bots *b, const srv_password_job *job) {
  job_node *node = malloc(sizeof *node);
  if (!node) return; /* the request stays pending; the client may reconnect */
  node->password = true;
  node->pw = *job;
  queue_job(b, &b->passwords, node);
}

int srv_bots_collect(srv_bots *b, srv_bot_answer *out, int max) {
  int n = 0;
  pthread_mutex_lock(&b->lock);
  while (b->answers && n < max) {
    answer_node *a = b->answers;
    b->answers = a->next;
    out[n++] = a->answer;
    free(a);
  }
  if (!b->answers) b->answers_tail = NULL;
  pthread_mutex_unlock(&b->lock);
  return n;
}

void srv_bots_stop(srv_bots *b) {
  if (!b) return;
  pthread_mutex_lock(&b->lock);
  b->stopping = true;
  pthread_cond_broadcast(&b->think.work);
  pthread_cond_broadcast(&b->passwords.work);
  pthread_mutex_unlock(&b->lock);
  for (int i = 0; i < b->nthreads; i++) pthread_join(b->threads[i], NULL);
  job_queue *queues[] = {&b->think, &b->passwords};
  for (int i = 0; i < 2; i++)
    while (queues[i]->head) {
      job_node *n = queues[i]->head;
      queues[i]->head = n->next;
      srv_secret_wipe(n->pw.password, sizeof n->pw.password);
      free(n);
    }
  while (b->answers) {
    answer_node *a = b->answers;
    b->answers = a->next;
    free(a);
  }
  pthread_mutex_destroy(&b->lock);
  pthread_cond_destroy(&b->think.work);
  pthread_cond_destroy(&b->passwords.work);
  free(b);
}

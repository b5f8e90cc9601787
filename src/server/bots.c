/* Worker threads for computer players (bots.h). Each worker keeps one player per level, so
 * tables of the sampler and expert levels reuse their transposition tables. Password jobs have
 * their own queue and their own worker: 40 registrations at once (argon2id, about 0.1 s and
 * 64 MiB each) wait for each other there, and never in front of a table's computer move. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bots.h"

#define MAX_WORKERS 16
#define MAX_LEVELS 8
/* The password workers: one, so that hashing takes at most one core and one job's memory. */
#define PASSWORD_WORKERS 1

struct srv_think_waiting {
  srv_think_job job;
  int64_t since_ms;    /* when the table began to wait */
  double work_before;  /* the queue's started_work then */
  srv_think_waiting *next;
};

double srv_think_budget_scale(int behind, int workers) {
  if (workers < 1) workers = 1;
  const double x = 1.0 + (double)(behind > 0 ? behind : 0) / workers;
  return 1.0 / (x * x);
}

bool srv_think_queue_push(srv_think_queue *q, const srv_think_job *job, int64_t now_ms) {
  for (srv_think_waiting *w = q->head; w; w = w->next)
    if (w->job.table == job->table) {
      if (job->version >= w->job.version) w->job = *job; /* an older job's answer would be dropped anyway */
      return true;
    }
  srv_think_waiting *w = malloc(sizeof *w);
  if (!w) return false;
  *w = (srv_think_waiting){.job = *job, .since_ms = now_ms, .work_before = q->started_work};
  if (q->tail)
    q->tail->next = w;
  else
    q->head = w;
  q->tail = w;
  q->waiting++;
  return true;
}

bool srv_think_queue_pop(srv_think_queue *q, int workers, srv_think_job *job, double *scale, int64_t *since_ms,
                         double *ahead) {
  srv_think_waiting *w = q->head;
  if (!w) return false;
  q->head = w->next;
  if (!q->head) q->tail = NULL;
  q->waiting--;
  *job = w->job;
  *since_ms = w->since_ms;
  *ahead = (q->started_work - w->work_before) / (workers < 1 ? 1 : workers);
  *scale = srv_think_budget_scale(q->waiting, workers);
  q->started_work += *scale;
  free(w);
  return true;
}

void srv_think_queue_clear(srv_think_queue *q) {
  while (q->head) {
    srv_think_waiting *w = q->head;
    q->head = w->next;
    free(w);
  }
  q->tail = NULL;
  q->waiting = 0;
}

typedef struct job_node {
  srv_password_job pw;
  struct job_node *next;
} job_node;

typedef struct answer_node {
  srv_bot_answer answer;
  struct answer_node *next;
} answer_node;

struct srv_bots {
  pthread_mutex_t lock;
  pthread_cond_t think_work, password_work;
  srv_think_queue think;
  job_node *passwords, *passwords_tail;
  answer_node *answers, *answers_tail;
  srv_bots_stats stats;
  bool stopping;
  void (*wake)(void *ctx);
  void *ctx;
  int nthreads;
  pthread_t threads[MAX_WORKERS + PASSWORD_WORKERS];
};

static int64_t monotonic_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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

static void *password_worker(void *arg) {
  srv_bots *b = arg;
  for (;;) {
    pthread_mutex_lock(&b->lock);
    while (!b->passwords && !b->stopping) pthread_cond_wait(&b->password_work, &b->lock);
    if (b->stopping) {
      pthread_mutex_unlock(&b->lock);
      return NULL;
    }
    job_node *node = b->passwords;
    b->passwords = node->next;
    if (!b->passwords) b->passwords_tail = NULL;
    pthread_mutex_unlock(&b->lock);
    answer_node *answer = malloc(sizeof *answer);
    if (answer) {
      answer->answer = (srv_bot_answer){.password = true};
      srv_password_work(&node->pw, &answer->answer.pw);
    }
    srv_secret_wipe(node->pw.password, sizeof node->pw.password);
    free(node);
    if (answer) hand_back(b, answer);
  }
}

const char *srv_think_budget_param(const char *level) {
  if (strcmp(level, "sampler") == 0 || strcmp(level, "expert") == 0) return "samples";
  if (strcmp(level, "master") == 0 || strcmp(level, "master_2026_11") == 0 || strcmp(level, "fast") == 0) return "ms";
  return NULL;
}

/* The value of `name` in a full spec such as "master:ms=100,solve=20", or 0. */
static int spec_value(const char *spec, const char *name) {
  const size_t len = strlen(name);
  for (const char *p = strchr(spec, ':'); p && *p; p = strchr(p + 1, ','))
    if (strncmp(p + 1, name, len) == 0 && p[1 + len] == '=') return atoi(p + 2 + len);
  return 0;
}

/* A worker's player of one level: at the level's full budget, or at `budget` when less. */
typedef struct level_player {
  goita_player *player;
  const char *param; /* srv_think_budget_param, or NULL */
  int full, budget;  /* the level's default budget, and the one now set */
} level_player;

/* Chooses a move at `level` on `scale` of its full budget; a budget below the level's least
 * is answered by the rules level (index `rules`), at once. */
static bool think(level_player *players, int level, int rules, const srv_think_job *job, double scale,
                  bool *cheapest, goita_move *move) {
  const char *const *levels = goita_player_levels();
  level_player *lp = &players[level];
  if (!lp->player) {
    if (goita_player_new(&lp->player, levels[level], NULL) != GOITA_OK) return false;
    lp->param = srv_think_budget_param(levels[level]);
    lp->full = lp->budget = lp->param ? spec_value(goita_player_spec(lp->player), lp->param) : 0;
  }
  *cheapest = false;
  if (lp->param && lp->full > 0) {
    /* budgets in powers of two below the full one, so that a worker's player is made anew
     * (its tables dropped) only when the load changes by half */
    int budget = lp->full;
    while (budget > 1 && budget > scale * lp->full) budget /= 2;
    if (budget > scale * lp->full) { /* less than the level's least: rules, which has no budget */
      bool unused;
      *cheapest = true;
      return think(players, rules, rules, job, 1.0, &unused, move);
    }
    if (budget != lp->budget) {
      char setting[32];
      snprintf(setting, sizeof setting, "%s=%d", lp->param, budget);
      if (goita_player_set(lp->player, setting, NULL) == GOITA_OK) lp->budget = budget;
    }
  }
  goita_player_seed(lp->player, job->seed);
  return goita_player_choose(lp->player, &job->view, move, NULL) == GOITA_OK;
}

static void *think_worker(void *arg) {
  srv_bots *b = arg;
  level_player players[MAX_LEVELS] = {0};
  const char *const *levels = goita_player_levels();
  int rules = 0;
  while (levels[rules] && strcmp(levels[rules], "rules") != 0) rules++;
  for (;;) {
    srv_think_job job;
    double scale, ahead;
    int64_t since;
    pthread_mutex_lock(&b->lock);
    while (!b->think.head && !b->stopping) pthread_cond_wait(&b->think_work, &b->lock);
    if (b->stopping) {
      pthread_mutex_unlock(&b->lock);
      break;
    }
    srv_think_queue_pop(&b->think, b->stats.workers, &job, &scale, &since, &ahead);
    const double waited = (double)(monotonic_ms() - since);
    b->stats.jobs++;
    if (scale < 1.0) b->stats.shrunk++;
    if (waited > b->stats.max_wait_ms) b->stats.max_wait_ms = waited;
    if (ahead > b->stats.max_ahead) b->stats.max_ahead = ahead;
    pthread_mutex_unlock(&b->lock);

    int level = 0;
    while (levels[level] && strcmp(levels[level], job.level) != 0) level++;
    goita_move move;
    bool cheapest = false;
    const bool chosen = levels[level] && level < MAX_LEVELS && levels[rules] &&
                        think(players, level, rules, &job, scale, &cheapest, &move);
    if (cheapest) {
      pthread_mutex_lock(&b->lock);
      b->stats.cheapest++;
      pthread_mutex_unlock(&b->lock);
    }
    answer_node *answer = chosen ? malloc(sizeof *answer) : NULL;
    if (answer) {
      answer->answer = (srv_bot_answer){.table = job.table, .version = job.version, .move = move};
      hand_back(b, answer);
    } /* else no move: the table's timer or the next tick asks again */
  }
  for (int i = 0; i < MAX_LEVELS; i++) goita_player_free(players[i].player);
  return NULL;
}

int srv_bots_start(srv_bots **out, int threads, void (*wake)(void *ctx), void *ctx) {
  *out = NULL;
  srv_bots *b = calloc(1, sizeof *b);
  if (!b) return -1;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->think_work, NULL);
  pthread_cond_init(&b->password_work, NULL);
  b->wake = wake;
  b->ctx = ctx;
  if (threads < 1) {
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores > 0 ? (int)cores : 1;
  }
  if (threads > MAX_WORKERS) threads = MAX_WORKERS;
  b->stats.workers = threads; /* every job's scale reads it: set before any worker runs */
  int think = 0;
  for (int i = 0; i < threads; i++) {
    if (pthread_create(&b->threads[b->nthreads], NULL, think_worker, b) != 0) break;
    b->nthreads++;
    think++;
  }
  pthread_mutex_lock(&b->lock);
  b->stats.workers = think > 0 ? think : 1;
  pthread_mutex_unlock(&b->lock);
  if (think == 0 || pthread_create(&b->threads[b->nthreads], NULL, password_worker, b) != 0) {
    srv_bots_stop(b);
    return -1;
  }
  b->nthreads++;
  *out = b;
  return 0;
}

void srv_bots_submit(srv_bots *b, const srv_think_job *job) {
  const int64_t now = monotonic_ms();
  pthread_mutex_lock(&b->lock);
  /* no memory: the job is dropped, and the table's turn timer or the next tick asks again */
  if (srv_think_queue_push(&b->think, job, now)) pthread_cond_signal(&b->think_work);
  pthread_mutex_unlock(&b->lock);
}

void srv_bots_submit_password(srv_bots *b, const srv_password_job *job) {
  job_node *node = malloc(sizeof *node);
  if (!node) return; /* the request stays pending; the client may reconnect */
  node->pw = *job;
  node->next = NULL;
  pthread_mutex_lock(&b->lock);
  if (b->passwords_tail)
    b->passwords_tail->next = node;
  else
    b->passwords = node;
  b->passwords_tail = node;
  pthread_cond_signal(&b->password_work);
  pthread_mutex_unlock(&b->lock);
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

void srv_bots_stats_get(srv_bots *b, srv_bots_stats *out) {
  pthread_mutex_lock(&b->lock);
  *out = b->stats;
  pthread_mutex_unlock(&b->lock);
}

void srv_bots_stop(srv_bots *b) {
  if (!b) return;
  pthread_mutex_lock(&b->lock);
  b->stopping = true;
  pthread_cond_broadcast(&b->think_work);
  pthread_cond_broadcast(&b->password_work);
  pthread_mutex_unlock(&b->lock);
  for (int i = 0; i < b->nthreads; i++) pthread_join(b->threads[i], NULL);
  srv_think_queue_clear(&b->think);
  while (b->passwords) {
    job_node *n = b->passwords;
    b->passwords = n->next;
    srv_secret_wipe(n->pw.password, sizeof n->pw.password);
    free(n);
  }
  while (b->answers) {
    answer_node *a = b->answers;
    b->answers = a->next;
    free(a);
  }
  pthread_mutex_destroy(&b->lock);
  pthread_cond_destroy(&b->think_work);
  pthread_cond_destroy(&b->password_work);
  free(b);
}

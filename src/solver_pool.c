/* The solver pool (solver.h, "Many positions at once"): one solver per thread, and N - 1
 * threads that wait for a job while the caller's thread works on it too, with solver 0. A job
 * is a list of items (the positions of a batch, the moves of one position, or the moves of a
 * node of a split solve) handed out in order from one atomic counter, so that a thread done early takes the next item: the items'
 * costs differ by orders of magnitude, and a static split would leave a thread idle. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "solver_internal.h"

typedef struct pool_job pool_job;
struct pool_job {
  void (*run)(pool_job *job, goita_solver *s, size_t item, int thread);
  size_t count;
  goita_solve_options options;
  /* A batch: results[i] is the solve of rounds[i]. */
  const goita_round *rounds;
  goita_solve_result *results;
  /* The moves of one position: lo and hi by move. */
  const goita_move *moves;
  int lo[GOITA_MAX_LEGAL], hi[GOITA_MAX_LEGAL];
  /* The moves of a node of a split solve: each move's bound and nodes; abort is set when one
   * passes (its index in passed), and the searches of the others then stop. */
  goita_solver_pool *pool;
  const spos *p;
  int t;
  const spos *kids;
  const int8_t *finish;
  int bound[GOITA_MAX_LEGAL + 1];
  uint64_t cost[GOITA_MAX_LEGAL + 1];
  _Atomic(bool) abort;
  atomic_int passed;
};

typedef struct pool_helper {
  goita_solver_pool *pool;
  int index; /* its solver */
} pool_helper;

struct goita_solver_pool {
  int threads;
  goita_solver *solver[GOITA_POOL_MAX_THREADS];
  pthread_t thread[GOITA_POOL_MAX_THREADS]; /* [1, started) run */
  pool_helper helper[GOITA_POOL_MAX_THREADS];
  int started;
  pthread_mutex_t lock;
  pthread_cond_t work; /* a job was posted, or the pool is stopping */
  pthread_cond_t done; /* the last helper left the job */
  uint64_t posted;     /* jobs posted so far */
  int busy;            /* helpers not yet done with the job */
  bool stopping;
  pool_job *job;      /* the job posted (the helpers' view of it) */
  atomic_size_t next; /* the job's next item */
  pool_job own;       /* the job of the call in progress: solving allocates nothing */
  /* The solve of one position in progress (goita_solve_parallel): its position, options and
   * start, and the threads whose solvers have started it (join_solve). */
  const goita_round *call_round;
  goita_solve_options call_options;
  double call_start;
  bool solving[GOITA_POOL_MAX_THREADS];
};

/* Takes the job's items in turn until none is left. */
static void work(goita_solver_pool *p, pool_job *job, int thread) {
  for (;;) {
    const size_t item = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
    if (item >= job->count) return;
    job->run(job, p->solver[thread], item, thread);
  }
}

static void *helper_main(void *arg) {
  const pool_helper *h = arg;
  goita_solver_pool *p = h->pool;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!p->stopping && p->posted == seen) pthread_cond_wait(&p->work, &p->lock);
    if (p->stopping) break;
    seen = p->posted;
    pool_job *job = p->job;
    pthread_mutex_unlock(&p->lock);
    work(p, job, h->index);
    pthread_mutex_lock(&p->lock);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

/* Runs job on every thread of the pool and returns when all are done with it: what the
 * helpers wrote is then visible to the caller (the lock orders it). */
static void run_job(goita_solver_pool *p, pool_job *job) {
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  if (p->started > 1) {
    pthread_mutex_lock(&p->lock);
    p->job = job;
    p->busy = p->started - 1;
    p->posted++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
  }
  work(p, job, 0);
  if (p->started > 1) {
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
    p->job = NULL;
    pthread_mutex_unlock(&p->lock);
  }
}

void goita_solver_pool_free(goita_solver_pool *p) {
  if (!p) return;
  if (p->started > 1) {
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 1; i < p->started; i++) pthread_join(p->thread[i], NULL);
  }
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->lock);
  for (int i = 0; i < p->threads; i++) goita_solver_free(p->solver[i]);
  free(p);
}

int goita_solver_pool_new(goita_solver_pool **out, int threads, size_t table_bytes) {
  if (!out) return GOITA_EINVAL;
  *out = NULL;
  if (threads < 1 || threads > GOITA_POOL_MAX_THREADS) return GOITA_EINVAL;
  goita_solver_pool *p = calloc(1, sizeof *p);
  if (!p) return GOITA_ENOMEM;
  p->threads = threads;
  p->started = 1; /* the caller's */
  atomic_init(&p->next, 0);
  if (pthread_mutex_init(&p->lock, NULL) != 0) {
    free(p);
    return GOITA_ENOMEM;
  }
  if (pthread_cond_init(&p->work, NULL) != 0) {
    pthread_mutex_destroy(&p->lock);
    free(p);
    return GOITA_ENOMEM;
  }
  if (pthread_cond_init(&p->done, NULL) != 0) {
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return GOITA_ENOMEM;
  }
  for (int i = 0; i < threads; i++)
    if (goita_solver_new(&p->solver[i], table_bytes) != GOITA_OK) {
      goita_solver_pool_free(p);
      return GOITA_ENOMEM;
    }
  for (int i = 1; i < threads; i++) {
    p->helper[i] = (pool_helper){.pool = p, .index = i};
    if (pthread_create(&p->thread[i], NULL, helper_main, &p->helper[i]) != 0) {
      goita_solver_pool_free(p); /* stops the helpers started so far */
      return GOITA_ENOMEM;
    }
    p->started = i + 1;
  }
  *out = p;
  return GOITA_OK;
}

int goita_solver_pool_threads(const goita_solver_pool *p) { return p ? p->threads : 0; }

static void run_batch_item(pool_job *job, goita_solver *s, size_t item, int thread) {
  (void)thread;
  goita_solve(s, &job->rounds[item], &job->options, &job->results[item]);
}

int goita_solve_batch(goita_solver_pool *p, const goita_round *rounds, size_t count,
                      const goita_solve_options *options, goita_solve_result *results) {
  if (!p || (count && (!rounds || !results))) return GOITA_EINVAL;
  if (!count) return GOITA_OK;
  pool_job *job = &p->own;
  job->run = run_batch_item;
  job->count = count;
  if (options)
    job->options = *options;
  else
    goita_solve_options_default(&job->options);
  job->rounds = rounds;
  job->results = results;
  run_job(p, job);
  return GOITA_OK;
}

/* Starts the solve of the pool's position in progress on the thread's solver, the first time
 * the thread takes part in it. */
static void join_solve(goita_solver_pool *p, goita_solver *s, int thread) {
  if (p->solving[thread]) return;
  goita__solver_start(s, p->call_round, &p->call_options, p->call_start);
  s->test_root = NULL;
  p->solving[thread] = true;
}

/* Begins the solve of one position: no thread has joined it yet. */
static void begin_solve(goita_solver_pool *p, const goita_round *round, const goita_solve_options *o) {
  memset(p->solving, 0, sizeof p->solving);
  p->call_round = round;
  p->call_options = *o;
  p->call_start = monotonic_seconds();
}

/* The nodes of the solve in progress, summed over the threads that took part. */
static uint64_t solve_nodes(const goita_solver_pool *p) {
  uint64_t nodes = 0;
  for (int i = 0; i < p->threads; i++)
    if (p->solving[i]) nodes += p->solver[i]->nodes;
  return nodes;
}

static void run_move(pool_job *job, goita_solver *s, size_t item, int thread) {
  goita_solver_pool *p = job->pool;
  join_solve(p, s, thread);
  goita__solver_solve_move(s, p->call_round, job->moves[item], p->call_options.mode, &job->lo[item], &job->hi[item]);
}

/* ---- The position's value: each test's root moves split among the threads ---- */

/* A bound no search returns: the move's search was stopped (another move passed). */
#define SKIPPED INT_MIN

static void run_split_move(pool_job *job, goita_solver *s, size_t item, int thread) {
  goita_solver_pool *p = job->pool;
  if (!p->solving[thread]) { /* a helper's solver joins the solve (solver 0 started it) */
    join_solve(p, s, thread);
    s->abort = &job->abort;
  }
  job->bound[item] = SKIPPED;
  if (atomic_load(&job->abort)) return;
  const uint64_t before = s->nodes;
  const int v = job->finish[item] ? job->finish[item] : goita__solver_child_bound(s, job->p, &job->kids[item], job->t);
  job->cost[item] = s->nodes - before;
  if (s->stopped) { /* stopped because another move passed */
    s->stopped = 0;
    return;
  }
  job->bound[item] = v;
  if (v >= job->t) {
    int none = -1;
    atomic_compare_exchange_strong(&job->passed, &none, (int)item);
    atomic_store(&job->abort, true);
  }
}

/* The split of solver s's moves at p (solver_internal.h): every move searched by the thread
 * free first, in order; returns the passing move's bound with its index in *passed, or the
 * best failing bound, and each move's nodes in costs. */
static int split_moves(goita_solver *s, const spos *p, int t, int nmoves, const uint8_t *moves, const spos *kids,
                       const int8_t *finish, int *passed, uint64_t *costs) {
  goita_solver_pool *pool = s->split_pool;
  pool_job *job = &pool->own;
  job->run = run_split_move;
  job->count = (size_t)nmoves;
  job->pool = pool;
  job->p = p;
  job->t = t;
  job->kids = kids;
  job->finish = finish;
  atomic_store(&job->abort, false);
  atomic_store(&job->passed, -1);
  run_job(pool, job);
  atomic_store(&job->abort, false); /* s searches on: nothing to stop now */
  for (int i = 0; i < nmoves; i++) costs[i] = job->cost[i];
  (void)moves;
  *passed = atomic_load(&job->passed);
  if (*passed >= 0) return job->bound[*passed];
  int best = -10;
  for (int i = 0; i < nmoves; i++)
    if (job->bound[i] > best) best = job->bound[i];
  return best;
}

/* The position's value alone, each test's root moves shared among the threads. */
static void solve_split(goita_solver_pool *p, const goita_round *round, const goita_solve_options *o,
                        goita_solve_result *res) {
  goita_solver *s = p->solver[0];
  memset(res, 0, sizeof *res);
  res->best = -1;
  memset(p->own.cost, 0, sizeof p->own.cost);
  begin_solve(p, round, o);
  goita__solver_start(s, round, o, p->call_start);
  p->solving[0] = true;
  s->split = split_moves;
  s->split_at = NULL;
  s->split_pool = p;
  s->abort = &p->own.abort;
  int lo = -10, hi = 10;
  goita__solver_solve_round(s, round, o->mode, &lo, &hi);
  res->nodes = solve_nodes(p);
  for (int i = 1; i < p->threads; i++) p->solver[i]->abort = NULL;
  s->split = NULL;
  s->split_pool = NULL;
  s->abort = NULL;
  res->value = goita__solver_points(lo, hi);
  res->complete = 1;
  res->ms = (monotonic_seconds() - p->call_start) * 1000.0;
}

int goita_solve_parallel(goita_solver_pool *p, const goita_round *round, const goita_solve_options *options,
                         goita_solve_result *res) {
  if (!p || !round || !res) return GOITA_EINVAL;
  goita_solve_options o;
  if (options)
    o = *options;
  else
    goita_solve_options_default(&o);
  if (p->threads == 1 || o.max_nodes || o.max_ms > 0) return goita_solve(p->solver[0], round, &o, res);
  if (!o.all_moves) {
    solve_split(p, round, &o, res);
    return GOITA_OK;
  }
  if (!goita__solve_from_moves(round, &o)) return goita_solve(p->solver[0], round, &o, res);

  pool_job *job = &p->own;
  memset(res, 0, sizeof *res);
  res->best = -1;
  res->nmoves = goita_round_legal_moves(round, res->moves);
  begin_solve(p, round, &o);
  job->run = run_move;
  job->count = (size_t)res->nmoves;
  job->pool = p;
  job->moves = res->moves;
  run_job(p, job);

  /* As goita_solve folds them: the position's value is the best move's; the best move is the
   * first with the highest lower bound. */
  int lo = -10, hi = -10, best_lower = -1000;
  for (int i = 0; i < res->nmoves; i++) {
    res->move_value[i] = goita__solver_points(job->lo[i], job->hi[i]);
    if (job->lo[i] > best_lower) {
      best_lower = job->lo[i];
      res->best = i;
    }
    if (job->lo[i] > lo) lo = job->lo[i];
    if (job->hi[i] > hi) hi = job->hi[i];
  }
  res->value = goita__solver_points(lo, hi);
  res->complete = 1;
  res->nodes = solve_nodes(p);
  res->ms = (monotonic_seconds() - p->call_start) * 1000.0;
  return GOITA_OK;
}

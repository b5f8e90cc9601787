/* goita-load, a load generator for goita serve (docs/BENCHMARKS.md): what its worker threads
 * (worker.c), its figures (report.c) and its command (main.c) share. */
#ifndef GOITA_LOADGEN_LOAD_H
#define GOITA_LOADGEN_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ws.h"

/* The run's phases, set by the main thread and read by the workers. */
enum { PHASE_SETUP, PHASE_MEASURE, PHASE_STOP };

/* The most servers (URLs) one run spreads its tables over: as many operands as the command line
 * takes. */
#define LOAD_MAX_TARGETS 8

/* What the whole run shares: the options, the phase and the counters the main thread waits on. */
typedef struct load_run {
  ws_target targets[LOAD_MAX_TARGETS]; /* table i plays on targets[i % ntargets]; the lobby's on [0] */
  int ntargets;
  int tables, listeners, threads;
  uint64_t flood_rate; /* create messages a second from the flooder, 0 for none */
  int64_t think_us;    /* a client's mean wait before its move, 0 for at once */
  _Atomic int phase;
  _Atomic int64_t begin_us; /* when the measured window opened */
  _Atomic int tables_playing;   /* tables whose first game has started */
  _Atomic int listeners_ready;  /* listeners that received their first table list */
  _Atomic int failed;           /* a connection could not be set up: the run stops */
  char failure[160];
} load_run;

/* A growable list of numbers (latencies in microseconds, times, ids). */
typedef struct u64_list {
  uint64_t *v;
  size_t n, cap;
} u64_list;

/* Appends x; returns 0, or -1 when memory runs out. */
int u64_list_push(u64_list *l, uint64_t x);

/* Counts of errors the server answered, by request. */
typedef struct error_count {
  char request[16];
  long count;
  char first[120]; /* the first error's text */
} error_count;

#define LOAD_MAX_ERROR_KINDS 8

/* What one worker measured; the main thread merges these after the workers stop. */
typedef struct worker_result {
  long moves;              /* moves sent in the window */
  long games;              /* games finished in the window */
  u64_list move_latency;   /* microseconds from a move to a seat's receipt of the state after it */
  u64_list game_end;       /* microseconds from a game's last move to the `over` state (its save) */
  u64_list game_setup;     /* microseconds from a create to the new game's first state of play */
  u64_list creates;        /* pairs: table id, when its create was sent (us since the start) */
  u64_list *seen;          /* per listener of this worker: table id -> first seen (us + 1), 0 = never */
  int nlisteners;
  long lobby_messages;
  uint64_t lobby_bytes;
  long players_closed, listeners_closed;
  char close_reason[100]; /* the first close by the server */
  long stalled;           /* tables with no state for 2 s at the end */
  long flood_sent, flood_created, flood_refused, flood_closed;
  char flood_refusal[120];
  error_count errors[LOAD_MAX_ERROR_KINDS];
  int nerrors;
} worker_result;

/* One worker thread's share: tables [table_from, table_to), the listeners given to it, and
 * the flooder when flooder is set. */
typedef struct worker_args {
  load_run *run;
  int index;
  int table_from, table_to;
  int nlisteners;
  bool flooder;
  uint64_t seed;
  worker_result result;
} worker_args;

/* The worker thread's body: connects its clients, plays until the run stops (void *: a
 * worker_args). */
void *load_worker(void *arg);

/* Microseconds on the monotonic clock. */
int64_t load_now_us(void);

/* What the generator and the server used over the window. */
typedef struct load_usage {
  double generator_cpu, server_cpu; /* cores (CPU seconds a second); negative when unknown */
  double server_wait; /* seconds a second the server's event-loop thread was ready but waited for a core */
  long server_rss_begin_kib, server_rss_end_kib; /* negative when unknown */
} load_usage;

/* Prints the figures of the merged results over the window of seconds, with what the
 * generator and the server used in it. Returns the number of latency samples taken. */
long load_report(const load_run *run, worker_args *workers, int nworkers, double seconds, const load_usage *usage);

#endif

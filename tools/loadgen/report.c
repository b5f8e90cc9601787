/* goita-load's figures: the workers' samples merged into percentiles, printed as a few lines
 * for a reader and one "summary" line to paste into docs/BENCHMARKS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

/* Orders numbers for qsort. */
static int compare_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Percentiles of a list of microseconds, in milliseconds. */
typedef struct spread {
  size_t n;
  double p50, p99, max;
} spread;

/* Sorts l and takes its nearest-rank median, 99th percentile and maximum. */
static spread spread_of(u64_list *l) {
  spread s = {l->n, 0, 0, 0};
  if (!l->n) return s;
  qsort(l->v, l->n, sizeof *l->v, compare_u64);
  s.p50 = (double)l->v[(l->n + 1) / 2 - 1] / 1000;
  s.p99 = (double)l->v[(l->n * 99 + 99) / 100 - 1] / 1000;
  s.max = (double)l->v[l->n - 1] / 1000;
  return s;
}

/* Appends every number of from to to; returns 0, or -1 when memory runs out. */
static int append(u64_list *to, const u64_list *from) {
  for (size_t i = 0; i < from->n; i++)
    if (u64_list_push(to, from->v[i]) != 0) return -1;
  return 0;
}

/* The lobby's figures: for every table a player created in the window, how long each listener
 * took to see it named in a lobby message. Creates in the last second are left out: a listener
 * had no fair chance to see them. */
static spread lobby_latency(const load_run *run, worker_args *workers, int nworkers, int64_t end_us, long *missed) {
  u64_list creates = {0}, samples = {0};
  for (int i = 0; i < nworkers; i++) append(&creates, &workers[i].result.creates);
  const int64_t begin = atomic_load(&((load_run *)run)->begin_us);
  *missed = 0;
  for (size_t c = 0; c + 1 < creates.n; c += 2) {
    const uint64_t id = creates.v[c];
    const int64_t sent = (int64_t)creates.v[c + 1];
    if (sent < begin || sent > end_us - 1000000) continue;
    for (int i = 0; i < nworkers; i++)
      for (int l = 0; l < workers[i].result.nlisteners; l++) {
        const u64_list *seen = &workers[i].result.seen[l];
        const int64_t at = id < seen->n ? (int64_t)seen->v[id] : 0;
        if (at >= sent)
          u64_list_push(&samples, (uint64_t)(at - sent));
        else
          ++*missed; /* never named (or only before its create: not this run's table) */
      }
  }
  const spread s = spread_of(&samples);
  free(creates.v);
  free(samples.v);
  return s;
}

long load_report(const load_run *run, worker_args *workers, int nworkers, double seconds, const load_usage *usage) {
  worker_result all;
  memset(&all, 0, sizeof all);
  for (int i = 0; i < nworkers; i++) {
    const worker_result *r = &workers[i].result;
    all.moves += r->moves;
    all.games += r->games;
    append(&all.move_latency, &r->move_latency);
    append(&all.game_end, &r->game_end);
    append(&all.game_setup, &r->game_setup);
    all.lobby_messages += r->lobby_messages;
    all.lobby_bytes += r->lobby_bytes;
    all.players_closed += r->players_closed;
    all.listeners_closed += r->listeners_closed;
    all.stalled += r->stalled;
    all.flood_sent += r->flood_sent;
    all.flood_created += r->flood_created;
    all.flood_refused += r->flood_refused;
    all.flood_closed += r->flood_closed;
    if (!all.close_reason[0]) memcpy(all.close_reason, r->close_reason, sizeof all.close_reason);
    if (!all.flood_refusal[0]) memcpy(all.flood_refusal, r->flood_refusal, sizeof all.flood_refusal);
  }
  const int64_t end_us = atomic_load(&((load_run *)run)->begin_us) + (int64_t)(seconds * 1e6);
  long missed = 0;
  const spread move = spread_of(&all.move_latency);
  const spread end = spread_of(&all.game_end), setup = spread_of(&all.game_setup);
  const spread lobby = lobby_latency(run, workers, nworkers, end_us, &missed);
  const double mps = (double)all.moves / seconds;

  printf("goita-load: %d clients at %d tables, %d lobby listeners, create-flood %llu/s, think %lld ms, %.1f s, "
         "%d threads\n",
         4 * run->tables, run->tables, run->listeners, (unsigned long long)run->flood_rate,
         (long long)(run->think_us / 1000), seconds, run->threads);
  printf("moves: %ld (%.0f/s), games finished %ld, tables stalled at the end %ld\n", all.moves, mps, all.games,
         all.stalled);
  printf("move -> broadcast: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples: each seat's receipt of each move)\n",
         move.p50, move.p99, move.max, move.n);
  printf("between games: last move -> over p50 %.2f ms, p99 %.2f ms; create -> playing p50 %.2f ms, p99 %.2f ms "
         "(%zu and %zu games)\n",
         end.p50, end.p99, setup.p50, setup.p99, end.n, setup.n);
  printf("lobby update: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples, %ld missed), %ld messages, %.1f MB/s\n",
         lobby.p50, lobby.p99, lobby.max, lobby.n, missed, all.lobby_messages,
         (double)all.lobby_bytes / seconds / 1e6);
  printf("closed by the server: %ld players, %ld listeners%s%s\n", all.players_closed, all.listeners_closed,
         all.close_reason[0] ? "; first: " : "", all.close_reason);
  if (run->flood_rate)
    printf("flood: %ld creates sent, %ld created, %ld refused, flooder closed %ld times%s%s\n", all.flood_sent,
           all.flood_created, all.flood_refused, all.flood_closed, all.flood_refusal[0] ? "; first refusal: " : "",
           all.flood_refusal);
  long errors = 0;
  for (int i = 0; i < nworkers; i++)
    for (int e = 0; e < workers[i].result.nerrors; e++) {
      const error_count *c = &workers[i].result.errors[e];
      errors += c->count;
      printf("errors (worker %d): %ld to %s, first: %s\n", i, c->count, c->request, c->first);
    }
  printf("cpu: generator %.2f cores, server %.2f cores (user + system over the window); the server's event loop "
         "waited for a core %.0f ms a second\n",
         usage->generator_cpu, usage->server_cpu, usage->server_wait * 1000);
  printf("server memory: %.1f MiB at the start of the window, %.1f MiB at its end\n",
         (double)usage->server_rss_begin_kib / 1024, (double)usage->server_rss_end_kib / 1024);
  printf("summary clients=%d tables=%d listeners=%d flood=%llu think_ms=%lld seconds=%.1f threads=%d moves_per_s=%.0f "
         "move_p50_ms=%.2f move_p99_ms=%.2f move_max_ms=%.2f lobby_p50_ms=%.2f lobby_p99_ms=%.2f lobby_max_ms=%.2f "
         "lobby_missed=%ld closed=%ld flood_created=%ld gen_cpu=%.2f server_cpu=%.2f server_wait_ms_per_s=%.0f "
         "server_rss_mib=%.0f game_end_p50_ms=%.2f game_setup_p50_ms=%.2f stalled=%ld errors=%ld\n",
         4 * run->tables, run->tables, run->listeners, (unsigned long long)run->flood_rate,
         (long long)(run->think_us / 1000), seconds, run->threads, mps,
         move.p50, move.p99, move.max, lobby.p50, lobby.p99, lobby.max, missed,
         all.players_closed + all.listeners_closed, all.flood_created, usage->generator_cpu, usage->server_cpu,
         usage->server_wait * 1000, (double)usage->server_rss_end_kib / 1024, end.p50, setup.p50, all.stalled, errors);
  free(all.move_latency.v);
  free(all.game_end.v);
  free(all.game_setup.v);
  return (long)move.n;
}

/* goita-load: a load generator for goita serve (docs/BENCHMARKS.md). Clients in fours play at
 * their own tables at full speed, lobby listeners follow the table list, and one client may
 * flood create messages. Worker threads share the clients out so the generator is not what
 * is measured; it reports its own CPU and the server's beside the figures. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "load.h"
#include "options.h"

/* Seconds of CPU (user + system) this process has used, all threads. */
static double own_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* Seconds of CPU process pid has used (from /proc), or -1 when it cannot be read. */
static double process_cpu(uint64_t pid) {
  if (!pid) return -1;
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%llu/stat", (unsigned long long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *p = strrchr(buf, ')'); /* the name may hold spaces; the fields follow it */
  unsigned long long utime = 0, stime = 0;
  if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return -1;
  return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* Seconds the main thread of process pid (goita serve's event loop) has waited for a core while
 * ready to run (the second field of /proc/PID/schedstat), or -1 when it cannot be read. On a
 * busy machine this is the latency the server could not help. */
static double process_wait(uint64_t pid) {
  if (!pid) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/%llu/schedstat", (unsigned long long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  unsigned long long run_ns = 0, wait_ns = 0;
  const int n = fscanf(f, "%llu %llu", &run_ns, &wait_ns);
  fclose(f);
  return n == 2 ? (double)wait_ns / 1e9 : -1;
}

/* The resident set of process pid in KiB (from /proc), or -1 when it cannot be read. */
static long process_rss_kib(uint64_t pid) {
  if (!pid) return -1;
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%llu/status", (unsigned long long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
  fclose(f);
  return kib;
}

/* Raises the soft limit of open files to what the run needs (up to the hard limit). */
static void raise_file_limit(rlim_t need) {
  struct rlimit l;
  if (getrlimit(RLIMIT_NOFILE, &l) != 0 || l.rlim_cur >= need) return;
  l.rlim_cur = l.rlim_max == RLIM_INFINITY || l.rlim_max > need ? need : l.rlim_max;
  setrlimit(RLIMIT_NOFILE, &l);
}

/* Splits ws://HOST:PORT/PATH; returns 0, or -1 when url is not of that form. */
static int split_url(const char *url, char *host, size_t hsize, char *port, size_t psize, char *path, size_t size) {
  if (strncmp(url, "ws://", 5) != 0) return -1;
  const char *h = url + 5, *slash = strchr(h, '/'), *end = slash ? slash : h + strlen(h);
  const char *colon = memchr(h, ':', (size_t)(end - h));
  if (!colon || colon == h || end - colon < 2 || (size_t)(colon - h) >= hsize || (size_t)(end - colon) > psize)
    return -1;
  snprintf(host, hsize, "%.*s", (int)(colon - h), h);
  snprintf(port, psize, "%.*s", (int)(end - colon - 1), colon + 1);
  snprintf(path, size, "%s", slash ? slash : "/");
  return 0;
}

/* Sleeps ms milliseconds. */
static void nap(long ms) {
  const struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

/* Waits until every table plays and every listener has its list; false when the run failed
 * or setup_s passed first (the reason printed). */
static bool wait_ready(load_run *run, uint64_t setup_s) {
  const int64_t until = load_now_us() + (int64_t)setup_s * 1000000;
  while (!atomic_load(&run->failed)) {
    if (atomic_load(&run->tables_playing) == run->tables && atomic_load(&run->listeners_ready) == run->listeners)
      return true;
    if (load_now_us() > until) {
      fprintf(stderr, "goita-load: after %llu s only %d of %d tables play and %d of %d listeners have the list\n",
              (unsigned long long)setup_s, atomic_load(&run->tables_playing), run->tables,
              atomic_load(&run->listeners_ready), run->listeners);
      return false;
    }
    nap(10);
  }
  fprintf(stderr, "goita-load: %s\n", run->failure);
  return false;
}

int main(int argc, char **argv) {
  uint64_t tables = 250, listeners = 50, seconds = 30, threads = 2, flood = 0, server_pid = 0, setup_s = 120, seed = 1,
           think_ms = 0;
  const char *origin = NULL;
  const cli_option options[] = {
      {"--tables", CLI_UINT, "N", &tables, "tables of four clients each", .lo = 1, .hi = 100000},
      {"--listeners", CLI_UINT, "N", &listeners, "lobby listeners (they send list and only read)", .lo = 0,
       .hi = 100000},
      {"--seconds", CLI_UINT, "S", &seconds, "the measured window, after every table has started", .lo = 1,
       .hi = 86400, .unit = "s"},
      {"--threads", CLI_UINT, "N", &threads, "worker threads sharing the tables and listeners", .lo = 1, .hi = 256},
      {"--flood", CLI_UINT, "R", &flood,
       "one more client sends R create messages a second through the window (0: none)", .lo = 0, .hi = 1000000},
      {"--think-ms", CLI_UINT, "MS", &think_ms,
       "a client's mean wait before each move (0.5-1.5 times it; 0: at once, full speed)", .lo = 0, .hi = 60000,
       .unit = "ms"},
      {"--server-pid", CLI_UINT, "PID", &server_pid, "the server's process, to report its CPU (0: not reported)",
       .lo = 0, .hi = 4194304},
      {"--origin", CLI_TEXT, "O", &origin, "the Origin header of the upgrades", .fallback = "http://HOST:PORT"},
      {"--setup-seconds", CLI_UINT, "S", &setup_s, "how long connecting and starting every table may take", .lo = 1,
       .hi = 3600, .unit = "s"},
      {"--seed", CLI_UINT, "S", &seed, "the seed of the clients' random moves", .lo = 0, .hi = UINT64_MAX},
  };
  const cli_command c = {
      .program = "goita-load",
      .name = NULL,
      .operands = "URL...",
      .about = "A load generator for goita serve: 4 x TABLES clients play at full speed, LISTENERS follow the\n"
               "lobby, and one client may flood create messages. Prints moves per second, the latency from a\n"
               "move to each seat's state (p50, p99, max), the lobby's update latency and the CPU used.\n",
      .notes = "URL is the server's WebSocket address, ws://HOST:PORT/. With several (at most 8), the tables are\n"
               "dealt over them in turn (table i plays on URL i mod n) and the lobby's clients use the first:\n"
               "one run over several servers, or over the nodes behind one proxy (ws://PROXY/?node=n1 ...).\n"
               "The exit status is 0 when moves were measured, 1 when none were or the clients could not be\n"
               "set up.\n",
      .examples = "goita-load --tables 250 --listeners 50 --flood 2000 --server-pid 1234 ws://127.0.0.1:8080/\n",
      .options = options,
      .noptions = sizeof options / sizeof *options,
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc - 1, argv + 1, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n < 1 || operands.n > LOAD_MAX_TARGETS)
    return cli_usage_error(&c, "name one to %d URLs (ws://HOST:PORT/), not %d", LOAD_MAX_TARGETS, operands.n);
  static load_run run; /* shared with the workers until they are joined */
  for (int i = 0; i < operands.n; i++) {
    char host[256], port[16], path[256], origin_buf[300], why[200];
    if (split_url(operands.arg[i], host, sizeof host, port, sizeof port, path, sizeof path) != 0)
      return cli_usage_error(&c, "\"%s\" is not a ws://HOST:PORT/ address", operands.arg[i]);
    snprintf(origin_buf, sizeof origin_buf, "http://%s:%s", host, port);
    if (ws_target_init(&run.targets[i], host, port, path, "goita", origin ? origin : origin_buf, why, sizeof why) != 0) {
      fprintf(stderr, "goita-load: %s\n", why);
      return 1;
    }
  }
  run.ntargets = operands.n;
  run.tables = (int)tables;
  run.listeners = (int)listeners;
  run.threads = (int)threads;
  run.flood_rate = flood;
  run.think_us = (int64_t)think_ms * 1000;
  atomic_store(&run.phase, PHASE_SETUP);
  raise_file_limit((rlim_t)(4 * tables + listeners + 64));

  const int nworkers = (int)threads + (flood ? 1 : 0); /* the flooder has a thread of its own */
  worker_args *workers = calloc((size_t)nworkers, sizeof *workers);
  pthread_t *ids = calloc((size_t)nworkers, sizeof *ids);
  if (!workers || !ids) return 1;
  for (int i = 0; i < nworkers; i++) {
    worker_args *a = &workers[i];
    a->run = &run;
    a->index = i;
    a->seed = seed * 0x9e3779b97f4a7c15u + (uint64_t)i;
    if (i < (int)threads) {
      a->table_from = (int)(tables * (uint64_t)i / threads);
      a->table_to = (int)(tables * (uint64_t)(i + 1) / threads);
      a->nlisteners = (int)(listeners * (uint64_t)(i + 1) / threads - listeners * (uint64_t)i / threads);
    } else {
      a->flooder = true;
    }
    if (pthread_create(&ids[i], NULL, load_worker, a) != 0) {
      fprintf(stderr, "goita-load: cannot start a thread\n");
      return 1;
    }
  }

  const bool ready = wait_ready(&run, setup_s);
  long measured = 0;
  if (ready) {
    const double gen0 = own_cpu(), srv0 = process_cpu(server_pid);
    const long rss0 = process_rss_kib(server_pid);
    const double wait0 = process_wait(server_pid);
    const int64_t begin = load_now_us();
    atomic_store(&run.begin_us, begin);
    atomic_store(&run.phase, PHASE_MEASURE);
    while (load_now_us() - begin < (int64_t)seconds * 1000000 && !atomic_load(&run.failed)) nap(10);
    atomic_store(&run.phase, PHASE_STOP);
    const double elapsed = (double)(load_now_us() - begin) / 1e6;
    const double gen = (own_cpu() - gen0) / elapsed, srv1 = process_cpu(server_pid);
    const long rss1 = process_rss_kib(server_pid);
    const double wait1 = process_wait(server_pid);
    for (int i = 0; i < nworkers; i++) pthread_join(ids[i], NULL);
    const load_usage usage = {gen, srv0 >= 0 && srv1 >= 0 ? (srv1 - srv0) / elapsed : -1,
                              wait0 >= 0 && wait1 >= 0 ? (wait1 - wait0) / elapsed : -1, rss0, rss1};
    measured = load_report(&run, workers, nworkers, elapsed, &usage);
  } else {
    atomic_store(&run.phase, PHASE_STOP);
    for (int i = 0; i < nworkers; i++) pthread_join(ids[i], NULL);
  }
  for (int i = 0; i < nworkers; i++) {
    worker_result *r = &workers[i].result;
    free(r->move_latency.v);
    free(r->game_end.v);
    free(r->game_setup.v);
    free(r->creates.v);
    for (int l = 0; l < r->nlisteners; l++) free(r->seen[l].v);
    free(r->seen);
  }
  free(workers);
  free(ids);
  return measured > 0 ? 0 : 1;
}

/* goita bench: fixed, seeded workloads that print per-case figures and a signature line.
 * The signature changes whenever the engine's behaviour changes, not with the machine. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's CPU time: on a shared machine a rate per CPU second is what one core does. */
static double cpu_seconds(void) {
  struct timespec ts = {0, 0};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mix_into(uint64_t sig, uint64_t value) { return goita_seed_mix(sig ^ value); }

/* Plays seeded rounds between uniformly random players on one thread. With list, prints the
 * deals' history strings instead. */
static int bench_playout(uint64_t rounds, uint64_t seed, const goita_rules *rules, bool list) {
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  uint64_t moves = 0, sig = 0;
  goita_round r;
  goita_move legal[GOITA_MAX_LEGAL];
  const double start = now_seconds();
  for (uint64_t i = 0; i < rounds; i++) {
    goita_round_deal(&r, rules, (int)(i % (uint64_t)rules->players), goita_seed_mix(seed + i));
    if (list) {
      char history[512];
      goita_history_format(&r, history, sizeof history);
      printf("deal\t%llu\t%s\n", (unsigned long long)i, history);
      continue;
    }
    while (!goita_round_over(&r)) {
      const int n = goita_round_legal_moves(&r, legal);
      goita_round_apply_unchecked(&r, legal[goita_rng_below(&rng, (uint32_t)n)]);
      moves++;
    }
    sig = mix_into(sig, (uint64_t)r.nlog << 24 | (uint64_t)(uint8_t)r.result.winner << 16 |
                            (uint64_t)(uint16_t)r.result.points);
  }
  if (list) return 0;
  const double secs = now_seconds() - start;
  printf("playout  rounds %llu  moves %llu  %.3f s  %.2fM moves/s  %.0fk rounds/s  %.1f moves/round\n",
         (unsigned long long)rounds, (unsigned long long)moves, secs, (double)moves / secs / 1e6,
         (double)rounds / secs / 1e3, (double)moves / (double)rounds);
  printf("signature playout %016llx moves %llu\n", (unsigned long long)sig, (unsigned long long)moves);
  return 0;
}

/* Steps a batch of games (goita/batch.h) with uniformly random legal actions drawn in C: the
 * rate of the batched environment, observations and masks written at each step. */
static int bench_batch(uint64_t steps, uint64_t games, uint64_t seed, const goita_rules *rules) {
  const size_t n = (size_t)games;
  uint8_t *obs = malloc(n * GOITA_OBS_SIZE), *mask = malloc(n * GOITA_NUM_ACTIONS), *terminated = malloc(n);
  float *rewards = malloc(n * GOITA_MAX_SEATS * sizeof(float));
  int8_t *seat = malloc(n);
  int32_t *actions = malloc(n * sizeof(int32_t));
  uint64_t *seeds = malloc(n * sizeof(uint64_t));
  goita_batch *batch = NULL;
  goita_error err = {0};
  int st = GOITA_ENOMEM;
  if (obs && mask && terminated && rewards && seat && actions && seeds) {
    goita_batch_options options;
    goita_batch_options_default(&options);
    options.rules = *rules;
    const goita_batch_arrays arrays = {obs, mask, rewards, terminated, seat};
    st = goita_batch_new(&batch, &options, (int)games, &arrays, &err);
  }
  if (st != GOITA_OK) {
    fprintf(stderr, "goita bench batch: %s\n", err.message[0] ? err.message : goita_strerror(st));
  } else {
    for (size_t i = 0; i < n; i++) seeds[i] = seed + i;
    goita_batch_reset(batch, seeds, NULL);
    const uint64_t calls = (steps + games - 1) / games;
    uint64_t sig = 0, episodes = 0;
    const double start = now_seconds(), start_cpu = cpu_seconds();
    for (uint64_t c = 0; c < calls; c++) {
      goita_batch_step_random(batch, actions);
      for (size_t i = 0; i < n; i++) episodes += terminated[i];
      /* one game's action, reward and observation each call: enough for the signature to see
       * any change of behaviour, without timing the signature */
      const size_t i = (size_t)(c % games);
      sig = mix_into(sig, (uint64_t)actions[i] << 32 | (uint64_t)(uint8_t)obs[i * GOITA_OBS_SIZE + 9] << 8 |
                              (uint64_t)(uint8_t)(int8_t)(rewards[i * GOITA_MAX_SEATS] * 10.0f));
    }
    const double secs = now_seconds() - start, cpu = cpu_seconds() - start_cpu;
    const double done = (double)(calls * games);
    printf("batch  games %llu  steps %.0f  %.3f s  %.2fM steps/s  %.2fM steps/CPU-s  %llu episodes  "
           "%.1f steps/episode\n",
           (unsigned long long)games, done, secs, done / secs / 1e6, done / cpu / 1e6, (unsigned long long)episodes,
           episodes ? done / (double)episodes : 0.0);
    printf("signature batch %016llx episodes %llu\n", (unsigned long long)sig, (unsigned long long)episodes);
  }
  goita_batch_free(batch);
  free(obs), free(mask), free(terminated), free(rewards), free(seat), free(actions), free(seeds);
  return st == GOITA_OK ? 0 : 1;
}

/* ---- The solver on fixed positions ---- */

/* The groups of the solve benchmark: full deals from the dealer's lead, then positions with
 * this many pieces left in hands, reached by seeded random play. */
static const int solve_groups[] = {0, 24, 20, 12};
#define NGROUPS ((int)(sizeof solve_groups / sizeof solve_groups[0]))

static int pieces_in_hands(const goita_round *r) {
  int n = 0;
  for (int s = 0; s < r->players; s++) n += r->size[s];
  return n;
}

/* Case i of a group: a seeded deal in play (teyaku and 5-pawn deals are skipped), played at
 * random down to `left` pieces (0: the deal itself). Returns the next attempt index. */
static uint64_t make_case(goita_round *r, const goita_rules *rules, uint64_t seed, int left, uint64_t attempt) {
  goita_move legal[GOITA_MAX_LEGAL];
  for (;; attempt++) {
    const uint64_t deal_seed = goita_seed_mix(seed ^ goita_seed_mix(attempt + (uint64_t)left * 1000003u));
    goita_round_deal(r, rules, (int)(attempt % (uint64_t)rules->players), deal_seed);
    if (r->phase != GOITA_PHASE_PLAY) continue;
    goita_rng rng;
    goita_rng_seed(&rng, deal_seed);
    while (left && !goita_round_over(r) && pieces_in_hands(r) > left) {
      const int n = goita_round_legal_moves(r, legal);
      goita_round_apply_unchecked(r, legal[goita_rng_below(&rng, (uint32_t)n)]);
    }
    if (!goita_round_over(r) && (!left || pieces_in_hands(r) == left)) return attempt + 1;
  }
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Solves count positions of each group with a table of tt_mb MiB (a new deal each time, so
 * every case starts from an empty table) and prints per-case and per-group figures; with
 * all_moves, every legal move's value too. With list, prints the positions' history strings
 * instead. */
static int bench_solve(uint64_t count, uint64_t seed, const goita_rules *rules, uint64_t tt_mb, bool all_moves,
                       bool list, int threads) {
  goita_solver_pool *pool = NULL;
  if (!list && goita_solver_pool_new(&pool, threads, (size_t)tt_mb << 20) != GOITA_OK) {
    fprintf(stderr, "goita bench: cannot make %d threads with a %llu MiB table each\n", threads,
            (unsigned long long)tt_mb);
    return 1;
  }
  double *ms = malloc(sizeof *ms * (size_t)count);
  if (!ms) {
    goita_solver_pool_free(pool);
    return 1;
  }
  uint64_t sig = 0, all_nodes = 0;
  double all_ms = 0;
  for (int g = 0; g < NGROUPS; g++) {
    const int left = solve_groups[g];
    char group[16];
    snprintf(group, sizeof group, left ? "left%d" : "full", left);
    uint64_t attempt = 0, nodes = 0;
    for (uint64_t i = 0; i < count; i++) {
      goita_round r;
      attempt = make_case(&r, rules, seed, left, attempt);
      if (list) {
        char history[512];
        goita_history_format(&r, history, sizeof history);
        printf("%s\t%llu\t%s\n", group, (unsigned long long)i, history);
        continue;
      }
      goita_solve_options o;
      goita_solve_options_default(&o);
      o.all_moves = all_moves;
      goita_solve_result res;
      goita_solve_parallel(pool, &r, &o, &res);
      ms[i] = res.ms;
      nodes += res.nodes;
      sig = mix_into(sig, res.nodes << 8 ^ (uint64_t)(uint8_t)res.value.lower);
      printf("solve %-6s #%-3llu value %4d  nodes %9llu  %9.3f ms\n", group, (unsigned long long)i,
             res.value.lower, (unsigned long long)res.nodes, res.ms);
    }
    if (list) continue;
    double sum = 0;
    for (uint64_t i = 0; i < count; i++) sum += ms[i];
    all_ms += sum;
    all_nodes += nodes;
    qsort(ms, (size_t)count, sizeof *ms, compare_doubles);
    printf("group %-6s cases %llu  median %.3f ms  mean %.3f ms  max %.3f ms  nodes %llu  %.2fM nodes/s\n",
           group, (unsigned long long)count, ms[count / 2], sum / (double)count, ms[count - 1],
           (unsigned long long)nodes, sum > 0 ? (double)nodes / sum / 1e3 : 0.0);
  }
  if (!list)
    printf("signature solve %016llx nodes %llu  total %.1f ms\n", (unsigned long long)sig,
           (unsigned long long)all_nodes, all_ms);
  free(ms);
  goita_solver_pool_free(pool);
  return 0;
}

/* ---- A computer player on fixed positions ---- */

/* This thread's CPU time; where there is no such clock (WebAssembly), the process's, and at
 * worst the wall clock, never a time read from nothing. */
static double thread_cpu_ms(void) {
  struct timespec ts = {0, 0};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0 && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The wall clock: the time several threads take together. */
static double wall_ms(void) {
  struct timespec ts = {0, 0};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Case i of group left of the player benchmark: a case of the solve benchmark with two or more
 * legal moves. Returns the next attempt index. */
static uint64_t player_case(goita_round *r, const goita_rules *rules, uint64_t seed, int left, uint64_t attempt) {
  goita_move legal[GOITA_MAX_LEGAL];
  do attempt = make_case(r, rules, seed, left, attempt);
  while (goita_round_legal_moves(r, legal) < 2);
  return attempt;
}

/* Prints the player benchmark's positions as "GROUP\tI\tHISTORY" lines, as solve's --list. */
static int list_player_cases(uint64_t count, uint64_t seed, const goita_rules *rules, const int *groups,
                             size_t ngroups) {
  for (size_t g = 0; g < ngroups; g++) {
    char group[16];
    snprintf(group, sizeof group, groups[g] ? "left%d" : "full", groups[g]);
    uint64_t attempt = 0;
    for (uint64_t i = 0; i < count; i++) {
      goita_round r;
      attempt = player_case(&r, rules, seed, groups[g], attempt);
      char history[512];
      goita_history_format(&r, history, sizeof history);
      printf("%s\t%llu\t%s\n", group, (unsigned long long)i, history);
    }
  }
  return 0;
}

/* The player's choice, from the seat to move's view, in positions of the solve groups plus the
 * middle of the round (28 pieces); only positions with two or more legal moves count. Prints
 * each group's CPU time per choice and a signature of the moves chosen. */
static int bench_player(uint64_t count, uint64_t seed, const goita_rules *rules, const char *spec, bool list) {
  static const int groups[] = {0, 28, 24, 20, 12};
  goita_player *player;
  goita_error err;
  if (list) return list_player_cases(count, seed, rules, groups, sizeof groups / sizeof groups[0]);
  if (goita_player_new(&player, spec, &err) != GOITA_OK) {
    fprintf(stderr, "goita bench: %s\n", err.message);
    return 2;
  }
  double *ms = malloc(sizeof *ms * (size_t)count);
  if (!ms) {
    goita_player_free(player);
    return 1;
  }
  uint64_t sig = 0;
  double all_ms = 0, all_max = 0;
  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
    uint64_t attempt = 0, deals = 0, nodes = 0;
    double sum = 0;
    for (uint64_t i = 0; i < count; i++) {
      goita_round r;
      goita_move move;
      attempt = player_case(&r, rules, seed, groups[g], attempt);
      goita_view view;
      goita_round_view(&r, r.turn, &view);
      goita_player_seed(player, goita_seed_mix(seed ^ attempt));
      const double start = thread_cpu_ms();
      goita_player_info info = {0};
      goita_player_choose(player, &view, &move, &info);
      sum += ms[i] = thread_cpu_ms() - start;
      deals += (uint64_t)info.samples;
      nodes += info.nodes;
      sig = mix_into(sig, (uint64_t)move.type << 16 ^ (uint64_t)move.block << 8 ^ (uint64_t)move.attack);
    }
    qsort(ms, (size_t)count, sizeof *ms, compare_doubles);
    char group[16];
    snprintf(group, sizeof group, groups[g] ? "left%d" : "full", groups[g]);
    printf("player %-6s cases %llu  median %.3f ms  mean %.3f ms  max %.3f ms  deals %.1f  nodes %.0f\n", group,
           (unsigned long long)count, ms[count / 2], sum / (double)count, ms[count - 1],
           (double)deals / (double)count, (double)nodes / (double)count);
    all_ms += sum;
    if (ms[count - 1] > all_max) all_max = ms[count - 1];
  }
  printf("signature player %016llx  %s  mean %.3f ms  max %.3f ms (CPU time of one thread)\n",
         (unsigned long long)sig, goita_player_spec(player), all_ms / (double)(count * 5), all_max);
  free(ms);
  goita_player_free(player);
  return 0;
}

/* ---- The solver on sampled deals, as the players use it ---- */

/* The groups of the deals benchmark: positions with this many pieces left in hands. */
static const int deals_groups[] = {24, 20};
#define NDEALS_GROUPS ((int)(sizeof deals_groups / sizeof deals_groups[0]))

/* For count positions of each group, samples `deals` full deals from the view of the seat to
 * move and solves every legal move of each (what `master` and `sampler` do in their exact
 * phase) as one batch of a pool of `threads` threads. Prints deals solved per second of the
 * solver's time (the sampling is not timed): this thread's CPU time with one thread (a pool of
 * one solves in the caller's thread, one deal after another), the wall time with more. */
static int bench_deals(uint64_t count, uint64_t deals, uint64_t seed, const goita_rules *rules, uint64_t tt_mb,
                       int threads) {
  goita_solver_pool *pool = NULL;
  goita_round *sampled = malloc(sizeof *sampled * (size_t)deals);
  goita_solve_result *results = malloc(sizeof *results * (size_t)deals);
  if (!sampled || !results || goita_solver_pool_new(&pool, threads, (size_t)tt_mb << 20) != GOITA_OK) {
    fprintf(stderr, "goita bench: cannot make %d threads with a %llu MiB table each\n", threads,
            (unsigned long long)tt_mb);
    free(sampled);
    free(results);
    return 1;
  }
  uint64_t sig = 0;
  for (int g = 0; g < NDEALS_GROUPS; g++) {
    const int left = deals_groups[g];
    uint64_t attempt = 0, nodes = 0, solved = 0;
    double ms = 0;
    for (uint64_t i = 0; i < count; i++) {
      goita_round r;
      attempt = make_case(&r, rules, seed, left, attempt);
      goita_view v;
      goita_round_view(&r, r.turn, &v);
      goita_rng rng;
      goita_rng_seed(&rng, goita_seed_mix(seed ^ attempt));
      uint64_t n = 0;
      for (; n < deals; n++)
        if (goita_view_sample(&v, &rng, &sampled[n], NULL) != GOITA_OK) break;
      goita_solve_options o;
      goita_solve_options_default(&o);
      o.all_moves = 1;
      const double start = threads == 1 ? thread_cpu_ms() : wall_ms();
      goita_solve_batch(pool, sampled, (size_t)n, &o, results);
      ms += (threads == 1 ? thread_cpu_ms() : wall_ms()) - start;
      for (uint64_t d = 0; d < n; d++) {
        nodes += results[d].nodes;
        sig = mix_into(sig, results[d].nodes << 8 ^ (uint64_t)(uint8_t)results[d].value.lower);
      }
      solved += n;
    }
    printf("deals  left%d  positions %llu  deals %llu  %.3f ms  %.0f deals/s  nodes %llu\n", left,
           (unsigned long long)count, (unsigned long long)solved, ms, ms > 0 ? (double)solved / ms * 1e3 : 0.0,
           (unsigned long long)nodes);
  }
  printf("signature deals %016llx  (%d thread%s, %s time)\n", (unsigned long long)sig, threads,
         threads == 1 ? "" : "s", threads == 1 ? "CPU" : "wall");
  goita_solver_pool_free(pool);
  free(sampled);
  free(results);
  return 0;
}

int cmd_bench(int argc, char **argv) {
  uint64_t rounds = 1000000, seed = 1, count = 20, tt_mb = 64, steps = 10000000, games = 1024, deals = 64,
           threads = 1;
  bool list = false, all_moves = false;
  const char *spec = "expert";
  goita_rules rules;
  goita_rules_default(&rules);
  cli_option tt_mb_option = cli_tt_mb_option(&tt_mb);
  tt_mb_option.scope = "solve deals";
  const cli_option options[] = {
      {"--rounds", CLI_UINT, "N", &rounds, "the rounds to play", .lo = 1, .hi = 1000000000000, .scope = "playout"},
      {"--steps", CLI_UINT, "N", &steps, "the steps to make, over all games", .lo = 1, .hi = 1000000000000,
       .scope = "batch"},
      {"--games", CLI_UINT, "N", &games, "the games of the batch", .lo = 1, .hi = 1 << 20, .scope = "batch"},
      {"--count", CLI_UINT, "N", &count, "the positions of each group", .lo = 1, .hi = 100000,
       .scope = "solve player deals"},
      {"--deals", CLI_UINT, "N", &deals, "the deals sampled at each position", .lo = 1, .hi = 100000,
       .scope = "deals"},
      {"--threads", CLI_UINT, "N", &threads,
       "solve on N threads, each with a table of --tt-mb: each test's root moves (solve), every move of a "
       "position (solve --all-moves) or the deals of a position (deals) shared among them",
       .lo = 1, .hi = GOITA_POOL_MAX_THREADS, .scope = "solve deals"},
      {"--seed", CLI_UINT, "S", &seed, "the seed of the deals and of the random moves", .hi = UINT64_MAX},
      cli_rules_option(&rules),
      tt_mb_option,
      {"--player", CLI_TEXT, "SPEC", &spec, "the level to time (docs/PLAYERS.md)", .scope = "player"},
      {.name = "--all-moves", .kind = CLI_FLAG, .target = &all_moves, .help = "every legal move's value too",
       .scope = "solve"},
      {.name = "--list", .kind = CLI_FLAG, .target = &list,
       .help = "print the cases as history strings instead of measuring: each deal (playout), or each "
               "position with its group and number (solve, player)"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "bench",
      .operands = "[playout|batch|solve|deals|player]",
      .about = "Fixed, seeded workloads on one core, with per-case figures and a final signature line that\n"
               "changes whenever the engine's behaviour changes, not with the machine (docs/BENCHMARKS.md).\n"
               "playout (the default) plays rounds between uniformly random players; batch steps a batched\n"
               "environment (goita/batch.h) with random actions drawn in C; solve runs the exact\n"
               "solver on full deals and on positions with 24, 20 and 12 pieces left in hands; deals solves\n"
               "every move of deals sampled from the mover's view at 24 and 20 pieces left; player times\n"
               "a computer player's choices in such positions (and at 28 pieces left), as CPU time. With\n"
               "--threads, solve and deals share their work among threads, timed by the wall clock.\n",
      .examples = "goita bench playout --rounds 1000000\n"
                  "goita bench batch --games 1024 --steps 10000000\n"
                  "goita bench solve --count 5 --tt-mb 256\n"
                  "goita bench solve --all-moves\n"
                  "goita bench solve --count 2 --list\n"
                  "goita bench deals --count 20 --deals 64\n"
                  "goita bench deals --threads 2\n"
                  "goita bench player --player fast --count 50",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n > 1) return cli_usage_error(&c, "one section, please (got a second: \"%s\")", operands.arg[1]);
  const char *section = operands.n ? operands.arg[0] : "playout";
  const bool known = strcmp(section, "playout") == 0 || strcmp(section, "batch") == 0 ||
                     strcmp(section, "solve") == 0 || strcmp(section, "deals") == 0 || strcmp(section, "player") == 0;
  /* an option of another section would be ignored: say so rather than measure without it */
  const int scoped = known ? cli_check_scope(&c, &operands, section) : -1;
  if (scoped >= 0) return scoped;
  if (strcmp(section, "playout") == 0) return bench_playout(rounds, seed, &rules, list);
  if (strcmp(section, "batch") == 0) return bench_batch(steps, games, seed, &rules);
  if (strcmp(section, "solve") == 0) return bench_solve(count, seed, &rules, tt_mb, all_moves, list, (int)threads);
  if (strcmp(section, "deals") == 0) return bench_deals(count, deals, seed, &rules, tt_mb, (int)threads);
  if (strcmp(section, "player") == 0) return bench_player(count, seed, &rules, spec, list);
  return cli_usage_error(&c, "unknown section \"%s\" (sections: playout, batch, solve, deals, player)", section);
}

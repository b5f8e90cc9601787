/* goita solve: the exact value of a position and of every legal move, as one JSON line
 * (docs/SOLVER.md). The format is relied on by other tools. */
#include <string.h>

#include "cli.h"

/* Writes a value object's fields: "value":V when exact, else "value":null,"lower":L,"upper":U. */
static void print_value(goita_solve_bounds b) {
  if (b.lower == b.upper)
    printf("\"value\":%d", b.lower);
  else
    printf("\"value\":null,\"lower\":%d,\"upper\":%d", b.lower, b.upper);
}

int cmd_solve(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  uint64_t tt_mb = 64, max_nodes = 0, max_ms = 0, threads = 1;
  bool win_loss = false;
  const cli_option options[] = {
      cli_rules_option(&rules),
      cli_tt_mb_option(&tt_mb),
      {.name = "--win-loss", .kind = CLI_FLAG, .target = &win_loss,
       .help = "prove only which side wins (faster); the value is then given as bounds"},
      {"--nodes", CLI_UINT, "N", &max_nodes, "stop after about N nodes and give bounds; 0: no limit",
       .hi = UINT64_MAX},
      {"--ms", CLI_UINT, "T", &max_ms, "stop after about T milliseconds and give bounds; 0: no limit",
       .hi = UINT64_MAX},
      {"--threads", CLI_UINT, "N", &threads,
       "share the moves among N threads, each with a table of --tt-mb (not with a limit)", .lo = 1,
       .hi = GOITA_POOL_MAX_THREADS},
  };
  const cli_command c = {
      .program = "goita",
      .name = "solve",
      .operands = "HISTORY",
      .about = "Solves a position with every hand known: one JSON line with the value of the position and of\n"
               "every legal move, in points for the side of the seat to move (docs/SOLVER.md), the nodes\n"
               "searched and the time; \"complete\":false when a limit stopped the search.\n",
      .notes = "HISTORY is a history string with every hand (docs/RECORDS.md), no x.\n",
      .examples = "goita solve 12345678,12345679,11112345,11112345,s1,113,2p\n"
                  "goita solve --threads 4 12345678,12345679,11112345,11112345,s1\n"
                  "goita solve --win-loss --nodes 2000000 12345678,12345679,11112345,11112345,s1",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const char *history = NULL;
  const int parsed = cli_parse_one_operand(&c, argc, argv, "history string", "name a history string", &history);
  if (parsed >= 0) return parsed;
  if (strchr(history, 'x')) {
    fprintf(stderr, "goita solve: the solver needs every hand; \"%s\" hides pieces (x)\n", history);
    return 1;
  }
  goita_round round;
  goita_error err;
  if (goita_history_parse(&round, &rules, history, &err) != GOITA_OK) {
    fprintf(stderr, "goita solve: %s\n", err.message);
    return 1;
  }
  goita_solve_options solve_options;
  goita_solve_options_default(&solve_options);
  solve_options.all_moves = 1;
  if (win_loss) solve_options.mode = GOITA_SOLVE_WIN_LOSS;
  solve_options.max_nodes = max_nodes;
  solve_options.max_ms = (double)max_ms;
  /* A pool of one solves in this thread as goita_solve does; more threads share the moves. */
  goita_solver_pool *pool;
  const int st = goita_solver_pool_new(&pool, (int)threads, (size_t)tt_mb << 20);
  if (st != GOITA_OK) {
    fprintf(stderr, "goita solve: cannot make %llu threads with a %llu MiB table each: %s\n",
            (unsigned long long)threads, (unsigned long long)tt_mb, goita_strerror(st));
    return 1;
  }
  goita_solve_result res;
  goita_solve_parallel(pool, &round, &solve_options, &res);
  goita_solver_pool_free(pool);

  printf("{");
  print_value(res.value);
  printf(",\"moves\":[");
  for (int i = 0; i < res.nmoves; i++) {
    char token[8];
    goita_move_format(res.moves[i], token, sizeof token);
    printf("%s{\"move\":\"%s\",", i ? "," : "", token);
    print_value(res.move_value[i]);
    printf("}");
  }
  printf("],\"nodes\":%llu,\"ms\":%.3f", (unsigned long long)res.nodes, res.ms);
  if (!res.complete) printf(",\"complete\":false");
  printf("}\n");
  return 0;
}

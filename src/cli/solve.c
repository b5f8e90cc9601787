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

static int usage(void) {
  fprintf(stderr,
          "usage: goita solve [--rules OPTS] [--tt-mb N] [--win-loss] [--nodes N] [--ms T] HISTORY\n");
  return 2;
}

int cmd_solve(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  uint64_t tt_mb = 64, max_nodes = 0, max_ms = 0;
  goita_solve_options options;
  goita_solve_options_default(&options);
  options.all_moves = 1;
  const char *history = NULL;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, &rules)) return 2;
    } else if (strcmp(argv[i], "--tt-mb") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_table_mb("solve", v, &tt_mb)) return 2;
    } else if (strcmp(argv[i], "--nodes") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--nodes", v, &max_nodes)) return 2;
    } else if (strcmp(argv[i], "--ms") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--ms", v, &max_ms)) return 2;
    } else if (strcmp(argv[i], "--win-loss") == 0) {
      options.mode = GOITA_SOLVE_WIN_LOSS;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      fprintf(stderr, "goita solve: unknown option \"%s\"\n", argv[i]);
      return usage();
    } else if (history) {
      fprintf(stderr, "goita solve: one history string, please (got a second: \"%s\")\n", argv[i]);
      return 2;
    } else {
      history = argv[i];
    }
  }
  if (!history) return usage();
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
  options.max_nodes = max_nodes;
  options.max_ms = (double)max_ms;
  goita_solver *solver;
  if (goita_solver_new(&solver, (size_t)tt_mb << 20) != GOITA_OK) {
    fprintf(stderr, "goita solve: cannot allocate a %llu MiB table\n", (unsigned long long)tt_mb);
    return 1;
  }
  goita_solve_result res;
  goita_solve(solver, &round, &options, &res);
  goita_solver_free(solver);

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

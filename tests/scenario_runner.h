/* Runner of the rules scenario files. */
#ifndef GOITA_SCENARIO_RUNNER_H
#define GOITA_SCENARIO_RUNNER_H

typedef struct scenario_stats {
  int cases;
  int failures;
} scenario_stats;

/* Runs every case of one scenario file, printing each failure with file and line. */
scenario_stats scenario_run_file(const char *path);

#endif

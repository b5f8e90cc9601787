/* Runs the rules scenario files (the .scn files in tests/scenarios), one test per file. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "scenario_runner.h"

static void run(const char *file, int min_cases) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOITA_SCENARIO_DIR, file);
  const scenario_stats s = scenario_run_file(path);
  cr_expect_eq(s.failures, 0, "%s: %d failed expectations (see the lines above)", file, s.failures);
  cr_expect_geq(s.cases, min_cases, "%s: only %d cases ran", file, s.cases);
}

Test(scenarios, deal) { run("deal.scn", 25); }
Test(scenarios, play) { run("play.scn", 30); }
Test(scenarios, scoring) { run("scoring.scn", 6); }
Test(scenarios, game) { run("game.scn", 12); }
Test(scenarios, variants) { run("variants.scn", 9); }
Test(scenarios, draw) { run("draw.scn", 15); }
Test(scenarios, solo) { run("solo.scn", 7); }
Test(scenarios, readings) { run("readings.scn", 16); }

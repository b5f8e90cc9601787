/* The koshogi command's engine mode (docs/KOSHOGI.md, "The engine"): the USI protocol over
 * standard input and output, and the time manager that turns a clock into a deadline. */
#ifndef KOSHOGI_ENGINE_H
#define KOSHOGI_ENGINE_H

#include <stdbool.h>

#include "koshogi/koshogi.h"

/* koshogi engine [--help]: reads USI commands until quit or the end of input. */
int cmd_engine(int argc, char **argv);

/* From cli.c: a finished game's result in words. */
const char *result_name(const ks_game *g);

/* What "go" said about time, in milliseconds; -1 where it said nothing. */
typedef struct engine_clock {
  long time[2], inc[2]; /* btime/wtime, binc/winc, by ks_color */
  long byoyomi;
  long movetime;
} engine_clock;

/* The time for one move of color under clock: no new iteration after *soft ms, the search
 * cut at *hard ms, which leaves a margin for the reply to reach the referee before the
 * clock (with its byoyomi) runs out. Returns false when the clock says nothing of time. */
bool engine_budget(const engine_clock *clock, int color, int *soft, int *hard);

#endif

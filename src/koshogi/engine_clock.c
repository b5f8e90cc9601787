/* The engine's time manager: from btime/wtime, binc/winc, byoyomi or movetime to a soft and a
 * hard deadline for one move. It must never lose on time, so the hard deadline keeps a margin
 * for the search to notice it (every 64 nodes), for the reply to be written and read, and for
 * a loaded machine's scheduling. */
#include "engine.h"

/* The margin kept out of `available` ms: 150 ms and a fifth (a second at most), or two thirds
 * of a small clock. A loaded machine can hold a process back for a hundred milliseconds and
 * more: on two shared cores a search with 300 ms on the wall clock had 50 ms of processor. */
static long margin(long available) {
  long m = 150 + available / 5;
  if (m > 1000) m = 1000;
  return m < available / 2 ? m : available * 2 / 3;
}

static int clamp_ms(long ms) { return ms < 1 ? 1 : ms > 1000000000 ? 1000000000 : (int)ms; }

bool engine_budget(const engine_clock *clock, int color, int *soft, int *hard) {
  if (clock->movetime >= 0) { /* a time to spend, not a clock to lose on: a small margin */
    const long m = clock->movetime / 10 < 20 ? clock->movetime / 10 : 20;
    *hard = clamp_ms(clock->movetime - m);
    *soft = *hard;
    return true;
  }
  const long time = clock->time[color], inc = clock->inc[color] > 0 ? clock->inc[color] : 0;
  const long byoyomi = clock->byoyomi > 0 ? clock->byoyomi : 0;
  if (time < 0 && byoyomi == 0 && inc == 0) return false;
  const long main_time = time > 0 ? time : 0;
  /* Under byoyomi the main time and the byoyomi can both be spent on this move; the increment
   * comes only after it. */
  const long available = main_time + byoyomi;
  const long limit = available - margin(available);
  /* a fortieth of the main time, most of the increment, and the byoyomi that would be lost */
  long target = main_time / 40 + inc * 3 / 4 + byoyomi * 9 / 10;
  if (target > limit) target = limit;
  long cut = target * 4;
  if (cut > limit) cut = limit;
  *soft = clamp_ms(target);
  *hard = clamp_ms(cut);
  return true;
}

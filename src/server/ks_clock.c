/* The Ko shogi table's clock: main time, then byoyomi per move (ks_clock.h). */
#include "ks_clock.h"

int srv_ks_clock_init(srv_ks_clock *clock, int64_t main_ms, int64_t byoyomi_ms) {
  if (main_ms < 0 || byoyomi_ms < 0) return -1;
  clock->main_ms = main_ms;
  clock->byoyomi_ms = byoyomi_ms;
  clock->left_ms[0] = clock->left_ms[1] = main_ms;
  clock->running = -1;
  clock->turn_start = 0;
  return 0;
}

bool srv_ks_clock_timed(const srv_ks_clock *clock) { return clock->main_ms > 0 || clock->byoyomi_ms > 0; }

void srv_ks_clock_start(srv_ks_clock *clock, int side, int64_t now) {
  clock->running = side;
  clock->turn_start = now;
}

/* Charges the running side for the time since its turn began: the main time pays first, and
 * what goes beyond it was byoyomi, which is not carried over to the next move. */
static void charge(srv_ks_clock *clock, int64_t now) {
  int64_t used = now - clock->turn_start;
  if (used < 0) used = 0;
  int64_t *left = &clock->left_ms[clock->running];
  *left = used >= *left ? 0 : *left - used;
}

void srv_ks_clock_stop(srv_ks_clock *clock, int64_t now) {
  if (clock->running < 0) return;
  charge(clock, now);
  clock->running = -1;
}

int64_t srv_ks_clock_deadline(const srv_ks_clock *clock) {
  if (clock->running < 0 || !srv_ks_clock_timed(clock)) return INT64_MAX;
  return clock->turn_start + clock->left_ms[clock->running] + clock->byoyomi_ms;
}

bool srv_ks_clock_flagged(const srv_ks_clock *clock, int64_t now) { return now >= srv_ks_clock_deadline(clock); }

int srv_ks_clock_press(srv_ks_clock *clock, int64_t now) {
  if (clock->running < 0 || srv_ks_clock_flagged(clock, now)) return -1;
  charge(clock, now);
  srv_ks_clock_start(clock, 1 - clock->running, now);
  return 0;
}

void srv_ks_clock_show(const srv_ks_clock *clock, int side, int64_t now, int64_t *main_left, int64_t *byoyomi_left) {
  int64_t left = clock->left_ms[side], byoyomi = clock->byoyomi_ms;
  if (side == clock->running) {
    int64_t used = now - clock->turn_start;
    if (used < 0) used = 0;
    if (used <= left) {
      left -= used;
    } else {
      byoyomi -= used - left;
      left = 0;
      if (byoyomi < 0) byoyomi = 0;
    }
  }
  *main_left = left;
  *byoyomi_left = byoyomi;
}

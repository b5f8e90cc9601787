/* A Ko shogi table's chess clock as shogi servers keep it (docs/KOSHOGI.md "Online"): each side
 * has a main time; once it is spent, every move must be made within the byoyomi, which starts
 * afresh with each move. The server's clock is the only one that counts: a flag falls when the
 * server's own time passes the running side's deadline, whatever the clients show. Pure: times
 * come in as arguments, so tests drive it without waiting. */
#ifndef GOITA_SERVER_KS_CLOCK_H
#define GOITA_SERVER_KS_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct srv_ks_clock {
  int64_t main_ms;      /* each side's main time at the start */
  int64_t byoyomi_ms;   /* the time for every move once the main time is spent */
  int64_t left_ms[2];   /* main time left per side (KS_BLACK, KS_WHITE), as of turn_start */
  int running;          /* the side whose time runs, -1 when stopped */
  int64_t turn_start;   /* when the running side's turn began */
} srv_ks_clock;

/* Sets both sides' main time and the byoyomi; the clock is stopped. A main time and byoyomi both
 * 0 is an untimed game. Returns 0, or -1 for a negative time. */
int srv_ks_clock_init(srv_ks_clock *clock, int64_t main_ms, int64_t byoyomi_ms);
/* Whether the game has a clock at all. */
bool srv_ks_clock_timed(const srv_ks_clock *clock);
/* Starts a side's time at now. */
void srv_ks_clock_start(srv_ks_clock *clock, int side, int64_t now);
/* Stops the clock at now, charging the running side for its time (the game ended). */
void srv_ks_clock_stop(srv_ks_clock *clock, int64_t now);
/* The instant the running side's flag falls (its main time left plus one byoyomi after its turn
 * began); INT64_MAX when the clock is stopped or untimed. */
int64_t srv_ks_clock_deadline(const srv_ks_clock *clock);
/* Whether the running side's flag has fallen by now. */
bool srv_ks_clock_flagged(const srv_ks_clock *clock, int64_t now);
/* The running side has moved at now: charges it and starts the other side. Returns 0, or -1 when
 * its flag had fallen already (nothing changes: the move came too late). */
int srv_ks_clock_press(srv_ks_clock *clock, int64_t now);
/* What a side has at now, for display: its main time left and, once that is spent, the byoyomi
 * left for the current move (the full byoyomi when it is not its turn). Never negative. */
void srv_ks_clock_show(const srv_ks_clock *clock, int side, int64_t now, int64_t *main_left, int64_t *byoyomi_left);

#endif

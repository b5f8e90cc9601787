/* Time controls (hub_clock.c, docs/SERVER.md "Time controls"): each person's time bank, spent
 * first, then the table's turn_seconds afresh at every move (byoyomi); when both are gone the
 * turn timer runs out and the table's choice is played: a pass when one is allowed
 * (pass-first), or the computer's move. The hub keeps the clocks, saved with the table's
 * options (hub_options.h). */
#ifndef GOITA_SERVER_HUB_CLOCK_H
#define GOITA_SERVER_HUB_CLOCK_H

#include "hub_state.h"

/* Gives a new table its time control (every bank full), saved with its options; returns 0, or
 * -1 with the store's error (the table keeps it in memory all the same). */
int hub_clock_setup(srv_hub *h, hub_table *t, int bank_seconds, int on_timeout);

/* Fills every seat's bank, for a game that starts. */
void hub_clock_start(hub_table *t);

/* How long the seat to move may think from now on: its bank and the byoyomi, in ms; -1 when
 * the table has no turn timer. */
int64_t hub_clock_allowance_ms(const hub_table *t);

/* A person's move, which arrived at moved_ms, was saved at a timed turn: the time taken from the
 * timer's arming to its arrival comes out of the seat's bank (the byoyomi covers the rest),
 * saved when it changed. */
void hub_clock_moved(srv_hub *h, hub_table *t, int seat, int64_t moved_ms);

/* The seat to move ran out of time: its bank is empty (saved). Returns whether the table plays
 * a pass for it, in *pass, rather than the computer's move. */
bool hub_clock_ran_out(srv_hub *h, hub_table *t, goita_move *pass);

#endif

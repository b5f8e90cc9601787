/* The game at a Ko shogi table (docs/KOSHOGI.md "Online"): two seats, moves as notation strings
 * checked by libkoshogi, the clock (ks_clock.h), resignation, draw offers and the end by time.
 * No network, no storage and no time of its own: the caller passes who asks and when, and gets
 * a coded error (protocol.h SRV_ERRORS) for what the server refuses, so the same core serves a
 * table in the hub and the tests that drive it with a fake clock. */
#ifndef GOITA_SERVER_KS_TABLE_H
#define GOITA_SERVER_KS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "koshogi/koshogi.h"
#include "ks_clock.h"
#include "protocol.h"

/* How a game ended, beyond the rules' own reasons (ks_reason). */
typedef enum srv_ks_end {
  SRV_KS_END_NONE = 0,
  SRV_KS_END_RULES,      /* the rules decided (game.reason says how: defeat, repetition, ...) */
  SRV_KS_END_RESIGNATION,
  SRV_KS_END_TIME,       /* the side to move's flag fell by the server's clock */
  SRV_KS_END_AGREEMENT   /* a draw offered and accepted */
} srv_ks_end;

typedef struct srv_ks_table {
  ks_game game;
  int64_t seats[2];   /* the player at KS_BLACK and KS_WHITE; 0 for an empty seat */
  srv_ks_clock clock;
  bool started;
  int draw_offer;     /* the side whose draw offer stands, -1 for none */
  int result;         /* ks_result once over, KS_ONGOING before */
  int end;            /* srv_ks_end */
} srv_ks_table;

/* Sets up a table with empty seats under a clock (ks_clock.h: both 0 for untimed). Returns 0, or
 * -1 (a negative time or no memory) with the reason in err. */
int srv_ks_table_init(srv_ks_table *table, int64_t main_ms, int64_t byoyomi_ms, char *err, size_t errsize);
void srv_ks_table_free(srv_ks_table *table);
/* Seats a player at a side before the game starts. Returns SRV_ERROR_NONE, or the refusal:
 * SEAT_INVALID (not 0 or 1), TABLE_STARTED, SEAT_TAKEN, ALREADY_SEATED. */
srv_error srv_ks_table_sit(srv_ks_table *table, int side, int64_t player);
/* Starts the game at now with Black's clock running. SEATS_EMPTY without two players,
 * TABLE_STARTED when started already. */
srv_error srv_ks_table_start(srv_ks_table *table, int64_t now);
/* The side a player sits at, -1 for someone not seated (a spectator). */
int srv_ks_table_side_of(const srv_ks_table *table, int64_t player);
/* Plays a player's move, given in notation (docs/KOSHOGI.md "Notation"), at now. Refusals:
 * NOT_SEATED (a spectator), NOT_PLAYING (not started or over; also when the mover's flag fell
 * before the move came: the game is then lost on time), WRONG_SEAT (the other side's turn),
 * ILLEGAL_MOVE with libkoshogi's reason in err. */
srv_error srv_ks_table_move(srv_ks_table *table, int64_t player, const char *text, int64_t now, char *err,
                            size_t errsize);
/* A seated player resigns at now (on either side's turn). NOT_SEATED, NOT_PLAYING. */
srv_error srv_ks_table_resign(srv_ks_table *table, int64_t player, int64_t now);
/* A seated player offers a draw at now; the offer stands until the opponent accepts it, declines it or
 * plays a move. NOT_SEATED, NOT_PLAYING. */
srv_error srv_ks_table_offer_draw(srv_ks_table *table, int64_t player, int64_t now);
/* The opponent of the side offering accepts (the game is drawn, no contest) or declines.
 * NOT_SEATED, NOT_PLAYING, DRAW_NOT_OFFERED (no offer by the other side stands). */
srv_error srv_ks_table_answer_draw(srv_ks_table *table, int64_t player, bool accept, int64_t now);
/* Ends the game on time when the side to move's flag has fallen by now: returns true when this
 * call ended it. The hub calls it at srv_ks_clock_deadline(&table->clock). */
bool srv_ks_table_tick(srv_ks_table *table, int64_t now);
/* Whether the game is over. */
bool srv_ks_table_over(const srv_ks_table *table);
/* Takes back the last move of a game that is not over or that this move ended, restoring the
 * clock and the draw offer as they were before it (the caller kept them): the move could not be
 * stored, so it must not stand. Returns 0, -1 when out of memory (the move then stands). */
int srv_ks_table_take_back(srv_ks_table *table, const srv_ks_clock *clock, int draw_offer);
/* A restored table (docs/KOSHOGI.md "Online"): replays a stored move by the rules alone, before
 * the clock is set. ILLEGAL_MOVE with the reason in err, SERVER_BUSY when out of memory. */
srv_error srv_ks_table_replay(srv_ks_table *table, const char *text, char *err, size_t errsize);
/* Starts a restored table with both seats taken: each side's main time as stored with the last
 * move (both full before any), the side to move's turn beginning at now (the time the server was
 * down is nobody's), or the game ended by the rules when its last stored move ended it. */
void srv_ks_table_resume(srv_ks_table *table, const int64_t left_ms[2], int64_t now);

#endif

/* One round of Goita (RULES.md 3-5): the deal, the 5-pawn decisions, play and scoring.
 * goita_round is a plain value: copy it freely; nothing in it points elsewhere. Generating and
 * applying moves allocate nothing. */
#ifndef GOITA_ROUND_H
#define GOITA_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "goita/piece.h"
#include "goita/rules.h"
#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum goita_move_type {
  GOITA_MOVE_PASS = 0,   /* decline to defend */
  GOITA_MOVE_PLAY = 1,   /* two pieces: block (face-down on a lead, else a defence) and attack */
  GOITA_MOVE_REDEAL = 2, /* 5-pawn decision (RULES.md 3.3): redeal */
  GOITA_MOVE_GO = 3      /* 5-pawn decision: play the round */
} goita_move_type;

/* A move. block and attack are marks (1-9) of a play: the engine lists kings as 8 and accepts
 * 8 or 9, placing the named physical king when the seat holds it and the other one otherwise. */
typedef struct goita_move {
  uint8_t type;
  uint8_t seat;
  uint8_t block;
  uint8_t attack;
} goita_move;

typedef enum goita_phase {
  GOITA_PHASE_DECIDE = 0, /* a 5-pawn hand: a seat must choose redeal or play */
  GOITA_PHASE_PLAY = 1,
  GOITA_PHASE_OVER = 2
} goita_phase;

typedef enum goita_end {
  GOITA_END_NONE = 0,
  GOITA_END_FINISH,       /* a player placed their last piece */
  GOITA_END_TEYAKU,       /* 6, 7 or 8 pawns at the deal */
  GOITA_END_DOUBLE_GOSHI, /* 5 pawns in both partners' hands */
  GOITA_END_REDEAL        /* 5-pawn decision: deal again, nothing scored */
} goita_end;

typedef struct goita_round_result {
  goita_end end;
  int8_t winner;   /* seat that won (finisher, teyaku or first 5-pawn holder); -1 for a redeal */
  int16_t points;  /* points the winner's side scores */
  bool doubled;    /* a finish led as a pair of one kind */
  bool wins_game;  /* double_goshi=win: the winner's side wins the game at once */
} goita_round_result;

/* Longest possible record of one round: 13 plays, 3 passes after each, 2 decisions. */
#define GOITA_MAX_LOG 64
/* Most legal moves in any position: 8 face-down kinds x 8 attack kinds. */
#define GOITA_MAX_LEGAL 64

typedef struct goita_round {
  goita_rules rules;
  uint64_t deal_seed; /* seed of the shuffle, 0 when the hands were given */
  int8_t players;
  int8_t dealer;
  int8_t turn;        /* seat to move (the deciding partner in the decide phase) */
  int8_t attacker;    /* seat of the last attack */
  uint8_t phase;      /* goita_phase */
  uint8_t attack;     /* kind to answer; GOITA_NONE when the seat to move leads */
  uint8_t passes;     /* passes since the last attack */
  uint8_t kings_up;   /* kings face-up on the table */
  uint8_t hand[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]; /* pieces in hand, counted per kind */
  uint16_t held[GOITA_MAX_SEATS];  /* bit k set when hand[seat][k] > 0 */
  uint8_t kings[GOITA_MAX_SEATS];  /* physical kings in hand: bit 0 王, bit 1 玉 */
  uint8_t size[GOITA_MAX_SEATS];   /* pieces in hand */
  uint8_t plays[GOITA_MAX_SEATS];  /* plays made (pieces placed / 2) */
  uint8_t block_row[GOITA_MAX_SEATS][GOITA_MAX_PLAYS];  /* marks; face-down where flagged */
  uint8_t attack_row[GOITA_MAX_SEATS][GOITA_MAX_PLAYS]; /* marks, all face-up */
  uint8_t face_down[GOITA_MAX_SEATS];                   /* bit i: block_row[i] is face-down */
  uint8_t deal[GOITA_MAX_SEATS][GOITA_MAX_HAND];        /* the hands dealt, marks ascending */
  uint8_t aside[8];      /* the marks set aside unseen (goita_rules_set_aside) */
  uint8_t goshi;         /* bit s: seat s showed a 5-pawn hand */
  uint8_t deciders;      /* bit s: seat s still has to decide */
  uint8_t redeal_votes;  /* bit s: seat s chose redeal */
  uint8_t go_votes;      /* bit s: seat s chose to play */
  uint8_t nlog;
  uint64_t lead_log;    /* bit i: log[i] was a lead, its block placed face-down */
  goita_move log[GOITA_MAX_LOG];
  goita_round_result result;
} goita_round;

/* Returns the seat after seat in turn order. */
static inline int goita_next_seat(const goita_round *round, int seat) {
  return seat + 1 == round->players ? 0 : seat + 1;
}

/* Shuffles the set with a generator seeded by seed, deals every seat its hand (and, with
 * 2 players, sets 8 aside), then applies the deal rules (teyaku, 5 pawns) of RULES.md 3.
 * Returns GOITA_OK or GOITA_EINVAL for invalid rules or dealer. */
GOITA_API int goita_round_deal(goita_round *round, const goita_rules *rules, int dealer, uint64_t seed);

/* Like goita_round_deal with the hands given as marks (hands[seat][i], each hand exactly
 * the rules' hand size). Marks are 1-9 (8 王, 9 玉); counts must fit the set. Returns
 * GOITA_OK or GOITA_EDEAL with err saying which seat and piece are wrong. */
GOITA_API int goita_round_setup(goita_round *round, const goita_rules *rules, int dealer,
                      const uint8_t hands[][GOITA_MAX_HAND], goita_error *err);

/* Writes every legal move of the seat to move into out (room for GOITA_MAX_LEGAL) and
 * returns their number: 0 once the round is over. Plays come ordered by block, then attack,
 * with kings as mark 8; a pass, when allowed, comes first. */
GOITA_API int goita_round_legal_moves(const goita_round *round, goita_move *out);

/* Returns GOITA_OK when move is legal now, else GOITA_EOVER, GOITA_ETURN or GOITA_EILLEGAL
 * with err saying why. */
GOITA_API int goita_round_check(const goita_round *round, goita_move move, goita_error *err);

/* Checks then applies a move. On error the round is unchanged. */
GOITA_API int goita_round_apply(goita_round *round, goita_move move, goita_error *err);

/* Applies a move known to be legal (from goita_round_legal_moves) without checking it:
 * the fast path for playouts and search. */
GOITA_API void goita_round_apply_unchecked(goita_round *round, goita_move move);

/* Returns true once the round has ended (see round->result). */
static inline bool goita_round_over(const goita_round *round) {
  return round->phase == GOITA_PHASE_OVER;
}

/* Returns whether the seat to move leads (places a piece face-down then attacks). */
static inline bool goita_round_leading(const goita_round *round) {
  return round->phase == GOITA_PHASE_PLAY && round->attack == GOITA_NONE;
}

/* Move constructors. */
static inline goita_move goita_move_pass(int seat) {
  goita_move m = {GOITA_MOVE_PASS, (uint8_t)seat, 0, 0};
  return m;
}
static inline goita_move goita_move_play(int seat, int block, int attack) {
  goita_move m = {GOITA_MOVE_PLAY, (uint8_t)seat, (uint8_t)block, (uint8_t)attack};
  return m;
}
static inline goita_move goita_move_decide(int seat, bool redeal) {
  goita_move m = {(uint8_t)(redeal ? GOITA_MOVE_REDEAL : GOITA_MOVE_GO), (uint8_t)seat, 0, 0};
  return m;
}

/* Returns whether two moves are the same move of the game (kings 8 and 9 compare equal). */
GOITA_API bool goita_move_equal(goita_move a, goita_move b);

#ifdef __cplusplus
}
#endif
#endif

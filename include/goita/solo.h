/* The solo / co-operative memory game "Gardes" (RULES.md 9) as a small state machine. */
#ifndef GOITA_SOLO_H
#define GOITA_SOLO_H

#include <stdbool.h>
#include <stdint.h>

#include "goita/piece.h"
#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOITA_SOLO_ROWS 4
#define GOITA_SOLO_COLS 8
#define GOITA_SOLO_CELLS 32
#define GOITA_SOLO_MAX_SCORE 76

typedef enum goita_solo_phase {
  GOITA_SOLO_TURN = 0,   /* turn two face-down pieces face-up */
  GOITA_SOLO_CHOOSE = 1, /* three of a kind visible: choose the pair to take */
  GOITA_SOLO_REMOVE = 2, /* no pair: remove one piece (visible or face-down) to the discard */
  GOITA_SOLO_OVER = 3
} goita_solo_phase;

typedef struct goita_solo {
  uint8_t cell[GOITA_SOLO_CELLS]; /* marks; 0 = empty */
  uint32_t guards;  /* cells holding a guard (face-up until paired) */
  uint32_t turned;  /* cells turned face-up this turn */
  uint8_t phase;
  uint8_t turns;
  int16_t score;    /* sum of the 1-5 values of the pieces taken in pairs */
  uint8_t taken[GOITA_KIND_SLOTS];   /* pieces taken in pairs, per kind */
  uint8_t discard[GOITA_KIND_SLOTS]; /* the discard, per kind (public) */
} goita_solo;

/* The four corner cells where the guards stand. */
extern const uint8_t goita_solo_corners[4];

/* Returns the 1-5 value of a kind in the solo game (king 5 ... pawn 1). */
int goita_solo_value(int kind);

/* Deals a new game from seed: four guards of four different kinds at the corners (redrawn
 * until they differ), the other 28 pieces face-down. */
void goita_solo_start(goita_solo *solo, uint64_t seed);

/* Sets up a game from a full grid of 32 marks whose corner cells hold the guards.
 * Returns GOITA_EDEAL when the pieces are not exactly the set or the guards repeat a kind. */
int goita_solo_setup(goita_solo *solo, const uint8_t grid[GOITA_SOLO_CELLS], goita_error *err);

/* Turns the face-down pieces at cells a and b (when one face-down piece is left, pass it
 * as both a and b), then takes the pairs now visible. Moves to GOITA_SOLO_CHOOSE when three
 * of a kind are visible, to GOITA_SOLO_REMOVE when nothing paired. */
int goita_solo_turn(goita_solo *solo, int a, int b, goita_error *err);

/* In GOITA_SOLO_CHOOSE: takes the pieces at cells a and b (two of the three visible). */
int goita_solo_choose(goita_solo *solo, int a, int b, goita_error *err);

/* In GOITA_SOLO_REMOVE: removes the piece at cell (visible or face-down) to the discard. */
int goita_solo_remove(goita_solo *solo, int cell, goita_error *err);

/* Returns whether cell is face-up now (a guard or a piece turned this turn). */
bool goita_solo_visible(const goita_solo *solo, int cell);

/* Returns the number of face-down pieces on the grid. */
int goita_solo_face_down(const goita_solo *solo);

/* Copies what the player may see: the grid with face-down pieces as 0 (empty cells are
 * told apart by goita_solo_occupied). */
void goita_solo_view(const goita_solo *solo, uint8_t grid[GOITA_SOLO_CELLS]);

/* Returns a bit set of the cells that hold a piece. */
uint32_t goita_solo_occupied(const goita_solo *solo);

#ifdef __cplusplus
}
#endif
#endif

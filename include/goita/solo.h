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
  uint32_t shown;   /* cells turned in the latest turn: the player saw them, even when the turn
                       ended at once and they went face-down again */
  uint8_t phase;
  uint8_t turns;
  int16_t score;    /* sum of the 1-5 values of the pieces taken in pairs */
  uint8_t taken[GOITA_KIND_SLOTS];   /* pieces taken in pairs, per kind */
  uint8_t discard[GOITA_KIND_SLOTS]; /* the discard, per kind (public) */
} goita_solo;

/* The four corner cells where the guards stand. */
extern const uint8_t goita_solo_corners[4];

/* Returns the 1-5 value of a kind in the solo game (king 5 ... pawn 1). */
GOITA_API int goita_solo_value(int kind);

/* Deals a new game from seed: four guards of four different kinds at the corners (redrawn
 * until they differ), the other 28 pieces face-down. */
GOITA_API void goita_solo_start(goita_solo *solo, uint64_t seed);

/* Sets up a game from a full grid of 32 marks whose corner cells hold the guards.
 * Returns GOITA_EDEAL when the pieces are not exactly the set or the guards repeat a kind. */
GOITA_API int goita_solo_setup(goita_solo *solo, const uint8_t grid[GOITA_SOLO_CELLS], goita_error *err);

/* Turns the face-down pieces at cells a and b (when one face-down piece is left, pass it
 * as both a and b), then takes the pairs now visible. Moves to GOITA_SOLO_CHOOSE when three
 * of a kind are visible, to GOITA_SOLO_REMOVE when nothing paired. */
GOITA_API int goita_solo_turn(goita_solo *solo, int a, int b, goita_error *err);

/* In GOITA_SOLO_CHOOSE: takes the pieces at cells a and b (two of the three visible). */
GOITA_API int goita_solo_choose(goita_solo *solo, int a, int b, goita_error *err);

/* In GOITA_SOLO_REMOVE: removes the piece at cell (visible or face-down) to the discard. */
GOITA_API int goita_solo_remove(goita_solo *solo, int cell, goita_error *err);

/* Returns whether cell is face-up now (a guard or a piece turned this turn). */
GOITA_API bool goita_solo_visible(const goita_solo *solo, int cell);

/* Returns the number of face-down pieces on the grid. */
GOITA_API int goita_solo_face_down(const goita_solo *solo);

/* Copies what the player may see: the grid with face-down pieces as 0 (empty cells are
 * told apart by goita_solo_occupied). */
GOITA_API void goita_solo_view(const goita_solo *solo, uint8_t grid[GOITA_SOLO_CELLS]);

/* Returns a bit set of the cells that hold a piece. */
GOITA_API uint32_t goita_solo_occupied(const goita_solo *solo);

/* What a player with perfect memory knows beyond the view: the mark of every face-down piece
 * it has seen (0 = never seen). */
typedef struct goita_solo_memory {
  uint8_t mark[GOITA_SOLO_CELLS];
} goita_solo_memory;

/* Updates a memory after the start and after every step: records the guards, the pieces shown
 * by the latest turn and the pieces visible now, and forgets emptied cells. Reads only what the
 * player has seen. Start from a zeroed memory. */
GOITA_API void goita_solo_remember(goita_solo_memory *memory, const goita_solo *solo);

/* One step of the game: turn cells a and b, choose the pair a and b, or remove cell a. */
typedef struct goita_solo_action {
  uint8_t phase; /* the phase it is for: GOITA_SOLO_TURN, _CHOOSE or _REMOVE */
  int8_t a, b;   /* cells (b is a again when one cell is named) */
  double value;  /* the expected points still to come after this step, as estimated */
} goita_solo_action;

/* Chooses the step of a perfect-memory player: each possible step (told apart by what the player
 * knows, not by cell) is valued by `rollouts` simulated continuations of a base strategy over
 * the unseen pieces, and the best is taken. Reads only the view and the memory; the same seed
 * gives the same step. Returns GOITA_ESTATE when the game is over. */
GOITA_API int goita_solo_advise(const goita_solo *solo, const goita_solo_memory *memory, uint64_t seed, int rollouts,
                      goita_solo_action *action, goita_error *err);

/* Applies an action (goita_solo_turn, _choose or _remove by its phase). */
GOITA_API int goita_solo_apply(goita_solo *solo, const goita_solo_action *action, goita_error *err);

/* Plays a whole game from its current state with goita_solo_advise and returns the final score. */
GOITA_API int goita_solo_play_best(goita_solo *solo, uint64_t seed, int rollouts);

#ifdef __cplusplus
}
#endif
#endif

/* The memory game as a perfect-memory player sees it: counts per kind, not cells. Face-down
 * pieces of one kind that the player has not seen are interchangeable, so this is all that
 * matters for its choices. Kept apart from the cells so that tests can run it on reduced sets. */
#ifndef GOITA_SOLO_INTERNAL_H
#define GOITA_SOLO_INTERNAL_H

#include <stdbool.h>

#include "goita/piece.h"
#include "goita/rng.h"

typedef struct goita__solo_knowledge {
  int8_t unseen[GOITA_KIND_SLOTS]; /* face-down pieces never seen */
  int8_t known[GOITA_KIND_SLOTS];  /* face-down pieces seen (in the remove phase: the turned ones too) */
  int8_t guard[GOITA_KIND_SLOTS];  /* guards still on the grid */
} goita__solo_knowledge;

/* A step told apart by knowledge. Pieces are named by kind, 0 = a piece never seen. */
typedef enum goita__solo_step_type {
  GOITA__SOLO_TURN = 0,        /* turn x and y (one piece when single) */
  GOITA__SOLO_KEEP_GUARD = 1,  /* three of a kind: take the two turned pieces */
  GOITA__SOLO_TAKE_GUARD = 2,  /* three of a kind: take the guard and one turned piece */
  GOITA__SOLO_REMOVE_GUARD = 3, /* remove the guard of kind x */
  GOITA__SOLO_REMOVE_PIECE = 4 /* remove a face-down (or just turned) piece x */
} goita__solo_step_type;

typedef struct goita__solo_step {
  uint8_t type;
  uint8_t x, y;
  bool single;
} goita__solo_step;

/* The phases of the knowledge game: turning, choosing among three of `choose_kind`, removing. */
typedef struct goita__solo_position {
  goita__solo_knowledge k;
  uint8_t phase; /* GOITA_SOLO_TURN, _CHOOSE or _REMOVE */
  uint8_t choose_kind;
} goita__solo_position;

/* Lists the steps possible in a position; returns how many (at most 64). */
int goita__solo_steps(const goita__solo_position *p, goita__solo_step *steps);

/* Plays one step (drawing the kinds of unseen pieces from rng) and returns the points scored. */
int goita__solo_play(goita__solo_position *p, const goita__solo_step *step, goita_rng *rng);

/* The simple strategy the rollouts follow. */
goita__solo_step goita__solo_base_step(const goita__solo_position *p);

/* Chooses the best step by `rollouts` continuations of the base strategy per step (the same
 * random draws for every step); stores the estimated points to come in *value. */
goita__solo_step goita__solo_best_step(const goita__solo_position *p, uint64_t seed, int rollouts, double *value);

/* Returns whether the game is over (no face-down piece left). */
bool goita__solo_over(const goita__solo_position *p);

#endif

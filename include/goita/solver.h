/* The exact solver: the value of a round when every hand is known.
 *
 * The value of a position is the round score from the point of view of the seat to move:
 * the points of the finish, positive when that seat's team scores it, negative when the
 * other team does, under perfect play by everyone. With 3 players each seat scores alone and
 * the value is that of the seat to move against the two others playing together ("paranoid"
 * reading): +points when it finishes, -points when either other seat does.
 *
 * A solver owns a transposition table of a size the caller chooses; solving allocates
 * nothing. The table is kept between solves of positions of the same deal (later positions
 * of one round reuse what earlier solves proved) and forgotten for another deal. A solver is
 * used by one thread at a time; give each thread its own. */
#ifndef GOITA_SOLVER_H
#define GOITA_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "goita/status.h"
#include "goita/round.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goita_solver goita_solver;

/* What a solve computes. */
typedef enum goita_solve_mode {
  GOITA_SOLVE_EXACT = 0, /* the exact value */
  GOITA_SOLVE_WIN_LOSS   /* only its sign: does the seat to move's team score? (faster) */
} goita_solve_mode;

typedef struct goita_solve_options {
  goita_solve_mode mode;
  int all_moves;       /* non-zero: also the value of every legal move at the root */
  uint64_t max_nodes;  /* stop after about this many nodes (0: no limit) */
  double max_ms;       /* stop after about this many milliseconds (0: no limit) */
} goita_solve_options;

/* Proven bounds on a value: lower <= value <= upper. Exact when lower == upper. In
 * GOITA_SOLVE_WIN_LOSS mode a solved value has both bounds on one side of zero. */
typedef struct goita_solve_bounds {
  int lower;
  int upper;
} goita_solve_bounds;

typedef struct goita_solve_result {
  goita_solve_bounds value; /* the position's value, seat to move's point of view */
  int complete;             /* 1 when the mode's question was answered, 0 when a limit hit */
  int nmoves;               /* legal moves at the root (0 when all_moves was not asked) */
  goita_move moves[GOITA_MAX_LEGAL];
  goita_solve_bounds move_value[GOITA_MAX_LEGAL]; /* each move's value, same point of view */
  int best;                 /* index of a best move in moves, -1 when not known */
  uint64_t nodes;           /* positions searched */
  double ms;                /* wall time of the solve */
} goita_solve_result;

/* Fills options with the defaults: exact value, root only, no limits. */
GOITA_API void goita_solve_options_default(goita_solve_options *options);

/* Creates a solver whose transposition table takes at most table_bytes (at least 64 KiB is
 * used). Returns GOITA_OK, or GOITA_ENOMEM when the memory cannot be had. */
GOITA_API int goita_solver_new(goita_solver **solver, size_t table_bytes);

/* Frees a solver (NULL is allowed). */
GOITA_API void goita_solver_free(goita_solver *solver);

/* Forgets everything the table holds. */
GOITA_API void goita_solver_clear(goita_solver *solver);

/* Returns the number of positions the table holds room for. */
GOITA_API size_t goita_solver_table_entries(const goita_solver *solver);

/* Solves the position of round (in play, in a 5-pawn decision, or over). A decision's
 * value is that of its best choice (a redeal is worth 0). Returns GOITA_OK with result
 * filled, or GOITA_EINVAL for a NULL argument. When a limit stops the search, result holds
 * the bounds proven so far and complete is 0. */
GOITA_API int goita_solve(goita_solver *solver, const goita_round *round, const goita_solve_options *options,
                goita_solve_result *result);

#ifdef __cplusplus
}
#endif
#endif

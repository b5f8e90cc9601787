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
 * used by one thread at a time; give each thread its own, or solve with a pool (below). */
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

/* ---- Many positions at once ---- */

/* A pool of threads, each with a solver of its own, that solves many positions at once: the
 * deals a player samples for one choice, the positions of a record, or the moves of one
 * position. The calling thread works too: a pool of N threads starts N - 1, which wait between
 * calls. A pool is used by one thread at a time. */
typedef struct goita_solver_pool goita_solver_pool;

/* The most threads a pool may have. */
#define GOITA_POOL_MAX_THREADS 64

/* Creates a pool of threads threads (1 to GOITA_POOL_MAX_THREADS), each solver with a table of
 * table_bytes (as goita_solver_new). Returns GOITA_OK; GOITA_EINVAL for a NULL pool or a
 * number of threads out of range; GOITA_ENOMEM when the memory or a thread cannot be had
 * (nothing is then left to free). */
GOITA_API int goita_solver_pool_new(goita_solver_pool **pool, int threads, size_t table_bytes);

/* Stops the pool's threads and frees it (NULL is allowed). */
GOITA_API void goita_solver_pool_free(goita_solver_pool *pool);

/* Returns the number of threads of the pool, the caller's included. */
GOITA_API int goita_solver_pool_threads(const goita_solver_pool *pool);

/* Solves rounds[0..count) with options (NULL: the defaults), results[i] for rounds[i], each as
 * goita_solve gives it: the same values and bounds; nodes and ms are that solve's own (its
 * nodes depend on what its thread's table held). The next position goes to the first thread
 * free, so positions of one deal in a row may be solved by different threads: give a thread
 * a whole deal's positions by solving them in one goita_solve_parallel instead. Returns
 * GOITA_OK, or GOITA_EINVAL for a NULL argument (count 0 is allowed). */
GOITA_API int goita_solve_batch(goita_solver_pool *pool, const goita_round *rounds, size_t count,
                                const goita_solve_options *options, goita_solve_result *results);

/* Solves one position as goita_solve does, with the same values, moves, bounds and best move;
 * nodes are the sum of the threads' (they vary from call to call with more than one thread)
 * and ms the wall time. With every move's value asked for, the moves are shared among the
 * threads and the position's value is the best of theirs; with the position's value alone,
 * the root moves of each of its null-window tests are shared, and the others stopped once one
 * passes. With a limit the calling thread solves it alone. Returns GOITA_OK, or GOITA_EINVAL
 * for a NULL argument. */
GOITA_API int goita_solve_parallel(goita_solver_pool *pool, const goita_round *round,
                                   const goita_solve_options *options, goita_solve_result *result);

#ifdef __cplusplus
}
#endif
#endif

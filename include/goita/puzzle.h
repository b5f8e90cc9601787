/* Puzzles made by the exact solver: positions of real rounds, every hand known, where exactly
 * one move keeps the best value for the side to move. goita_puzzle_examine decides whether a
 * position is one and grades it; goita_puzzle_check proves a puzzle again from its position,
 * so a set of puzzles read from a file can be trusted (docs/SOLVER.md, "Puzzles"). */
#ifndef GOITA_PUZZLE_H
#define GOITA_PUZZLE_H

#include <stdint.h>

#include "goita/round.h"
#include "goita/solver.h"
#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a position is, or is not, a puzzle. */
typedef enum goita_puzzle_verdict {
  GOITA_PUZZLE_FOUND = 0,  /* one move alone keeps the best value */
  GOITA_PUZZLE_NOT_PLAY,   /* not a choice: not in play, one legal move, a hand of 2 or fewer,
                              or more than GOITA_PUZZLE_MAX_PIECES in the hands */
  GOITA_PUZZLE_UNSOLVED,   /* the node limit stopped a solve */
  GOITA_PUZZLE_NOT_UNIQUE  /* two or more moves share the best value */
} goita_puzzle_verdict;

/* Most pieces in the hands of a puzzle's position: earlier positions have lines too long to
 * read, and cost the most to solve. */
#define GOITA_PUZZLE_MAX_PIECES 24
/* The hardest grade. */
#define GOITA_PUZZLE_MAX_DIFFICULTY 5

typedef struct goita_puzzle {
  goita_round position;            /* the position, every hand known, the solver's to move */
  int nmoves;                      /* the legal moves and their exact values (mover's view) */
  goita_move moves[GOITA_MAX_LEGAL];
  int16_t value[GOITA_MAX_LEGAL];  /* in points */
  int answer;                      /* index in moves of the one best move */
  int best;                        /* its value, in points */
  int second;                      /* the best value of any other move, in points */
  int nline;                       /* the winning line: the answer, then best play to the end */
  goita_move line[GOITA_MAX_LOG];
  int plays;                       /* plays (not passes) in the line, the answer included */
  int difficulty;                  /* 1 (easy) .. GOITA_PUZZLE_MAX_DIFFICULTY */
} goita_puzzle;

/* Grades a puzzle: harder the longer its line (plays) and the closer the second-best move
 * (margin, in points). Returns 1 .. GOITA_PUZZLE_MAX_DIFFICULTY. */
GOITA_API int goita_puzzle_grade(int plays, int margin, int nmoves);

/* Examines position (every hand known) with solver, each solve stopped after max_nodes nodes
 * (0: no limit). When it is a puzzle, fills puzzle (its line is best play found by solving
 * each position of it) and sets *verdict to GOITA_PUZZLE_FOUND; otherwise *verdict says why
 * not. Returns GOITA_OK, or GOITA_EINVAL for a NULL argument or a 3-player round (whose solver
 * values are each mover's own reading, so no one best line exists). */
GOITA_API int goita_puzzle_examine(goita_solver *solver, const goita_round *position, uint64_t max_nodes,
                                   goita_puzzle *puzzle, goita_puzzle_verdict *verdict);

/* Proves puzzle again from its position, with no node limit: the answer must be the one move
 * of the best value, every value and the grade as written, and the line legal, made of best
 * moves only, and ending the round with the value promised. Returns GOITA_OK, or
 * GOITA_ESTATE with err saying what does not hold. */
GOITA_API int goita_puzzle_check(goita_solver *solver, const goita_puzzle *puzzle, goita_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Puzzles made by the exact solver (puzzle.h): finding, grading and proving them. */
#include <string.h>

#include "goita/notation.h"
#include "goita/puzzle.h"

/* Returns whether seats a and b score together: partners with 4 players, else one seat. */
static int same_side(const goita_round *round, int a, int b) {
  return round->players == 4 ? (a & 1) == (b & 1) : a == b;
}

int goita_puzzle_grade(int plays, int margin, int nmoves) {
  /* A long line must be seen to the end; a second-best move close behind is easy to prefer;
   * many legal moves hide the answer. */
  int score = plays;
  if (margin <= 20) score += 2;
  else if (margin <= 40) score += 1;
  if (nmoves >= 12) score += 1;
  const int grade = (score + 1) / 2;
  return grade < 1 ? 1 : grade > GOITA_PUZZLE_MAX_DIFFICULTY ? GOITA_PUZZLE_MAX_DIFFICULTY : grade;
}

/* Solves every move of round; returns 1 when every value is exact, 0 when a limit hit. */
static int solve_all(goita_solver *solver, const goita_round *round, uint64_t max_nodes, goita_solve_result *res) {
  goita_solve_options options;
  goita_solve_options_default(&options);
  options.all_moves = 1;
  options.max_nodes = max_nodes;
  if (goita_solve(solver, round, &options, res) != GOITA_OK || !res->complete) return 0;
  for (int i = 0; i < res->nmoves; i++)
    if (res->move_value[i].lower != res->move_value[i].upper) return 0;
  return res->nmoves > 0;
}

/* Returns the index of the first move of the highest value in a complete result. */
static int best_move(const goita_solve_result *res) {
  int best = 0;
  for (int i = 1; i < res->nmoves; i++)
    if (res->move_value[i].lower > res->move_value[best].lower) best = i;
  return best;
}

/* Follows best play from round (after the answer) to the round's end, appending to the
 * puzzle's line. Returns 1, or 0 when a limit stopped a solve. */
static int follow_line(goita_solver *solver, goita_round round, uint64_t max_nodes, goita_puzzle *puzzle) {
  goita_solve_result res;
  while (!goita_round_over(&round) && puzzle->nline < GOITA_MAX_LOG) {
    if (!solve_all(solver, &round, max_nodes, &res)) return 0;
    const goita_move move = res.moves[best_move(&res)];
    puzzle->line[puzzle->nline++] = move;
    puzzle->plays += move.type == GOITA_MOVE_PLAY;
    goita_round_apply_unchecked(&round, move);
  }
  return goita_round_over(&round);
}

int goita_puzzle_examine(goita_solver *solver, const goita_round *position, uint64_t max_nodes,
                         goita_puzzle *puzzle, goita_puzzle_verdict *verdict) {
  /* with 3 players the solver's value is each mover's own paranoid reading: no one line */
  if (!solver || !position || !puzzle || !verdict || position->players == 3) return GOITA_EINVAL;
  memset(puzzle, 0, sizeof *puzzle);
  goita_move legal[GOITA_MAX_LEGAL];
  int left = 0;
  for (int s = 0; s < position->players; s++) left += position->size[s];
  if (position->phase != GOITA_PHASE_PLAY || position->size[position->turn] <= 2 || left > GOITA_PUZZLE_MAX_PIECES ||
      goita_round_legal_moves(position, legal) < 2) {
    *verdict = GOITA_PUZZLE_NOT_PLAY;
    return GOITA_OK;
  }
  goita_solve_result res;
  if (!solve_all(solver, position, max_nodes, &res)) {
    *verdict = GOITA_PUZZLE_UNSOLVED;
    return GOITA_OK;
  }
  int answer = -1, best = -1000, second = -1000;
  for (int i = 0; i < res.nmoves; i++) {
    const int v = res.move_value[i].lower;
    if (v > best) {
      second = best;
      best = v;
      answer = i;
    } else if (v > second) {
      second = v;
    }
  }
  if (second == best) {
    *verdict = GOITA_PUZZLE_NOT_UNIQUE;
    return GOITA_OK;
  }
  puzzle->position = *position;
  puzzle->nmoves = res.nmoves;
  for (int i = 0; i < res.nmoves; i++) {
    puzzle->moves[i] = res.moves[i];
    puzzle->value[i] = (int16_t)res.move_value[i].lower;
  }
  puzzle->answer = answer;
  puzzle->best = best;
  puzzle->second = second;
  puzzle->line[puzzle->nline++] = res.moves[answer];
  puzzle->plays = res.moves[answer].type == GOITA_MOVE_PLAY;
  goita_round after = *position;
  goita_round_apply_unchecked(&after, res.moves[answer]);
  if (!follow_line(solver, after, max_nodes, puzzle)) {
    memset(puzzle, 0, sizeof *puzzle);
    *verdict = GOITA_PUZZLE_UNSOLVED;
    return GOITA_OK;
  }
  puzzle->difficulty = goita_puzzle_grade(puzzle->plays, best - second, res.nmoves);
  *verdict = GOITA_PUZZLE_FOUND;
  return GOITA_OK;
}

/* Checks the values of the moves at the puzzle's position against a fresh solve. */
static int check_values(goita_solver *solver, const goita_puzzle *puzzle, goita_error *err) {
  goita_solve_result res;
  if (!solve_all(solver, &puzzle->position, 0, &res))
    return goita_error_set(err, GOITA_ESTATE, -1, "the position cannot be solved");
  if (res.nmoves != puzzle->nmoves)
    return goita_error_set(err, GOITA_ESTATE, -1, "the position has %d legal moves, the puzzle lists %d", res.nmoves,
                           puzzle->nmoves);
  if (puzzle->answer < 0 || puzzle->answer >= res.nmoves)
    return goita_error_set(err, GOITA_ESTATE, -1, "the answer is not one of the legal moves");
  int second = -1000;
  for (int i = 0; i < res.nmoves; i++) {
    char token[16];
    goita_move_format(res.moves[i], token, sizeof token);
    if (!goita_move_equal(res.moves[i], puzzle->moves[i]))
      return goita_error_set(err, GOITA_ESTATE, i, "legal move %d is %s, not the puzzle's", i + 1, token);
    if (res.move_value[i].lower != puzzle->value[i])
      return goita_error_set(err, GOITA_ESTATE, i, "move %s is worth %d, not %d", token, res.move_value[i].lower,
                             puzzle->value[i]);
    if (i == puzzle->answer) continue;
    if (res.move_value[i].lower >= res.move_value[puzzle->answer].lower)
      return goita_error_set(err, GOITA_ESTATE, i, "the answer is not unique: %s is worth as much (%d)", token,
                             res.move_value[i].lower);
    if (res.move_value[i].lower > second) second = res.move_value[i].lower;
  }
  if (res.move_value[puzzle->answer].lower != puzzle->best || second != puzzle->second)
    return goita_error_set(err, GOITA_ESTATE, -1, "the best and second-best values are %d and %d, not %d and %d",
                           res.move_value[puzzle->answer].lower, second, puzzle->best, puzzle->second);
  return GOITA_OK;
}

/* Checks that the line starts with the answer, plays only best moves and ends the round
 * with the promised value. */
static int check_line(goita_solver *solver, const goita_puzzle *puzzle, goita_error *err) {
  if (puzzle->nline < 1 || !goita_move_equal(puzzle->line[0], puzzle->moves[puzzle->answer]))
    return goita_error_set(err, GOITA_ESTATE, 0, "the line does not start with the answer");
  goita_round round = puzzle->position;
  int plays = 0;
  for (int i = 0; i < puzzle->nline; i++) {
    goita_solve_result res;
    if (goita_round_over(&round)) return goita_error_set(err, GOITA_ESTATE, i, "the line goes on after the round ends");
    if (!solve_all(solver, &round, 0, &res))
      return goita_error_set(err, GOITA_ESTATE, i, "move %d of the line cannot be solved", i + 1);
    int found = -1;
    for (int j = 0; j < res.nmoves; j++)
      if (goita_move_equal(res.moves[j], puzzle->line[i])) found = j;
    if (found < 0) return goita_error_set(err, GOITA_ESTATE, i, "move %d of the line is not legal", i + 1);
    const int best = res.move_value[best_move(&res)].lower;
    if (res.move_value[found].lower != best)
      return goita_error_set(err, GOITA_ESTATE, i, "move %d of the line is not a best move (%d, best %d)", i + 1,
                             res.move_value[found].lower, best);
    plays += puzzle->line[i].type == GOITA_MOVE_PLAY;
    goita_round_apply_unchecked(&round, res.moves[found]);
  }
  if (!goita_round_over(&round)) return goita_error_set(err, GOITA_ESTATE, -1, "the line stops before the round ends");
  const int mover = puzzle->position.turn;
  const int points = round.result.points;
  const int value = same_side(&round, round.result.winner, mover) ? points : -points;
  if (value != puzzle->best)
    return goita_error_set(err, GOITA_ESTATE, -1, "the line ends at %d, not the promised %d", value, puzzle->best);
  if (plays != puzzle->plays) return goita_error_set(err, GOITA_ESTATE, -1, "the line has %d plays, not %d", plays, puzzle->plays);
  return GOITA_OK;
}

int goita_puzzle_check(goita_solver *solver, const goita_puzzle *puzzle, goita_error *err) {
  if (!solver || !puzzle) return goita_error_set(err, GOITA_EINVAL, -1, "no solver or no puzzle");
  if (puzzle->position.players == 3) return goita_error_set(err, GOITA_EINVAL, -1, "puzzles need two sides: 2 or 4 players");
  if (puzzle->position.phase != GOITA_PHASE_PLAY)
    return goita_error_set(err, GOITA_ESTATE, -1, "the position is not in play");
  int st = check_values(solver, puzzle, err);
  if (st == GOITA_OK) st = check_line(solver, puzzle, err);
  if (st != GOITA_OK) return st;
  const int grade = goita_puzzle_grade(puzzle->plays, puzzle->best - puzzle->second, puzzle->nmoves);
  if (grade != puzzle->difficulty)
    return goita_error_set(err, GOITA_ESTATE, -1, "the difficulty is %d, not %d", grade, puzzle->difficulty);
  return GOITA_OK;
}

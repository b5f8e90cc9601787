/* Puzzles (puzzle.h): the verdict of goita_puzzle_examine against a plain minimax over the
 * rules engine on late positions, and goita_puzzle_check refusing every kind of bad puzzle. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_support.h"

/* Value (points) of r for its seat to move, by plain minimax over the rules engine. */
static int minimax(const goita_round *r);

/* Value of playing m in r for the seat to move in r (4 players: partners share). */
static int minimax_move(const goita_round *r, goita_move m) {
  goita_round c = *r;
  goita_round_apply_unchecked(&c, m);
  if (goita_round_over(&c)) return (c.result.winner & 1) == (r->turn & 1) ? c.result.points : -c.result.points;
  const int v = minimax(&c);
  return (c.turn & 1) == (r->turn & 1) ? v : -v;
}

static int minimax(const goita_round *r) {
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, moves);
  int best = -1000;
  for (int i = 0; i < n; i++) {
    const int v = minimax_move(r, moves[i]);
    if (v > best) best = v;
  }
  return best;
}

static int pieces_left(const goita_round *r) {
  int n = 0;
  for (int s = 0; s < r->players; s++) n += r->size[s];
  return n;
}

static goita_solver *new_solver(void) {
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 8u << 20), GOITA_OK);
  return solver;
}

/* Plays seeded random rounds and calls visit on every position with at most `left` pieces
 * in the hands; stops after `limit` positions. */
static void late_positions(int left, int limit, void (*visit)(const goita_round *, void *), void *arg) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_rng rng;
  goita_rng_seed(&rng, 40);
  int seen = 0;
  for (uint64_t seed = 1; seen < limit && seed < 500; seed++) {
    goita_round r;
    goita_round_deal(&r, &rules, (int)(seed % 4), seed);
    while (!goita_round_over(&r) && seen < limit) {
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, moves);
      if (r.phase == GOITA_PHASE_PLAY && pieces_left(&r) <= left) {
        visit(&r, arg);
        seen++;
      }
      goita_round_apply_unchecked(&r, moves[goita_rng_below(&rng, (uint32_t)n)]);
    }
  }
  cr_assert_eq(seen, limit, "only %d late positions", seen);
}

typedef struct tally {
  goita_solver *solver;
  int found, not_unique;
} tally;

/* examine's verdict must be what minimax says: unique best move, its value, the second. */
static void agree_with_minimax(const goita_round *r, void *arg) {
  tally *t = arg;
  static goita_puzzle p;
  goita_puzzle_verdict verdict;
  cr_assert_eq(goita_puzzle_examine(t->solver, r, 0, &p, &verdict), GOITA_OK);
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, moves);
  if (r->size[r->turn] <= 2 || n < 2) {
    cr_assert_eq(verdict, GOITA_PUZZLE_NOT_PLAY);
    return;
  }
  int best = -1000, second = -1000, nbest = 0, answer = -1;
  for (int i = 0; i < n; i++) {
    const int v = minimax_move(r, moves[i]);
    if (v > best) {
      second = best;
      best = v;
      nbest = 1;
      answer = i;
    } else if (v == best) {
      nbest++;
    } else if (v > second) {
      second = v;
    }
  }
  if (nbest > 1) {
    cr_assert_eq(verdict, GOITA_PUZZLE_NOT_UNIQUE, "%d moves are worth %d, yet the verdict is %d", nbest, best, verdict);
    t->not_unique++;
    return;
  }
  cr_assert_eq(verdict, GOITA_PUZZLE_FOUND, "one move alone is worth %d, yet the verdict is %d", best, verdict);
  cr_assert(goita_move_equal(p.moves[p.answer], moves[answer]));
  cr_assert_eq(p.best, best);
  cr_assert_eq(p.second, second);
  cr_assert(p.difficulty >= 1 && p.difficulty <= GOITA_PUZZLE_MAX_DIFFICULTY);
  goita_error err;
  cr_assert_eq(goita_puzzle_check(t->solver, &p, &err), GOITA_OK, "%s", err.message);
  t->found++;
}

Test(puzzle, examine_agrees_with_minimax) {
  tally t = {new_solver(), 0, 0};
  late_positions(14, 600, agree_with_minimax, &t);
  goita_solver_free(t.solver);
  /* both verdicts were met, so both branches were compared */
  cr_assert(t.found > 20 && t.not_unique > 20, "found %d, not unique %d", t.found, t.not_unique);
}

/* The first puzzle of `goita puzzles --seed 1`: leading 126 alone loses only 40. */
static void first_puzzle(goita_solver *solver, goita_puzzle *p) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_round r;
  goita_error err;
  cr_assert_eq(goita_history_parse(&r, &rules, "11112566,13445789,11134557,11222334,s1,111,217,371,412", &err), GOITA_OK);
  goita_puzzle_verdict verdict;
  cr_assert_eq(goita_puzzle_examine(solver, &r, 0, p, &verdict), GOITA_OK);
  cr_assert_eq(verdict, GOITA_PUZZLE_FOUND);
}

Test(puzzle, check_refuses_bad_puzzles) {
  goita_solver *solver = new_solver();
  static goita_puzzle good, bad;
  first_puzzle(solver, &good);
  char token[16];
  goita_move_format(good.moves[good.answer], token, sizeof token);
  cr_assert_str_eq(token, "126");
  cr_assert_eq(good.best, -40);
  cr_assert_eq(good.second, -60);
  goita_error err;
  cr_assert_eq(goita_puzzle_check(solver, &good, &err), GOITA_OK, "%s", err.message);

  /* another answer, with the values claiming it is best */
  bad = good;
  bad.answer = good.answer == 0 ? 1 : 0;
  bad.value[bad.answer] = (int16_t)good.best;
  bad.value[good.answer] = (int16_t)good.second;
  cr_assert_eq(goita_puzzle_check(solver, &bad, &err), GOITA_ESTATE);
  cr_assert(strstr(err.message, "worth"), "%s", err.message);

  /* a second move as good as the answer, the values written to say so: not unique */
  bad = good;
  const int other = good.answer == 0 ? 1 : 0;
  bad.value[other] = (int16_t)good.best;
  cr_assert_eq(goita_puzzle_check(solver, &bad, &err), GOITA_ESTATE);

  /* a line that leaves best play */
  bad = good;
  cr_assert(bad.nline > 2);
  bad.line[1] = goita_move_pass(bad.line[1].seat);
  cr_assert_eq(goita_puzzle_check(solver, &bad, &err), GOITA_ESTATE);
  cr_assert(strstr(err.message, "line"), "%s", err.message);

  /* a line cut short */
  bad = good;
  bad.nline--;
  cr_assert_eq(goita_puzzle_check(solver, &bad, &err), GOITA_ESTATE);

  /* a wrong grade */
  bad = good;
  bad.difficulty = good.difficulty == 1 ? 2 : 1;
  cr_assert_eq(goita_puzzle_check(solver, &bad, &err), GOITA_ESTATE);
  cr_assert(strstr(err.message, "difficulty"), "%s", err.message);
  goita_solver_free(solver);
}

/* A position where two moves tie is refused by check even when its values are true. */
static void tie_refused(const goita_round *r, void *arg) {
  tally *t = arg;
  static goita_puzzle p;
  goita_puzzle_verdict verdict;
  goita_puzzle_examine(t->solver, r, 0, &p, &verdict);
  if (verdict != GOITA_PUZZLE_NOT_UNIQUE || t->not_unique) return;
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  goita_solve_result res;
  goita_solve(t->solver, r, &o, &res);
  p.position = *r;
  p.nmoves = res.nmoves;
  for (int i = 0; i < res.nmoves; i++) {
    p.moves[i] = res.moves[i];
    p.value[i] = (int16_t)res.move_value[i].lower;
  }
  p.answer = res.best;
  p.best = res.value.lower;
  p.second = p.best;
  goita_error err;
  cr_assert_eq(goita_puzzle_check(t->solver, &p, &err), GOITA_ESTATE);
  cr_assert(strstr(err.message, "not unique"), "%s", err.message);
  t->not_unique = 1;
}

Test(puzzle, check_refuses_a_tie) {
  tally t = {new_solver(), 0, 0};
  late_positions(16, 50, tie_refused, &t);
  cr_assert(t.not_unique);
  goita_solver_free(t.solver);
}

Test(puzzle, grade) {
  cr_assert_eq(goita_puzzle_grade(1, 100, 3), 1);
  cr_assert(goita_puzzle_grade(8, 10, 20) == GOITA_PUZZLE_MAX_DIFFICULTY);
  /* longer lines and closer second-best moves are never easier */
  for (int plays = 1; plays < 12; plays++)
    for (int margin = 10; margin <= 100; margin += 10) {
      cr_assert(goita_puzzle_grade(plays + 1, margin, 5) >= goita_puzzle_grade(plays, margin, 5));
      cr_assert(goita_puzzle_grade(plays, margin, 5) >= goita_puzzle_grade(plays, margin + 10, 5));
    }
}

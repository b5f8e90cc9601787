/* The exact solver (solver.h): against a plain minimax over the rules engine, against
 * goita-core's solver (tests/data/solver-goita-core.txt), and its modes, limits and tables. */
#include <criterion/criterion.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* ---- A reference: plain minimax over goita_round, no pruning beyond alpha-beta ---- */

static int reference_root; /* the seat whose side the 3-player reading is about */

static int side(const goita_round *r, int seat) {
  if (r->players == 3) return seat == reference_root ? 0 : 1;
  return goita_rules_side_of(&r->rules, seat);
}

/* Value (points) of r for its seat to move. */
static int reference_value(const goita_round *r);

/* Value of playing m in r, for the seat to move in r. */
static int reference_move_value(const goita_round *r, goita_move m) {
  goita_round c = *r;
  goita_round_apply_unchecked(&c, m);
  if (goita_round_over(&c)) return c.result.points; /* the mover finished */
  const int v = reference_value(&c);
  return side(&c, c.turn) == side(r, r->turn) ? v : -v;
}

static int reference_value(const goita_round *r) {
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, moves);
  int best = -1000;
  for (int i = 0; i < n; i++) {
    const int v = reference_move_value(r, moves[i]);
    if (v > best) best = v;
  }
  return best;
}

static int pieces_left(const goita_round *r) {
  int n = 0;
  for (int s = 0; s < r->players; s++) n += r->size[s];
  return n;
}

/* A seeded round in play, played at random down to at most `left` pieces and on to a position
 * with at least three legal moves; false if the round ended first or two hands are down to two
 * pieces (such positions are too easy to test much). */
static bool random_position(goita_round *r, const goita_rules *rules, uint64_t seed, int left) {
  goita_round_deal(r, rules, (int)(seed % (uint64_t)rules->players), seed * 7919 + 3);
  if (r->phase != GOITA_PHASE_PLAY) return false;
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  goita_move moves[GOITA_MAX_LEGAL];
  while (!goita_round_over(r) && (pieces_left(r) > left || goita_round_legal_moves(r, moves) < 3))
    test_random_move(r, &rng);
  if (goita_round_over(r)) return false;
  int short_hands = 0;
  for (int seat = 0; seat < r->players; seat++) short_hands += r->size[seat] <= 2;
  return short_hands <= 1;
}

static goita_solve_options all_moves(void) {
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  return o;
}

/* Solves `count` random positions with at most `left` pieces and compares the value and every
 * move's value with the reference. */
static void compare_with_reference(const char *rules_text, int left, int count) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, rules_text, NULL), GOITA_OK);
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 1 << 20), GOITA_OK);
  const goita_solve_options o = all_moves();
  int done = 0;
  for (uint64_t seed = 1; done < count; seed++) {
    goita_round r;
    if (!random_position(&r, &rules, seed, left)) continue;
    reference_root = r.turn;
    goita_solve_result res;
    cr_assert_eq(goita_solve(solver, &r, &o, &res), GOITA_OK);
    cr_assert(res.complete);
    const int want = reference_value(&r);
    cr_assert_eq(res.value.lower, want, "%s seed %llu: value [%d,%d], reference %d", rules_text,
                 (unsigned long long)seed, res.value.lower, res.value.upper, want);
    cr_assert_eq(res.value.upper, want);
    goita_move moves[GOITA_MAX_LEGAL];
    cr_assert_eq(res.nmoves, goita_round_legal_moves(&r, moves));
    for (int i = 0; i < res.nmoves; i++) {
      const int mv = reference_move_value(&r, res.moves[i]);
      cr_assert(res.move_value[i].lower == mv && res.move_value[i].upper == mv,
                "%s seed %llu move %d: [%d,%d], reference %d", rules_text, (unsigned long long)seed, i,
                res.move_value[i].lower, res.move_value[i].upper, mv);
    }
    cr_assert(res.best >= 0 && res.move_value[res.best].lower == want);
    done++;
  }
  goita_solver_free(solver);
}

Test(solver, four_players_default_rules) { compare_with_reference("", 16, 150); }
Test(solver, king_face_down_allowed) { compare_with_reference("king_face_down=allowed", 14, 80); }
Test(solver, king_attack_a_or_b) { compare_with_reference("king_attack=a_or_b", 14, 80); }
Test(solver, king_attack_a_or_last) { compare_with_reference("king_attack=a_or_last", 14, 80); }
Test(solver, three_players) { compare_with_reference("players=3", 14, 80); }
Test(solver, two_players) { compare_with_reference("players=2", 14, 80); }
Test(solver, king_b_dealt_face_down) { compare_with_reference("king_b=dealt,king_face_down=allowed", 14, 80); }
Test(solver, three_players_random_aside) { compare_with_reference("players=3,three_player_set_aside=random", 14, 80); }

/* ---- goita-core's solver ---- */

/* Every line of the corpus: goita-core's value for every legal move. Its engine lets kings
 * go face-down, so we solve under king_face_down=allowed. */
Test(solver, goita_core_corpus) {
  FILE *f = fopen(GOITA_DATA_DIR "/solver-goita-core.txt", "r");
  cr_assert(f, "cannot open the corpus");
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 16 << 20), GOITA_OK);
  const goita_solve_options o = all_moves();
  static char line[4096];
  int positions = 0, moves_compared = 0;
  while (fgets(line, sizeof line, f)) {
    char *history = strtok(line, "\t");
    char *values = strtok(NULL, "\t");
    cr_assert(history && values, "malformed corpus line %d", positions + 1);
    const goita_round r = test_round("king_face_down=allowed", history);
    goita_solve_result res;
    goita_solve(solver, &r, &o, &res);
    int listed = 0;
    for (char *item = strtok(values, " \n"); item; item = strtok(NULL, " \n")) {
      char *colon = strchr(item, ':');
      cr_assert(colon, "malformed move value \"%s\"", item);
      *colon = '\0';
      const int want = atoi(colon + 1);
      goita_move m;
      cr_assert_eq(goita_move_parse(item, strlen(item), &m), GOITA_OK);
      int found = -1;
      for (int i = 0; i < res.nmoves; i++)
        if (goita_move_equal(res.moves[i], m)) found = i;
      cr_assert(found >= 0, "%s: goita-core's move %s is not legal here", history, item);
      cr_assert(res.move_value[found].lower == want && res.move_value[found].upper == want,
                "%s: move %s is [%d,%d], goita-core %d", history, item, res.move_value[found].lower,
                res.move_value[found].upper, want);
      listed++;
      moves_compared++;
    }
    cr_assert_eq(listed, res.nmoves, "%s: goita-core lists %d moves, we %d", history, listed, res.nmoves);
    positions++;
  }
  fclose(f);
  goita_solver_free(solver);
  cr_assert_geq(positions, 500, "the corpus has only %d positions", positions);
  cr_log_info("goita-core corpus: %d positions, %d move values", positions, moves_compared);
}

/* ---- Modes, limits, tables ---- */

Test(solver, example_of_the_record_format) {
  /* Example E4 of docs/RECORDS.md 1.4: the values go-goita's solver gives its moves. */
  const goita_round r = test_round("king_face_down=allowed",
                                   "11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145,252,3p,4p,124,2p");
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 1 << 20), GOITA_OK);
  const goita_solve_options o = all_moves();
  goita_solve_result res;
  goita_solve(solver, &r, &o, &res);
  const char *tokens[] = {"3p", "381", "382", "383"};
  const int values[] = {-40, -40, -50, -40};
  cr_assert_eq(res.nmoves, 4);
  for (int i = 0; i < 4; i++) {
    char token[8];
    goita_move_format(res.moves[i], token, sizeof token);
    cr_assert_str_eq(token, tokens[i]);
    cr_assert_eq(res.move_value[i].lower, values[i]);
    cr_assert_eq(res.move_value[i].upper, values[i]);
  }
  cr_assert_eq(res.value.lower, -40);
  goita_solver_free(solver);
}

/* A full deal: the value is the best move's, win/loss agrees in sign, a small table and a
 * reused table give the same values. */
Test(solver, full_deals_are_consistent) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_solver *big, *small;
  cr_assert_eq(goita_solver_new(&big, 32 << 20), GOITA_OK);
  cr_assert_eq(goita_solver_new(&small, 64 << 10), GOITA_OK);
  cr_assert_eq(goita_solver_table_entries(small), (64 << 10) / 16);
  int done = 0;
  for (uint64_t seed = 1; done < 3; seed++) {
    goita_round r;
    if (!random_position(&r, &rules, seed, 32)) continue;
    goita_solve_options o = all_moves();
    goita_solve_result res, again, wl;
    goita_solve(big, &r, &o, &res);
    cr_assert(res.complete && res.value.lower == res.value.upper);
    int best = -1000;
    for (int i = 0; i < res.nmoves; i++) {
      cr_assert_eq(res.move_value[i].lower, res.move_value[i].upper);
      if (res.move_value[i].lower > best) best = res.move_value[i].lower;
    }
    cr_assert_eq(best, res.value.lower);
    /* A later position of the same deal, with the table still holding the first solve. */
    goita_round later = r;
    goita_round_apply_unchecked(&later, res.moves[res.best]);
    goita_solve_result reused, fresh;
    goita_solve(big, &later, &o, &reused);
    goita_solver_clear(small);
    goita_solve(small, &later, &o, &fresh);
    cr_assert_eq(reused.value.lower, fresh.value.lower);
    cr_assert_eq(reused.nmoves, fresh.nmoves);
    for (int i = 0; i < fresh.nmoves; i++) cr_assert_eq(reused.move_value[i].lower, fresh.move_value[i].lower);
    /* The value after the best move, from the same seat's side, is the root value. */
    const int sign = goita_rules_side_of(&rules, later.turn) == goita_rules_side_of(&rules, r.turn) ? 1 : -1;
    cr_assert_eq(sign * fresh.value.lower, res.value.lower);
    /* The small table (heavy replacement) agrees. */
    goita_solve_options root = all_moves();
    root.all_moves = 0;
    goita_solve(small, &r, &root, &again);
    cr_assert_eq(again.value.lower, res.value.lower);
    cr_assert_eq(again.nmoves, 0);
    goita_solve_options w = root;
    w.mode = GOITA_SOLVE_WIN_LOSS;
    goita_solve(big, &r, &w, &wl);
    cr_assert(wl.complete);
    cr_assert(res.value.lower > 0 ? wl.value.lower > 0 : wl.value.upper < 0, "win/loss [%d,%d] for %d",
              wl.value.lower, wl.value.upper, res.value.lower);
    cr_assert(wl.value.lower <= res.value.lower && res.value.lower <= wl.value.upper);
    done++;
  }
  goita_solver_free(big);
  goita_solver_free(small);
}

/* A table whose size is not a power of two is used in full and gives the same values. */
Test(solver, odd_table_size) {
  goita_rules rules;
  goita_rules_default(&rules);
  const size_t bytes = ((size_t)3 << 20) + 1000; /* 3 MiB and a part of a bucket */
  goita_solver *odd, *big;
  cr_assert_eq(goita_solver_new(&odd, bytes), GOITA_OK);
  cr_assert_eq(goita_solver_new(&big, 32 << 20), GOITA_OK);
  cr_assert_eq(goita_solver_table_entries(odd), bytes / 64 * 4);
  int done = 0;
  for (uint64_t seed = 100; done < 2; seed++) {
    goita_round r;
    if (!random_position(&r, &rules, seed, 32)) continue;
    goita_solve_options o = all_moves();
    goita_solve_result a, b;
    goita_solve(odd, &r, &o, &a);
    goita_solve(big, &r, &o, &b);
    cr_assert(a.complete && b.complete);
    cr_assert_eq(a.value.lower, b.value.lower);
    cr_assert_eq(a.nmoves, b.nmoves);
    for (int i = 0; i < a.nmoves; i++) cr_assert_eq(a.move_value[i].lower, b.move_value[i].lower);
    done++;
  }
  goita_solver_free(odd);
  goita_solver_free(big);
}

/* A node limit stops the search with bounds that hold the value. */
Test(solver, node_limit_returns_proven_bounds) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 8 << 20), GOITA_OK);
  int stopped = 0;
  for (uint64_t seed = 1; seed < 12; seed++) {
    goita_round r;
    if (!random_position(&r, &rules, seed, 32)) continue;
    goita_solve_options o = all_moves();
    o.max_nodes = 5000;
    goita_solve_result limited, full;
    goita_solve(solver, &r, &o, &limited);
    goita_solver_clear(solver);
    o.max_nodes = 0;
    goita_solve(solver, &r, &o, &full);
    cr_assert(full.complete);
    if (!limited.complete) stopped++;
    cr_assert(limited.nodes <= 5000 + 1024);
    cr_assert(limited.value.lower <= full.value.lower && full.value.lower <= limited.value.upper,
              "bounds [%d,%d] miss %d", limited.value.lower, limited.value.upper, full.value.lower);
    for (int i = 0; i < full.nmoves; i++)
      cr_assert(limited.move_value[i].lower <= full.move_value[i].lower &&
                full.move_value[i].lower <= limited.move_value[i].upper);
  }
  cr_assert_gt(stopped, 0, "no solve hit the limit");
  goita_solver_free(solver);
}

/* The 5-pawn decision is worth its better choice; a redeal is worth 0. */
Test(solver, five_pawn_decision) {
  /* Seat 1 holds 5 pawns; its partner, seat 3, decides. */
  const goita_round r = test_round("", "11111234,12345678,12345679,11123455,s1");
  cr_assert_eq(r.phase, GOITA_PHASE_DECIDE);
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 8 << 20), GOITA_OK);
  const goita_solve_options o = all_moves();
  goita_solve_result res;
  goita_solve(solver, &r, &o, &res);
  cr_assert_eq(res.nmoves, 2);
  cr_assert_eq(res.moves[0].type, GOITA_MOVE_REDEAL);
  cr_assert_eq(res.move_value[0].lower, 0);
  cr_assert_eq(res.move_value[0].upper, 0);
  goita_round play = r;
  goita_round_apply_unchecked(&play, res.moves[1]);
  goita_solve_result after;
  goita_solve(solver, &play, NULL, &after);
  const int sign = goita_rules_side_of(&r.rules, play.turn) == goita_rules_side_of(&r.rules, r.turn) ? 1 : -1;
  cr_assert_eq(res.move_value[1].lower, sign * after.value.lower);
  const int best = res.move_value[1].lower > 0 ? res.move_value[1].lower : 0;
  cr_assert_eq(res.value.lower, best);
  goita_solver_free(solver);
}

Test(solver, finished_round) {
  const goita_round r = test_round("", "11111112,12345678,12345679,12334455,s1"); /* 7 pawns: teyaku */
  cr_assert(goita_round_over(&r));
  goita_solver *solver;
  cr_assert_eq(goita_solver_new(&solver, 1 << 20), GOITA_OK);
  goita_solve_result res;
  cr_assert_eq(goita_solve(solver, &r, NULL, &res), GOITA_OK);
  cr_assert_eq(res.value.lower, res.value.upper);
  cr_assert_eq(abs(res.value.lower), r.result.points);
  cr_assert_eq(goita_solve(NULL, &r, NULL, &res), GOITA_EINVAL);
  goita_solver_free(solver);
}

/* Out of memory is reported as such (GOITA_ENOMEM), not as a bad argument: a child process
 * whose address space is capped asks for a table larger than the cap. AddressSanitizer
 * reserves its own address space and dies instead of returning NULL, so it skips this. */
Test(solver, out_of_memory_is_enomem) {
#if defined(__SANITIZE_ADDRESS__)
  cr_skip_test("AddressSanitizer does not return NULL from a failed allocation");
#else
  const pid_t pid = fork();
  cr_assert_geq(pid, 0);
  if (pid == 0) {
    struct rlimit cap = {(rlim_t)1 << 30, (rlim_t)1 << 30};
    setrlimit(RLIMIT_AS, &cap);
    goita_solver *s = NULL;
    const int st = goita_solver_new(&s, (size_t)2 << 30);
    goita_player *p = NULL;
    const int pst = goita_player_new(&p, "sampler:tt_mb=2048", NULL);
    _exit(st == GOITA_ENOMEM && s == NULL && pst == GOITA_ENOMEM && p == NULL ? 0 : 1);
  }
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the capped child did not see GOITA_ENOMEM");
  cr_expect_str_eq(goita_err_name(GOITA_ENOMEM), "ENOMEM");
#endif
}

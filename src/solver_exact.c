/* A position's exact value by null-window tests (solver_internal.h; docs/SOLVER.md "Search"):
 * win or lose first, then one step outwards from zero at a time, each test reusing the
 * table. */
#include <string.h>

#include "solver_table.h"

/* Possible round values in tens, ascending. */
static const int8_t round_values[] = {-10, -8, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 8, 10};
#define NVALUES ((int)(sizeof round_values / sizeof round_values[0]))

void goita__solver_narrow(goita_solver *s, const spos *p, goita_solve_mode mode, int *lo, int *hi) {
  const hand_info *hand[GOITA_MAX_SEATS] = {NULL};
  hands_of(s, s->players, p->hands, hand);
  const table_view view = view_of(s, s->players, p, hand);
  const int mine = view.mine, theirs = view.theirs;
  if (mine < *hi) *hi = mine;
  if (-theirs > *lo) *lo = -theirs;
  const tt_entry *e = tt_find(s, key_of(s, p), p->pieces);
  if (e) {
    if (e->lower > *lo) *lo = e->lower;
    if (e->upper < *hi) *hi = e->upper;
  }
  s->test_root = p;
  memset(s->root_nodes, 0, sizeof s->root_nodes);
  s->root_passed = -1;
  while (*lo < *hi && !s->stopped) {
    if (mode == GOITA_SOLVE_WIN_LOSS && (*lo > 0 || *hi < 0)) return;
    /* The candidates are the possible values in (lo, hi]. Test win/loss first, then step
     * outwards from zero, one candidate at a time: a test the value passes is cheap (the table
     * move of the previous test usually proves it), so this leaves one failing test where
     * halving leaves several (docs/SOLVER.md). */
    int first = -1, last = -1;
    for (int i = 0; i < NVALUES; i++)
      if (round_values[i] > *lo && round_values[i] <= *hi) {
        if (first < 0) first = i;
        last = i;
      }
    if (first < 0) { /* no possible value strictly inside: lo is the value */
      *hi = *lo;
      return;
    }
    int t;
    if (*lo < 0 && *hi > 0)
      t = 1;
    else if (*lo > 0)
      t = round_values[first];
    else
      t = round_values[last];
    const int v = goita__solver_nws(s, p, t);
    if (s->stopped) return;
    if (v >= t)
      *lo = v;
    else
      *hi = v;
  }
}

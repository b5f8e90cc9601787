/* The memory game "Gardes" (RULES.md 9). */
#include <string.h>

#include "internal.h"

const uint8_t goita_solo_corners[4] = {0, GOITA_SOLO_COLS - 1, GOITA_SOLO_CELLS - GOITA_SOLO_COLS,
                                       GOITA_SOLO_CELLS - 1};

int goita_solo_value(int kind) { return goita_kind_value(kind) / 10; }

static bool is_corner(int cell) {
  for (int i = 0; i < 4; i++)
    if (goita_solo_corners[i] == cell) return true;
  return false;
}

uint32_t goita_solo_occupied(const goita_solo *g) {
  uint32_t m = 0;
  for (int c = 0; c < GOITA_SOLO_CELLS; c++)
    if (g->cell[c]) m |= 1u << c;
  return m;
}

bool goita_solo_visible(const goita_solo *g, int cell) {
  if (cell < 0 || cell >= GOITA_SOLO_CELLS || !g->cell[cell]) return false;
  return ((g->guards | g->turned) >> cell) & 1u;
}

int goita_solo_face_down(const goita_solo *g) {
  return __builtin_popcount(goita_solo_occupied(g) & ~g->guards & ~g->turned);
}

void goita_solo_view(const goita_solo *g, uint8_t grid[GOITA_SOLO_CELLS]) {
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) grid[c] = goita_solo_visible(g, c) ? g->cell[c] : 0;
}

static void take(goita_solo *g, int cell) {
  const int kind = goita_mark_kind(g->cell[cell]);
  g->taken[kind]++;
  g->score = (int16_t)(g->score + goita_solo_value(kind));
  g->cell[cell] = 0;
  g->guards &= ~(1u << cell);
  g->turned &= ~(1u << cell);
}

/* Ends a turn: unpaired turned pieces go face-down again; with no face-down piece left the
 * remaining guards (all of different kinds, so never a pair) go to the discard. */
static void end_turn(goita_solo *g) {
  g->turned = 0;
  g->turns++;
  g->phase = GOITA_SOLO_TURN;
  if (goita_solo_face_down(g) > 0) return;
  for (int c = 0; c < GOITA_SOLO_CELLS; c++)
    if (g->cell[c]) {
      g->discard[goita_mark_kind(g->cell[c])]++;
      g->cell[c] = 0;
    }
  g->guards = 0;
  g->phase = GOITA_SOLO_OVER;
}

int goita_solo_setup(goita_solo *g, const uint8_t grid[GOITA_SOLO_CELLS], goita_error *err) {
  uint8_t left[10] = {0, 10, 4, 4, 4, 4, 2, 2, 1, 1};
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
    const uint8_t m = grid[c];
    if (m < 1 || m > 9 || left[m] == 0)
      return goita_error_set(err, GOITA_EDEAL, c, "cell %d: the grid must hold the 32 pieces of the set", c);
    left[m]--;
  }
  unsigned kinds = 0;
  for (int i = 0; i < 4; i++) {
    const unsigned bit = 1u << goita_mark_kind(grid[goita_solo_corners[i]]);
    if (kinds & bit)
      return goita_error_set(err, GOITA_EDEAL, goita_solo_corners[i], "the four guards must be of four kinds");
    kinds |= bit;
  }
  memset(g, 0, sizeof *g);
  memcpy(g->cell, grid, GOITA_SOLO_CELLS);
  for (int i = 0; i < 4; i++) g->guards |= 1u << goita_solo_corners[i];
  g->phase = GOITA_SOLO_TURN;
  return GOITA_OK;
}

void goita_solo_start(goita_solo *g, uint64_t seed) {
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  goita_rules rules;
  goita_rules_default(&rules);
  uint8_t set[GOITA_PIECES];
  const int n = goita__full_set(&rules, set);
  /* Draw four guards; while two share a kind, return them and draw again. */
  for (;;) {
    goita_rng_shuffle(&rng, set, n);
    unsigned kinds = 0;
    int i;
    for (i = 0; i < 4; i++) {
      const unsigned bit = 1u << goita_mark_kind(set[i]);
      if (kinds & bit) break;
      kinds |= bit;
    }
    if (i == 4) break;
  }
  uint8_t grid[GOITA_SOLO_CELLS];
  int next = 4;
  for (int c = 0, corner = 0; c < GOITA_SOLO_CELLS; c++) grid[c] = is_corner(c) ? set[corner++] : set[next++];
  goita_solo_setup(g, grid, NULL);
}

int goita_solo_turn(goita_solo *g, int a, int b, goita_error *err) {
  if (g->phase != GOITA_SOLO_TURN)
    return goita_error_set(err, GOITA_ESTATE, -1, g->phase == GOITA_SOLO_OVER ? "the game is over"
                                                                                 : "finish this turn first");
  const uint32_t down = goita_solo_occupied(g) & ~g->guards;
  for (int i = 0; i < 2; i++) {
    const int c = i ? b : a;
    if (c < 0 || c >= GOITA_SOLO_CELLS || !((down >> c) & 1u))
      return goita_error_set(err, GOITA_EILLEGAL, c, "cell %d holds no face-down piece", c);
  }
  if (a == b && __builtin_popcount(down) > 1)
    return goita_error_set(err, GOITA_EILLEGAL, a, "turn two different pieces");
  g->turned = (1u << a) | (1u << b);
  g->shown = g->turned;
  /* Count the visible pieces per kind. */
  int count[GOITA_KIND_SLOTS] = {0};
  const uint32_t visible = (g->guards | g->turned) & goita_solo_occupied(g);
  for (int c = 0; c < GOITA_SOLO_CELLS; c++)
    if ((visible >> c) & 1u) count[goita_mark_kind(g->cell[c])]++;
  bool paired = false;
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
    if (count[k] == 3) {
      g->phase = GOITA_SOLO_CHOOSE; /* the player picks which two */
      return GOITA_OK;
    }
  }
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
    if (count[k] != 2) continue;
    paired = true;
    for (int c = 0; c < GOITA_SOLO_CELLS; c++)
      if (((visible >> c) & 1u) && goita_mark_kind(g->cell[c]) == k) take(g, c);
  }
  if (paired)
    end_turn(g);
  else
    g->phase = GOITA_SOLO_REMOVE;
  return GOITA_OK;
}

int goita_solo_choose(goita_solo *g, int a, int b, goita_error *err) {
  if (g->phase != GOITA_SOLO_CHOOSE) return goita_error_set(err, GOITA_ESTATE, -1, "there is no pair to choose");
  if (a == b || !goita_solo_visible(g, a) || !goita_solo_visible(g, b) ||
      goita_mark_kind(g->cell[a]) != goita_mark_kind(g->cell[b]))
    return goita_error_set(err, GOITA_EILLEGAL, a, "cells %d and %d are not two visible pieces of one kind", a, b);
  take(g, a);
  take(g, b);
  end_turn(g);
  return GOITA_OK;
}

int goita_solo_remove(goita_solo *g, int cell, goita_error *err) {
  if (g->phase != GOITA_SOLO_REMOVE)
    return goita_error_set(err, GOITA_ESTATE, -1, "a piece is removed only after a turn without a pair");
  if (cell < 0 || cell >= GOITA_SOLO_CELLS || !g->cell[cell])
    return goita_error_set(err, GOITA_EILLEGAL, cell, "cell %d is empty", cell);
  g->discard[goita_mark_kind(g->cell[cell])]++;
  g->cell[cell] = 0;
  g->guards &= ~(1u << cell);
  end_turn(g);
  return GOITA_OK;
}

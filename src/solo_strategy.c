/* A perfect-memory strategy for the memory game (RULES.md 9): one step of lookahead over a
 * simple base strategy, valued by simulated continuations (a rollout player). The exact best
 * strategy is out of reach: its dynamic programme has billions of knowledge states for the full
 * set (docs/SOLO.md), so goita solo --solve measures this one by sampling. */
#include <string.h>

#include "goita/solo.h"
#include "internal.h"
#include "solo_internal.h"

#define KINDS_FROM GOITA_PAWN
#define KINDS_TO GOITA_KING

static int value(int kind) { return goita_solo_value(kind); }

static int face_down(const goita__solo_knowledge *k) {
  int n = 0;
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) n += k->unseen[x] + k->known[x];
  return n;
}

static int unseen_total(const goita__solo_knowledge *k) {
  int n = 0;
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) n += k->unseen[x];
  return n;
}

bool goita__solo_over(const goita__solo_position *p) {
  return p->phase == GOITA_SOLO_TURN && face_down(&p->k) == 0;
}

/* Draws the kind of one unseen piece and takes it out of the unseen counts. */
static int draw_unseen(goita__solo_knowledge *k, goita_rng *rng) {
  int r = (int)goita_rng_below(rng, (uint32_t)unseen_total(k));
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) {
    if (r < k->unseen[x]) {
      k->unseen[x]--;
      return x;
    }
    r -= k->unseen[x];
  }
  return GOITA_NONE; /* unreachable: the caller checked that a piece is unseen */
}

static int take_up(goita__solo_knowledge *k, int named, goita_rng *rng) {
  if (named == GOITA_NONE) return draw_unseen(k, rng);
  k->known[named]--;
  return named;
}

int goita__solo_steps(const goita__solo_position *p, goita__solo_step *steps) {
  const goita__solo_knowledge *k = &p->k;
  int n = 0;
  const int unseen = unseen_total(k);
  switch (p->phase) {
  case GOITA_SOLO_TURN:
    if (face_down(k) == 1) {
      int only = GOITA_NONE;
      for (int x = KINDS_FROM; x <= KINDS_TO; x++)
        if (k->known[x]) only = x;
      steps[n++] = (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)only, (uint8_t)only, true};
      break;
    }
    for (int x = KINDS_FROM; x <= KINDS_TO; x++) {
      if (!k->known[x]) continue;
      for (int y = x; y <= KINDS_TO; y++)
        if (k->known[y] >= (x == y ? 2 : 1)) steps[n++] = (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)x, (uint8_t)y, false};
      if (unseen >= 1) steps[n++] = (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)x, GOITA_NONE, false};
    }
    if (unseen >= 2) steps[n++] = (goita__solo_step){GOITA__SOLO_TURN, GOITA_NONE, GOITA_NONE, false};
    break;
  case GOITA_SOLO_CHOOSE:
    steps[n++] = (goita__solo_step){GOITA__SOLO_KEEP_GUARD, p->choose_kind, p->choose_kind, false};
    steps[n++] = (goita__solo_step){GOITA__SOLO_TAKE_GUARD, p->choose_kind, p->choose_kind, false};
    break;
  case GOITA_SOLO_REMOVE:
    for (int x = KINDS_FROM; x <= KINDS_TO; x++) {
      if (k->guard[x]) steps[n++] = (goita__solo_step){GOITA__SOLO_REMOVE_GUARD, (uint8_t)x, (uint8_t)x, false};
      if (k->known[x]) steps[n++] = (goita__solo_step){GOITA__SOLO_REMOVE_PIECE, (uint8_t)x, (uint8_t)x, false};
    }
    if (unseen >= 1) steps[n++] = (goita__solo_step){GOITA__SOLO_REMOVE_PIECE, GOITA_NONE, GOITA_NONE, false};
    break;
  default:
    break;
  }
  return n;
}

/* Turns pieces and takes the pairs, as goita_solo_turn does, on counts. */
static int play_turn(goita__solo_position *p, const goita__solo_step *s, goita_rng *rng) {
  goita__solo_knowledge *k = &p->k;
  const int a = take_up(k, s->x, rng);
  if (s->single) {
    if (k->guard[a]) {
      k->guard[a] = 0;
      return 2 * value(a);
    }
    k->known[a]++;
    p->phase = GOITA_SOLO_REMOVE;
    return 0;
  }
  const int b = take_up(k, s->y, rng);
  if (a == b) {
    if (k->guard[a]) {
      p->phase = GOITA_SOLO_CHOOSE;
      p->choose_kind = (uint8_t)a;
      return 0;
    }
    return 2 * value(a);
  }
  int points = 0;
  const int kinds[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    if (k->guard[kinds[i]]) { /* a pair with the guard */
      k->guard[kinds[i]] = 0;
      points += 2 * value(kinds[i]);
    } else {
      k->known[kinds[i]]++; /* face-down again, now known */
    }
  }
  if (points == 0) p->phase = GOITA_SOLO_REMOVE;
  return points;
}

int goita__solo_play(goita__solo_position *p, const goita__solo_step *s, goita_rng *rng) {
  goita__solo_knowledge *k = &p->k;
  const int kind = s->x;
  int points = 0;
  switch (s->type) {
  case GOITA__SOLO_TURN:
    return play_turn(p, s, rng);
  case GOITA__SOLO_KEEP_GUARD:
    points = 2 * value(kind);
    break;
  case GOITA__SOLO_TAKE_GUARD:
    k->guard[kind] = 0;
    k->known[kind]++;
    points = 2 * value(kind);
    break;
  case GOITA__SOLO_REMOVE_GUARD:
    k->guard[kind] = 0;
    break;
  case GOITA__SOLO_REMOVE_PIECE:
    take_up(k, kind, rng);
    break;
  default:
    break;
  }
  p->phase = GOITA_SOLO_TURN;
  return points;
}

/* The piece a removal costs least: a piece whose kind has no other piece left on the grid (it
 * can never pair), else the cheapest seen piece unless an unseen one is cheaper on average. */
static goita__solo_step base_remove(const goita__solo_knowledge *k) {
  int cheapest = GOITA_NONE;
  bool cheapest_is_guard = false;
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) {
    const int on_grid = k->guard[x] + k->known[x] + k->unseen[x];
    if (!k->guard[x] && !k->known[x]) continue;
    if (on_grid == 1)
      return (goita__solo_step){k->guard[x] ? GOITA__SOLO_REMOVE_GUARD : GOITA__SOLO_REMOVE_PIECE, (uint8_t)x, (uint8_t)x,
                                false};
    if (cheapest == GOITA_NONE || value(x) < value(cheapest) ||
        (value(x) == value(cheapest) && cheapest_is_guard && k->known[x])) {
      cheapest = x;
      cheapest_is_guard = !k->known[x]; /* a guard pairs by itself: remove a known piece first */
    }
  }
  const int unseen = unseen_total(k);
  int unseen_value = 0;
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) unseen_value += k->unseen[x] * value(x);
  if (cheapest == GOITA_NONE || (unseen > 0 && value(cheapest) * unseen > unseen_value))
    return (goita__solo_step){GOITA__SOLO_REMOVE_PIECE, GOITA_NONE, GOITA_NONE, false};
  return (goita__solo_step){cheapest_is_guard ? GOITA__SOLO_REMOVE_GUARD : GOITA__SOLO_REMOVE_PIECE, (uint8_t)cheapest,
                            (uint8_t)cheapest, false};
}

/* Pairs of this value or less are kept face-down while unseen pieces remain: when a turn fails,
 * one of them is the cheapest piece to give up (measured: 63.70 points against 63.36 when every
 * known pair is taken at once, docs/SOLO.md). */
#define CHEAP_VALUE 2

/* Take the dearest known pair (but keep cheap ones while they may serve); else turn two unseen
 * pieces, which shows the most; else a known piece that may pair with the last unseen one. */
static goita__solo_step base_turn(const goita__solo_knowledge *k) {
  const int unseen = unseen_total(k);
  if (face_down(k) == 1) {
    int only = GOITA_NONE;
    for (int x = KINDS_FROM; x <= KINDS_TO; x++)
      if (k->known[x]) only = x;
    return (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)only, (uint8_t)only, true};
  }
  for (int x = KINDS_TO; x >= KINDS_FROM; x--)
    if (k->known[x] >= 2 && (value(x) > CHEAP_VALUE || unseen < 2)) return (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)x, (uint8_t)x, false};
  if (unseen >= 2) return (goita__solo_step){GOITA__SOLO_TURN, GOITA_NONE, GOITA_NONE, false};
  if (unseen >= 1)
    for (int x = KINDS_TO; x >= KINDS_FROM; x--)
      if (k->known[x] && k->unseen[x]) return (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)x, GOITA_NONE, false};
  /* No seen piece can pair with an unseen one: turn the cheapest seen piece with the last unseen
   * one, or (nothing unseen) the two cheapest seen pieces. */
  int first = GOITA_NONE, second = GOITA_NONE;
  for (int x = KINDS_FROM; x <= KINDS_TO; x++) {
    if (!k->known[x]) continue;
    if (first == GOITA_NONE) {
      first = x;
    } else if (second == GOITA_NONE) {
      second = x;
    }
  }
  if (unseen == 1) second = GOITA_NONE;
  return (goita__solo_step){GOITA__SOLO_TURN, (uint8_t)first, (uint8_t)second, false};
}

goita__solo_step goita__solo_base_step(const goita__solo_position *p) {
  switch (p->phase) {
  case GOITA_SOLO_CHOOSE:
    return (goita__solo_step){GOITA__SOLO_KEEP_GUARD, p->choose_kind, p->choose_kind, false};
  case GOITA_SOLO_REMOVE:
    return base_remove(&p->k);
  default:
    return base_turn(&p->k);
  }
}

static int rollout(goita__solo_position p, goita_rng *rng) {
  int points = 0;
  while (!goita__solo_over(&p)) {
    const goita__solo_step s = goita__solo_base_step(&p);
    points += goita__solo_play(&p, &s, rng);
  }
  return points;
}

/* Points of one continuation: the step, then the base strategy to the end. */
static int continuation(const goita__solo_position *p, const goita__solo_step *step, uint64_t seed, int r) {
  /* the same draws for every step (common random numbers), so that differences are not noise */
  goita_rng rng;
  goita_rng_seed(&rng, seed + (uint64_t)r * UINT64_C(0x9e3779b97f4a7c15));
  goita__solo_position q = *p;
  const int points = goita__solo_play(&q, step, &rng);
  return points + rollout(q, &rng);
}

#define MAX_ROLLOUTS 4096

goita__solo_step goita__solo_best_step(const goita__solo_position *p, uint64_t seed, int rollouts, double *value_out) {
  goita__solo_step steps[64];
  const int n = goita__solo_steps(p, steps);
  if (rollouts < 2) rollouts = 2;
  if (rollouts > MAX_ROLLOUTS) rollouts = MAX_ROLLOUTS;
  /* The base strategy's step is kept unless another beats it by two standard errors of the
   * paired difference: with few rollouts, taking the plain maximum picks lucky steps. */
  goita__solo_step best = goita__solo_base_step(p);
  int base_points[MAX_ROLLOUTS];
  long base_total = 0;
  for (int r = 0; r < rollouts; r++) base_total += base_points[r] = continuation(p, &best, seed, r);
  double best_gain = 0;
  for (int i = 0; i < n; i++) {
    if (memcmp(&steps[i], &best, sizeof best) == 0) continue;
    double sum = 0, squares = 0;
    for (int r = 0; r < rollouts; r++) {
      const double d = continuation(p, &steps[i], seed, r) - base_points[r];
      sum += d;
      squares += d * d;
    }
    const double mean = sum / rollouts, variance = (squares - sum * mean) / (rollouts - 1);
    if (mean > best_gain && mean * mean * rollouts > 4 * variance) {
      best_gain = mean;
      best = steps[i];
    }
  }
  if (value_out) *value_out = (double)base_total / rollouts + best_gain;
  return best;
}

/* ---- the game on cells ---- */

void goita_solo_remember(goita_solo_memory *m, const goita_solo *g) {
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
    if (!g->cell[c])
      m->mark[c] = 0;
    else if (goita_solo_visible(g, c) || ((g->shown >> c) & 1u))
      m->mark[c] = g->cell[c];
  }
}

/* Builds the knowledge of a perfect-memory player from the view and the memory alone. */
static int know(const goita_solo *g, const goita_solo_memory *m, goita__solo_position *p, goita_error *err) {
  memset(p, 0, sizeof *p);
  p->phase = g->phase;
  uint8_t view[GOITA_SOLO_CELLS];
  goita_solo_view(g, view);
  const uint32_t occupied = goita_solo_occupied(g);
  int seen[GOITA_KIND_SLOTS] = {0}, unseen_cells = 0;
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
    if (!((occupied >> c) & 1u)) continue;
    const int kind = goita_mark_kind(view[c] ? view[c] : m->mark[c]);
    if (kind == GOITA_NONE) {
      unseen_cells++;
      continue;
    }
    seen[kind]++;
    if ((g->guards >> c) & 1u)
      p->k.guard[kind]++;
    else if ((g->turned >> c) & 1u)
      p->choose_kind = (uint8_t)kind; /* in the remove phase the turned pieces count as known */
    if (!((g->guards >> c) & 1u) && (!((g->turned >> c) & 1u) || g->phase == GOITA_SOLO_REMOVE)) p->k.known[kind]++;
  }
  int unseen = 0;
  for (int x = GOITA_PAWN; x <= GOITA_KING; x++) {
    const int left = goita_kind_total(x) - g->taken[x] - g->discard[x] - seen[x];
    if (left < 0) return goita_error_set(err, GOITA_EINVAL, -1, "the memory does not belong to this game");
    p->k.unseen[x] = (int8_t)left;
    unseen += left;
  }
  if (unseen != unseen_cells) return goita_error_set(err, GOITA_EINVAL, -1, "the memory does not belong to this game");
  return GOITA_OK;
}

/* A cell for a piece of the step: a remembered (or turned, when `turned_ok`) piece of `kind`,
 * or a never-seen face-down one for GOITA_NONE; not `other`. */
static int cell_for(const goita_solo *g, const goita_solo_memory *m, int kind, bool turned_ok, int other) {
  const uint32_t candidates = goita_solo_occupied(g) & ~g->guards & (turned_ok ? ~0u : ~g->turned);
  for (int c = 0; c < GOITA_SOLO_CELLS; c++) {
    if (!((candidates >> c) & 1u) || c == other) continue;
    const bool turned = (g->turned >> c) & 1u;
    const int mark = turned ? g->cell[c] : m->mark[c];
    if (goita_mark_kind(mark) == kind) return c;
  }
  return -1;
}

static int guard_cell(const goita_solo *g, int kind) {
  for (int c = 0; c < GOITA_SOLO_CELLS; c++)
    if (((g->guards >> c) & 1u) && g->cell[c] && goita_mark_kind(g->cell[c]) == kind) return c;
  return -1;
}

int goita_solo_advise(const goita_solo *g, const goita_solo_memory *m, uint64_t seed, int rollouts,
                      goita_solo_action *action, goita_error *err) {
  if (g->phase == GOITA_SOLO_OVER) return goita_error_set(err, GOITA_ESTATE, -1, "the game is over");
  goita__solo_position p;
  const int st = know(g, m, &p, err);
  if (st != GOITA_OK) return st;
  double value = 0;
  const goita__solo_step s = goita__solo_best_step(&p, seed, rollouts, &value);
  int a = -1, b = -1;
  switch (s.type) {
  case GOITA__SOLO_TURN:
    a = cell_for(g, m, s.x, false, -1);
    b = s.single ? a : cell_for(g, m, s.y, false, a);
    break;
  case GOITA__SOLO_KEEP_GUARD:
  case GOITA__SOLO_TAKE_GUARD:
    for (int c = 0; c < GOITA_SOLO_CELLS; c++)
      if ((g->turned >> c) & 1u) {
        if (a < 0)
          a = c;
        else
          b = c;
      }
    if (s.type == GOITA__SOLO_TAKE_GUARD) b = guard_cell(g, s.x);
    break;
  case GOITA__SOLO_REMOVE_GUARD:
    a = b = guard_cell(g, s.x);
    break;
  default: /* GOITA__SOLO_REMOVE_PIECE */
    a = b = cell_for(g, m, s.x, true, -1);
    break;
  }
  if (a < 0 || b < 0) return goita_error_set(err, GOITA_EINVAL, -1, "the memory does not belong to this game");
  *action = (goita_solo_action){g->phase, (int8_t)a, (int8_t)b, value};
  return GOITA_OK;
}

int goita_solo_apply(goita_solo *g, const goita_solo_action *action, goita_error *err) {
  if (action->phase != g->phase) return goita_error_set(err, GOITA_ESTATE, -1, "the action is for another phase");
  switch (action->phase) {
  case GOITA_SOLO_TURN:
    return goita_solo_turn(g, action->a, action->b, err);
  case GOITA_SOLO_CHOOSE:
    return goita_solo_choose(g, action->a, action->b, err);
  case GOITA_SOLO_REMOVE:
    return goita_solo_remove(g, action->a, err);
  default:
    return goita_error_set(err, GOITA_ESTATE, -1, "the game is over");
  }
}

int goita_solo_play_best(goita_solo *g, uint64_t seed, int rollouts) {
  goita_solo_memory memory;
  memset(&memory, 0, sizeof memory);
  goita_solo_remember(&memory, g);
  for (uint64_t step = 0; g->phase != GOITA_SOLO_OVER; step++) {
    goita_solo_action action;
    if (goita_solo_advise(g, &memory, goita_seed_mix(seed + step), rollouts, &action, NULL) != GOITA_OK) break;
    if (goita_solo_apply(g, &action, NULL) != GOITA_OK) break; /* cannot happen: advice is legal */
    goita_solo_remember(&memory, g);
  }
  return g->score;
}

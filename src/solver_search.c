/* The solver's null-window search (solver_internal.h, docs/SOLVER.md "How it works"): nws(p, t)
 * with its bounds, mirror moves, move ordering and enhanced transposition cutoffs. The hot code
 * of the solver: everything it calls per node is inline here or in solver_moves.h,
 * solver_table.h and solver_runs.h. */
#include <limits.h>
#include <stdint.h>

#include "solver_moves.h"
#include "solver_runs.h"
#include "solver_table.h"

/* Positions with fewer pieces are searched without the table: their subtrees cost less than
 * the cache misses of probing it. */
#define TT_MIN_PIECES 14
/* Positions with this many pieces or more first look up every child in the table. */
#define ETC_MIN_PIECES 20

/* ---- Mirror moves ---- */

/* Mirror moves. Swapping two kinds of one test class that every hand holds equally often (and
 * neither the attack to answer) maps the position onto itself, and a move onto a mirror image
 * that passes or fails the test alike: only one of the two is searched. Returns the kinds held
 * by the mover that have such a twin; twins[x] lists the twins of x. */
SEARCH_INLINE unsigned twin_kinds(const goita_solver *s, int n, const spos *p, const hand_info *const *hand,
                                 int t, uint16_t *twins) {
  const hand_info *h = hand[p->turn];
  const unsigned candidates = h->held & ~KING_BIT & ~(1u << p->attack);
  if (!(candidates & (candidates - 1))) return 0;
  const uint8_t *cls = s->test_class[t + 10];
  /* With no king left in any hand every kind but the king has only itself as defender. */
  const unsigned compared = (p->hands & s->king_bits) ? 0xFFu : (unsigned)~TEST_CLASS_DEFENDERS & 0xFFu;
  /* A kind's signature: its class and its count in every hand (4 bits each); twins have the
   * same. */
  uint32_t sig[GOITA_KIND_SLOTS];
  for (unsigned xs = candidates; xs; xs &= xs - 1) {
    const int x = __builtin_ctz(xs);
    uint32_t v = cls[x] & compared;
    for (int seat = 0; seat < n; seat++) v = v << 4 | hand[seat]->count[x];
    sig[x] = v;
  }
  unsigned any = 0;
  for (unsigned xs = candidates; xs; xs &= xs - 1) {
    const int x = __builtin_ctz(xs);
    for (unsigned ys = xs & (xs - 1); ys; ys &= ys - 1) {
      const int y = __builtin_ctz(ys);
      if (sig[x] != sig[y]) continue;
      if (!(any & (1u << x))) twins[x] = 0;
      if (!(any & (1u << y))) twins[y] = 0;
      twins[x] |= (uint16_t)(1u << y);
      twins[y] |= (uint16_t)(1u << x);
      any |= 1u << x | 1u << y;
    }
  }
  return any;
}

/* Whether play (b, a) is searched: no swap of twins makes a smaller move of it. */
static inline bool mirror_first(int b, int a, unsigned with_twins, const uint16_t *twins) {
  const int m = MOVE(b, a);
  if ((with_twins >> b) & 1)
    for (unsigned ys = twins[b]; ys; ys &= ys - 1) {
      const int y = __builtin_ctz(ys);
      if (MOVE(y, a == b ? y : a == y ? b : a) < m) return false;
    }
  if ((with_twins >> a) & 1)
    for (unsigned ys = twins[a]; ys; ys &= ys - 1) {
      const int y = __builtin_ctz(ys);
      if (MOVE(b == a ? y : b == y ? a : b, y) < m) return false;
    }
  return true;
}

/* ---- Move ordering ---- */

/* Ordering: after the table's move, a pass first against a partner's attack (against an
 * opponent's, see early_pass); then the killer attack, high attacks; after a defence an attack
 * the next seat cannot answer, a king defence last; face-down, the killer's kind, a kind the
 * mover holds twice, low kinds. Pieces worth more kept than spent come later: an attack no
 * other seat can answer (it is as safe later, when a run needs it), the more so the higher it
 * is; a king attack last of all (the king answers most attacks); and, in a test the mover can
 * pass only by finishing high, a play that spends one of its few pieces worth that much.
 * Weights tuned by node counts (docs/SOLVER.md). A move and its score are sorted as one
 * number: the score, then the generation order (ties keep it), then the move. */
#define KILLER_OF(move) ((move) ? MOVE_ATTACK(move) + 1 : 1)
/* Ordering bonus of the killers, the latest first. */
static const int killer_bonus[KILLERS] = {50, 25, 12, 6};
/* Ordering penalty for a king attack. */
#define KING_ATTACK_PENALTY 300
/* Ordering penalty for spending (as attack, defence or face-down) a finisher, a piece whose
 * finish passes the test, by how many the mover holds (none beyond three). */
static const int16_t finisher_penalty[4] = {0, 300, 50, 40};
#define SCORED(score, index, move) ((int64_t)(score) * 65536 + (255 - (index)) * 256 + (move))
#define SCORED_MOVE(x) ((uint8_t)((uint64_t)(x)&255u))

/* What a node's ordering knows besides the move. */
typedef struct order_facts {
  const hand_info *hand; /* the mover's */
  unsigned unanswerable; /* attack kinds no other seat can answer */
  unsigned next_cannot;  /* attack kinds the next seat cannot answer */
  int16_t bonus[GOITA_KIND_SLOTS + 1]; /* by KILLER_OF a move: the killers' bonus, less the
                                        * penalties for attacking with a king or a finisher */
  int tt_move;           /* -1 for none */
  bool at_root;
  int pass; /* the pass's score (see early_pass) */
} order_facts;

/* The ordering score of move at p: higher first. */
static inline int order_score(const goita_solver *s, const spos *p, const order_facts *f, int move) {
  if (f->at_root) { /* the move that passed the last test first, then the hardest to refute */
    const uint32_t cost = s->root_nodes[move];
    if (move == s->root_passed) return INT_MAX;
    if (cost) return 2000 + (int)(cost < (1u << 30) ? cost : (1u << 30));
  }
  if (move == f->tt_move) return 1000;
  const int bonus = f->bonus[KILLER_OF(move)];
  if (move == 0) return f->pass;
  const int b = MOVE_BLOCK(move), a = MOVE_ATTACK(move);
  const int attack = bonus + kind_tens[a] * (4 - (int)((f->unanswerable >> a) & 1) * 20);
  if (p->attack) /* a defence: then an attack the next seat cannot answer; a king defends last */
    return attack + (int)((f->next_cannot >> a) & 1) * 10 - (b == GOITA_KING) * 150;
  /* Face-down: the killer's kind, a kind the mover keeps another of, low kinds. */
  const int face_down = (s->killer_face_down[p->pieces][p->turn] == b ? 25 : 0) +
                        (f->hand->count[b] >= 2 + (a == b) ? 40 : 0) - kind_tens[b] * 10;
  return attack + face_down;
}

/* Adds move with its score to list[0..*n), kept sorted best first. */
static inline void add_move(int64_t *list, int *n, int move, int score) {
  int j = (*n)++;
  const int64_t x = SCORED(score, j, move);
  for (; j > 0 && list[j - 1] < x; j--) list[j] = list[j - 1];
  list[j] = x;
}

/* Moves the attack of a move that cut off (KILLER_OF) to the front of a killer list. */
static inline void promote_killer(uint8_t *killers, int killer) {
  int k = 0;
  while (k < KILLERS - 1 && killers[k] != killer) k++;
  for (; k > 0; k--) killers[k] = killers[k - 1];
  killers[0] = (uint8_t)killer;
}

/* ---- The search ---- */

/* Below this many pieces a pass that comes first is searched as soon as it is known, before
 * the plays are made: it cuts off at most such nodes. With more, the enhanced cutoffs among
 * the plays save more than making them costs. */
#define PASS_AT_ONCE_PIECES 20

/* Whether a node or time limit has been reached. */
static bool limit_hit(goita_solver *s) {
  if (s->abort && *s->abort) return true;
  if (s->max_nodes && s->nodes >= s->max_nodes) return true;
  return s->deadline > 0 && monotonic_seconds() >= s->deadline;
}

static int nws4(goita_solver *s, const spos *p, int t);
static int nws_any(goita_solver *s, const spos *p, int t);

/* The search of p for n seats: the copy compiled for 4, or the one for any number. */
SEARCH_INLINE int nws_of(goita_solver *s, int n, const spos *p, int t) {
  return n == 4 ? nws4(s, p, t) : nws_any(s, p, t);
}

/* A fail-soft bound on the value of child c of p for p's mover, tested against t (see nws). */
SEARCH_INLINE int child_value(goita_solver *s, int n, const spos *p, const spos *c, int t) {
  if (flips(s, n, p->turn, c->turn)) return -nws_of(s, n, c, 1 - t);
  return nws_of(s, n, c, t);
}

/* What a node of nws_body has learnt so far, passed between its phases (all inlined, so that
 * these stay in registers). */
typedef struct node {
  const hand_info *h; /* the mover's hand */
  bool leading;       /* the mover leads (no attack to answer) */
  bool at_root;       /* p is the root of the test (narrow): its moves' costs are kept */
  table_view view;
  int mine;           /* proven bounds so far: the value is at most mine, at least lower */
  int lower;
  uint64_t key;
  bool use_tt;        /* p has enough pieces to be in the table */
  int tt_move;        /* the table's move, -1 for none */
  uint8_t *killers;   /* the killer list of p's pieces, mover, and lead or answer */
  unsigned finishers; /* the mover's kinds whose finish passes the test, when it has few */
  int keep;           /* the ordering penalty for placing one of them */
  int best;           /* the best bound of the moves searched */
  bool pass_done;     /* the pass was searched at once (early_pass) */
  int moves;          /* moves in the scored list */
  bool mirrored;      /* a play was left out for its mirror image */
} node;

/* A leader with two pieces finishes: returns its best finish, tens. */
SEARCH_INLINE int leader_finish(const goita_solver *s, const spos *p, const hand_info *h) {
  int best = 0;
  unsigned blocks = h->held;
  if ((blocks & KING_BIT) && !face_down_king_ok(s, h, p->kingup)) blocks &= ~KING_BIT;
  for (; blocks; blocks &= blocks - 1) {
    const int b = __builtin_ctz(blocks);
    for (unsigned as = attacks_after(s, h, p->kingup, b, true); as; as &= as - 1) {
      const int a = __builtin_ctz(as);
      const int v = kind_tens[a] * (a == b ? 2 : 1);
      if (v > best) best = v;
    }
  }
  return best;
}

/* A defender with two pieces finishes when it answers: returns its best finish, tens (0 when
 * it has none; a defence cannot be doubled). */
SEARCH_INLINE int defender_finish(const goita_solver *s, const spos *p, const hand_info *h) {
  int finish = 0;
  for (unsigned ds = h->held & defenders[p->attack]; ds; ds &= ds - 1) {
    const int d = __builtin_ctz(ds);
    for (unsigned as = attacks_after(s, h, p->kingup, d, false); as; as &= as - 1)
      if (kind_tens[__builtin_ctz(as)] > finish) finish = kind_tens[__builtin_ctz(as)];
  }
  return finish;
}

/* Bounds before any move is made: the best finish each side could still make, a forced run of
 * the mover, then the table. Returns true when they decide the test, with the bound in *v;
 * else leaves the bounds, the key and the table's move in nd. */
SEARCH_INLINE bool node_bounds(goita_solver *s, int n, const spos *p, int t, const hand_info *const *hand,
                               node *nd, int *v) {
  nd->view = view_of(s, n, p, hand);
  nd->mine = nd->view.mine;
  const int theirs = nd->view.theirs;
  if (nd->mine < t) {
    *v = nd->mine;
    return true;
  }
  if (-theirs >= t) {
    *v = -theirs;
    return true;
  }
  nd->lower = -theirs;
  if (nd->h->size >= 4) {
    const int run = forced_run(s, p, nd->h, nd->view.opponents_held); /* 0: no run */
    if (run && run >= t) { /* not stored: found again as cheaply */
      *v = run;
      return true;
    }
    if (run && run > nd->lower) nd->lower = run;
  }
  nd->key = key_of(s, p);
  nd->tt_move = -1;
  nd->use_tt = p->pieces >= TT_MIN_PIECES;
  const tt_entry *e = nd->use_tt ? tt_find(s, nd->key, p->pieces) : NULL;
  if (e) {
    if (e->lower >= t) {
      *v = e->lower;
      return true;
    }
    if (e->upper < t) {
      *v = e->upper;
      return true;
    }
    nd->tt_move = e->move;
    if (e->lower > nd->lower) nd->lower = e->lower;
    if (e->upper < nd->mine) nd->mine = e->upper;
  }
  return false;
}

/* Fills what the ordering of p's moves knows: the kinds no other seat and the next seat cannot
 * answer, the table's move, the killers' bonuses less the penalty of a king attack, and the
 * finishers: the mover's pieces whose finish passes the test, when it has few (from t = 6 only
 * doubled finishes pass). Attacking with a finisher costs nd->keep in the bonus; placing one
 * (face-down or as a defence) is charged by scored_moves. Below 16 pieces they save no
 * nodes. */
SEARCH_INLINE void order_facts_of(const goita_solver *s, int n, const spos *p, int t,
                                  const hand_info *const *hand, node *nd, order_facts *facts) {
  const hand_info *h = nd->h;
  *facts = (order_facts){.hand = h,
                         .unanswerable = s->safe_from[nd->view.partner_held | nd->view.opponents_held],
                         .next_cannot = s->safe_from[hand[next_seat(n, p->turn)]->held],
                         .tt_move = nd->tt_move,
                         .at_root = nd->at_root,
                         .pass = 0,
                         .bonus = {0}};
  for (int k = KILLERS - 1; k >= 0; k--) facts->bonus[nd->killers[k]] = (int16_t)killer_bonus[k];
  facts->bonus[0] = 0;
  facts->bonus[GOITA_KING + 1] -= KING_ATTACK_PENALTY;
  nd->finishers = 0;
  nd->keep = 0;
  if (p->pieces >= 16 && t >= 2 && t <= 5) {
    const int count = (int)(h->worth >> (8 * (t - 2))) & 255;
    if (count && count < 4) {
      nd->finishers = h->held & s->kinds_worth[t];
      nd->keep = finisher_penalty[count];
      for (unsigned ks = nd->finishers; ks; ks &= ks - 1)
        facts->bonus[__builtin_ctz(ks) + 1] -= (int16_t)nd->keep;
    }
  }
}

/* The pass of a mover that answers: scores it, and below PASS_AT_ONCE_PIECES searches a pass
 * that comes first at once. A pass comes first against the partner's attack, unless the mover
 * has four pieces or fewer and the next seat could answer (then the mover takes the lead while
 * it is close to finishing); and against an opponent's attack when the next seat (the
 * attacker's partner) cannot answer and the mover's partner can: the partner answers in the
 * mover's place. Otherwise last; but from 20 pieces, in a test the mover's side passes with
 * any win, before most king defences: it keeps the piece that answers most attacks. Returns
 * true when the pass searched at once passes the test (or a limit stopped the search), with
 * the bound in *v; else the pass is in nd->best (searched) or in the list (to search). */
SEARCH_INLINE bool early_pass(goita_solver *s, int n, const spos *p, int t, const hand_info *const *hand,
                              node *nd, order_facts *facts, int64_t *list, int *v) {
  const int me = p->turn;
  const bool next_answers = !((facts->next_cannot >> p->attack) & 1);
  bool pass_first = false;
  if (!flips(s, n, p->attacker, me))
    pass_first = !(nd->h->size <= 4 && next_answers);
  else if (n == 4 && p->passes == 0)
    pass_first = !next_answers && (hand[(me + 2) & 3]->held & defenders[p->attack]);
  facts->pass = pass_first ? facts->bonus[KILLER_OF(0)] + 200
                : t <= 0 && p->pieces >= 20 ? -130
                                           : facts->bonus[KILLER_OF(0)] - 200;
  if (pass_first && !nd->at_root && nd->tt_move <= 0 && p->pieces < PASS_AT_ONCE_PIECES) {
    spos child;
    pass(n, p, &child, hand);
    const int cv = child_value(s, n, p, &child, t);
    if (s->stopped) {
      *v = 0;
      return true;
    }
    if (cv >= t) {
      promote_killer(nd->killers, KILLER_OF(0));
      if (nd->use_tt) goita__tt_store(s, nd->key, p, cv, nd->mine, 0);
      *v = cv;
      return true;
    }
    if (cv > nd->best) nd->best = cv;
    nd->pass_done = true;
  } else {
    add_move(list, &nd->moves, 0, order_score(s, p, facts, 0));
  }
  return false;
}

/* Adds the mover's plays to list with their scores, sorted best first: each face-down piece or
 * defence with each attack it allows, less a play that is the mirror image of one in the list
 * (nd->mirrored is then set), and less a finishing defence (already in nd->best). */
SEARCH_INLINE void scored_moves(const goita_solver *s, int n, const spos *p, int t,
                                const hand_info *const *hand, node *nd, const order_facts *facts,
                                int64_t *list) {
  const hand_info *h = nd->h;
  uint16_t twins[GOITA_KIND_SLOTS];
  const unsigned with_twins = twin_kinds(s, n, p, hand, t, twins);
  unsigned blocks = nd->leading ? h->held : h->held & defenders[p->attack];
  if (nd->leading && (blocks & KING_BIT) && !face_down_king_ok(s, h, p->kingup)) blocks &= ~KING_BIT;
  for (; blocks; blocks &= blocks - 1) {
    const int b = __builtin_ctz(blocks);
    const int placed = (int)((nd->finishers >> b) & 1) * nd->keep;
    for (unsigned as = attacks_after(s, h, p->kingup, b, nd->leading); as; as &= as - 1) {
      const int a = __builtin_ctz(as);
      const uint8_t m = MOVE(b, a);
      if (with_twins && !mirror_first(b, a, with_twins, twins)) {
        nd->mirrored = true;
        continue;
      }
      if (h->size == 2) continue; /* a finishing defence: in best already */
      add_move(list, &nd->moves, m, order_score(s, p, facts, m) - placed);
    }
  }
}

/* Enhanced transposition cutoff: makes every child (prefetching their buckets) and looks each
 * up in the table. Returns true when the table already proves a child good enough, with the
 * bound in *v (stored for p). The children and their finishes are kept for the search. */
SEARCH_INLINE bool etc_cutoff(goita_solver *s, int n, const spos *p, int t, const hand_info *const *hand,
                              const node *nd, const int64_t *list, spos *kids, int8_t *finish, int *v) {
  for (int i = 0; i < nd->moves; i++) {
    finish[i] = (int8_t)make_child(s, n, p, SCORED_MOVE(list[i]), &kids[i], hand);
    if (!finish[i]) __builtin_prefetch(bucket_of(s, key_of(s, &kids[i]), kids[i].pieces));
  }
  for (int i = 0; i < nd->moves; i++) {
    if (finish[i] || kids[i].pieces < TT_MIN_PIECES) continue;
    const tt_entry *ce = tt_find(s, key_of(s, &kids[i]), kids[i].pieces);
    if (!ce) continue;
    const bool flip = flips(s, n, p->turn, kids[i].turn);
    if (flip ? ce->upper < 1 - t : ce->lower >= t) {
      *v = flip ? -ce->upper : ce->lower;
      goita__tt_store(s, nd->key, p, *v, nd->mine, SCORED_MOVE(list[i]));
      return true;
    }
  }
  return false;
}

/* The moves of p searched by a pool's threads (s->split; solver_pool.c), in the order of list:
 * at the root of a test, and at the root's first child when the root's first move is expected
 * to pass (it passed the test before): that child then fails for its mover, every one of its
 * moves has to be refuted, and they can all be searched at once; the root's other moves are
 * split only when it does not pass. Returns true when a move passed, with its bound in *v
 * (stored for p); else every move failed, and the best of their bounds is in nd->best. */
SEARCH_INLINE bool split_moves(goita_solver *s, int n, const spos *p, int t, const hand_info *const *hand,
                               node *nd, const int64_t *list, bool etc, spos *kids, int8_t *finish, int *v) {
  uint8_t moves[GOITA_MAX_LEGAL + 1];
  uint64_t costs[GOITA_MAX_LEGAL + 1];
  for (int i = 0; i < nd->moves; i++) {
    moves[i] = SCORED_MOVE(list[i]);
    costs[i] = 0;
    if (!etc) finish[i] = (int8_t)make_child(s, n, p, moves[i], &kids[i], hand);
  }
  int from = 0, passed = -1, bound = -10;
  if (nd->at_root && moves[0] == s->root_passed && !finish[0]) {
    const uint64_t before = s->nodes;
    s->split_at = &kids[0];
    bound = child_value(s, n, p, &kids[0], t);
    s->split_at = NULL;
    costs[0] = s->nodes - before;
    if (bound >= t) passed = 0;
    from = 1;
  }
  if (passed < 0 && from < nd->moves) {
    int rest_passed = -1;
    const int rest =
        s->split(s, p, t, nd->moves - from, moves + from, kids + from, finish + from, &rest_passed, costs + from);
    if (rest_passed >= 0) {
      passed = from + rest_passed;
      bound = rest;
    } else if (rest > bound) {
      bound = rest;
    }
  }
  if (nd->at_root) { /* the root's order in the next tests: the passing move, then the costliest */
    for (int i = 0; i < nd->moves; i++) {
      const uint64_t sum = s->root_nodes[moves[i]] + costs[i];
      s->root_nodes[moves[i]] = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
    }
    if (passed >= 0) s->root_passed = moves[passed];
  }
  if (passed >= 0) {
    const int m = moves[passed];
    promote_killer(nd->killers, KILLER_OF(m));
    if (nd->leading) s->killer_face_down[p->pieces][p->turn] = (uint8_t)MOVE_BLOCK(m);
    if (nd->use_tt) goita__tt_store(s, nd->key, p, bound, nd->mine, m);
    *v = bound;
    return true;
  }
  if (bound > nd->best) nd->best = bound;
  return false;
}

/* Searches the moves of list in order until one passes the test; at the root of a test also
 * counts each move's nodes. Stores what was proven and returns the node's bound: the passing
 * move's, else the best failing bound (at least t - 1 when a mirror image was left out: twins
 * of one class may be worth different points), at most nd->mine. The children are in kids
 * when etc made them. */
SEARCH_INLINE int search_moves(goita_solver *s, int n, const spos *p, int t, const hand_info *const *hand,
                               node *nd, const int64_t *list, bool etc, spos *kids, int8_t *finish) {
  int first = 0; /* the first move left to search here */
  if ((nd->at_root || p == s->split_at) && s->split && nd->moves > 1) {
    int v;
    if (split_moves(s, n, p, t, hand, nd, list, etc, kids, finish, &v)) return v;
    first = nd->moves; /* every move failed: on to the bound */
  }
  for (int i = first; i < nd->moves; i++) {
    const int m = SCORED_MOVE(list[i]);
    const uint64_t before = s->nodes;
    spos child;
    const spos *c = etc ? &kids[i] : &child;
    const int done = etc ? finish[i] : make_child(s, n, p, m, &child, hand);
    const int v = done ? done : child_value(s, n, p, c, t);
    if (s->stopped) return 0;
    if (nd->at_root) {
      const uint64_t sum = s->root_nodes[m] + (s->nodes - before);
      s->root_nodes[m] = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
      if (v >= t) s->root_passed = m;
    }
    if (v >= t) {
      promote_killer(nd->killers, KILLER_OF(m));
      if (nd->leading) s->killer_face_down[p->pieces][p->turn] = (uint8_t)MOVE_BLOCK(m);
      if (nd->use_tt) goita__tt_store(s, nd->key, p, v, nd->mine, m);
      return v;
    }
    if (v > nd->best) nd->best = v;
  }
  int best = nd->best;
  if (nd->mirrored && best < t - 1) best = t - 1;
  if (best > nd->mine) best = nd->mine;
  if (nd->use_tt)
    goita__tt_store(s, nd->key, p, nd->lower, best,
                    nd->tt_move >= 0 ? nd->tt_move : (nd->moves && !nd->pass_done ? SCORED_MOVE(list[0]) : 0));
  return best;
}

/* Null-window search, fail-soft: tests whether the value of p for its mover is at least t
 * (tens) and returns a bound v: when v >= t the value is at least v, else at most v. When a
 * limit stops the search s->stopped is set and the result means nothing. The phases in order:
 * the values known at once (two-piece finishes), the bounds (static, forced run, table), the
 * ordering facts, the pass, the plays, the enhanced cutoffs, the search of the moves. */
SEARCH_INLINE int nws_body(goita_solver *s, const int n, const spos *p, int t) {
  if ((++s->nodes & 1023) == 0 && limit_hit(s)) s->stopped = 1;
  if (s->stopped) return 0;

  const hand_info *hand[GOITA_MAX_SEATS] = {NULL};
  hands_of(s, n, p->hands, hand);
  node nd;
  nd.h = hand[p->turn];
  nd.leading = p->attack == 0;

  /* A leader with two pieces finishes: the value is known. */
  if (nd.leading && nd.h->size == 2) return leader_finish(s, p, nd.h);
  /* A defender with two pieces finishes when it answers: when that passes the test, nothing
   * else is looked at; else the finish is a bound, and only the pass is left to search. It may
   * have no finish (0) even holding a defence: under king_attack=a_or_b a king left to attack
   * with may not, so a test at t <= 0 must not take that 0 for a value. */
  int defence_finish = 0; /* its best finish, tens; 0: none */
  if (!nd.leading && nd.h->size == 2) {
    defence_finish = defender_finish(s, p, nd.h);
    if (defence_finish && defence_finish >= t) return defence_finish;
  }

  int v;
  if (node_bounds(s, n, p, t, hand, &nd, &v)) return v;

  nd.killers = s->killers[p->pieces][p->turn][nd.leading];
  nd.at_root = p == s->test_root;
  order_facts facts;
  order_facts_of(s, n, p, t, hand, &nd, &facts);

  int64_t list[GOITA_MAX_LEGAL + 1];
  nd.moves = 0;
  nd.best = defence_finish ? defence_finish : -10;
  nd.pass_done = false;
  if (!nd.leading && early_pass(s, n, p, t, hand, &nd, &facts, list, &v)) return v;
  nd.mirrored = false;
  scored_moves(s, n, p, t, hand, &nd, &facts, list);

  spos kids[GOITA_MAX_LEGAL + 1];
  int8_t finish[GOITA_MAX_LEGAL + 1];
  const bool etc = p->pieces >= ETC_MIN_PIECES && nd.moves > 1;
  if (etc && etc_cutoff(s, n, p, t, hand, &nd, list, kids, finish, &v)) return v;
  return search_moves(s, n, p, t, hand, &nd, list, etc, kids, finish);
}

static int nws4(goita_solver *s, const spos *p, int t) { return nws_body(s, 4, p, t); }
static int nws_any(goita_solver *s, const spos *p, int t) { return nws_body(s, s->players, p, t); }

int goita__solver_nws(goita_solver *s, const spos *p, int t) { return nws_of(s, s->players, p, t); }

int goita__solver_child_bound(goita_solver *s, const spos *p, const spos *c, int t) {
  return child_value(s, s->players, p, c, t);
}

/* The exact solver's shared types (solver.h; docs/SOLVER.md): null-window searches over the
 * few possible round values, on a compact position with an exact transposition table.
 * Internal to the library.
 *
 * Representation. Every piece dealt has one bit in a 32-bit word (4x8, 3x10 or 2x12 bits),
 * the pieces of a seat's deal sorted by kind. A hand is the set of its pieces still held,
 * always the top bits of each kind's range, so a hand has one word and the word with the
 * turn, the attack, the passes and a king-face-up bit is an exact key: the table never
 * confuses two positions. Per seat a small table maps the seat's bits to what the search asks
 * of a hand (kinds held, pairs, size, kings, best finish).
 *
 * Search. nws(p, t) answers "is the value of p, for its mover, at least t?" with alpha-beta on a
 * null window. Values are counted in tens (-10..10); a round value is one of 16 numbers, so a
 * few such tests (win or lose first) find it exactly, each reusing the table. Seats that cannot
 * answer an attack pass without a node (forced passes are collapsed).
 *
 * The files, from the bottom up:
 *   solver_internal.h  this: the solver's state, the position, a hand's facts
 *   solver_table.h/.c  the transposition table: probe (inline), store, generations
 *   solver_moves.h     moves on the compact position (inline, for the search)
 *   solver_runs.h/.c   forced runs: a finish the mover can force, and their cache
 *   solver_search.c    the null-window search (nws) and its move ordering
 *   solver_exact.c     a position's exact value by a few null-window tests
 *   solver_round.c     between goita_round and the compact position: deals, decisions
 *   solver.c           the public functions of solver.h
 *
 * The hot code of the search is in solver_search.c and the inline functions of these headers,
 * one translation unit, so that it is inlined the same with or without link-time
 * optimisation. */
#ifndef GOITA_SOLVER_INTERNAL_H
#define GOITA_SOLVER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* ---- The transposition table's entries (solver_table.h) ---- */

typedef struct tt_entry {
  uint64_t tag;  /* the position's key and the generation (deal) that wrote it; 0 = empty */
  int8_t lower;  /* proven bounds on the value, tens, mover's point of view */
  int8_t upper;
  uint8_t move;  /* best or refuting move (block << 4 | attack; 0 = pass) */
  uint8_t pieces; /* pieces in hands: how much work the entry saves */
  uint8_t pad[4];
} tt_entry;
#define TAG_GEN_SHIFT 57 /* keys leave the top 7 bits free (key_of) */
#define MAX_GEN 127
#define DIRTY_PAGE_LOG 6 /* 64 buckets of 64 bytes: a 4 KiB page */

#define TT_WAYS 4
typedef struct tt_bucket {
  tt_entry e[TT_WAYS];
} tt_bucket;

/* ---- Positions ---- */

/* The first 8 bytes are the position's key (key_of). */
typedef struct spos {
  uint32_t hands;   /* one bit per piece still in a hand */
  uint8_t turn;     /* seat to move */
  uint8_t attack;   /* kind to answer; 0 when the mover leads */
  uint8_t passes;   /* passes since the attack */
  uint8_t kingup;   /* a king is face-up on the table */
  uint8_t attacker; /* seat of the attack (follows from turn and passes) */
  uint8_t pieces;   /* pieces in all hands */
} spos;

/* What the search needs to know of one hand. */
typedef struct hand_info {
  uint16_t held;  /* bit k: kind k held */
  uint16_t pairs; /* bit k: kind k held twice or more */
  uint8_t size;
  uint8_t kings;
  uint8_t best; /* highest finish the hand could make, tens (a pair may be doubled) */
  uint8_t kings_b; /* kings that count for rule (b) of the king attack (goita__kings_for_b) */
  uint8_t count[GOITA_KIND_SLOTS]; /* pieces per kind */
  uint8_t code[3]; /* the counts and kings_b packed, little-endian (hand_code): the same hand
                    * in any deal has the same code */
  uint32_t worth; /* byte t - 2: pieces whose single finish is worth t tens or more */
} hand_info;

#define MAX_SEAT_BITS 12
#define MAX_PIECES 32

/* Bits of each kind's count in hand_info.code (a hand holds at most 10 pawns, 4 of lance to
 * gold, 2 of bishop, rook and king), then 2 bits of kings_b: 24 bits in all. */
static const uint8_t code_shift[GOITA_KIND_SLOTS] = {0, 0, 4, 7, 10, 13, 16, 18, 20};
#define CODE_KINGS_B_SHIFT 22

/* The packed counts of a hand (hand_info.code). */
static inline uint32_t hand_code(const hand_info *h) {
  return (uint32_t)h->code[0] | (uint32_t)h->code[1] << 8 | (uint32_t)h->code[2] << 16;
}

/* A forced run already worked out (solver_runs.h): its key (what the run depends on, with a
 * bit set so that 0 is empty) above 8 bits of value. The key holds no bit of the deal's
 * layout, so the cache serves every deal under the same rules. */
#define RUN_MEMO_LOG 13
typedef struct run_memo {
  uint64_t word; /* key << 8 | value; 0: empty */
} run_memo;

#define KILLERS 4 /* killer attacks kept per pieces left, seat, and lead or answer */

struct goita_solver {
  tt_bucket *table;
  size_t buckets;      /* all buckets: the near part first, then the far part */
  size_t near_buckets; /* for positions with fewer than NEAR_PIECES pieces */
  uint8_t gen;
  /* Bit i: the table's page i (buckets i << DIRTY_PAGE_LOG on) was stored to since the table was
   * last emptied. Emptying clears only those pages: a player solving many small deals stores
   * to a few pages of a large table, and would otherwise clear all of it every MAX_GEN deals. */
  uint64_t *dirty;

  /* The deal the table's keys refer to. */
  int have_deal;
  goita_rules rules;
  uint8_t deal[GOITA_MAX_SEATS][GOITA_MAX_HAND];

  int players;
  int hand_bits;                               /* bits per seat */
  int offset[GOITA_MAX_SEATS];                 /* first bit of each seat */
  uint32_t kind_mask[GOITA_MAX_SEATS][GOITA_KIND_SLOTS];
  uint32_t king_bits;                          /* the kings of every seat */
  uint8_t dealt_count[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]; /* pieces of each kind dealt */
  hand_info info[GOITA_MAX_SEATS][1u << MAX_SEAT_BITS];
  uint32_t built[GOITA_MAX_SEATS]; /* a seat's bits whose sub-hands have their hand facts */
  run_memo runs[1u << RUN_MEMO_LOG]; /* forced runs already worked out */
  uint16_t safe_from[512]; /* kinds held by the opponents -> attack kinds none of them can answer */
  /* kinds (bit k - 1 for kind k) among dealt_kinds -> the seat's bits */
  uint16_t bits_of_kinds[GOITA_MAX_SEATS][256];
  uint8_t dealt_kinds[GOITA_MAX_SEATS]; /* the kinds dealt to the seat (bit k - 1 for kind k) */
  uint16_t kinds_worth[6]; /* t -> the kinds (bit k) whose single finish is worth t tens or more */
  /* Per test threshold t (index t + 10), a class per kind: kinds of one class have the same
   * defenders and their finishes pass or fail the test alike (twin_kinds). */
  uint8_t test_class[22][GOITA_KIND_SLOTS];

  /* The solve in progress. */
  int root;                  /* seat whose point of view is reported */
  uint8_t group[GOITA_MAX_SEATS]; /* 0: the root's side, 1: the others */
  uint64_t root_key;         /* 3 players: the root is part of every key */
  uint64_t nodes;
  uint64_t max_nodes;
  /* Killer attacks: per pieces left, seat and leading or answering, the attack kinds of the
   * last moves that cut off there, the latest first (kind + 1; 1 for a pass, 0 for none).
   * Siblings' subtrees are refuted by the same attack far more often than by the same full
   * move. */
  uint8_t killers[MAX_PIECES + 1][GOITA_MAX_SEATS][2][KILLERS];
  /* Per pieces left and seat, the face-down kind of the last lead that cut off there. */
  uint8_t killer_face_down[MAX_PIECES + 1][GOITA_MAX_SEATS];
  /* The position narrow() is testing and what its tests learnt of its moves: the nodes each
   * move's subtree took, summed over the tests, and the move that passed the last test. */
  const struct spos *test_root;
  uint32_t root_nodes[256]; /* by move */
  int root_passed;          /* -1: none */
  double deadline; /* monotonic seconds, 0 for none */
  int stopped;
  /* A solve split among a pool's threads (solver_pool.c): the moves of each test's root (and of
   * split_at, see split_moves) are handed to split (NULL: searched here, one after another),
   * which returns the passing move's bound with its index in *passed, or the best failing
   * bound, and each move's nodes in costs; a search of one of them stops when *abort is set
   * (another thread found a move that passes; NULL: never). */
  int (*split)(struct goita_solver *s, const struct spos *p, int t, int nmoves, const uint8_t *moves,
               const struct spos *kids, const int8_t *finish, int *passed, uint64_t *costs);
  const struct spos *split_at;
  void *split_pool; /* the pool split works for */
  const _Atomic(bool) *abort;
};

static const uint8_t kind_tens[GOITA_KIND_SLOTS] = {0, 1, 2, 2, 3, 3, 4, 4, 5};

/* Kinds that may answer an attack of each kind: itself, and a king against knight to rook. */
static const uint16_t defenders[GOITA_KIND_SLOTS] = {
    0, 1u << 1, 1u << 2, 1u << 3 | 1u << 8, 1u << 4 | 1u << 8, 1u << 5 | 1u << 8,
    1u << 6 | 1u << 8, 1u << 7 | 1u << 8, 1u << 8};

#define KING_BIT (1u << GOITA_KING)

#define TEST_CLASS_DEFENDERS 1u /* test_class bit: a king defends it */

/* Seconds on the monotonic clock, for the time limit. */
static inline double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- A position's hands ---- */

/* The search is compiled twice (nws): for 4 players, with the number of seats n a constant, so
 * that loops over seats unroll and seat offsets and sides are computed; and for 2 or 3. The
 * helpers it calls take n as an argument and are always inlined, so that n folds. */
#define SEARCH_INLINE static inline __attribute__((always_inline))

/* The hand of seat: with 4 players 8 bits a seat. */
SEARCH_INLINE const hand_info *info_of(const goita_solver *s, int n, uint32_t hands, int seat) {
  const int bits = n == 4 ? 8 : s->hand_bits;
  return &s->info[seat][(hands >> (seat * bits)) & ((1u << bits) - 1u)];
}

/* The seat after seat. */
SEARCH_INLINE int next_seat(int n, int seat) { return seat + 1 == n ? 0 : seat + 1; }

/* Fills hand[seat] with the hand of every seat. */
SEARCH_INLINE void hands_of(const goita_solver *s, int n, uint32_t hands, const hand_info **hand) {
  for (int seat = 0; seat < n; seat++) hand[seat] = info_of(s, n, hands, seat);
}

/* Whether the value changes sign from seat `from`'s view to seat `to`'s (they are on
 * different sides: teams with 4 players, the root against the rest with 3). */
SEARCH_INLINE int flips(const goita_solver *s, int n, int from, int to) {
  return n == 4 ? (from ^ to) & 1 : s->group[from] != s->group[to];
}

/* What the search asks of the other hands, in one pass over the seats. */
typedef struct table_view {
  int mine, theirs;       /* the best finish each side could still make, tens: the mover's and the others' */
  unsigned partner_held;  /* kinds held by the mover's side, the mover excepted */
  unsigned opponents_held;
} table_view;

/* The view of p's hands from its mover's side. */
SEARCH_INLINE table_view view_of(const goita_solver *s, int n, const spos *p, const hand_info *const *hand) {
  table_view v = {0, 0, 0, 0};
  for (int seat = 0; seat < n; seat++) {
    const hand_info *h = hand[seat];
    if (!flips(s, n, p->turn, seat)) {
      if (h->best > v.mine) v.mine = h->best;
      if (seat != p->turn) v.partner_held |= h->held;
    } else {
      if (h->best > v.theirs) v.theirs = h->best;
      v.opponents_held |= h->held;
    }
  }
  return v;
}

/* The position's exact key: its first 8 bytes, with the root's seat when it matters. */
static inline uint64_t key_of(const goita_solver *s, const spos *p) {
  /* The first bytes of spos in order: hands, turn (bits 32-33), attack (40-43), passes
   * (48-49), kingup (56). The top 7 bits stay free for the table's generation, bits 34-35 for
   * the root. On a little-endian machine that is one load (compilers do not merge the shifts). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t key;
  memcpy(&key, p, sizeof key);
#else
  const uint64_t key = (uint64_t)p->hands | (uint64_t)p->turn << 32 | (uint64_t)p->attack << 40 |
                       (uint64_t)p->passes << 48 | (uint64_t)p->kingup << 56;
#endif
  return key | s->root_key;
}

/* ---- Between the files ---- */

/* Null-window search (solver_search.c): a fail-soft bound v on the value of p for its mover
 * against the test "at least t" (tens): when v >= t the value is at least v, else at most v.
 * When a limit stops the search s->stopped is set and the result means nothing. */
int goita__solver_nws(goita_solver *s, const spos *p, int t);

/* Narrows [*lo, *hi] (tens, mover's view) to the value of p, or to its sign in win/loss mode
 * (solver_exact.c). Stops early, with the bounds proven so far, when a limit hits. */
void goita__solver_narrow(goita_solver *s, const spos *p, goita_solve_mode mode, int *lo, int *hi);

/* Makes r's deal the solver's (solver_round.c): keeps the table when it is the same deal,
 * else lays out the new deal's bits and hand tables and starts a new table generation. */
void goita__solver_use_deal(goita_solver *s, const goita_round *r);

/* Bounds (tens, from the root seat's side) of a round position of the solver's deal
 * (solver_round.c). */
void goita__solver_solve_round(goita_solver *s, const goita_round *r, goita_solve_mode mode, int *lo,
                               int *hi);

/* The start of a solve of r (solver.c): r's deal, r's mover as the root, the limits of o
 * counted from start (monotonic seconds), no nodes yet, no killers. */
void goita__solver_start(goita_solver *s, const goita_round *r, const goita_solve_options *o, double start);

/* Bounds (tens, from the root seat's side) of playing move in r, after goita__solver_start on r
 * (solver.c). */
void goita__solver_solve_move(goita_solver *s, const goita_round *r, goita_move move, goita_solve_mode mode,
                              int *lo, int *hi);

/* Whether a solve of r with o finds the position's value as the best of its moves' (every
 * move asked for, no limit, the round in play) instead of searching the position first. */
static inline bool goita__solve_from_moves(const goita_round *r, const goita_solve_options *o) {
  return o->all_moves && r->phase == GOITA_PHASE_PLAY && o->max_nodes == 0 && o->max_ms <= 0;
}

/* Bounds in tens as bounds in points. */
goita_solve_bounds goita__solver_points(int lo, int hi);

/* The compact position of r, a round in play of the solver's deal (solver_round.c). */
struct spos goita__solver_position(const goita_solver *s, const goita_round *r);

/* A fail-soft bound, for p's mover, on the value of child c of p against the test "at least t"
 * (solver_search.c): the search of one root move of a split test. */
int goita__solver_child_bound(goita_solver *s, const struct spos *p, const struct spos *c, int t);

#endif

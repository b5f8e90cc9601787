/* The exact solver (solver.h): null-window searches over the few possible round values, on a
 * compact position with an exact transposition table.
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
 * answer an attack pass without a node (forced passes are collapsed). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* ---- Transposition table ---- */

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
  uint8_t pad2[3];
  uint32_t worth; /* byte t - 2: pieces whose single finish is worth t tens or more */
} hand_info;

#define MAX_SEAT_BITS 12
#define MAX_PIECES 32

/* A forced run already worked out (see forced_run). */
#define RUN_MEMO_LOG 13
typedef struct run_memo {
  uint32_t key; /* 0: empty */
  uint8_t gen;
  uint8_t value;
} run_memo;

#define KILLERS 4 /* killer attacks kept per pieces left, seat, and lead or answer */

struct goita_solver {
  tt_bucket *table;
  size_t buckets;      /* all buckets: the near part first, then the far part */
  size_t near_buckets; /* for positions with fewer than NEAR_PIECES pieces */
  uint8_t gen;

  /* The deal the table's keys refer to. */
  int have_deal;
  goita_rules rules;
  uint8_t deal[GOITA_MAX_SEATS][GOITA_MAX_HAND];

  int players;
  int hand_bits;                               /* bits per seat */
  int offset[GOITA_MAX_SEATS];                 /* first bit of each seat */
  uint32_t kind_mask[GOITA_MAX_SEATS][GOITA_KIND_SLOTS];
  uint32_t king_bits;                          /* the kings of every seat */
  hand_info info[GOITA_MAX_SEATS][1u << MAX_SEAT_BITS];
  run_memo runs[1u << RUN_MEMO_LOG]; /* forced runs already worked out */
  uint16_t safe_from[512]; /* kinds held by the opponents -> attack kinds none of them can answer */
  uint16_t bits_of_kinds[GOITA_MAX_SEATS][256]; /* kinds (bit k - 1 for kind k) -> the seat's bits */
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
};

static const uint8_t kind_tens[GOITA_KIND_SLOTS] = {0, 1, 2, 2, 3, 3, 4, 4, 5};

/* Kinds that may answer an attack of each kind: itself, and a king against knight to rook. */
static const uint16_t defenders[GOITA_KIND_SLOTS] = {
    0, 1u << 1, 1u << 2, 1u << 3 | 1u << 8, 1u << 4 | 1u << 8, 1u << 5 | 1u << 8,
    1u << 6 | 1u << 8, 1u << 7 | 1u << 8, 1u << 8};

#define KING_BIT (1u << GOITA_KING)

static double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The search is compiled twice (nws): for 4 players, with the number of seats n a constant, so
 * that loops over seats unroll and seat offsets and sides are computed; and for 2 or 3. The
 * helpers it calls take n as an argument and are always inlined, so that n folds. */
#define SEARCH_INLINE static inline __attribute__((always_inline))

/* The hand of seat: with 4 players 8 bits a seat. */
SEARCH_INLINE const hand_info *info_of(const goita_solver *s, int n, uint32_t hands, int seat) {
  const int bits = n == 4 ? 8 : s->hand_bits;
  return &s->info[seat][(hands >> (seat * bits)) & ((1u << bits) - 1u)];
}

SEARCH_INLINE int next_seat(int n, int seat) { return seat + 1 == n ? 0 : seat + 1; }

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

/* The table has two parts. Positions with few pieces are many and each saves little: they
 * share a small near part that stays in the core's cache, so that their probes are cheap and
 * cannot evict the entries of big subtrees, which have the far part to themselves. */
#define NEAR_PIECES 24
#define NEAR_BYTES_MAX ((size_t)1 << 20)

static inline tt_bucket *bucket_of(const goita_solver *s, uint64_t key, int pieces) {
  const uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 32; /* 32 well-mixed bits */
  if (pieces < NEAR_PIECES) return &s->table[(h * s->near_buckets) >> 32];
  return &s->table[s->near_buckets + ((h * (s->buckets - s->near_buckets)) >> 32)];
}

static inline uint64_t tag_of(const goita_solver *s, uint64_t key) {
  return key | (uint64_t)s->gen << TAG_GEN_SHIFT;
}

/* The entry of key, or NULL. Every way is compared, without branches: a hit's place is not
 * predictable. */
static inline tt_entry *tt_find(goita_solver *s, uint64_t key, int pieces) {
  tt_bucket *b = bucket_of(s, key, pieces);
  const uint64_t tag = tag_of(s, key);
  tt_entry *hit = NULL;
  for (int i = 0; i < TT_WAYS; i++) hit = b->e[i].tag == tag ? &b->e[i] : hit;
  return hit;
}

/* Records bounds: in the entry of key if present, else in place of the least valuable entry of
 * its bucket. */
static void tt_store(goita_solver *s, uint64_t key, const spos *p, int lower, int upper, int move) {
  tt_bucket *b = bucket_of(s, key, p->pieces);
  const uint64_t tag = tag_of(s, key);
  /* One pass finds the entry of key, or else the one that saves the least work: stale (another
   * generation's), or with the fewest pieces. */
  tt_entry *slot = &b->e[0];
  int worst = INT_MAX;
  for (int i = 0; i < TT_WAYS; i++) {
    tt_entry *e = &b->e[i];
    const int w = e->tag == tag ? -2 : (e->tag >> TAG_GEN_SHIFT) != s->gen ? -1 : e->pieces;
    if (w < worst) {
      worst = w;
      slot = e;
    }
  }
  if (worst == -2) {
    if (lower < slot->lower) lower = slot->lower;
    if (upper > slot->upper) upper = slot->upper;
  } else {
    slot->tag = tag;
    slot->pieces = p->pieces;
  }
  slot->lower = (int8_t)lower;
  slot->upper = (int8_t)upper;
  slot->move = (uint8_t)move;
}

/* ---- Moves on spos ---- */

/* Whether the value changes sign from seat `from`'s view to seat `to`'s (they are on
 * different sides: teams with 4 players, the root against the rest with 3). */
SEARCH_INLINE int flips(const goita_solver *s, int n, int from, int to) {
  return n == 4 ? (from ^ to) & 1 : s->group[from] != s->group[to];
}

static inline uint32_t take(const goita_solver *s, uint32_t hands, int seat, int kind) {
  const uint32_t have = hands & s->kind_mask[seat][kind];
  return hands & ~(have & (0u - have));
}

/* Moves the turn past seats that cannot answer (their only move is a pass) and gives the lead
 * back to the attacker when every other seat has passed. hand[seat] is each seat's hand; the
 * attacker's may be out of date (it is never asked). */
SEARCH_INLINE void settle_by(int n, spos *p, const hand_info *const *hand) {
  for (;;) {
    if (p->turn == p->attacker) {
      p->attack = 0;
      p->passes = 0;
      return;
    }
    if (hand[p->turn]->held & defenders[p->attack]) return;
    p->passes++;
    p->turn = (uint8_t)next_seat(n, p->turn);
  }
}

SEARCH_INLINE void hands_of(const goita_solver *s, int n, uint32_t hands, const hand_info **hand) {
  for (int seat = 0; seat < n; seat++) hand[seat] = info_of(s, n, hands, seat);
}

static void settle(const goita_solver *s, spos *p) {
  const hand_info *hand[GOITA_MAX_SEATS] = {NULL};
  hands_of(s, s->players, p->hands, hand);
  settle_by(s->players, p, hand);
}

static inline bool king_attack_ok(const goita_solver *s, int kingup, int kings, int size) {
  if (kingup) return true;
  switch (s->rules.king_attack) {
    case GOITA_KING_ATTACK_ANY_OF_ABC: return kings == 2 || size == 2;
    case GOITA_KING_ATTACK_A_OR_LAST: return size == 2;
    case GOITA_KING_ATTACK_A_OR_B: return kings == 2;
  }
  return false;
}

/* Mirrors goita__face_down_king_ok (internal.h) on a hand_info. */
static inline bool face_down_king_ok(const goita_solver *s, const hand_info *h, int kingup) {
  if (s->rules.king_face_down == GOITA_KING_FACE_DOWN_ALLOWED) return true;
  if (h->size != 2) return false;
  if (h->kings == 2) return true;
  return s->rules.king_attack == GOITA_KING_ATTACK_A_OR_B && !kingup && h->kings == 1;
}

/* The attacks allowed after placing block (kind) from hand h; leading says where it goes. */
static inline unsigned attacks_after(const goita_solver *s, const hand_info *h, int kingup, int block,
                                     bool leading) {
  unsigned attacks = h->held;
  if (!(h->pairs & (1u << block))) attacks &= ~(1u << block);
  if ((attacks & KING_BIT) &&
      !king_attack_ok(s, kingup || (!leading && block == GOITA_KING), h->kings_b, h->size))
    attacks &= ~KING_BIT;
  return attacks;
}

/* ---- Runs: a forced finish ---- */

/* The best finish (tens) the leader can force with hand count (size pieces) by a run: leads
 * whose attacks no opponent can answer (kinds in safe; the partner passes), then a final
 * lead. Returns 0 when there is none. */
static int run_value(const goita_solver *s, const uint8_t *count, int size, int kingup, unsigned safe) {
  const int need = size / 2 - 1; /* attacks before the final lead */
  int safe_pieces = 0;
  for (unsigned m = safe & ~KING_BIT; m; m &= m - 1) safe_pieces += count[__builtin_ctz(m)];
  const int kings = count[GOITA_KING];
  const bool kings_safe = (safe & KING_BIT) != 0;
  if (safe_pieces + (kings_safe ? kings : 0) < need) return 0;
  const bool face_down_kings = s->rules.king_face_down == GOITA_KING_FACE_DOWN_ALLOWED;
  int best = 0;
  for (int bf = 1; bf <= GOITA_KING; bf++) {
    if (!count[bf]) continue;
    for (int af = GOITA_KING; af >= 1; af--) {
      if (!count[af] || (af == bf && count[af] < 2)) continue;
      const int value = kind_tens[af] * (af == bf ? 2 : 1);
      if (value <= best) continue;
      const int final_kings = (bf == GOITA_KING) + (af == GOITA_KING);
      const int run_kings = kings - final_kings;
      int run_safe = safe_pieces;
      if (bf != GOITA_KING && (safe & (1u << bf))) run_safe--;
      if (af != GOITA_KING && (safe & (1u << af))) run_safe--;
      /* Kings left for the run attack (they may not go face-down) unless face-down is allowed. */
      const bool run_kings_attack =
          kings_safe && (kingup || (kings == 2 && s->rules.king_attack != GOITA_KING_ATTACK_A_OR_LAST));
      if (run_kings && !face_down_kings) {
        if (!run_kings_attack || run_kings > need || run_safe < need - run_kings) continue;
      } else if (run_safe + (run_kings_attack ? run_kings : 0) < need) {
        continue;
      }
      const int up = kingup || (run_kings && !face_down_kings);
      if (bf == GOITA_KING && !face_down_kings && af != GOITA_KING &&
          !(s->rules.king_attack == GOITA_KING_ATTACK_A_OR_B && !up))
        continue;
      if (af == GOITA_KING && !king_attack_ok(s, up, final_kings, 2)) continue;
      best = value;
    }
  }
  return best;
}

/* The best finish the mover of p can force by a run, tens (0: none). h is the mover's hand. */
static __attribute__((noinline)) int forced_run_uncached(const goita_solver *s, const spos *p,
                                                          const hand_info *h, unsigned safe) {
  if (p->attack == 0) return run_value(s, h->count, h->size, p->kingup, safe);
  /* Answering: a defence whose attack is safe, then a run from the lead. */
  uint8_t count[GOITA_KIND_SLOTS];
  int best = 0;
  for (unsigned ds = h->held & defenders[p->attack]; ds; ds &= ds - 1) {
    const int d = __builtin_ctz(ds);
    const int up = p->kingup || d == GOITA_KING;
    for (unsigned as = attacks_after(s, h, p->kingup, d, false) & safe; as; as &= as - 1) {
      const int a = __builtin_ctz(as);
      memcpy(count, h->count, sizeof count);
      count[d]--;
      count[a]--;
      const int v = run_value(s, count, h->size - 2, up || a == GOITA_KING, safe);
      if (v > best) best = v;
    }
  }
  return best;
}

/* forced_run_uncached through a small cache: the answer depends only on the mover's hand,
 * which of its kinds no opponent can answer, the attack and whether a king is up. */
static inline int forced_run(goita_solver *s, const spos *p, const hand_info *h, unsigned opponents_held) {
  const unsigned safe = s->safe_from[opponents_held];
  const uint32_t local = (uint32_t)(h - s->info[p->turn]);
  /* A run makes size / 2 - 1 safe attacks before its final lead (when answering, the first
   * after the defence): without that many safe pieces there is none, and the cache is not
   * asked. */
  const uint32_t safe_bits = local & s->bits_of_kinds[p->turn][(safe >> 1) & 255u];
  if (s->info[p->turn][safe_bits].size < h->size / 2 - 1) return 0;
  const uint32_t key = 1u + (local | (uint32_t)p->turn << 12 | ((safe & h->held) >> 1) << 14 |
                             (uint32_t)p->kingup << 22 | (uint32_t)p->attack << 23);
  run_memo *m = &s->runs[(key * 0x9E3779B1u) >> (32 - RUN_MEMO_LOG)];
  if (m->key == key && m->gen == s->gen) return m->value;
  const int v = forced_run_uncached(s, p, h, safe);
  m->key = key;
  m->gen = s->gen;
  m->value = (uint8_t)v;
  return v;
}

#define MOVE(b, a) ((uint8_t)((b) << 4 | (a)))
#define MOVE_BLOCK(m) ((m) >> 4)
#define MOVE_ATTACK(m) ((m)&15)

/* Applies a play of the mover; returns the finish value in tens (0 when the round goes on). */
SEARCH_INLINE int play(const goita_solver *s, int n, const spos *p, int move, spos *child,
                       const hand_info *const *hand) {
  const int b = MOVE_BLOCK(move), a = MOVE_ATTACK(move);
  const int me = p->turn;
  const bool leading = p->attack == 0;
  uint32_t hands = take(s, p->hands, me, b);
  hands = take(s, hands, me, a);
  if (!(hands & s->kind_mask[me][0])) { /* kind_mask[seat][0] holds every bit of the seat */
    return kind_tens[a] * (leading && a == b ? 2 : 1);
  }
  child->hands = hands;
  child->pieces = (uint8_t)(p->pieces - 2);
  child->kingup = (uint8_t)(p->kingup | (a == GOITA_KING) | (!leading && b == GOITA_KING));
  child->attack = (uint8_t)a;
  child->attacker = (uint8_t)me;
  child->passes = 0;
  child->turn = (uint8_t)next_seat(n, me);
  settle_by(n, child, hand); /* the mover is the attacker: its old hand is never asked */
  return 0;
}

SEARCH_INLINE void pass(int n, const spos *p, spos *child, const hand_info *const *hand) {
  *child = *p;
  child->passes++;
  child->turn = (uint8_t)next_seat(n, p->turn);
  settle_by(n, child, hand); /* the turn reaches the attacker before the mover */
}

/* Makes the child of p after move (0: a pass); returns the finish value in tens when the move
 * ends the round, else 0. */
SEARCH_INLINE int make_child(const goita_solver *s, int n, const spos *p, int move, spos *child,
                             const hand_info *const *hand) {
  if (move) return play(s, n, p, move, child, hand);
  pass(n, p, child, hand);
  return 0;
}

/* ---- Search ---- */

/* Positions with fewer pieces are searched without the table: their subtrees cost less than
 * the cache misses of probing it. */
#define TT_MIN_PIECES 14
/* Positions with this many pieces or more first look up every child in the table. */
#define ETC_MIN_PIECES 20

#define TEST_CLASS_DEFENDERS 1u /* test_class bit: a king defends it */

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

/* What the search asks of the other hands, in one pass over the seats. */
typedef struct table_view {
  int mine, theirs;       /* the best finish each side could still make, tens: the mover's and the others' */
  unsigned partner_held;  /* kinds held by the mover's side, the mover excepted */
  unsigned opponents_held;
} table_view;

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

static bool limit_hit(goita_solver *s) {
  if (s->max_nodes && s->nodes >= s->max_nodes) return true;
  return s->deadline > 0 && monotonic_seconds() >= s->deadline;
}

/* Ordering: after the table's move, a pass first against a partner's attack (against an
 * opponent's, see nws); then the killer attack, high attacks; after a defence an attack the
 * next seat cannot answer, a king defence last; face-down, the killer's kind, a kind the mover
 * holds twice, low kinds. Pieces worth more kept than spent come later: an attack no other
 * seat can answer (it is as safe later, when a run needs it), the more so the higher it is; a
 * king attack last of all (the king answers most attacks); and, in a test the mover can pass
 * only by finishing high, a play that spends one of its few pieces worth that much. Weights
 * tuned by node counts (docs/SOLVER.md). A move and its score are sorted as one number: the
 * score, then the generation order (ties keep it), then the move. */
#define KILLER_OF(move) ((move) ? MOVE_ATTACK(move) + 1 : 1)
/* Ordering bonus of the killers, the latest first. */
static const int killer_bonus[KILLERS] = {50, 25, 12, 6};
/* Ordering penalty for a king attack. */
#define KING_ATTACK_PENALTY 300
/* Ordering penalty for spending (as attack, defence or face-down) a finisher, a piece whose
 * finish passes the test, by how many the mover holds (none beyond three). */
static const int16_t finisher_penalty[4] = {0, 300, 50, 40};
/* Added to hand_info.worth by a piece of each kind. */
static const uint32_t worth_of_kind[GOITA_KIND_SLOTS] = {
    0, 0, 0x01, 0x01, 0x0101, 0x0101, 0x010101, 0x010101, 0x01010101};
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
  int pass; /* the pass's score (see nws) */
} order_facts;

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

/* Below this many pieces a pass that comes first is searched as soon as it is known, before
 * the plays are made: it cuts off at most such nodes. With more, the enhanced cutoffs among
 * the plays save more than making them costs. */
#define PASS_AT_ONCE_PIECES 20

static int nws4(goita_solver *s, const spos *p, int t);
static int nws_any(goita_solver *s, const spos *p, int t);

SEARCH_INLINE int nws_of(goita_solver *s, int n, const spos *p, int t) {
  return n == 4 ? nws4(s, p, t) : nws_any(s, p, t);
}

/* A fail-soft bound on the value of child c of p for p's mover, tested against t (see nws). */
SEARCH_INLINE int child_value(goita_solver *s, int n, const spos *p, const spos *c, int t) {
  if (flips(s, n, p->turn, c->turn)) return -nws_of(s, n, c, 1 - t);
  return nws_of(s, n, c, t);
}

/* Null-window search, fail-soft: tests whether the value of p for its mover is at least t
 * (tens) and returns a bound v: when v >= t the value is at least v, else at most v. When a
 * limit stops the search s->stopped is set and the result means nothing. */
SEARCH_INLINE int nws_body(goita_solver *s, const int n, const spos *p, int t) {
  if ((++s->nodes & 1023) == 0 && limit_hit(s)) s->stopped = 1;
  if (s->stopped) return 0;

  const int me = p->turn;
  const hand_info *hand[GOITA_MAX_SEATS] = {NULL};
  hands_of(s, n, p->hands, hand);
  const hand_info *h = hand[me];
  const bool leading = p->attack == 0;

  /* A leader with two pieces finishes: the value is known. */
  if (leading && h->size == 2) {
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
  /* A defender with two pieces finishes when it answers: when that passes the test, nothing
   * else is looked at; else the finish is a bound, and only the pass is left to search. */
  int defence_finish = 0; /* its best finish, tens; 0: none */
  if (!leading && h->size == 2) {
    for (unsigned ds = h->held & defenders[p->attack]; ds; ds &= ds - 1) {
      const int d = __builtin_ctz(ds);
      for (unsigned as = attacks_after(s, h, p->kingup, d, false); as; as &= as - 1)
        if (kind_tens[__builtin_ctz(as)] > defence_finish)
          defence_finish = kind_tens[__builtin_ctz(as)];
    }
    if (defence_finish >= t) return defence_finish;
  }

  const table_view view = view_of(s, n, p, hand);
  int mine = view.mine;
  const int theirs = view.theirs;
  if (mine < t) return mine;
  if (-theirs >= t) return -theirs;

  int lower = -theirs; /* proven bounds so far */
  if (h->size >= 4) {
    const int run = forced_run(s, p, h, view.opponents_held); /* 0: no run */
    if (run && run >= t) return run; /* not stored: found again as cheaply */
    if (run && run > lower) lower = run;
  }
  const uint64_t key = key_of(s, p);
  int tt_move = -1;
  const bool use_tt = p->pieces >= TT_MIN_PIECES;
  const tt_entry *e = use_tt ? tt_find(s, key, p->pieces) : NULL;
  if (e) {
    if (e->lower >= t) return e->lower;
    if (e->upper < t) return e->upper;
    tt_move = e->move;
    if (e->lower > lower) lower = e->lower;
    if (e->upper < mine) mine = e->upper;
  }

  /* The moves, scored. Attack kinds no other seat could answer bring the lead back. */
  uint8_t *killers = s->killers[p->pieces][me][leading];
  const bool at_root = p == s->test_root;
  order_facts facts = {.hand = h,
                       .unanswerable = s->safe_from[view.partner_held | view.opponents_held],
                       .next_cannot = s->safe_from[hand[next_seat(n, me)]->held],
                       .tt_move = tt_move,
                       .at_root = at_root,
                       .pass = 0,
                       .bonus = {0}};
  for (int k = KILLERS - 1; k >= 0; k--) facts.bonus[killers[k]] = (int16_t)killer_bonus[k];
  facts.bonus[0] = 0;
  facts.bonus[GOITA_KING + 1] -= KING_ATTACK_PENALTY;
  /* Finishers: the mover's pieces whose finish passes the test, when it has few (from t = 6
   * only doubled finishes pass). Attacking with one costs keep in bonus; placing one (face-down
   * or as a defence) is charged by the move loop. Below 16 pieces it saves no nodes. */
  unsigned finishers = 0;
  int keep = 0;
  if (p->pieces >= 16 && t >= 2 && t <= 5) {
    const int count = (int)(h->worth >> (8 * (t - 2))) & 255;
    if (count && count < 4) {
      finishers = h->held & s->kinds_worth[t];
      keep = finisher_penalty[count];
      for (unsigned ks = finishers; ks; ks &= ks - 1)
        facts.bonus[__builtin_ctz(ks) + 1] -= (int16_t)keep;
    }
  }
  int64_t list[GOITA_MAX_LEGAL + 1];
  int moves = 0;
  int best = defence_finish ? defence_finish : -10; /* the best bound of the moves searched */
  bool pass_done = false; /* searched at once (PASS_AT_ONCE_PIECES) */
  if (!leading) {
    /* A pass comes first against the partner's attack, unless the mover has four pieces or
     * fewer and the next seat could answer (then the mover takes the lead while it is close to
     * finishing); and against an opponent's attack when the next seat (the attacker's partner)
     * cannot answer and the mover's partner can: the partner answers in the mover's place.
     * Otherwise last; but from 20 pieces, in a test the mover's side passes with any win,
     * before most king defences: it keeps the piece that answers most attacks. */
    const bool next_answers = !((facts.next_cannot >> p->attack) & 1);
    bool pass_first = false;
    if (!flips(s, n, p->attacker, me))
      pass_first = !(h->size <= 4 && next_answers);
    else if (n == 4 && p->passes == 0)
      pass_first = !next_answers && (hand[(me + 2) & 3]->held & defenders[p->attack]);
    facts.pass = pass_first ? facts.bonus[KILLER_OF(0)] + 200
                 : t <= 0 && p->pieces >= 20 ? -130
                                            : facts.bonus[KILLER_OF(0)] - 200;
    if (pass_first && !at_root && tt_move <= 0 && p->pieces < PASS_AT_ONCE_PIECES) {
      spos child;
      pass(n, p, &child, hand);
      const int v = child_value(s, n, p, &child, t);
      if (s->stopped) return 0;
      if (v >= t) {
        promote_killer(killers, KILLER_OF(0));
        if (use_tt) tt_store(s, key, p, v, mine, 0);
        return v;
      }
      if (v > best) best = v;
      pass_done = true;
    } else {
      add_move(list, &moves, 0, order_score(s, p, &facts, 0));
    }
  }
  uint16_t twins[GOITA_KIND_SLOTS];
  const unsigned with_twins = twin_kinds(s, n, p, hand, t, twins);
  bool mirrored = false; /* a play was left out for its mirror image */
  unsigned blocks = leading ? h->held : h->held & defenders[p->attack];
  if (leading && (blocks & KING_BIT) && !face_down_king_ok(s, h, p->kingup)) blocks &= ~KING_BIT;
  for (; blocks; blocks &= blocks - 1) {
    const int b = __builtin_ctz(blocks);
    const int placed = (int)((finishers >> b) & 1) * keep;
    for (unsigned as = attacks_after(s, h, p->kingup, b, leading); as; as &= as - 1) {
      const int a = __builtin_ctz(as);
      const uint8_t m = MOVE(b, a);
      if (with_twins && !mirror_first(b, a, with_twins, twins)) {
        mirrored = true;
        continue;
      }
      if (h->size == 2) continue; /* a finishing defence: in best already */
      add_move(list, &moves, m, order_score(s, p, &facts, m) - placed);
    }
  }

  /* Enhanced transposition cutoff: a child the table already proves good enough. The children
   * made for it are kept for the search. */
  spos kids[GOITA_MAX_LEGAL + 1];
  int8_t finish[GOITA_MAX_LEGAL + 1];
  const bool etc = p->pieces >= ETC_MIN_PIECES && moves > 1;
  if (etc) {
    for (int i = 0; i < moves; i++) {
      finish[i] = (int8_t)make_child(s, n, p, SCORED_MOVE(list[i]), &kids[i], hand);
      if (!finish[i]) __builtin_prefetch(bucket_of(s, key_of(s, &kids[i]), kids[i].pieces));
    }
    for (int i = 0; i < moves; i++) {
      if (finish[i] || kids[i].pieces < TT_MIN_PIECES) continue;
      const tt_entry *ce = tt_find(s, key_of(s, &kids[i]), kids[i].pieces);
      if (!ce) continue;
      const bool flip = flips(s, n, me, kids[i].turn);
      if (flip ? ce->upper < 1 - t : ce->lower >= t) {
        const int v = flip ? -ce->upper : ce->lower;
        tt_store(s, key, p, v, mine, SCORED_MOVE(list[i]));
        return v;
      }
    }
  }
  for (int i = 0; i < moves; i++) {
    const int m = SCORED_MOVE(list[i]);
    const uint64_t before = s->nodes;
    spos child;
    const spos *c = etc ? &kids[i] : &child;
    const int done = etc ? finish[i] : make_child(s, n, p, m, &child, hand);
    const int v = done ? done : child_value(s, n, p, c, t);
    if (s->stopped) return 0;
    if (at_root) {
      const uint64_t sum = s->root_nodes[m] + (s->nodes - before);
      s->root_nodes[m] = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
      if (v >= t) s->root_passed = m;
    }
    if (v >= t) {
      promote_killer(killers, KILLER_OF(m));
      if (leading) s->killer_face_down[p->pieces][me] = (uint8_t)MOVE_BLOCK(m);
      if (use_tt) tt_store(s, key, p, v, mine, m);
      return v;
    }
    if (v > best) best = v;
  }
  /* A mirror image fails as its twin did, but its value may differ (twins of one class may be
   * worth different points): the bound is the test's. */
  if (mirrored && best < t - 1) best = t - 1;
  if (best > mine) best = mine;
  if (use_tt) tt_store(s, key, p, lower, best, tt_move >= 0 ? tt_move : (moves && !pass_done ? SCORED_MOVE(list[0]) : 0));
  return best;
}

static int nws4(goita_solver *s, const spos *p, int t) { return nws_body(s, 4, p, t); }
static int nws_any(goita_solver *s, const spos *p, int t) { return nws_body(s, s->players, p, t); }
static int nws(goita_solver *s, const spos *p, int t) { return nws_of(s, s->players, p, t); }

/* ---- Exact values by null-window tests ---- */

/* Possible round values in tens, ascending. */
static const int8_t round_values[] = {-10, -8, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 8, 10};
#define NVALUES ((int)(sizeof round_values / sizeof round_values[0]))

/* Narrows [*lo, *hi] (tens, mover's view) to the value of p, or to its sign in win/loss mode.
 * Stops early, with the bounds proven so far, when a limit hits. */
static void narrow(goita_solver *s, const spos *p, goita_solve_mode mode, int *lo, int *hi) {
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
    const int v = nws(s, p, t);
    if (s->stopped) return;
    if (v >= t)
      *lo = v;
    else
      *hi = v;
  }
}

/* ---- Between goita_round and spos ---- */

static bool same_deal(const goita_solver *s, const goita_round *r) {
  return s->have_deal && s->players == r->players && s->rules.king_attack == r->rules.king_attack &&
         s->rules.king_face_down == r->rules.king_face_down && s->rules.king_b == r->rules.king_b &&
         memcmp(s->deal, r->deal, sizeof s->deal) == 0;
}

static void new_generation(goita_solver *s) {
  if (++s->gen > MAX_GEN) { /* the old tags could come back: start clean */
    memset(s->table, 0, s->buckets * sizeof *s->table);
    memset(s->runs, 0, sizeof s->runs);
    s->gen = 1;
  }
}

/* Lays out the bits of a new deal and fills the hand tables. */
static void load_deal(goita_solver *s, const goita_round *r) {
  s->have_deal = 1;
  s->rules = r->rules;
  s->players = r->players;
  memcpy(s->deal, r->deal, sizeof s->deal);
  s->hand_bits = goita_rules_hand_size(&r->rules);
  memset(s->kind_mask, 0, sizeof s->kind_mask);
  s->king_bits = 0;
  for (int seat = 0; seat < s->players; seat++) {
    s->offset[seat] = seat * s->hand_bits;
    uint32_t local[GOITA_KIND_SLOTS] = {0};
    for (int i = 0; i < s->hand_bits; i++) local[MARK_KIND(r->deal[seat][i])] |= 1u << i;
    for (int k = 1; k < GOITA_KIND_SLOTS; k++) {
      s->kind_mask[seat][k] = local[k] << s->offset[seat];
      s->kind_mask[seat][0] |= s->kind_mask[seat][k];
    }
    s->king_bits |= s->kind_mask[seat][GOITA_KING];
    s->bits_of_kinds[seat][0] = 0; /* each set of kinds is a smaller set plus its lowest kind */
    for (unsigned kinds = 1; kinds < 256; kinds++)
      s->bits_of_kinds[seat][kinds] =
          (uint16_t)(s->bits_of_kinds[seat][kinds & (kinds - 1)] | local[__builtin_ctz(kinds) + 1]);
    /* Each hand is a smaller hand plus its lowest piece. */
    uint8_t kind_of_bit[MAX_SEAT_BITS];
    for (int i = 0; i < s->hand_bits; i++) kind_of_bit[i] = (uint8_t)MARK_KIND(r->deal[seat][i]);
    memset(&s->info[seat][0], 0, sizeof(hand_info));
    for (uint32_t x = 1; x < (1u << s->hand_bits); x++) {
      hand_info *h = &s->info[seat][x];
      *h = s->info[seat][x & (x - 1)];
      const int k = kind_of_bit[__builtin_ctz(x)];
      const int c = ++h->count[k];
      h->held |= (uint16_t)(1u << k);
      if (c >= 2) h->pairs |= (uint16_t)(1u << k);
      h->size++;
      if (k == GOITA_KING) h->kings++;
      h->worth += worth_of_kind[k];
      const int best = kind_tens[k] * (c >= 2 ? 2 : 1);
      if (best > h->best) h->best = (uint8_t)best;
    }
    const int dealt_kings = s->info[seat][(1u << s->hand_bits) - 1].kings;
    for (uint32_t x = 0; x < (1u << s->hand_bits); x++) {
      hand_info *h = &s->info[seat][x];
      h->kings_b = (uint8_t)goita__kings_for_b(&r->rules, h->kings, dealt_kings);
    }
  }
  new_generation(s);
}

/* The compact position of a round in play (settled: forced passes made). */
static spos position_of(const goita_solver *s, const goita_round *r) {
  spos p = {.turn = (uint8_t)r->turn,
            .attack = (uint8_t)(r->attack == GOITA_NONE ? 0 : r->attack),
            .passes = (uint8_t)r->passes,
            .kingup = (uint8_t)(r->kings_up > 0),
            .attacker = (uint8_t)r->attacker};
  for (int seat = 0; seat < s->players; seat++)
    for (int k = 1; k < GOITA_KIND_SLOTS; k++) {
      uint32_t bits = s->kind_mask[seat][k];
      /* keep the top hand[k] bits of the kind's range */
      for (int drop = __builtin_popcount(bits) - r->hand[seat][k]; drop > 0; drop--) bits &= bits - 1;
      p.hands |= bits;
    }
  if (p.attack == 0) p.attacker = p.turn;
  p.pieces = (uint8_t)__builtin_popcount(p.hands);
  settle(s, &p);
  return p;
}

/* Bounds (tens, from the root seat's side) of a round position, by recursion over the
 * decisions of the deal; positions in play go to the search. */
static void solve_round(goita_solver *s, const goita_round *r, goita_solve_mode mode, int *lo, int *hi) {
  if (r->phase == GOITA_PHASE_OVER) {
    int v = r->result.winner < 0 ? 0 : r->result.points / 10;
    if (r->result.winner >= 0 && s->group[r->result.winner] != s->group[s->root]) v = -v;
    *lo = *hi = v;
    return;
  }
  if (r->phase == GOITA_PHASE_DECIDE) {
    /* The decider's side maximises; each choice is solved in full. */
    const int sign = s->group[r->turn] == s->group[s->root] ? 1 : -1;
    int best_lo = -100, best_hi = -100;
    for (int redeal = 0; redeal < 2; redeal++) {
      goita_round child = *r;
      goita_round_apply_unchecked(&child, goita_move_decide(r->turn, redeal));
      int clo, chi;
      solve_round(s, &child, GOITA_SOLVE_EXACT, &clo, &chi);
      const int l = sign > 0 ? clo : -chi, h = sign > 0 ? chi : -clo;
      if (l > best_lo) best_lo = l;
      if (h > best_hi) best_hi = h;
    }
    *lo = sign > 0 ? best_lo : -best_hi;
    *hi = sign > 0 ? best_hi : -best_lo;
    return;
  }
  const spos p = position_of(s, r);
  int l = -10, h = 10;
  narrow(s, &p, mode, &l, &h);
  if (flips(s, s->players, s->root, p.turn)) {
    *lo = -h;
    *hi = -l;
  } else {
    *lo = l;
    *hi = h;
  }
}

/* ---- Public ---- */

void goita_solve_options_default(goita_solve_options *o) {
  memset(o, 0, sizeof *o);
  o->mode = GOITA_SOLVE_EXACT;
}

int goita_solver_new(goita_solver **out, size_t table_bytes) {
  if (!out) return GOITA_EINVAL;
  *out = NULL;
  if (table_bytes < ((size_t)64 << 10)) table_bytes = (size_t)64 << 10;
  /* bucket_of scales 32 hash bits by the bucket count: at most 2^32 buckets (256 GiB) */
  if (table_bytes / sizeof(tt_bucket) > UINT32_MAX) table_bytes = (size_t)UINT32_MAX * sizeof(tt_bucket);
  const size_t buckets = table_bytes / sizeof(tt_bucket);
  size_t near_bytes = table_bytes / 16;
  if (near_bytes > NEAR_BYTES_MAX) near_bytes = NEAR_BYTES_MAX;
  goita_solver *s = calloc(1, sizeof *s);
  if (!s) return GOITA_ENOMEM;
  s->table = aligned_alloc(64, buckets * sizeof(tt_bucket));
  if (!s->table) {
    free(s);
    return GOITA_ENOMEM;
  }
  memset(s->table, 0, buckets * sizeof(tt_bucket));
  s->buckets = buckets;
  s->near_buckets = near_bytes / sizeof(tt_bucket);
  s->gen = 1;
  for (int t = 0; t < 6; t++)
    for (int k = 1; k <= GOITA_KING; k++)
      if (kind_tens[k] >= t) s->kinds_worth[t] |= (uint16_t)(1u << k);
  for (unsigned held = 0; held < 512; held++) {
    unsigned safe = 0;
    for (int k = 1; k <= GOITA_KING; k++)
      if (!(held & defenders[k])) safe |= 1u << k;
    s->safe_from[held] = (uint16_t)safe;
  }
  /* Two kinds are alike in the test "at least t" when they have the same defenders (pawn and
   * lance only themselves; knight to rook also a king) and each finish with them, single or
   * doubled, passes or fails alike: for the mover's side (at least t) and the other (at
   * least 1 - t from its side). */
  for (int t = -10; t <= 11; t++)
    for (int k = 1; k < GOITA_KING; k++) {
      const int v = kind_tens[k];
      const unsigned passes = (unsigned)(v >= t) << 1 | (unsigned)(v >= 1 - t) << 2 |
                              (unsigned)(2 * v >= t) << 3 | (unsigned)(2 * v >= 1 - t) << 4;
      s->test_class[t + 10][k] = (uint8_t)((k >= GOITA_KNIGHT ? TEST_CLASS_DEFENDERS : 0) | passes);
    }
  *out = s;
  return GOITA_OK;
}

void goita_solver_free(goita_solver *s) {
  if (!s) return;
  free(s->table);
  free(s);
}

void goita_solver_clear(goita_solver *s) {
  memset(s->table, 0, s->buckets * sizeof *s->table);
  memset(s->runs, 0, sizeof s->runs);
  s->gen = 1;
  s->have_deal = 0;
}

size_t goita_solver_table_entries(const goita_solver *s) { return s->buckets * TT_WAYS; }

static goita_solve_bounds in_points(int lo, int hi) {
  goita_solve_bounds b = {lo * 10, hi * 10};
  return b;
}

int goita_solve(goita_solver *s, const goita_round *r, const goita_solve_options *options,
                goita_solve_result *res) {
  if (!s || !r || !res) return GOITA_EINVAL;
  goita_solve_options o;
  if (options)
    o = *options;
  else
    goita_solve_options_default(&o);
  const double start = monotonic_seconds();
  memset(res, 0, sizeof *res);
  res->best = -1;
  if (!same_deal(s, r)) load_deal(s, r);
  s->root = r->turn;
  for (int seat = 0; seat < s->players; seat++)
    s->group[seat] = (uint8_t)(s->players == 4 ? (seat ^ s->root) & 1 : seat != s->root);
  /* With 4 or 2 players a position's value does not depend on the root; with 3 it does. */
  s->root_key = s->players == 3 ? (uint64_t)(s->root + 1) << 34 : 0; /* beside turn's bits */
  s->nodes = 0;
  s->max_nodes = o.max_nodes;
  s->deadline = o.max_ms > 0 ? start + o.max_ms / 1000.0 : 0;
  s->stopped = 0;
  memset(s->killers, 0, sizeof s->killers);
  memset(s->killer_face_down, 0, sizeof s->killer_face_down);

  int lo, hi;
  solve_round(s, r, o.mode, &lo, &hi);
  res->value = in_points(lo, hi);
  if (o.all_moves && r->phase != GOITA_PHASE_OVER) {
    res->nmoves = goita_round_legal_moves(r, res->moves);
    int best_lower = -1000;
    for (int i = 0; i < res->nmoves; i++) {
      goita_round child = *r;
      goita_round_apply_unchecked(&child, res->moves[i]);
      int clo = -10, chi = 10;
      if (!s->stopped) solve_round(s, &child, o.mode, &clo, &chi);
      res->move_value[i] = in_points(clo, chi);
      if (clo > best_lower) {
        best_lower = clo;
        res->best = i;
      }
    }
  }
  res->complete = !s->stopped;
  res->nodes = s->nodes;
  res->ms = (monotonic_seconds() - start) * 1000.0;
  return GOITA_OK;
}

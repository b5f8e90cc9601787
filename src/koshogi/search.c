/* The computer player: iterative-deepening negamax alpha-beta with a capture search, over an
 * evaluation of material, the commanding pieces' safety and mobility. The searcher keeps its
 * transposition table between searches, and another thread may stop it or move its deadline. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define WIN 1000000

/* What a piece is worth to the move order and the capture search's margins (and, for the
 * evaluation, which pieces close in and how big an army is), in hundredths of a pawn, by face:
 * ranging and multi-leg pieces high, step movers low, the commanding pieces far above
 * everything. The evaluation's material is its own (ks__eval_weights). */
static const int value[KS_FACES] = {
    [KS_G] = 5000, [KS_CL] = 400, [KS_SO] = 350, [KS_AC] = 250, [KS_WR] = 500, [KS_AI] = 250, [KS_ST] = 250,
    [KS_CS] = 250, [KS_EN] = 250, [KS_TP] = 400, [KS_SM] = 350, [KS_AG] = 350, [KS_MA] = 900, [KS_DR] = 400,
    [KS_BN] = 700, [KS_SN] = 200, [KS_MI] = 800, [KS_QM] = 650, [KS_CE] = 550, [KS_RG] = 350, [KS_FC] = 600,
    [KS_EL] = 500, [KS_LB] = 300, [KS_XB] = 400, [KS_CN] = 450, [KS_CM] = 300, [KS_CV] = 550, [KS_P] = 100,
    [KS_PU] = 450, [KS_SH] = 100, [KS_SU] = 400, [KS_CH] = 450, [KS_CU] = 700, [KS_VG] = 350,
    [KS_MR] = 900, [KS_BD] = 850, [KS_TB] = 600, [KS_VB] = 550, [KS_VC] = 650, [KS_PF] = 500, [KS_FG] = 900,
    [KS_IL] = 800, [KS_SK] = 700, [KS_GV] = 5000, [KS_TC] = 800, [KS_FW] = 750, [KS_DA] = 1100, [KS_TW] = 950,
    [KS_WH] = 850, [KS_EW] = 700, [KS_CG] = 1100, [KS_LC] = 650, [KS_XC] = 700, [KS_GC] = 850, [KS_WG] = 900,
    [KS_CO] = 650, [KS_HF] = 700, [KS_PAC] = 650, [KS_PSN] = 550, [KS_PCM] = 550, [KS_PP] = 450, [KS_PSH] = 400,
    [KS_PCH] = 700, [KS_PCU] = 800, [KS_COV] = 650};

/* The evaluation's weights by feature (internal.h), in hundredths of a pawn: the material of
 * each face in the order of ks_face, then the positional features. Written by
 * tools/koshogi_fit.py (docs/KOSHOGI.md, "The evaluation's weights, fitted on games"). */
const int ks__eval_weights[KS_EVAL_FEATURES] = {
    /* material: G CL SO AC WR AI ST CS EN TP SM AG MA DR BN SN MI QM CE RG FC EL LB XB CN CM CV P
     * PU SH SU CH CU VG +CL +SO +AI +ST +CS +EN +TP +SM +AG +MA +DR +BN +MI +QM +CE +RG +FC +LB +XB
     * +CN +CV +PU +SU +AC +SN +CM +P +SH +CH +CU +VG */
    5000, 323, 358, 268, 534, 253, 252, 263, 261, 512, 328, 404, 577,
    302, 696, 193, 726, 652, 518, 401, 887, 458, 258, 501, 677, 144,
    590, 89, 480, 67, 261, 366, 606, 344, 903, 852, 602, 550, 650,
    497, 905, 802, 745, 5000, 834, 750, 1147, 1179, 932, 651, 1133, 629,
    724, 1101, 1014, 650, 699, 643, 550, 550, 448, 427, 666, 786, 651,
    /* closing, pressing, mobility, guard near, guard far, attacker near, attacker far, advance,
     * besiegers, tempo */
    2, 10, 2, 16, 5, -60, -30, 0, 0, -1};

/* One side's pieces as the evaluation needs them, gathered in one scan of the board. */
typedef struct side_pieces {
  int n;
  uint16_t at[KS_POINTS];
  int g, gv, ma, bn;          /* how many generals, governors, middle troops, banners (BN or FW) */
  int at_g, at_gv, at_ma, at_bn;
  int army;                   /* the value of its other pieces */
  int ntargets;               /* its commanding pieces (G, GV, MA, BN, FW) and where */
  int targets[8];
} side_pieces;

static void gather(const ks_position *pos, side_pieces sides[2]) {
  memset(sides, 0, 2 * sizeof *sides);
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p) continue;
    side_pieces *s = &sides[ks_color_of(p)];
    s->at[s->n++] = (uint16_t)sq;
    const ks_face f = ks_face_of(p);
    const bool target = f == KS_G || f == KS_GV || f == KS_MA || f == KS_BN || f == KS_FW;
    if (f == KS_G) s->g++, s->at_g = sq;
    else if (f == KS_GV) s->gv++, s->at_gv = sq;
    else if (f == KS_MA) s->ma++, s->at_ma = sq;
    else if (f == KS_BN || f == KS_FW) s->bn++, s->at_bn = sq;
    if (target && s->ntargets < 8) s->targets[s->ntargets++] = sq;
    if (!target) s->army += value[f];
  }
}

static bool side_defeated(const side_pieces *s) { return !s->g && !s->gv && !(s->ma && s->bn); }

/* The sole objective piece of KOSHOGI-RULES.md 6.1 (as ks_sole_objective), from the counts. */
static int sole_objective(const side_pieces *s) {
  const bool pair = s->ma && s->bn;
  int critical = -1, count = 0;
  if (s->g == 1 && !s->gv && !pair) critical = s->at_g, count++;
  if (s->gv == 1 && !s->g && !pair) critical = s->at_gv, count++;
  if (s->ma == 1 && s->bn && !s->g && !s->gv) critical = s->at_ma, count++;
  if (s->bn == 1 && s->ma && !s->g && !s->gv) critical = s->at_bn, count++;
  return count == 1 ? critical : -1;
}

/* Inlined into ks_evaluate, where features is NULL, every add folds to a multiply-add: the
 * evaluation is a third of the search's time. */
#define EVAL_INLINE static inline __attribute__((always_inline))

/* Where the evaluation adds up: the weighted score (features NULL, the search's fast path), or
 * the features themselves for the fitter; one code path computes both, so they cannot differ. */
typedef struct eval_sum {
  int score;
  int *features;
} eval_sum;

EVAL_INLINE void add(eval_sum *sum, int feature, int count) {
  if (sum->features) sum->features[feature] += count;
  else sum->score += ks__eval_weights[feature] * count;
}

/* Adds one side's terms, with sign +1 for the side to move and -1 for the other. */
EVAL_INLINE void side_score(const ks_position *pos, int color, const side_pieces *own, const side_pieces *enemy, int sign,
                       eval_sum *sum) {
  /* a side with half as much army again as the other presses home: closing in weighs more */
  const int closing = 2 * own->army >= 3 * enemy->army ? KS_F_PRESSING : KS_F_CLOSING;
  /* closing in on at most the first four of the enemy's commanding pieces */
  const int ntargets = enemy->ntargets < 4 ? enemy->ntargets : 4;
  int closeness = 0, besiegers = 0, mobility = 0, advance = 0;
  for (int i = 0; i < own->n; i++) {
    const int sq = own->at[i];
    const ks_face f = ks_face_of(pos->board[sq]);
    add(sum, KS_F_MATERIAL + (int)f - 1, sign);
    if (ks__faces[f].step_mover) advance += color == KS_BLACK ? KS_SIZE - 1 - sq / KS_SIZE : sq / KS_SIZE;
    /* closing in: every piece but the commanders and the heaviest gains as it nears the enemy's
     * commanders */
    if (value[f] < 900 && ntargets) {
      int nearest = KS_SIZE;
      for (int t = 0; t < ntargets; t++) {
        const int dr = abs(sq / KS_SIZE - enemy->targets[t] / KS_SIZE);
        const int dc = abs(sq % KS_SIZE - enemy->targets[t] % KS_SIZE);
        const int d = dr > dc ? dr : dc;
        if (d < nearest) nearest = d;
      }
      closeness += KS_SIZE - nearest;
      besiegers += nearest <= 2;
    }
    /* mobility: the empty points along the piece's ranging lines, up to 6 each */
    const int dirs = ks__faces[f].range | ks__faces[f].range5;
    for (int d = 0; d < 8 && dirs; d++) {
      if (!(dirs & (1 << d))) continue;
      int row = sq / KS_SIZE, col = sq % KS_SIZE;
      for (int k = 0; k < 6; k++) {
        row += color == KS_BLACK ? -ks__dir_df[d] : ks__dir_df[d];
        col += ks__dir_dx[d];
        if (row < 0 || row >= KS_SIZE || col < 0 || col >= KS_SIZE || pos->board[row * KS_SIZE + col]) break;
        mobility++;
      }
    }
  }
  add(sum, closing, sign * closeness);
  add(sum, KS_F_BESIEGERS, sign * besiegers);
  add(sum, KS_F_MOBILITY, sign * mobility);
  add(sum, KS_F_ADVANCE, sign * advance);
  /* the commanding piece's safety: friends around it, enemies near it */
  const int objective = sole_objective(own);
  if (objective >= 0) {
    int guards[2] = {0, 0}, attackers[2] = {0, 0}; /* [0] next to it, [1] two points away */
    const int r0 = objective / KS_SIZE, c0 = objective % KS_SIZE;
    for (int r = r0 - 2; r <= r0 + 2; r++)
      for (int c = c0 - 2; c <= c0 + 2; c++) {
        if (r < 0 || r >= KS_SIZE || c < 0 || c >= KS_SIZE || (r == r0 && c == c0)) continue;
        const ks_piece p = pos->board[r * KS_SIZE + c];
        if (!p) continue;
        const int far = abs(r - r0) > 1 || abs(c - c0) > 1;
        if (ks_color_of(p) == color) guards[far]++;
        else attackers[far]++;
      }
    add(sum, KS_F_GUARD_NEAR, sign * guards[0]);
    add(sum, KS_F_GUARD_FAR, sign * guards[1]);
    add(sum, KS_F_ATTACKER_NEAR, sign * attackers[0]);
    add(sum, KS_F_ATTACKER_FAR, sign * attackers[1]);
  }
}

/* The evaluation into sum (see eval_sum), or a win or loss score for a side defeated on the
 * board (then sum is left alone). */
EVAL_INLINE int evaluate(const ks_position *pos, eval_sum *sum) {
  const int me = pos->to_move;
  side_pieces sides[2];
  gather(pos, sides);
  if (side_defeated(&sides[me])) return -WIN;
  if (side_defeated(&sides[me ^ 1])) return WIN;
  add(sum, KS_F_TEMPO, 1);
  side_score(pos, me, &sides[me], &sides[me ^ 1], 1, sum);
  side_score(pos, me ^ 1, &sides[me ^ 1], &sides[me], -1, sum);
  return 0;
}

int ks_evaluate(const ks_position *pos) {
  eval_sum sum = {0, NULL};
  const int decided = evaluate(pos, &sum);
  return decided ? decided : sum.score;
}

int ks__eval_features(const ks_position *pos, int features[KS_EVAL_FEATURES]) {
  memset(features, 0, KS_EVAL_FEATURES * sizeof *features);
  eval_sum sum = {0, features};
  const int decided = evaluate(pos, &sum);
  if (decided) memset(features, 0, KS_EVAL_FEATURES * sizeof *features);
  return decided;
}

void ks__eval_feature_name(int feature, char *buf, size_t size) {
  static const char *const positional[] = {"closing",       "pressing",      "mobility", "guard near",
                                           "guard far",     "attacker near", "attacker far", "advance",
                                           "besiegers",     "tempo"};
  _Static_assert(sizeof positional / sizeof *positional == KS_EVAL_FEATURES - KS_F_CLOSING, "a name a feature");
  if (feature >= KS_F_MATERIAL && feature < KS_F_CLOSING)
    snprintf(buf, size, "material %s", ks_face_id((ks_face)(feature - KS_F_MATERIAL + 1)));
  else if (feature >= KS_F_CLOSING && feature < KS_EVAL_FEATURES)
    snprintf(buf, size, "%s", positional[feature - KS_F_CLOSING]);
  else
    snprintf(buf, size, "?");
}

/* A transposition table entry: what a search of `depth` proved about a position, and its best
 * move as an index into the generator's list (the generator's order is fixed for a position). */
typedef struct tt_entry {
  uint64_t key;
  int32_t score;
  int8_t depth;
  uint8_t bound;
  uint16_t move; /* index + 1; 0 for none */
} tt_entry;
enum { TT_EXACT = 1, TT_LOWER, TT_UPPER };
#define PLIES 32   /* the deepest ply, the capture search included */
#define QDEPTH 4   /* the capture search's plies */
#define NO_TIME (-1)
#define FUTILE_DEPTH 2    /* futility pruning in the last plies before the horizon */
#define FUTILE_MARGIN 250 /* per ply, in hundredths of a pawn */
#define LMR_DEPTH 3       /* late quiet moves are searched a ply shallower from this depth */
#define LMR_AFTER 4       /* after this many moves */

struct ks_searcher {
  tt_entry *tt;
  size_t tt_mask;   /* entries - 1 (a power of two) */
  ks_move *stack;   /* move lists, KS_MAX_MOVES per ply */
  int *keys;        /* their ordering keys, KS_MAX_MOVES per ply */
  uint16_t *idx;    /* the order they are tried in, KS_MAX_MOVES per ply */
  int *cutoffs;     /* [from * KS_POINTS + to]: how often a quiet move refuted a line */
  ks_move killers[PLIES][2]; /* quiet moves that refuted something at this ply */
  ks_move pv[PLIES][PLIES];  /* pv[ply]: the best line found from ply on */
  int pvlen[PLIES];
  /* set from any thread */
  atomic_bool stop;
  atomic_llong soft_at, hard_at; /* monotonic ms: no new iteration after soft, stop at hard */
  /* one search's state */
  struct timespec start;
  long nodes, node_limit;
  int seldepth;
  bool stopped;
  const uint64_t *history; /* positions of the game so far: going back to one scores a draw */
  int nhistory;
};

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static bool repeats(const ks_searcher *s, const ks_position *pos) {
  if (!s->nhistory) return false;
  const uint64_t key = ks_key(pos);
  for (int i = 0; i < s->nhistory; i++)
    if (s->history[i] == key) return true;
  return false;
}

static int elapsed_ms(const ks_searcher *s) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int)((now.tv_sec - s->start.tv_sec) * 1000 + (now.tv_nsec - s->start.tv_nsec) / 1000000);
}

/* Counts a node and decides whether the search must end: stopped from outside, the node
 * budget spent, or (looked at every 64 nodes) the hard deadline passed. */
static bool tick(ks_searcher *s) {
  if (s->stopped) return true;
  s->nodes++;
  if (atomic_load_explicit(&s->stop, memory_order_relaxed) || (s->node_limit && s->nodes >= s->node_limit))
    s->stopped = true;
  else if ((s->nodes & 63) == 0) {
    const long long hard = atomic_load_explicit(&s->hard_at, memory_order_relaxed);
    if (hard != NO_TIME && now_ms() >= hard) s->stopped = true;
  }
  return s->stopped;
}

static bool same_move(const ks_move *a, const ks_move *b) {
  if (a->from != b->from || a->to != b->to || a->promote != b->promote || a->ncap != b->ncap || a->nshot != b->nshot)
    return false;
  for (int i = 0; i < a->ncap; i++)
    if (a->cap[i] != b->cap[i]) return false;
  for (int i = 0; i < a->nshot; i++)
    if (a->shot[i] != b->shot[i]) return false;
  return true;
}

/* How much a move takes, for ordering: the values of what it captures and shoots. */
static int gain(const ks_position *pos, const ks_move *m) {
  int g = 0;
  for (int i = 0; i < m->ncap; i++) g += value[ks_face_of(pos->board[m->cap[i]])];
  for (int i = 0; i < m->nshot; i++) g += value[ks_face_of(pos->board[m->shot[i]])];
  return g + (m->promote ? 100 : 0);
}

#define KEY_FIRST (1 << 30)
#define KEY_GAINS (1 << 26)
#define KEY_KILLER (1 << 24)
#define KEY_TRADES (1 << 22)

/* Ordering keys: the table's move, then captures of more than the taker is worth (what takes
 * most first, the cheaper taker first among equal gains), then the killers, then the other
 * captures, then quiet moves by how often they refuted lines before. A capture by a piece
 * worth as much as its victim or more is at best a trade when the victim is defended, and
 * trying it before the killers made most refutations come late: at the start, two plies took
 * 11,364 nodes with every capture first and 6,762 with these after the killers. */
static void order_keys(const ks_searcher *s, const ks_position *pos, const ks_move *moves, int n, int *keys,
                       int first, int ply) {
  for (int i = 0; i < n; i++) {
    const ks_move *m = &moves[i];
    if (i == first) keys[i] = KEY_FIRST;
    else if (m->ncap || m->nshot || m->promote) {
      const int g = gain(pos, m), taker = value[ks_face_of(pos->board[m->from])];
      const int taken = g - (m->promote ? 100 : 0);
      keys[i] = (taken > taker ? KEY_GAINS : KEY_TRADES) + 8 * g - taker / 64;
    } else if (same_move(m, &s->killers[ply][0])) keys[i] = KEY_KILLER + 1;
    else if (same_move(m, &s->killers[ply][1])) keys[i] = KEY_KILLER;
    else keys[i] = s->cutoffs[m->from * KS_POINTS + m->to];
  }
}

/* Puts at idx[i] the best-keyed of the moves idx[i..n-1]: moves are tried best first, and a
 * cutoff usually comes long before the list would be sorted through. */
static int pick(uint16_t *idx, const int *keys, int i, int n) {
  int best = i;
  for (int j = i + 1; j < n; j++)
    if (keys[idx[j]] > keys[idx[best]]) best = j;
  const uint16_t chosen = idx[best];
  idx[best] = idx[i];
  idx[i] = chosen;
  return chosen;
}

/* A quiet move that refuted a line: remembered for its ply and in the history counts. */
static void refuted_by(ks_searcher *s, const ks_move *m, int depth, int ply) {
  if (m->ncap || m->nshot || m->promote) return;
  if (!same_move(m, &s->killers[ply][0])) {
    s->killers[ply][1] = s->killers[ply][0];
    s->killers[ply][0] = *m;
  }
  int *c = &s->cutoffs[m->from * KS_POINTS + m->to];
  if (*c < KEY_TRADES - 4096) *c += depth * depth;
}

/* Win scores count plies from the root; the table holds them counted from the position. */
static int to_table(int score, int ply) { return score > WIN - 1000 ? score + ply : score < -WIN + 1000 ? score - ply : score; }
static int from_table(int score, int ply) {
  return score > WIN - 1000 ? score - ply : score < -WIN + 1000 ? score + ply : score;
}

/* The best line from ply: move m, then the line found below it. */
static void pv_update(ks_searcher *s, int ply, const ks_move *m) {
  s->pv[ply][0] = *m;
  const int below = ply + 1 < PLIES ? s->pvlen[ply + 1] : 0;
  for (int i = 0; i < below && i + 1 < PLIES; i++) s->pv[ply][i + 1] = s->pv[ply + 1][i];
  s->pvlen[ply] = below + 1 < PLIES ? below + 1 : PLIES;
}

static int search(ks_searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta);

/* Whether a move removes pieces (only such a move can defeat anyone). */
static bool removes(const ks_position *pos, const ks_move *m) {
  return m->ncap || m->nshot || ks_face_of(pos->board[m->from]) == KS_PF;
}

/* How many moves of a ply's list the search tries: the list holds KS_MAX_MOVES, and a set-up
 * position with more is searched on the first ones (all legal; the rest are not looked at). */
static int listed(int n) { return n < 0 ? 0 : n > KS_MAX_MOVES ? KS_MAX_MOVES : n; }

/* Whether a move captures or shoots the piece on point. */
static bool takes_on(const ks_move *m, int point) {
  for (int i = 0; i < m->ncap; i++)
    if (m->cap[i] == point) return true;
  for (int i = 0; i < m->nshot; i++)
    if (m->shot[i] == point) return true;
  return false;
}

/* At the horizon: stand pat, or try the captures, best gain first (QDEPTH plies at most).
 * From its third ply on only the captures of the piece that has just taken (on last_to) are
 * tried: the exchange on that point is played out, while every other capture of every ply
 * made the capture search most of the search (two plies from the start: 18,874 nodes with
 * every capture at every ply, 6,762 with recaptures only from the third). The second ply
 * keeps every capture: a side that answers a capture by taking something elsewhere must meet
 * every reply to that, or the search takes a chariot left hanging for a fair trade. */
static int quiesce(ks_searcher *s, const ks_position *pos, int ply, int qdepth, int alpha, int beta, int last_to) {
  s->pvlen[ply] = 0;
  if (ply > s->seldepth) s->seldepth = ply;
  const int stand = ks_evaluate(pos);
  if (stand >= beta || qdepth == 0 || stand <= -WIN || stand >= WIN || ply >= PLIES - 1) return stand;
  if (stand > alpha) alpha = stand;
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  int *keys = s->keys + (size_t)ply * KS_MAX_MOVES;
  uint16_t *idx = s->idx + (size_t)ply * KS_MAX_MOVES;
  const int n = listed(ks__capture_moves(pos, moves, KS_MAX_MOVES));
  for (int i = 0; i < n; i++) {
    keys[i] = 8 * gain(pos, &moves[i]) - value[ks_face_of(pos->board[moves[i].from])] / 64;
    idx[i] = (uint16_t)i;
  }
  for (int i = 0; i < n; i++) {
    const ks_move *m = &moves[pick(idx, keys, i, n)];
    /* a capture that cannot lift the score to alpha even if the taker were lost for nothing is
     * not worth a node */
    if (stand + gain(pos, m) + 200 <= alpha) continue;
    if (qdepth <= QDEPTH - 2 && !takes_on(m, last_to)) continue;
    ks_position next = *pos;
    ks_play(&next, m);
    if (tick(s)) return 0;
    const int score = removes(pos, m) && ks_defeated(&next, pos->to_move ^ 1)
                          ? WIN - ply - 1
                          : -quiesce(s, &next, ply + 1, qdepth - 1, -beta, -alpha, m->to);
    if (score >= beta) return score;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

/* The score of one move of the search: a win at once, a return to a position of the game (a
 * step towards a draw by repetition), or the search below it. */
static int child(ks_searcher *s, const ks_position *pos, const ks_position *next, const ks_move *m, int depth,
                 int ply, int alpha, int beta) {
  if (removes(pos, m) && ks_defeated(next, pos->to_move ^ 1)) {
    s->pvlen[ply + 1] = 0;
    return WIN - ply - 1;
  }
  if (ply < 2 && repeats(s, next)) {
    s->pvlen[ply + 1] = 0;
    return 0;
  }
  return -search(s, next, depth - 1, ply + 1, -beta, -alpha);
}

/* The table's entry for a position, and its move when it has one for this position. */
static tt_entry *probe(ks_searcher *s, uint64_t key, int *first) {
  tt_entry *entry = &s->tt[key & s->tt_mask];
  *first = entry->key == key ? entry->move - 1 : -1;
  return entry;
}

static int search(ks_searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta) {
  s->pvlen[ply] = 0;
  if (tick(s)) return 0;
  if (depth <= 0 || ply >= PLIES - QDEPTH - 1) return quiesce(s, pos, ply, QDEPTH, alpha, beta, -1);
  const uint64_t key = ks_key(pos);
  int first;
  tt_entry *entry = probe(s, key, &first);
  if (first >= 0 && entry->depth >= depth) {
    const int v = from_table(entry->score, ply);
    if (entry->bound == TT_EXACT || (entry->bound == TT_LOWER && v >= beta) || (entry->bound == TT_UPPER && v <= alpha))
      return v;
  }
  /* Near the horizon the static evaluation decides what is worth searching: far above beta,
   * the position is taken as good enough (a null window only); far below alpha, quiet moves
   * are not tried (they rarely win back that much in a ply or two). */
  const bool null_window = beta == alpha + 1;
  const int stand = depth <= FUTILE_DEPTH ? ks_evaluate(pos) : 0;
  if (depth <= FUTILE_DEPTH && null_window && stand - FUTILE_MARGIN * depth >= beta && stand < WIN - 1000)
    return stand;
  const bool futile = depth <= FUTILE_DEPTH && stand + FUTILE_MARGIN * depth <= alpha;
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  int *keys = s->keys + (size_t)ply * KS_MAX_MOVES;
  const int n = listed(ks_legal_moves(pos, moves, KS_MAX_MOVES));
  if (n == 0) return -WIN + ply; /* no legal move loses */
  if (first >= n) first = -1;    /* a key collision */
  uint16_t *idx = s->idx + (size_t)ply * KS_MAX_MOVES;
  order_keys(s, pos, moves, n, keys, first, ply);
  for (int i = 0; i < n; i++) idx[i] = (uint16_t)i;
  const int alpha0 = alpha;
  int best = futile ? stand + FUTILE_MARGIN * depth : -WIN - 1, best_index = 0;
  for (int i = 0; i < n; i++) {
    const int k = pick(idx, keys, i, n);
    const bool quiet = keys[k] < KEY_KILLER && !removes(pos, &moves[k]);
    if (futile && quiet && i > 0) continue;
    ks_position next = *pos;
    ks_play(&next, &moves[k]);
    int score;
    if (i == 0) {
      score = child(s, pos, &next, &moves[k], depth, ply, alpha, beta);
    } else { /* a null window first, a ply shallower for a late quiet move: does it beat the
              * best so far at all? */
      const bool reduce = quiet && depth >= LMR_DEPTH && i >= LMR_AFTER;
      score = child(s, pos, &next, &moves[k], reduce ? depth - 1 : depth, ply, alpha, alpha + 1);
      if (reduce && score > alpha && !s->stopped) score = child(s, pos, &next, &moves[k], depth, ply, alpha, alpha + 1);
      if (score > alpha && score < beta && !s->stopped) score = child(s, pos, &next, &moves[k], depth, ply, alpha, beta);
    }
    if (s->stopped) return 0;
    if (score > best) {
      best = score;
      best_index = k;
    }
    if (score > alpha) {
      alpha = score;
      pv_update(s, ply, &moves[k]);
    }
    if (alpha >= beta) {
      refuted_by(s, &moves[k], depth, ply);
      break;
    }
  }
  if (entry->key != key || depth >= entry->depth || best >= beta) { /* keep the deeper result of the same position */
    entry->key = key;
    entry->score = to_table(best, ply);
    entry->depth = (int8_t)depth;
    entry->bound = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    entry->move = (uint16_t)(best_index + 1);
  }
  return best;
}

/* ---- the searcher ---- */

ks_searcher *ks_searcher_new(size_t hash_mib) {
  ks_searcher *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->stack = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s->stack);
  s->keys = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s->keys);
  s->idx = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s->idx);
  s->cutoffs = calloc((size_t)KS_POINTS * KS_POINTS, sizeof *s->cutoffs);
  atomic_init(&s->stop, false);
  atomic_init(&s->soft_at, NO_TIME);
  atomic_init(&s->hard_at, NO_TIME);
  if (!s->stack || !s->keys || !s->idx || !s->cutoffs || ks_searcher_resize(s, hash_mib) != 0) {
    ks_searcher_free(s);
    return NULL;
  }
  return s;
}

void ks_searcher_free(ks_searcher *s) {
  if (!s) return;
  free(s->stack);
  free(s->keys);
  free(s->idx);
  free(s->tt);
  free(s->cutoffs);
  free(s);
}

int ks_searcher_resize(ks_searcher *s, size_t hash_mib) {
  if (hash_mib < 1 || hash_mib > KS_HASH_MAX_MIB) return -1;
  size_t entries = 1;
  while (entries * 2 * sizeof(tt_entry) <= hash_mib << 20) entries *= 2;
  tt_entry *tt = calloc(entries, sizeof *tt);
  if (!tt) return -1;
  free(s->tt);
  s->tt = tt;
  s->tt_mask = entries - 1;
  return 0;
}

void ks_searcher_clear(ks_searcher *s) {
  memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
  memset(s->cutoffs, 0, (size_t)KS_POINTS * KS_POINTS * sizeof *s->cutoffs);
}

void ks_searcher_set_stop(ks_searcher *s, bool stop) { atomic_store(&s->stop, stop); }

void ks_searcher_set_deadline(ks_searcher *s, int soft_ms, int hard_ms) {
  const long long now = now_ms();
  atomic_store(&s->soft_at, soft_ms < 0 ? NO_TIME : now + soft_ms);
  atomic_store(&s->hard_at, hard_ms < 0 ? NO_TIME : now + hard_ms);
}

/* Lengthens a best line cut short by a table hit with the table's moves, while they are
 * legal and new: the line a GUI shows, and the move to ponder on. */
static void pv_extend(ks_searcher *s, const ks_position *root, ks_search_info *info, int depth) {
  ks_position pos = *root;
  for (int i = 0; i < info->npv; i++) ks_play(&pos, &info->pv[i]);
  ks_move *moves = s->stack + KS_MAX_MOVES; /* ply 1's list, free between iterations */
  while (info->npv < depth && info->npv < KS_MAX_PV) {
    int first;
    probe(s, ks_key(&pos), &first);
    if (first < 0) break;
    const int n = listed(ks_legal_moves(&pos, moves, KS_MAX_MOVES));
    if (first >= n) break;
    info->pv[info->npv++] = moves[first];
    ks_play(&pos, &moves[first]);
  }
}

/* Fills info from the search so far and the root's best line. */
static void report(ks_searcher *s, const ks_position *pos, int depth, int score, ks_search_info *info) {
  info->depth = depth;
  info->seldepth = s->seldepth > depth ? s->seldepth : depth;
  info->score = score;
  info->mate = score >= WIN - 1000 ? WIN - score : score <= -WIN + 1000 ? -(WIN + score) : 0;
  info->nodes = s->nodes;
  info->ms = elapsed_ms(s);
  info->npv = s->pvlen[0] < KS_MAX_PV ? s->pvlen[0] : KS_MAX_PV;
  memcpy(info->pv, s->pv[0], (size_t)info->npv * sizeof *info->pv);
  if (!info->mate) pv_extend(s, pos, info, depth);
}

/* One iteration at the root: every move, the last choice first, null windows after it.
 * Returns the index of the best move, or -1 when stopped before any move was scored; *score
 * gets its score. */
static int root_iteration(ks_searcher *s, const ks_position *pos, int n, int depth, int chosen, int *score_out) {
  ks_move *root = s->stack;
  int *keys = s->keys;
  uint16_t *idx = s->idx;
  order_keys(s, pos, root, n, keys, chosen, 0);
  for (int i = 0; i < n; i++) idx[i] = (uint16_t)i;
  int alpha = -WIN - 1, best_here = -1;
  for (int i = 0; i < n; i++) {
    const int k = pick(idx, keys, i, n);
    ks_position next = *pos;
    ks_play(&next, &root[k]);
    int score;
    if (i == 0) {
      score = child(s, pos, &next, &root[k], depth, 0, alpha, WIN + 1);
    } else {
      score = child(s, pos, &next, &root[k], depth, 0, alpha, alpha + 1);
      if (score > alpha && !s->stopped) score = child(s, pos, &next, &root[k], depth, 0, alpha, WIN + 1);
    }
    if (s->stopped) break;
    if (score > alpha) {
      alpha = score;
      best_here = k;
      pv_update(s, 0, &root[k]);
    }
  }
  *score_out = alpha;
  return best_here;
}

int ks_searcher_run(ks_searcher *s, const ks_position *pos, const uint64_t *history, int nhistory,
                    const ks_limits *limits, ks_report_fn report_fn, void *ctx, ks_move *best, ks_search_info *info) {
  clock_gettime(CLOCK_MONOTONIC, &s->start);
  s->history = history;
  s->nhistory = history ? nhistory : 0;
  s->nodes = 0;
  s->node_limit = limits && limits->nodes > 0 ? limits->nodes : 0;
  s->seldepth = 0;
  s->stopped = false;
  memset(s->killers, 0, sizeof s->killers);
  const int n = listed(ks_legal_moves(pos, s->stack, KS_MAX_MOVES));
  if (n == 0) return -1;
  ks_search_info last;
  memset(&last, 0, sizeof last);
  int chosen = 0;
  const int deepest = limits && limits->depth > 0 && limits->depth < PLIES - QDEPTH - 2 ? limits->depth
                                                                                          : PLIES - QDEPTH - 2;
  for (int depth = 1; depth <= deepest; depth++) {
    int score;
    const int best_here = root_iteration(s, pos, n, depth, depth > 1 ? chosen : -1, &score);
    /* An unfinished iteration is trusted only for a move it proved better than the last
     * iteration's choice, which it searched first. */
    if (best_here < 0 || (s->stopped && depth > 1 && best_here == chosen)) break;
    chosen = best_here;
    report(s, pos, depth, score, &last);
    if (s->stopped) {
      last.depth = depth - 1; /* the score and line of a move found in the unfinished iteration */
      break;
    }
    if (report_fn) report_fn(ctx, &last);
    if (score >= WIN - 1000 || score <= -WIN + 1000) break; /* the result is known */
    const long long soft = atomic_load(&s->soft_at);
    if (soft != NO_TIME && now_ms() >= soft) break;
  }
  *best = s->stack[chosen];
  if (last.npv == 0 || !same_move(&last.pv[0], best)) { /* stopped in the first iteration */
    last.npv = 1;
    last.pv[0] = *best;
  }
  last.nodes = s->nodes;
  last.ms = elapsed_ms(s);
  if (info) *info = last;
  return 0;
}

int ks_search(const ks_position *pos, const uint64_t *history, int nhistory, int ms, int max_depth, ks_move *best,
              ks_search_info *info) {
  ks_searcher *s = ks_searcher_new(4);
  if (!s) return -1;
  ks_searcher_set_deadline(s, ms > 0 ? ms : 1, ms > 0 ? ms : 1);
  const ks_limits limits = {.depth = max_depth};
  const int st = ks_searcher_run(s, pos, history, nhistory, &limits, NULL, NULL, best, info);
  ks_searcher_free(s);
  return st;
}

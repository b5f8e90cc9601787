/* The computer player: iterative-deepening negamax alpha-beta with a short capture search,
 * over an evaluation of material, the commanding pieces' safety and mobility. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define WIN 1000000

/* Material in hundredths of a pawn, by face: ranging and multi-leg pieces high, step movers
 * low, the commanding pieces far above everything. */
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

static int side_score(const ks_position *pos, int color, const side_pieces *own, const side_pieces *enemy) {
  int score = 0;
  /* a side with half as much army again as the other presses home: closing in counts triple */
  const int closing = 2 * own->army >= 3 * enemy->army ? 9 : 3;
  /* closing in on at most the first four of the enemy's commanding pieces */
  const int ntargets = enemy->ntargets < 4 ? enemy->ntargets : 4;
  for (int i = 0; i < own->n; i++) {
    const int sq = own->at[i];
    const ks_face f = ks_face_of(pos->board[sq]);
    score += value[f];
    /* closing in: every piece but the commanders gains as it nears the enemy's commanders */
    if (value[f] < 900 && ntargets) {
      int nearest = KS_SIZE;
      for (int t = 0; t < ntargets; t++) {
        const int dr = abs(sq / KS_SIZE - enemy->targets[t] / KS_SIZE);
        const int dc = abs(sq % KS_SIZE - enemy->targets[t] % KS_SIZE);
        const int d = dr > dc ? dr : dc;
        if (d < nearest) nearest = d;
      }
      score += (KS_SIZE - nearest) * closing;
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
        score += 2;
      }
    }
  }
  /* the commanding piece's safety: friends around it, enemies near it */
  const int objective = sole_objective(own);
  if (objective >= 0) {
    const int r0 = objective / KS_SIZE, c0 = objective % KS_SIZE;
    for (int r = r0 - 2; r <= r0 + 2; r++)
      for (int c = c0 - 2; c <= c0 + 2; c++) {
        if (r < 0 || r >= KS_SIZE || c < 0 || c >= KS_SIZE || (r == r0 && c == c0)) continue;
        const ks_piece p = pos->board[r * KS_SIZE + c];
        if (!p) continue;
        const bool near = abs(r - r0) <= 1 && abs(c - c0) <= 1;
        if (ks_color_of(p) == color)
          score += near ? 15 : 5;
        else
          score -= near ? 60 : 30;
      }
  }
  return score;
}

int ks_evaluate(const ks_position *pos) {
  const int me = pos->to_move;
  side_pieces sides[2];
  gather(pos, sides);
  if (side_defeated(&sides[me])) return -WIN;
  if (side_defeated(&sides[me ^ 1])) return WIN;
  return side_score(pos, me, &sides[me], &sides[me ^ 1]) - side_score(pos, me ^ 1, &sides[me ^ 1], &sides[me]);
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
#define TT_BITS 18 /* 4 MiB */
#define PLIES 16

typedef struct searcher {
  struct timespec start;
  int ms;
  long nodes;
  bool stopped;
  ks_move *stack;   /* move lists, KS_MAX_MOVES per ply */
  int *keys;        /* their ordering keys, KS_MAX_MOVES per ply */
  uint16_t *idx;    /* the order they are tried in, KS_MAX_MOVES per ply */
  const uint64_t *history; /* positions of the game so far: going back to one scores a draw */
  int nhistory;
  tt_entry *tt;
  ks_move killers[PLIES][2]; /* quiet moves that refuted something at this ply */
  int *cutoffs;              /* [from * KS_POINTS + to]: how often a quiet move refuted a line */
} searcher;

static bool repeats(const searcher *s, const ks_position *pos) {
  if (!s->nhistory) return false;
  const uint64_t key = ks_key(pos);
  for (int i = 0; i < s->nhistory; i++)
    if (s->history[i] == key) return true;
  return false;
}

static int elapsed_ms(const searcher *s) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int)((now.tv_sec - s->start.tv_sec) * 1000 + (now.tv_nsec - s->start.tv_nsec) / 1000000);
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
#define KEY_TAKES (1 << 24)
#define KEY_KILLER (1 << 22)

/* Ordering keys: the table's move, then what takes most, then the killers, then quiet moves
 * by how often they refuted lines before. */
static void order_keys(const searcher *s, const ks_position *pos, const ks_move *moves, int n, int *keys, int first,
                       int ply) {
  for (int i = 0; i < n; i++) {
    const ks_move *m = &moves[i];
    if (i == first) keys[i] = KEY_FIRST;
    else if (m->ncap || m->nshot || m->promote) keys[i] = KEY_TAKES + gain(pos, m);
    else if (ply < PLIES && same_move(m, &s->killers[ply][0])) keys[i] = KEY_KILLER + 1;
    else if (ply < PLIES && same_move(m, &s->killers[ply][1])) keys[i] = KEY_KILLER;
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
static void refuted_by(searcher *s, const ks_move *m, int depth, int ply) {
  if (m->ncap || m->nshot || m->promote) return;
  if (ply < PLIES && !same_move(m, &s->killers[ply][0])) {
    s->killers[ply][1] = s->killers[ply][0];
    s->killers[ply][0] = *m;
  }
  int *c = &s->cutoffs[m->from * KS_POINTS + m->to];
  if (*c < KEY_KILLER - 4096) *c += depth * depth;
}

/* Win scores count plies from the root; the table holds them counted from the position. */
static int to_table(int score, int ply) { return score > WIN - 1000 ? score + ply : score < -WIN + 1000 ? score - ply : score; }
static int from_table(int score, int ply) {
  return score > WIN - 1000 ? score - ply : score < -WIN + 1000 ? score + ply : score;
}

static int search(searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta);

/* Whether a move removes pieces (only such a move can defeat anyone). */
static bool removes(const ks_position *pos, const ks_move *m) {
  return m->ncap || m->nshot || ks_face_of(pos->board[m->from]) == KS_PF;
}

/* How many moves of a ply's list the search tries: the list holds KS_MAX_MOVES, and a set-up
 * position with more is searched on the first ones (all legal; the rest are not looked at). */
static int listed(int n) { return n < 0 ? 0 : n > KS_MAX_MOVES ? KS_MAX_MOVES : n; }

/* At the horizon: stand pat, or try the captures (two plies at most). */
static int quiesce(searcher *s, const ks_position *pos, int ply, int qdepth, int alpha, int beta) {
  const int stand = ks_evaluate(pos);
  if (stand >= beta || qdepth == 0 || stand <= -WIN || stand >= WIN) return stand;
  if (stand > alpha) alpha = stand;
  if (ply >= PLIES) return stand;
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  int *keys = s->keys + (size_t)ply * KS_MAX_MOVES;
  const int n = listed(ks_legal_moves(pos, moves, KS_MAX_MOVES));
  uint16_t *idx = s->idx + (size_t)ply * KS_MAX_MOVES;
  int ncaptures = 0;
  for (int i = 0; i < n; i++)
    if (moves[i].ncap || moves[i].nshot) {
      keys[i] = gain(pos, &moves[i]);
      idx[ncaptures++] = (uint16_t)i;
    }
  for (int i = 0; i < ncaptures; i++) {
    const ks_move *m = &moves[pick(idx, keys, i, ncaptures)];
    ks_position next = *pos;
    ks_play(&next, m);
    s->nodes++;
    const int score = -quiesce(s, &next, ply + 1, qdepth - 1, -beta, -alpha);
    if (score >= beta) return score;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

/* The score of one move of the search: a win at once, a return to a position of the game (a
 * step towards a draw by repetition), or the search below it. */
static int child(searcher *s, const ks_position *pos, const ks_position *next, const ks_move *m, int depth, int ply,
                 int alpha, int beta) {
  if (removes(pos, m) && ks_defeated(next, pos->to_move ^ 1)) return WIN - ply - 1;
  if (ply < 2 && repeats(s, next)) return 0;
  return -search(s, next, depth - 1, ply + 1, -beta, -alpha);
}

static int search(searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta) {
  if ((++s->nodes & 255) == 0 && elapsed_ms(s) >= s->ms) s->stopped = true;
  if (s->stopped) return 0;
  if (depth == 0 || ply >= PLIES - 2) return quiesce(s, pos, ply, 2, alpha, beta);
  const uint64_t key = ks_key(pos);
  tt_entry *entry = &s->tt[key & ((1u << TT_BITS) - 1)];
  int first = -1;
  if (entry->key == key) {
    first = entry->move - 1;
    const int v = from_table(entry->score, ply);
    if (entry->depth >= depth && (entry->bound == TT_EXACT || (entry->bound == TT_LOWER && v >= beta) ||
                                  (entry->bound == TT_UPPER && v <= alpha)))
      return v;
  }
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  int *keys = s->keys + (size_t)ply * KS_MAX_MOVES;
  const int n = listed(ks_legal_moves(pos, moves, KS_MAX_MOVES));
  if (n == 0) return -WIN + ply; /* no legal move loses */
  if (first >= n) first = -1;    /* a key collision */
  uint16_t *idx = s->idx + (size_t)ply * KS_MAX_MOVES;
  order_keys(s, pos, moves, n, keys, first, ply);
  for (int i = 0; i < n; i++) idx[i] = (uint16_t)i;
  const int alpha0 = alpha;
  int best = -WIN - 1, best_index = 0;
  for (int i = 0; i < n; i++) {
    const int k = pick(idx, keys, i, n);
    ks_position next = *pos;
    ks_play(&next, &moves[k]);
    int score;
    if (i == 0) {
      score = child(s, pos, &next, &moves[k], depth, ply, alpha, beta);
    } else { /* a null window first: does it beat the best so far at all? */
      score = child(s, pos, &next, &moves[k], depth, ply, alpha, alpha + 1);
      if (score > alpha && score < beta && !s->stopped) score = child(s, pos, &next, &moves[k], depth, ply, alpha, beta);
    }
    if (s->stopped) return 0;
    if (score > best) {
      best = score;
      best_index = k;
    }
    if (score > alpha) alpha = score;
    if (alpha >= beta) {
      refuted_by(s, &moves[k], depth, ply);
      break;
    }
  }
  entry->key = key;
  entry->score = to_table(best, ply);
  entry->depth = (int8_t)depth;
  entry->bound = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
  entry->move = (uint16_t)(best_index + 1);
  return best;
}

static void searcher_free(searcher *s) {
  free(s->stack);
  free(s->keys);
  free(s->idx);
  free(s->tt);
  free(s->cutoffs);
}

int ks_search(const ks_position *pos, const uint64_t *history, int nhistory, int ms, int max_depth, ks_move *best,
              ks_search_info *info) {
  searcher s;
  memset(&s, 0, sizeof s);
  s.history = history;
  s.nhistory = history ? nhistory : 0;
  clock_gettime(CLOCK_MONOTONIC, &s.start);
  s.ms = ms > 0 ? ms : 1;
  s.stack = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s.stack);
  s.keys = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s.keys);
  s.idx = malloc((size_t)PLIES * KS_MAX_MOVES * sizeof *s.idx);
  s.tt = calloc((size_t)1 << TT_BITS, sizeof *s.tt);
  s.cutoffs = calloc((size_t)KS_POINTS * KS_POINTS, sizeof *s.cutoffs);
  if (!s.stack || !s.keys || !s.idx || !s.tt || !s.cutoffs) {
    searcher_free(&s);
    return -1;
  }
  /* The root's list lives at ply 0 of the stack; the search below starts at ply 1. */
  ks_move *root = s.stack;
  int *keys = s.keys;
  uint16_t *idx = s.idx;
  const int n = listed(ks_legal_moves(pos, root, KS_MAX_MOVES));
  if (n == 0) {
    searcher_free(&s);
    return -1;
  }
  int chosen = 0, chosen_score = 0, finished = 0;
  const int deepest = max_depth > 0 && max_depth < PLIES - 4 ? max_depth : PLIES - 4;
  for (int depth = 1; depth <= deepest && !s.stopped; depth++) {
    order_keys(&s, pos, root, n, keys, depth > 1 ? chosen : -1, 0);
    for (int i = 0; i < n; i++) idx[i] = (uint16_t)i;
    int alpha = -WIN - 1, best_here = -1;
    for (int i = 0; i < n; i++) {
      const int k = pick(idx, keys, i, n);
      ks_position next = *pos;
      ks_play(&next, &root[k]);
      int score;
      if (i == 0) {
        score = child(&s, pos, &next, &root[k], depth, 0, alpha, WIN + 1);
      } else {
        score = child(&s, pos, &next, &root[k], depth, 0, alpha, alpha + 1);
        if (score > alpha && !s.stopped) score = child(&s, pos, &next, &root[k], depth, 0, alpha, WIN + 1);
      }
      if (s.stopped) break;
      if (score > alpha) {
        alpha = score;
        best_here = k;
      }
    }
    /* An unfinished iteration is trusted only for a move it proved better than the last
     * iteration's choice, which it searched first. */
    if (best_here < 0 || (s.stopped && depth > 1 && best_here == chosen)) break;
    if (s.stopped && depth > 1) {
      chosen = best_here;
      break;
    }
    chosen = best_here;
    chosen_score = alpha;
    finished = depth;
    if (alpha >= WIN - 100) break; /* a win found */
  }
  *best = root[chosen];
  if (info) {
    info->depth = finished;
    info->score = chosen_score;
    info->nodes = s.nodes;
    info->ms = elapsed_ms(&s);
  }
  searcher_free(&s);
  return 0;
}

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

/* The enemy's commanding pieces, the targets the army closes in on. */
static int targets_of(const ks_position *pos, int enemy, int *out) {
  int n = 0;
  for (int sq = 0; sq < KS_POINTS && n < 4; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) != enemy) continue;
    const ks_face f = ks_face_of(p);
    if (f == KS_G || f == KS_GV || f == KS_MA || f == KS_BN || f == KS_FW) out[n++] = sq;
  }
  return n;
}

static int side_score(const ks_position *pos, int color) {
  int score = 0, targets[4];
  const int ntargets = targets_of(pos, color ^ 1, targets);
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) != color) continue;
    const ks_face f = ks_face_of(p);
    score += value[f];
    /* closing in: every piece but the commanders gains as it nears the enemy's commanders */
    if (value[f] < 900 && ntargets) {
      int nearest = KS_SIZE;
      for (int t = 0; t < ntargets; t++) {
        const int dr = abs(sq / KS_SIZE - targets[t] / KS_SIZE), dc = abs(sq % KS_SIZE - targets[t] % KS_SIZE);
        const int d = dr > dc ? dr : dc;
        if (d < nearest) nearest = d;
      }
      score += (KS_SIZE - nearest) * 3;
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
  const int objective = ks_sole_objective(pos, color);
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
  if (ks_defeated(pos, me)) return -WIN;
  if (ks_defeated(pos, me ^ 1)) return WIN;
  return side_score(pos, me) - side_score(pos, me ^ 1);
}

typedef struct searcher {
  struct timespec start;
  int ms;
  long nodes;
  bool stopped;
  ks_move *stack; /* move lists, KS_MAX_MOVES per ply */
  int plies;
  const uint64_t *history; /* positions of the game so far: going back to one scores a draw */
  int nhistory;
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

/* How much a move takes, for ordering: the values of what it captures and shoots. */
static int gain(const ks_position *pos, const ks_move *m) {
  int g = 0;
  for (int i = 0; i < m->ncap; i++) g += value[ks_face_of(pos->board[m->cap[i]])];
  for (int i = 0; i < m->nshot; i++) g += value[ks_face_of(pos->board[m->shot[i]])];
  return g + (m->promote ? 100 : 0);
}

static void order(const ks_position *pos, ks_move *moves, int n, const ks_move *first) {
  int *keys = malloc((size_t)n * sizeof *keys);
  if (!keys) return;
  for (int i = 0; i < n; i++) {
    keys[i] = gain(pos, &moves[i]);
    if (first && memcmp(&moves[i], first, sizeof *first) == 0) keys[i] = 1 << 30;
  }
  for (int i = 1; i < n; i++) { /* insertion sort, highest first */
    const ks_move m = moves[i];
    const int k = keys[i];
    int j = i;
    while (j > 0 && keys[j - 1] < k) {
      moves[j] = moves[j - 1];
      keys[j] = keys[j - 1];
      j--;
    }
    moves[j] = m;
    keys[j] = k;
  }
  free(keys);
}

static int search(searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta);

/* Whether a move removes pieces (only such a move can defeat anyone). */
static bool removes(const ks_position *pos, const ks_move *m) {
  return m->ncap || m->nshot || ks_face_of(pos->board[m->from]) == KS_PF;
}

/* At the horizon: stand pat, or try the captures (two plies at most). */
static int quiesce(searcher *s, const ks_position *pos, int ply, int qdepth, int alpha, int beta) {
  const int stand = ks_evaluate(pos);
  if (stand >= beta || qdepth == 0 || stand <= -WIN || stand >= WIN) return stand;
  if (stand > alpha) alpha = stand;
  if (ply >= s->plies) return stand;
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  const int n = ks_legal_moves(pos, moves);
  order(pos, moves, n, NULL);
  for (int i = 0; i < n; i++) {
    if (!moves[i].ncap && !moves[i].nshot) break; /* ordered: the rest capture nothing */
    ks_position next = *pos;
    ks_play(&next, &moves[i]);
    s->nodes++;
    const int score = -quiesce(s, &next, ply + 1, qdepth - 1, -beta, -alpha);
    if (score >= beta) return score;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

static int search(searcher *s, const ks_position *pos, int depth, int ply, int alpha, int beta) {
  if ((++s->nodes & 255) == 0 && elapsed_ms(s) >= s->ms) s->stopped = true;
  if (s->stopped) return 0;
  if (depth == 0 || ply >= s->plies - 2) return quiesce(s, pos, ply, 2, alpha, beta);
  ks_move *moves = s->stack + (size_t)ply * KS_MAX_MOVES;
  const int n = ks_legal_moves(pos, moves);
  if (n == 0) return -WIN + ply; /* no legal move loses */
  order(pos, moves, n, NULL);
  int best = -WIN - 1;
  for (int i = 0; i < n; i++) {
    ks_position next = *pos;
    ks_play(&next, &moves[i]);
    int score;
    if (removes(pos, &moves[i]) && ks_defeated(&next, pos->to_move ^ 1))
      score = WIN - ply - 1; /* the move wins at once */
    else if (ply < 2 && repeats(s, &next))
      score = 0; /* back to a position of the game: a step towards a draw by repetition */
    else
      score = -search(s, &next, depth - 1, ply + 1, -beta, -alpha);
    if (s->stopped) return 0;
    if (score > best) best = score;
    if (score > alpha) alpha = score;
    if (alpha >= beta) break;
  }
  return best;
}

int ks_search(const ks_position *pos, const uint64_t *history, int nhistory, int ms, int max_depth, ks_move *best,
              ks_search_info *info) {
  searcher s;
  memset(&s, 0, sizeof s);
  s.history = history;
  s.nhistory = history ? nhistory : 0;
  clock_gettime(CLOCK_MONOTONIC, &s.start);
  s.ms = ms > 0 ? ms : 1;
  s.plies = 16;
  s.stack = malloc((size_t)s.plies * KS_MAX_MOVES * sizeof *s.stack);
  ks_move *root = malloc(KS_MAX_MOVES * sizeof *root);
  if (!s.stack || !root) {
    free(s.stack);
    free(root);
    return -1;
  }
  const int n = ks_legal_moves(pos, root);
  if (n == 0) {
    free(s.stack);
    free(root);
    return -1;
  }
  ks_move chosen = root[0];
  int chosen_score = 0, finished = 0;
  const int deepest = max_depth > 0 && max_depth < s.plies - 4 ? max_depth : s.plies - 4;
  for (int depth = 1; depth <= deepest && !s.stopped; depth++) {
    order(pos, root, n, depth > 1 ? &chosen : NULL);
    int alpha = -WIN - 1;
    ks_move best_here = root[0];
    for (int i = 0; i < n; i++) {
      ks_position next = *pos;
      ks_play(&next, &root[i]);
      int score;
      if (ks_defeated(&next, pos->to_move ^ 1))
        score = WIN;
      else if (repeats(&s, &next))
        score = 0;
      else
        score = -search(&s, &next, depth - 1, 1, -WIN - 1, -alpha);
      if (s.stopped) break;
      if (score > alpha) {
        alpha = score;
        best_here = root[i];
      }
    }
    if (s.stopped && depth > 1) break; /* an unfinished iteration is not trusted */
    chosen = best_here;
    chosen_score = alpha;
    finished = depth;
    if (alpha >= WIN - 100) break; /* a win found */
  }
  *best = chosen;
  if (info) {
    info->depth = finished;
    info->score = chosen_score;
    info->nodes = s.nodes;
    info->ms = elapsed_ms(&s);
  }
  free(s.stack);
  free(root);
  return 0;
}

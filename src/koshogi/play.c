/* Making a move (KOSHOGI-RULES.md 5.6): movement and captures, burning, promotion, the clerk's
 * effect, reversions; and perft. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int line_distance(int a, int b) {
  const int dr = abs(a / KS_SIZE - b / KS_SIZE), dc = abs(a % KS_SIZE - b % KS_SIZE);
  if (dr == 0 || dc == 0 || dr == dc) return dr > dc ? dr : dc;
  return 0; /* not on a common line */
}

/* Every write of a move goes through here, so that it can be recorded for ks_unmake_move. */
static void set(ks_position *pos, ks_undo *undo, int point, ks_piece piece) {
  if (pos->board[point] == piece) return;
  if (undo && undo->n < KS_UNDO_MAX) {
    undo->point[undo->n] = (uint16_t)point;
    undo->before[undo->n] = pos->board[point];
    undo->n++;
  }
  pos->board[point] = piece;
}

static void play(ks_position *pos, const ks_move *m, ks_undo *undo) {
  const ks_piece mover = pos->board[m->from];
  const int color = ks_color_of(mover);
  const ks_face face = ks_face_of(mover);
  /* 1. movement and captures */
  set(pos, undo, m->from, 0);
  for (int i = 0; i < m->ncap; i++) set(pos, undo, m->cap[i], 0);
  for (int i = 0; i < m->nshot; i++) set(pos, undo, m->shot[i], 0);
  set(pos, undo, m->to, mover);
  /* 2. burning: a piece that was a poison flame when the move began; friends too under
   * burn=both */
  if (face == KS_PF) {
    const int row = m->to / KS_SIZE, col = m->to % KS_SIZE;
    for (int dr = -1; dr <= 1; dr++)
      for (int dc = -1; dc <= 1; dc++) {
        const int r = row + dr, c = col + dc;
        if (!(dr || dc) || r < 0 || r >= KS_SIZE || c < 0 || c >= KS_SIZE) continue;
        const ks_piece p = pos->board[r * KS_SIZE + c];
        if (p && (pos->burn == KS_BURN_BOTH || ks_color_of(p) != color)) set(pos, undo, r * KS_SIZE + c, 0);
      }
  }
  /* 3. promotion of the moving piece (decided when the move was generated) */
  if (m->promote && ks__faces[face].promotes) {
    const ks_face promoted = (ks_face)ks__faces[face].promotes;
    set(pos, undo, m->to, ks_make(color, promoted));
    /* 4. the clerk's effect (5.4) */
    if (promoted == KS_MR)
      for (int sq = 0; sq < KS_POINTS; sq++) {
        const ks_piece p = pos->board[sq];
        if (!p) continue;
        if (ks_color_of(p) == color && ks_face_of(p) == KS_AG) set(pos, undo, sq, ks_make(color, KS_SK));
        if (ks_color_of(p) == color && ks_face_of(p) == KS_RG) set(pos, undo, sq, ks_make(color, KS_EW));
        if (ks_color_of(p) != color && ks_face_of(p) == KS_PF) set(pos, undo, sq, 0);
      }
  }
  /* 5. reversions (5.5): no Taoist priest, no thunderclap or flag waver; fogs near a light */
  for (int c = 0; c < 2; c++) {
    if (ks__priest_present(pos, c)) continue;
    for (int sq = 0; sq < KS_POINTS; sq++) {
      const ks_piece p = pos->board[sq];
      if (p && ks_color_of(p) == c && ks__revert_reason(ks_face_of(p)) == REVERT_NO_PRIEST)
        set(pos, undo, sq, ks_make(c, (ks_face)ks__faces[ks_face_of(p)].reverts));
    }
  }
  for (int sq = 0; sq < KS_POINTS; sq++) {
    if (!pos->board[sq] || ks__revert_reason(ks_face_of(pos->board[sq])) != REVERT_NEAR_LIGHT) continue;
    for (int l = 0; l < KS_POINTS; l++) {
      if (!pos->board[l] || !ks__turns_fogs_back(ks_face_of(pos->board[l]))) continue;
      const int d = line_distance(sq, l);
      if (d > 0 && d <= 5) {
        set(pos, undo, sq, ks_make(ks_color_of(pos->board[sq]), (ks_face)ks__faces[ks_face_of(pos->board[sq])].reverts));
        break;
      }
    }
  }
  pos->to_move = (uint8_t)(color ^ 1);
}

void ks_play(ks_position *pos, const ks_move *m) { play(pos, m, NULL); }

void ks_make_move(ks_position *pos, const ks_move *m, ks_undo *undo) {
  undo->n = 0;
  undo->to_move = pos->to_move;
  play(pos, m, undo);
}

void ks_unmake_move(ks_position *pos, const ks_undo *undo) {
  for (int i = undo->n - 1; i >= 0; i--) pos->board[undo->point[i]] = undo->before[i];
  pos->to_move = undo->to_move;
}

uint64_t ks_perft(const ks_position *pos, int depth) {
  if (depth <= 0) return 1;
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(pos, &moves);
  uint64_t total = 0;
  if (depth == 1) {
    total = (uint64_t)n;
  } else {
    for (int i = 0; i < n; i++) {
      ks_position next = *pos;
      ks_play(&next, &moves[i]);
      total += ks_perft(&next, depth - 1);
    }
  }
  free(moves);
  return total;
}

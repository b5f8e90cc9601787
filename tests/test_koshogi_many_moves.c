/* Ko shogi: a position with more legal moves than any fixed list holds. A holy light (+SM) on 10j
 * among enemy pawns has 3,585 moves: two priest jumps (KOSHOGI-RULES.md 4.5), each may be followed
 * by a shot at an adjacent enemy (4.6). The generator must list every one, and a caller's list that
 * is too short must be told so (ks_legal_moves counts past its capacity). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "koshogi/koshogi.h"

/* The light on 10j; White pawns on every point within 5 files and 5 ranks of it whose offset is
 * odd in file or rank, so that every point its jumps reach is empty and ringed by pawns; the
 * generals in far corners. Black to move. */
static void light_among_pawns(ks_position *pos) {
  memset(pos, 0, sizeof *pos);
  for (int dr = -5; dr <= 5; dr++)
    for (int df = -5; df <= 5; df++)
      if ((dr & 1) || (df & 1)) pos->board[ks_point(10 + df, 9 + dr)] = ks_make(KS_WHITE, KS_P);
  pos->board[ks_point(10, 9)] = ks_make(KS_BLACK, KS_IL);
  pos->board[ks_point(1, 18)] = ks_make(KS_BLACK, KS_G);
  pos->board[ks_point(19, 0)] = ks_make(KS_WHITE, KS_G);
}

/* A move identity (4.5) as a number: the destination and the set of shot points (no captures:
 * a priest displaces only priests). Shots are ordered so that the set, not the order, counts. */
static uint64_t identity(int to, int nshot, const int *shot) {
  int a = nshot > 0 ? shot[0] + 1 : 0, b = nshot > 1 ? shot[1] + 1 : 0;
  if (a > b) {
    const int t = a;
    a = b;
    b = t;
  }
  return ((uint64_t)to * 512 + (uint64_t)a) * 512 + (uint64_t)b;
}

/* The point (df files, dr ranks) from p, or -1 off the board; here "forward" plays no part. */
static int offset(int p, int df, int dr) {
  const int row = ks_rank(p) + dr, col = p % KS_SIZE + df;
  return row < 0 || row >= KS_SIZE || col < 0 || col >= KS_SIZE ? -1 : row * KS_SIZE + col;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* An independent count of the light's moves, by brute force over its paths: up to two jumps of
 * (2,0), (0,2) or (2,2) onto empty points (its own point is empty once it has left), each
 * optionally followed by a shot at an adjacent White piece not shot already. Writes the sorted
 * distinct identities into out and returns their number. */
static int count_light(const ks_position *pos, int from, uint64_t *out) {
  static const int jump[8][2] = {{2, 0}, {-2, 0}, {0, 2}, {0, -2}, {2, 2}, {2, -2}, {-2, 2}, {-2, -2}};
  int n = 0;
  for (int j1 = 0; j1 < 8; j1++) {
    const int a = offset(from, jump[j1][0], jump[j1][1]);
    if (a < 0 || pos->board[a]) continue;
    for (int s1 = -1; s1 < 8; s1++) { /* -1: no shot */
      int shot[2] = {-1, -1}, ns = 0;
      if (s1 >= 0) {
        const int t = offset(a, jump[s1][0] / 2, jump[s1][1] / 2);
        if (t < 0 || !pos->board[t] || ks_color_of(pos->board[t]) != KS_WHITE) continue;
        shot[ns++] = t;
      }
      out[n++] = identity(a, ns, shot);
      for (int j2 = 0; j2 < 8; j2++) {
        const int b = offset(a, jump[j2][0], jump[j2][1]);
        if (b < 0 || (pos->board[b] && b != from)) continue;
        out[n++] = identity(b, ns, shot);
        for (int s2 = 0; s2 < 8; s2++) {
          const int t = offset(b, jump[s2][0] / 2, jump[s2][1] / 2);
          if (t < 0 || t == shot[0] || !pos->board[t] || ks_color_of(pos->board[t]) != KS_WHITE) continue;
          shot[ns] = t;
          out[n++] = identity(b, ns + 1, shot);
        }
        shot[ns] = -1;
      }
    }
  }
  qsort(out, (size_t)n, sizeof *out, cmp_u64);
  int distinct = 0;
  for (int i = 0; i < n; i++)
    if (distinct == 0 || out[distinct - 1] != out[i]) out[distinct++] = out[i];
  return distinct;
}

Test(koshogi_many_moves, the_light_among_pawns_has_every_move) {
  ks_position pos;
  light_among_pawns(&pos);
  const int from = ks_point(10, 9);
  static uint64_t expected[8 * 9 * 9 * 9];
  const int nexpected = count_light(&pos, from, expected);
  cr_assert_eq(nexpected, 3585, "the independent count");
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(&pos, &moves);
  cr_assert_gt(n, 0);
  static uint64_t listed[8 * 9 * 9 * 9];
  int nlisted = 0;
  for (int i = 0; i < n; i++) {
    if (moves[i].from != from) continue;
    cr_assert_eq(moves[i].ncap, 0);
    cr_assert_lt(nlisted, (int)(sizeof listed / sizeof *listed));
    const int shots[2] = {moves[i].nshot > 0 ? moves[i].shot[0] : -1, moves[i].nshot > 1 ? moves[i].shot[1] : -1};
    listed[nlisted++] = identity(moves[i].to, moves[i].nshot, shots);
  }
  free(moves);
  qsort(listed, (size_t)nlisted, sizeof *listed, cmp_u64);
  cr_assert_eq(nlisted, nexpected, "the generator lists %d moves of the light", nlisted);
  for (int i = 0; i < nlisted; i++) cr_assert_eq(listed[i], expected[i], "move %d differs", i);
}

/* A list too short for the position is filled and the whole number returned, so the caller
 * knows; nothing is written past it. */
Test(koshogi_many_moves, a_short_list_is_told) {
  ks_position pos;
  light_among_pawns(&pos);
  ks_move *all = NULL;
  const int n = ks_legal_moves_alloc(&pos, &all);
  cr_assert_eq(n, 3585 + 3, "the light's moves and the general's three");
  ks_move some[11];
  memset(&some[10], 0xa5, sizeof some[10]);
  ks_move guard = some[10];
  cr_assert_eq(ks_legal_moves(&pos, some, 10), n);
  cr_assert(memcmp(some, all, 10 * sizeof *some) == 0, "the first ten, in order");
  cr_assert(memcmp(&some[10], &guard, sizeof guard) == 0, "nothing written past the capacity");
  static ks_move fixed[KS_MAX_MOVES];
  cr_assert_eq(ks_legal_moves(&pos, fixed, KS_MAX_MOVES), n);
  free(all);
}

/* Two lights among the pawns reach many of the same points with the same shots: the whole list
 * written at once (ks_moves_format) reads as each move written alone, origins included, and
 * every text reads back to its move. */
Test(koshogi_many_moves, two_lights_written_with_their_origins) {
  ks_position pos;
  light_among_pawns(&pos);
  pos.board[ks_point(10, 13)] = ks_make(KS_BLACK, KS_IL); /* 10n: its ring overlaps the first's */
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(&pos, &moves);
  cr_assert_gt(n, 4000);
  char(*texts)[KS_MOVE_TEXT] = malloc((size_t)n * sizeof *texts);
  cr_assert_eq(ks_moves_format(&pos, moves, n, texts), 0);
  int with_origin = 0;
  for (int i = 0; i < n; i++) with_origin += strncmp(texts[i], "+SM10", 5) == 0;
  /* a sample of the moves alone: writing or reading one move asks for the other light's moves */
  for (int i = 0; i < n; i += 97) {
    char text[KS_MOVE_TEXT], err[200];
    cr_assert_gt(ks_move_format(&pos, &moves[i], text, sizeof text), 0);
    cr_assert_str_eq(texts[i], text);
    ks_move back;
    cr_assert_eq(ks_move_parse(&pos, text, &back, err, sizeof err), 0, "%s: %s", text, err);
    cr_assert(back.from == moves[i].from && back.to == moves[i].to && back.nshot == moves[i].nshot, "%s", text);
  }
  cr_assert_gt(with_origin, 100, "moves of the lights written with their origin: %d", with_origin);
  free(texts);
  free(moves);
}

/* Ko shogi: the starting setup (KOSHOGI.md 2) and move generation checked by the counts of
 * KOSHOGI.md 4.11: 226 moves for Black, by piece type, and perft 2 = 50,940. */
#include <criterion/criterion.h>
#include <string.h>

#include "koshogi/koshogi.h"

/* KOSHOGI.md 2.2: 90 pieces of 34 types per side; White is Black rotated by 180°. */
Test(koshogi, starting_setup) {
  ks_position pos;
  ks_start(&pos);
  int count[2][KS_FACES] = {{0}};
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos.board[sq];
    if (!p) continue;
    count[ks_color_of(p)][ks_face_of(p)]++;
    const ks_piece rotated = pos.board[KS_POINTS - 1 - sq];
    cr_assert(rotated && ks_face_of(rotated) == ks_face_of(p) && ks_color_of(rotated) != ks_color_of(p));
  }
  static const struct {
    ks_face face;
    int n;
  } expected[] = {{KS_G, 1},  {KS_CL, 1}, {KS_SO, 1}, {KS_AC, 2}, {KS_WR, 2}, {KS_AI, 2}, {KS_ST, 2},
                  {KS_CS, 2}, {KS_EN, 2}, {KS_TP, 1}, {KS_SM, 1}, {KS_AG, 2}, {KS_MA, 1}, {KS_DR, 1},
                  {KS_BN, 1}, {KS_SN, 2}, {KS_MI, 2}, {KS_QM, 2}, {KS_CE, 2}, {KS_RG, 2}, {KS_FC, 1},
                  {KS_EL, 6}, {KS_LB, 4}, {KS_XB, 4}, {KS_CN, 4}, {KS_CM, 8}, {KS_CV, 2}, {KS_P, 6},
                  {KS_PU, 3}, {KS_SH, 6}, {KS_SU, 3}, {KS_CH, 8}, {KS_CU, 2}, {KS_VG, 1}};
  int total = 0, types = 0;
  for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
    cr_assert_eq(count[KS_BLACK][expected[i].face], expected[i].n, "%s", ks_face_id(expected[i].face));
    total += count[KS_BLACK][expected[i].face];
    types++;
  }
  cr_assert_eq(total, 90);
  cr_assert_eq(types, 34);
  /* a few points by name (KOSHOGI.md 2.3): White's general 10a, Taoist priest 18a, drum 9b, vanguard 10g */
  cr_assert_eq(pos.board[ks_point(10, 0)], ks_make(KS_WHITE, KS_G));
  cr_assert_eq(pos.board[ks_point(18, 0)], ks_make(KS_WHITE, KS_TP));
  cr_assert_eq(pos.board[ks_point(9, 1)], ks_make(KS_WHITE, KS_DR));
  cr_assert_eq(pos.board[ks_point(10, 6)], ks_make(KS_WHITE, KS_VG));
  cr_assert_eq(pos.board[ks_point(2, 18)], ks_make(KS_BLACK, KS_TP));
}

/* KOSHOGI.md 4.11: Black's 226 moves from the start, by piece type, the four passes and the
 * chariot units' captures on 19f and 1f with and without promotion. */
Test(koshogi, starting_moves_by_piece) {
  ks_position pos;
  ks_start(&pos);
  ks_move moves[KS_MAX_MOVES];
  const int n = ks_legal_moves(&pos, moves);
  cr_assert_eq(n, 226);
  int count[KS_FACES] = {0};
  for (int i = 0; i < n; i++) count[ks_face_of(pos.board[moves[i].from])]++;
  static const struct {
    ks_face face;
    int n;
  } expected[] = {{KS_AC, 2}, {KS_AI, 4}, {KS_CE, 2}, {KS_CH, 48}, {KS_CM, 16}, {KS_CN, 6},  {KS_CS, 4},  {KS_CU, 20},
                  {KS_CV, 4}, {KS_EL, 20}, {KS_EN, 2}, {KS_LB, 6},  {KS_MI, 4},  {KS_P, 18},  {KS_PU, 9},  {KS_QM, 4},
                  {KS_SH, 24}, {KS_SN, 2}, {KS_ST, 2}, {KS_SU, 12}, {KS_VG, 5},  {KS_WR, 4},  {KS_XB, 8}};
  for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
    cr_assert_eq(count[expected[i].face], expected[i].n, "%s: %d moves, not %d", ks_face_id(expected[i].face),
                 count[expected[i].face], expected[i].n);
  int passes = 0, promotions = 0;
  for (int i = 0; i < n; i++) {
    if (moves[i].from == moves[i].to && moves[i].ncap == 0 && moves[i].nshot == 0) passes++;
    if (moves[i].to == ks_point(19, 5) && moves[i].ncap == 1) promotions += moves[i].promote ? 1 : 0;
  }
  cr_assert_eq(passes, 4, "the passes WR-13s, WR-7s, CV-19p, CV-1p");
  cr_assert_eq(promotions, 1, "CUx19f+ once, CUx19f= once");
}

Test(koshogi, perft_2) {
  ks_position pos;
  ks_start(&pos);
  cr_assert_eq(ks_perft(&pos, 2), 50940);
}

/* Ko shogi help data (docs/KOSHOGI.md, "Help for every piece"): every face described and found by
 * its ID, the points it reaches alone on an empty board against counts from the words of
 * KOSHOGI-RULES.md 3.4, White's reach the rotation of Black's, and the powers of 4.4-5.5. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "koshogi/koshogi.h"

Test(koshogi_about, every_face_is_described_and_found) {
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    ks_face_about a;
    cr_assert_eq(ks_face_describe((ks_face)f, &a), 0);
    cr_assert_str_eq(a.id, ks_face_id((ks_face)f));
    cr_assert(a.name && a.name[0] && a.betza && a.betza[0] && a.entry && a.entry[0], "%s", a.id);
    cr_assert_str_eq(a.section, "3.4");
    char lower[8];
    snprintf(lower, sizeof lower, "%s", a.id);
    for (char *c = lower; *c; c++) *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    cr_assert_eq(ks_face_by_id(a.id), (ks_face)f, "%s", a.id);
    cr_assert_eq(ks_face_by_id(lower), (ks_face)f, "%s", lower);
  }
  ks_face_about a;
  cr_assert_eq(ks_face_describe(KS_EMPTY, &a), -1);
  cr_assert_eq(ks_face_describe(KS_FACES, &a), -1);
  cr_assert_eq(ks_face_by_id("QQ"), KS_EMPTY);
  cr_assert_eq(ks_face_by_id("C"), KS_EMPTY);
  cr_assert_eq(ks_face_by_id("CHX"), KS_EMPTY);
  cr_assert_eq(ks_face_by_id(""), KS_EMPTY);
  cr_assert_eq(ks_face_describe(KS_CH, &a), 0);
  cr_assert_eq(a.promotes, KS_PCH);
  cr_assert_eq(ks_face_describe(KS_PCH, &a), 0);
  cr_assert_eq(a.moves_as, KS_CU, "+CH moves as a chariot unit (D37)");
  cr_assert_eq(a.promotes, KS_EMPTY);
}

/* The number of points each face reaches from 10j, counted from the words of 3.4 on an empty
 * 19x19 board (10j is 9 points from every edge). */
Test(koshogi_about, reach_from_the_centre) {
  static const struct {
    ks_face face;
    int points;
  } counts[] = {
      {KS_G, 8},     /* one step in any direction */
      {KS_CH, 20},   /* 1 to 5 orthogonally */
      {KS_MI, 72},   /* any distance along 8 lines of 9 points */
      {KS_EL, 36},   /* 4 diagonals of 9 */
      {KS_CM, 8},    /* the 8 knight jumps */
      {KS_P, 3},     /* no drum on the board: back and sideways only (4.10) */
      {KS_VG, 5},    /* 1 to 5 forward */
      {KS_WR, 25},   /* two king steps: the 5x5 square, its own point included (a pass) */
      {KS_TP, 8},    /* one priest jump */
      {KS_IL, 25},   /* two priest jumps: the even points of the 9x9 square, and back */
      {KS_TC, 61},   /* up to five orthogonal steps: points within 5 by taxicab, its own included */
      {KS_FW, 21},   /* up to five steps along one line: 20, and back to its point */
      {KS_AG, 10},   /* 9 forward, 1 back */
  };
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    uint8_t reach[KS_POINTS];
    cr_assert_eq(ks_face_reach(counts[i].face, KS_BLACK, ks_point(10, 9), reach), counts[i].points, "%s",
                 ks_face_id(counts[i].face));
  }
  uint8_t reach[KS_POINTS];
  cr_assert_eq(ks_face_reach(KS_WR, KS_BLACK, ks_point(10, 9), reach), 25);
  cr_assert(reach[ks_point(10, 9)] & KS_REACH_PASS, "the wrestler may pass");
  cr_assert_eq(ks_face_reach(KS_CU, KS_BLACK, ks_point(10, 9), reach), 36);
  cr_assert(reach[ks_point(10, 0)] & KS_REACH_PROMOTES, "10a is in Black's zone");
  cr_assert(!(reach[ks_point(10, 18)] & KS_REACH_PROMOTES), "10s is not");
  cr_assert_eq(ks_face_reach(KS_EMPTY, KS_BLACK, 0, reach), -1);
  cr_assert_eq(ks_face_reach(KS_G, 2, 0, reach), -1);
  cr_assert_eq(ks_face_reach(KS_G, KS_BLACK, KS_POINTS, reach), -1);
}

/* White's reach from a point is Black's from the rotated point, rotated: every face, three points. */
Test(koshogi_about, white_is_black_rotated) {
  static const int points[] = {0, 9 * KS_SIZE + 9, 3 * KS_SIZE + 16};
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++)
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
      uint8_t black[KS_POINTS], white[KS_POINTS];
      const int nb = ks_face_reach((ks_face)f, KS_BLACK, points[i], black);
      const int nw = ks_face_reach((ks_face)f, KS_WHITE, KS_POINTS - 1 - points[i], white);
      cr_assert_eq(nb, nw, "%s", ks_face_id((ks_face)f));
      for (int p = 0; p < KS_POINTS; p++)
        cr_assert_eq(black[p], white[KS_POINTS - 1 - p], "%s at %d", ks_face_id((ks_face)f), p);
    }
}

static unsigned powers(ks_face face) {
  ks_face_about a;
  cr_assert_eq(ks_face_describe(face, &a), 0);
  return a.powers;
}

/* The powers, face by face, as 4.4-5.5 give them. */
Test(koshogi_about, powers) {
  const ks_face commanders[] = {KS_G, KS_GV, KS_MA, KS_BN, KS_FW};
  for (size_t i = 0; i < sizeof commanders / sizeof commanders[0]; i++)
    cr_assert(powers(commanders[i]) & KS_POWER_COMMANDS);
  cr_assert(!(powers(KS_DR) & KS_POWER_COMMANDS));
  cr_assert_eq(powers(KS_FC) & (KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS | KS_POWER_SHOOTS_OVER),
               KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS);
  cr_assert_eq(powers(KS_CN) & (KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS | KS_POWER_SHOOTS_OVER),
               KS_POWER_SHOOTS | KS_POWER_SHOOTS_OVER);
  cr_assert(powers(KS_LB) & KS_POWER_SHOOTS);
  cr_assert(!(powers(KS_CH) & KS_POWER_SHOOTS));
  cr_assert(powers(KS_PF) & KS_POWER_BURNS);
  cr_assert(!(powers(KS_EN) & KS_POWER_BURNS), "an engineer burns only once promoted");
  cr_assert(powers(KS_SK) & KS_POWER_NETS);
  cr_assert(powers(KS_EW) & KS_POWER_NETS);
  cr_assert(!(powers(KS_AG) & KS_POWER_NETS));
  cr_assert(powers(KS_P) & KS_POWER_NEEDS_DRUM);
  cr_assert(!(powers(KS_PP) & KS_POWER_NEEDS_DRUM), "promoted pawns are not affected (4.10)");
  cr_assert(powers(KS_DR) & KS_POWER_NEEDS_PRIEST);
  cr_assert(powers(KS_BN) & KS_POWER_NEEDS_PRIEST);
  cr_assert(powers(KS_TP) & KS_POWER_PRIEST);
  cr_assert(powers(KS_IL) & KS_POWER_MULTI_LEG);
  cr_assert(!(powers(KS_TP) & KS_POWER_MULTI_LEG), "one jump");
  cr_assert(powers(KS_CM) & KS_POWER_JUMPS);
  cr_assert(!(powers(KS_MI) & KS_POWER_JUMPS));
  cr_assert(powers(KS_FG) & KS_POWER_FOG);
  cr_assert(powers(KS_FG) & KS_POWER_REVERTS);
  cr_assert(powers(KS_TC) & KS_POWER_REVERTS);
  cr_assert(powers(KS_CL) & KS_POWER_CLERK);
  cr_assert(powers(KS_HF) & KS_POWER_FORTRESS);
  cr_assert(powers(KS_AC) & KS_POWER_STEP_MOVER);
  cr_assert(!(powers(KS_PAC) & KS_POWER_STEP_MOVER), "promoted: no longer a step mover (5.3)");
}

/* Every power a face can have reads as a line with its section; anything else is refused. */
Test(koshogi_about, every_power_has_a_line) {
  const char *text = NULL, *section = NULL;
  for (unsigned power = KS_POWER_COMMANDS; power <= KS_POWER_FOG; power <<= 1) {
    cr_assert_eq(ks_power_describe(power, &text, &section), 0, "power %#x", power);
    cr_assert(strlen(text) > 10 && (section[0] == '4' || section[0] == '5' || section[0] == '6'), "power %#x", power);
  }
  cr_assert_eq(ks_power_describe(KS_POWER_FOG << 1, &text, &section), -1);
  cr_assert_eq(ks_power_describe(KS_POWER_COMMANDS | KS_POWER_JUMPS, &text, &section), -1, "one power at a time");
  cr_assert(ks_power_describe(KS_POWER_SHOOTS, &text, &section) == 0 && strcmp(section, "4.6") == 0);
}

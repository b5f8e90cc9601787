/* The starting position (KOSHOGI-RULES.md 2) and the rule options. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Black's ranks m to s, files 19 to 1 (KOSHOGI-RULES.md 2.1); White is the 180° rotation. */
static const uint8_t black_setup[7][KS_SIZE] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, KS_VG, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {KS_CU, KS_SU, KS_CH, KS_SH, KS_CH, KS_SH, KS_CH, KS_SH, KS_CH, KS_SU, KS_CH, KS_SH, KS_CH, KS_SH, KS_CH, KS_SH,
     KS_CH, KS_SU, KS_CU},
    {0, KS_PU, 0, KS_P, 0, KS_P, 0, KS_P, 0, KS_PU, 0, KS_P, 0, KS_P, 0, KS_P, 0, KS_PU, 0},
    {KS_CV, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CM, 0, KS_CV},
    {KS_EL, KS_CN, KS_XB, KS_LB, KS_EL, KS_CN, KS_XB, KS_LB, KS_EL, KS_FC, KS_EL, KS_LB, KS_XB, KS_CN, KS_EL, KS_LB,
     KS_XB, KS_CN, KS_EL},
    {KS_RG, KS_CE, 0, KS_QM, 0, KS_MI, 0, KS_SN, KS_DR, KS_MA, KS_BN, KS_SN, 0, KS_MI, 0, KS_QM, 0, KS_CE, KS_RG},
    {KS_AG, KS_SM, KS_EN, KS_CS, KS_ST, KS_AI, KS_WR, KS_AC, KS_CL, KS_G, KS_SO, KS_AC, KS_WR, KS_AI, KS_ST, KS_CS,
     KS_EN, KS_TP, KS_AG},
};

void ks_start(ks_position *pos) {
  memset(pos, 0, sizeof *pos);
  for (int r = 0; r < 7; r++)
    for (int c = 0; c < KS_SIZE; c++) {
      const uint8_t face = black_setup[r][c];
      if (!face) continue;
      const int sq = (12 + r) * KS_SIZE + c;
      pos->board[sq] = ks_make(KS_BLACK, (ks_face)face);
      pos->board[KS_POINTS - 1 - sq] = ks_make(KS_WHITE, (ks_face)face);
    }
  pos->to_move = KS_BLACK;
}

int ks_rules_parse(const char *text, ks_position *pos, char *err, size_t size) {
  uint8_t burn = pos->burn;
  const char *p = text;
  while (*p) {
    const size_t len = strcspn(p, ",");
    if (len == 10 && strncmp(p, "burn=enemy", 10) == 0) burn = KS_BURN_ENEMY;
    else if (len == 9 && strncmp(p, "burn=both", 9) == 0) burn = KS_BURN_BOTH;
    else {
      snprintf(err, size, "unknown rule option \"%.*s\" (known: burn=both, burn=enemy)", (int)(len > 40 ? 40 : len), p);
      return -1;
    }
    p += len;
    if (*p == ',') p++;
  }
  pos->burn = burn;
  return 0;
}

void ks_rules_format(const ks_position *pos, char *buf, size_t size) {
  snprintf(buf, size, "%s", pos->burn == KS_BURN_ENEMY ? "burn=enemy" : "");
}

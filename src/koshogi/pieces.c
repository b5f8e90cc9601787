/* The faces of Ko shogi (KOSHOGI-RULES.md 3.2-3.4): movement, promotion, classes. */
#include "internal.h"

const int8_t ks__dir_dx[8] = {0, 0, -1, 1, -1, 1, -1, 1};
const int8_t ks__dir_df[8] = {1, -1, 0, 0, 1, 1, -1, -1};

/* id, kanji, promotes, reverts, type, step, range, range5, jumps, legs, shooter, range, shots,
 * step mover, nets */
#define FACE(f, id, kanji, promotes, type, step, range, range5, jumps, legs, shooter, srange, shots, stepper)        \
  [f] = {id, kanji, promotes, KS_EMPTY, type, step, range, range5, jumps, legs, shooter, srange, shots, stepper, 0}

const ks_face_info ks__faces[KS_FACES] = {
    /* the 34 starting types */
    FACE(KS_G, "G", "将", KS_EMPTY, KS_G, DK, 0, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_CL, "CL", "記室", KS_MR, KS_CL, DF, 0, 0, J_D, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_SO, "SO", "参謀", KS_BD, KS_SO, DW, 0, 0, J_A, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_AC, "AC", "親兵", KS_PAC, KS_AC, DF | D_F | DS, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_WR, "WR", "力士", KS_EMPTY, KS_WR, 0, 0, 0, 0, L_K2, S_NONE, 0, 0, 0),
    FACE(KS_AI, "AI", "舎人", KS_TB, KS_AI, DW | DFF, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_ST, "ST", "舎餘", KS_VB, KS_ST, DF | D_F, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_CS, "CS", "軍吏", KS_VC, KS_CS, DF | DV, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_EN, "EN", "軍匠", KS_PF, KS_EN, DFF | DV, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_TP, "TP", "高道", KS_FG, KS_TP, 0, 0, 0, 0, L_PRIEST, S_PRIEST, 1, 1, 0),
    FACE(KS_SM, "SM", "神僧", KS_IL, KS_SM, 0, 0, 0, 0, L_PRIEST, S_PRIEST, 1, 1, 0),
    FACE(KS_AG, "AG", "前衝", KS_SK, KS_AG, D_B, D_F, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_MA, "MA", "中軍", KS_GV, KS_MA, DK, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_DR, "DR", "鼓", KS_TC, KS_DR, DF | DS, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_BN, "BN", "旗", KS_FW, KS_BN, DF | DS, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_SN, "SN", "護兵", KS_PSN, KS_SN, DF | DS | D_B, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_MI, "MI", "千総", KS_DA, KS_MI, 0, DK, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_QM, "QM", "把総", KS_TW, KS_QM, DF, DW, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_CE, "CE", "百総", KS_WH, KS_CE, DW, DF, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_RG, "RG", "後衝", KS_EW, KS_RG, D_F, D_B, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_FC, "FC", "仏狼機", KS_CG, KS_FC, DF, 0, 0, 0, L_NONE, S_FRANKISH, 7, 2, 1),
    FACE(KS_EL, "EL", "象", KS_EMPTY, KS_EL, 0, DF, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_LB, "LB", "弓", KS_LC, KS_LB, DF, 0, 0, 0, L_NONE, S_BOW, 3, 1, 1),
    FACE(KS_XB, "XB", "弩", KS_XC, KS_XB, DF, 0, 0, 0, L_NONE, S_BOW, 5, 1, 1),
    FACE(KS_CN, "CN", "砲", KS_GC, KS_CN, DF, 0, 0, 0, L_NONE, S_CANNON, 5, 1, 1),
    FACE(KS_CM, "CM", "馬兵", KS_PCM, KS_CM, 0, 0, 0, J_N, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_CV, "CV", "騎総", KS_WG, KS_CV, 0, 0, 0, 0, L_N2_CLASS, S_NONE, 0, 0, 0),
    FACE(KS_P, "P", "歩兵", KS_PP, KS_P, DW, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_PU, "PU", "歩総", KS_CO, KS_PU, DS, DV, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_SH, "SH", "牌", KS_PSH, KS_SH, DF, 0, 0, 0, L_NONE, S_NONE, 0, 0, 1),
    FACE(KS_SU, "SU", "牌総", KS_HF, KS_SU, DF, DS, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_CH, "CH", "車", KS_PCH, KS_CH, 0, 0, DW, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_CU, "CU", "車総", KS_PCU, KS_CU, 0, DW, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_VG, "VG", "先鋒", KS_COV, KS_VG, 0, 0, D_F, 0, L_NONE, S_NONE, 0, 0, 0),
    /* the 23 promoted-only types (kanji marked † in KOSHOGI-RULES.md 3.3 are readings for display) */
    FACE(KS_MR, "+CL", "軍師", KS_EMPTY, KS_MR, 0, 0, 0, 0, L_FD2, S_NONE, 0, 0, 0),
    FACE(KS_BD, "+SO", "旗鼓", KS_EMPTY, KS_BD, 0, 0, 0, 0, L_WA2, S_NONE, 0, 0, 0),
    FACE(KS_TB, "+AI", "千戸", KS_EMPTY, KS_TB, DK, DV, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_VB, "+ST", "百戸", KS_EMPTY, KS_VB, DK, DS, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_VC, "+CS", "副使", KS_EMPTY, KS_VC, 0, DF | D_F, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PF, "+EN", "毒火", KS_EMPTY, KS_PF, DFF | DV, 0, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    [KS_FG] = {"+TP", "五里霧", KS_EMPTY, KS_TP, KS_FG, 0, 0, 0, 0, L_PRIEST2, S_PRIEST, 1, 1, 0, 0},
    FACE(KS_IL, "+SM", "聖燈", KS_EMPTY, KS_IL, 0, 0, 0, 0, L_PRIEST2, S_PRIEST, 1, 1, 0),
    [KS_SK] = {"+AG", "天網", KS_EMPTY, KS_EMPTY, KS_SK, D_B, DS | DFF, 0, 0, L_NONE, S_NONE, 0, 0, 0, DS | DFF},
    FACE(KS_GV, "+MA", "帥", KS_EMPTY, KS_GV, DK, 0, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    [KS_TC] = {"+DR", "霹靂", KS_EMPTY, KS_DR, KS_TC, 0, 0, 0, 0, L_W5, S_NONE, 0, 0, 0, 0},
    [KS_FW] = {"+BN", "招揺", KS_EMPTY, KS_BN, KS_FW, 0, 0, 0, 0, L_W5_LINE, S_NONE, 0, 0, 0, 0},
    FACE(KS_DA, "+MI", "龍驤", KS_EMPTY, KS_DA, 0, DK, 0, 0, L_K2, S_NONE, 0, 0, 0),
    FACE(KS_TW, "+QM", "虎翼", KS_EMPTY, KS_TW, 0, DW, 0, 0, L_F2, S_NONE, 0, 0, 0),
    FACE(KS_WH, "+CE", "鷹揚", KS_EMPTY, KS_WH, 0, DF, 0, 0, L_W2, S_NONE, 0, 0, 0),
    [KS_EW] = {"+RG", "地網", KS_EMPTY, KS_EMPTY, KS_EW, D_F, DS | DBF, 0, 0, L_NONE, S_NONE, 0, 0, 0, DS | DBF},
    FACE(KS_CG, "+FC", "神機車", KS_EMPTY, KS_CG, 0, 0, DW, 0, L_NONE, S_FRANKISH, 7, 2, 0),
    FACE(KS_LC, "+LB", "弓騎", KS_EMPTY, KS_LC, 0, 0, 0, J_N, L_NONE, S_BOW, 3, 1, 0),
    FACE(KS_XC, "+XB", "弩騎", KS_EMPTY, KS_XC, 0, 0, 0, J_N, L_NONE, S_BOW, 5, 1, 0),
    FACE(KS_GC, "+CN", "砲車", KS_EMPTY, KS_GC, 0, 0, DW, 0, L_NONE, S_CANNON, 5, 1, 0),
    FACE(KS_WG, "+CV", "天馬", KS_EMPTY, KS_WG, 0, 0, 0, 0, L_N2, S_NONE, 0, 0, 0),
    FACE(KS_CO, "+PU", "都司", KS_EMPTY, KS_CO, 0, DF | DV, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_HF, "+SU", "天塁", KS_EMPTY, KS_HF, 0, DS | DF, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    /* promoted faces that move as a starting type, and count as that type (D37) */
    FACE(KS_PAC, "+AC", "把総", KS_EMPTY, KS_QM, DF, DW, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PSN, "+SN", "百総", KS_EMPTY, KS_CE, DW, DF, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PCM, "+CM", "騎総", KS_EMPTY, KS_CV, 0, 0, 0, 0, L_N2_CLASS, S_NONE, 0, 0, 0),
    FACE(KS_PP, "+P", "歩総", KS_EMPTY, KS_PU, DS, DV, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PSH, "+SH", "牌総", KS_EMPTY, KS_SU, DF, DS, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PCH, "+CH", "車総", KS_EMPTY, KS_CU, 0, DW, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_PCU, "+CU", "千総", KS_EMPTY, KS_MI, 0, DK, 0, 0, L_NONE, S_NONE, 0, 0, 0),
    FACE(KS_COV, "+VG", "都司", KS_EMPTY, KS_CO, 0, DF | DV, 0, 0, L_NONE, S_NONE, 0, 0, 0),
};

const char *ks_face_id(ks_face face) { return face > KS_EMPTY && face < KS_FACES ? ks__faces[face].id : "?"; }

const char *ks_face_kanji(ks_face face) { return face > KS_EMPTY && face < KS_FACES ? ks__faces[face].kanji : "?"; }

ks_defeat_role ks__defeat_role(ks_face face) {
  switch (face) {
  case KS_G:
  case KS_GV:
    return ROLE_COMMANDS;
  case KS_MA:
    return ROLE_PAIR_MA;
  case KS_BN:
  case KS_FW:
    return ROLE_PAIR_BANNER; /* the banner counts in either face */
  default:
    return ROLE_NONE;
  }
}

ks_revert_reason ks__revert_reason(ks_face face) {
  if (face == KS_FG) return REVERT_NEAR_LIGHT;
  return face > KS_EMPTY && face < KS_FACES && ks__faces[face].reverts ? REVERT_NO_PRIEST : REVERT_NEVER;
}

bool ks__is_taoist_priest(ks_face face) { return face == KS_TP || face == KS_FG; }

bool ks__promotion_needs_priest(ks_face face) { return face == KS_DR || face == KS_BN; }

bool ks__priest_present(const ks_position *pos, int color) {
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (p && ks_color_of(p) == color && ks__is_taoist_priest(ks_face_of(p))) return true;
  }
  return false;
}

bool ks__turns_fogs_back(ks_face face) { return face == KS_IL; }

bool ks__forces_promotion(ks_face mover, ks_face captured) {
  if (captured == KS_G || captured == KS_GV || captured == KS_MA || captured == KS_BN || captured == KS_DR) return true;
  if (ks__faces[mover].step_mover && (captured == KS_WR || captured == KS_DA || captured == KS_FW || captured == KS_TC))
    return true;
  return mover == KS_CM && captured == KS_FC;
}

bool ks__can_shoot(int shooter, ks_face target, int distance) {
  const int t = ks__faces[target].type; /* a reused face counts as the type it moves as (D37) */
  const bool fog_near = t == KS_FG && distance <= 5;
  switch (shooter) {
  case S_BOW:
    return !(t == KS_SH || t == KS_SU || t == KS_HF || t == KS_CH || t == KS_CU || t == KS_GC || t == KS_CG || fog_near);
  case S_CANNON:
  case S_FRANKISH:
    return !(t == KS_SU || t == KS_HF || fog_near);
  default:
    return true; /* a priest shoots any adjacent enemy */
  }
}

/* What each face is and does, for help (docs/KOSHOGI.md, "Help for every piece"): its name and
 * Betza reminder (KOSHOGI-RULES.md 3.2 and 3.3), the entry of 3.4 that gives its rule, its powers
 * derived from the face table the move generator uses, and the points it reaches alone on an
 * empty board, found by the move generator itself. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The entries of KOSHOGI-RULES.md 3.4, in English and Japanese. */
static const struct {
  const char *text, *ja;
} groups[] = {
    {"Royal and command pieces", "将と指揮の駒"},
    {"The clerk and the staff officer", "記室と参謀"},
    {"Step movers of the first rank", "一段目の歩み駒"},
    {"Priest family (jumpers that capture by shooting)", "僧の一族（跳んで、撃って取る駒）"},
    {"Guards and nets", "衝と網"},
    {"Sentries and officers", "護兵と将校"},
    {"Shooters (bows and guns)", "射手（弓と砲）"},
    {"Horses", "馬"},
    {"Foot and line pieces", "歩兵と列の駒"},
};
enum { ROYAL, CLERK, STEPPERS, PRIESTS, GUARDS, OFFICERS, SHOOTERS, HORSES, FOOT };

typedef struct about_row {
  const char *name, *betza;
  uint8_t group;
} about_row;

static const about_row rows[KS_FACES] = {
    [KS_G] = {"General", "K", ROYAL},
    [KS_CL] = {"Clerk", "FD", CLERK},
    [KS_SO] = {"Staff officer", "WA", CLERK},
    [KS_AC] = {"Aide de camp", "FfsW", STEPPERS},
    [KS_WR] = {"Sumo wrestler", "KaK", OFFICERS},
    [KS_AI] = {"Aide", "WfF", STEPPERS},
    [KS_ST] = {"Staff", "FfW", STEPPERS},
    [KS_CS] = {"Chief of staff", "FvW", STEPPERS},
    [KS_EN] = {"Engineer", "fFvW", STEPPERS},
    [KS_TP] = {"Taoist priest", "t[mDA, xK] + cDA", PRIESTS},
    [KS_SM] = {"Spiritual monk", "t[mDA, xK] + cDA", PRIESTS},
    [KS_AG] = {"Advance guard", "fRbW", GUARDS},
    [KS_MA] = {"Middle troop", "K", ROYAL},
    [KS_DR] = {"Drum", "FsW", ROYAL},
    [KS_BN] = {"Banner", "FsW", ROYAL},
    [KS_SN] = {"Sentry", "FsbW", OFFICERS},
    [KS_MI] = {"Millenary", "Q", OFFICERS},
    [KS_QM] = {"Quartermaster", "RF", OFFICERS},
    [KS_CE] = {"Centuria", "BW", OFFICERS},
    [KS_RG] = {"Rear guard", "bRfW", GUARDS},
    [KS_FC] = {"Frankish cannon", "F + t[mF, x2Q7]", SHOOTERS},
    [KS_EL] = {"Elephant", "B", OFFICERS},
    [KS_LB] = {"Longbow", "F + t[mF, xQ3]", SHOOTERS},
    [KS_XB] = {"Crossbow", "F + t[mF, xQ5]", SHOOTERS},
    [KS_CN] = {"Cannon", "F + t[mF, xpQ5]", SHOOTERS},
    [KS_CM] = {"Cavalryman", "N", HORSES},
    [KS_CV] = {"Cavalry", "N + a restricted second N", HORSES},
    [KS_P] = {"Pawn", "W (no fW once its own drum is gone)", FOOT},
    [KS_PU] = {"Patrol unit", "vRsW", FOOT},
    [KS_SH] = {"Shield", "F", FOOT},
    [KS_SU] = {"Shield unit", "sRF", FOOT},
    [KS_CH] = {"Chariot", "R5", FOOT},
    [KS_CU] = {"Chariot unit", "R", FOOT},
    [KS_VG] = {"Vanguard", "fR5", FOOT},
    [KS_MR] = {"Master at arms", "(FD)a(FD)", CLERK},
    [KS_BD] = {"Banner and drums", "(WA)a(WA)", CLERK},
    [KS_TB] = {"Town brigade", "vRK", STEPPERS},
    [KS_VB] = {"Village brigade", "sRK", STEPPERS},
    [KS_VC] = {"Vice commander", "BfR", STEPPERS},
    [KS_PF] = {"Poison flame", "fFvW, and burns", STEPPERS},
    [KS_FG] = {"Five-li fog", "two Taoist-priest moves", PRIESTS},
    [KS_IL] = {"Immaculate light", "two Taoist-priest moves", PRIESTS},
    [KS_SK] = {"Skyward net", "sRfBbW, and immobilizes", GUARDS},
    [KS_GV] = {"Governor", "K", ROYAL},
    [KS_TC] = {"Thunderclap", "a5W", ROYAL},
    [KS_FW] = {"Flag waver", "a5vW", ROYAL},
    [KS_DA] = {"Dragon ascending", "Q + KaK", OFFICERS},
    [KS_TW] = {"Tiger wing", "R + FaF", OFFICERS},
    [KS_WH] = {"War hawk", "B + WaW", OFFICERS},
    [KS_EW] = {"Earthward net", "sRbBfW, and immobilizes", GUARDS},
    [KS_CG] = {"Chariot of the gods", "R5 + t[mR5, x2Q7]", SHOOTERS},
    [KS_LC] = {"Longbow cavalryman", "N + t[mN, xQ3]", SHOOTERS},
    [KS_XC] = {"Crossbow cavalryman", "N + t[mN, xQ5]", SHOOTERS},
    [KS_GC] = {"Gun carriage", "R5 + t[mR5, xpQ5]", SHOOTERS},
    [KS_WG] = {"Winged horse", "NaN", HORSES},
    [KS_CO] = {"Commissar", "BvR", FOOT},
    [KS_HF] = {"Heavenly fortress", "sRB", FOOT},
    [KS_PAC] = {"Promoted aide de camp (moves as a quartermaster)", "RF", OFFICERS},
    [KS_PSN] = {"Promoted sentry (moves as a centuria)", "BW", OFFICERS},
    [KS_PCM] = {"Promoted cavalryman (moves as a cavalry)", "N + a restricted second N", HORSES},
    [KS_PP] = {"Promoted pawn (moves as a patrol unit)", "vRsW", FOOT},
    [KS_PSH] = {"Promoted shield (moves as a shield unit)", "sRF", FOOT},
    [KS_PCH] = {"Promoted chariot (moves as a chariot unit)", "R", FOOT},
    [KS_PCU] = {"Promoted chariot unit (moves as a millenary)", "Q", OFFICERS},
    [KS_COV] = {"Commissar (the promoted vanguard)", "BvR", FOOT},
};

/* The powers of a face, from the same tables the engine plays by (internal.h). */
static unsigned powers_of(ks_face face) {
  const ks_face_info *fi = &ks__faces[face];
  unsigned p = 0;
  const ks_defeat_role role = ks__defeat_role(face);
  if (role == ROLE_COMMANDS) p |= KS_POWER_COMMANDS;
  if (role == ROLE_PAIR_MA) p |= KS_POWER_PAIRS_WITH_BANNER;
  if (role == ROLE_PAIR_BANNER) p |= KS_POWER_PAIRS_WITH_MA;
  if (fi->jumps || fi->legs == L_PRIEST || fi->legs == L_PRIEST2 || fi->legs == L_N2 || fi->legs == L_N2_CLASS ||
      fi->legs == L_FD2 || fi->legs == L_WA2)
    p |= KS_POWER_JUMPS;
  if (fi->legs && fi->legs != L_PRIEST) p |= KS_POWER_MULTI_LEG;
  if (fi->shooter && fi->shooter != S_PRIEST) p |= KS_POWER_SHOOTS;
  if (fi->shooter == S_CANNON) p |= KS_POWER_SHOOTS_OVER;
  if (fi->shots > 1 && fi->shooter != S_PRIEST) p |= KS_POWER_TWO_SHOTS;
  if (fi->shooter == S_PRIEST) p |= KS_POWER_PRIEST | KS_POWER_PRIEST_SHOTS;
  if (face == KS_PF) p |= KS_POWER_BURNS;
  if (fi->nets) p |= KS_POWER_NETS;
  if (face == KS_P) p |= KS_POWER_NEEDS_DRUM;
  if (ks__promotion_needs_priest(face)) p |= KS_POWER_NEEDS_PRIEST;
  if (fi->step_mover) p |= KS_POWER_STEP_MOVER;
  if (ks__revert_reason(face) == REVERT_NO_PRIEST) p |= KS_POWER_REVERTS_WITHOUT_PRIEST;
  if (ks__revert_reason(face) == REVERT_NEAR_LIGHT) p |= KS_POWER_REVERTS_NEAR_LIGHT;
  if (ks__is_taoist_priest(face)) p |= KS_POWER_KEEPS_DRUM_BANNER;
  if (ks__turns_fogs_back(face)) p |= KS_POWER_TURNS_FOGS_BACK;
  if (face == KS_CL) p |= KS_POWER_CLERK;
  if (face == KS_HF) p |= KS_POWER_FORTRESS;
  return p;
}

/* What each power means in a line, in English and in Japanese, and the section of KOSHOGI-RULES.md
 * that gives it: the help of the terminal and of the browser both read it. */
static const struct {
  unsigned power;
  const char *text, *ja, *section;
} power_lines[] = {
    {KS_POWER_COMMANDS,
     "a commanding piece (G or +MA): a player with neither, and without the pair of an unpromoted MA and a "
     "banner, is defeated",
     "指揮駒（将か帥）：どちらもなく、成っていない中軍と旗の組もない側は負け", "6.1"},
    {KS_POWER_JUMPS,
     "jumps: whatever stands on the points it crosses does not matter",
     "跳ぶ：通り道の点にある駒に関わらない", "4.4"},
    {KS_POWER_MULTI_LEG,
     "moves in legs: may capture on each, and may end where it began (a pass)",
     "何段かに分けて動く：各段で取れ、出た点で終えること（パス）もできる", "4.5"},
    {KS_POWER_SHOOTS,
     "shoots: after a move that captured nothing, removes an enemy from afar",
     "撃つ：何も取らずに動いた後、離れた敵の駒を取り除く", "4.6"},
    {KS_POWER_SHOOTS_OVER,
     "its shot goes over the pieces between",
     "間にある駒を越えて撃つ", "4.6"},
    {KS_POWER_TWO_SHOTS,
     "fires two shots, the second judged after the first",
     "二度撃つ：二発目は一発目の後で決める", "4.6"},
    {KS_POWER_PRIEST,
     "a priest: lands only on empty points or on enemy priests",
     "僧：空いた点か敵の僧の上にだけ着く", "4.7"},
    {KS_POWER_BURNS,
     "burns the 8 points around where it ends (friends too, unless burn=enemy)",
     "止まった点の周り8点を焼く（設定によっては味方も）", "4.8"},
    {KS_POWER_NETS,
     "a net: the first enemy on each of its ranging lines is frozen",
     "網：網の筋ごとに最初の敵の駒を動けなくする", "4.9"},
    {KS_POWER_NEEDS_DRUM,
     "steps forward only while its drum (DR or +DR) is on the board: not here",
     "自分の鼓（鼓か霹靂）が盤上にある間だけ前に進める：この図にはない", "4.10"},
    {KS_POWER_NEEDS_PRIEST,
     "promotes only while its Taoist priest (TP or +TP) is on the board",
     "自分の高道（高道か五里霧）が盤上にある間だけ成れる", "5.1"},
    {KS_POWER_STEP_MOVER,
     "a step mover: capturing a WR, +MI, +BN or +DR promotes it on the spot",
     "歩み駒：力士・龍驤・招揺・霹靂を取るとその場で成る", "5.3"},
    {KS_POWER_REVERTS_WITHOUT_PRIEST,
     "turns back to its unpromoted face when its side's Taoist priest (TP or +TP) is gone",
     "自分の側の高道（高道か五里霧）がいなくなると、成る前の面に戻る", "5.5"},
    {KS_POWER_CLERK,
     "when it promotes, its guards promote and every enemy poison flame dies",
     "成ると自分の護衛が成り、敵の毒火がすべて消える", "5.4"},
    {KS_POWER_FORTRESS,
     "CH, CU, +CN and +FC (and faces moving as them) cannot land on it",
     "車・車総・砲車・神機車（とその動きの駒）はここに着けない", "4.7"},
    {KS_POWER_REVERTS_NEAR_LIGHT,
     "turns back into a Taoist priest when an immaculate light (+SM) of either side stands within 5 points "
     "of it on a line",
     "敵味方を問わず、聖燈が一直線上の5点以内にいると高道に戻る", "5.5"},
    {KS_POWER_PAIRS_WITH_BANNER,
     "not a commanding piece, but while unpromoted it keeps its side undefeated together with a banner (BN "
     "or +BN), once G and +MA are gone",
     "指揮駒ではないが、成っていない間は、将と帥を失った後も旗（旗か招揺）と揃っていれば負けとならない", "6.1"},
    {KS_POWER_PAIRS_WITH_MA,
     "not a commanding piece, but it keeps its side undefeated together with an unpromoted middle troop (MA), "
     "once G and +MA are gone",
     "指揮駒ではないが、将と帥を失った後も、成っていない中軍と揃っていれば負けとならない", "6.1"},
    {KS_POWER_PRIEST_SHOTS,
     "shoots: after each jump that lands on an empty point, may remove one adjacent enemy (one shot a jump)",
     "撃つ：空いた点に跳び着くたびに、隣の敵の駒を一つ取り除ける（一跳びに一発）", "4.6"},
    {KS_POWER_KEEPS_DRUM_BANNER,
     "its side's Taoist priest (as TP or +TP): while it is on the board the drum and banner may promote; once "
     "it is gone they cannot, and +DR and +BN turn back",
     "自分の側の高道（高道か五里霧として）：盤上にある間は鼓と旗が成れる。いなくなると成れず、霹靂と招揺は元に戻る", "5.5"},
    {KS_POWER_TURNS_FOGS_BACK,
     "turns back into Taoist priests the five-li fogs (+TP) of either side within 5 points of it on a line",
     "敵味方を問わず、一直線上の5点以内にいる五里霧を高道に戻す", "5.5"},
};

/* A list of face IDs being written, in English ("G, +MA") and in Japanese ("G、+MA"). */
typedef struct face_list {
  char en[256], ja[256];
} face_list;

static void list_add(face_list *list, ks_face face) {
  size_t len = strlen(list->en);
  snprintf(list->en + len, sizeof list->en - len, "%s%s", len ? ", " : "", ks__faces[face].id);
  len = strlen(list->ja);
  snprintf(list->ja + len, sizeof list->ja - len, "%s%s", len ? "、" : "", ks__faces[face].id);
}

/* The distances from 1 to its range at which a shooter face can never shoot the target: 0 for
 * none, the range for all, else the farthest blocked one (blocked distances come first: 4.6). */
static int blocked_up_to(ks_face shooter, ks_face target) {
  const ks_face_info *fi = &ks__faces[shooter];
  int blocked = 0;
  for (int d = 1; d <= fi->shot_range; d++)
    if (!ks__can_shoot(fi->shooter, target, d)) blocked = d;
  return blocked;
}

/* Appends to a note's text, in one language, what printf would print. */
static void note_add(char *text, size_t size, const char *format, ...) {
  const size_t len = strlen(text);
  va_list args;
  va_start(args, format);
  vsnprintf(text + len, size - len, format, args);
  va_end(args);
}

/* A note of 4.6: the faces `never` can never take (or that can never take the face), and the
 * faces `near` only from more than near_distance points; one wording for each language. */
static void shot_note(ks_face_note *note, bool as_target, const face_list *never, const face_list *near,
                      int near_distance) {
  note->section = "4.6";
  note->text[0] = note->text_ja[0] = '\0';
  char *en = note->text, *ja = note->text_ja;
  const size_t en_size = sizeof note->text, ja_size = sizeof note->text_ja;
  if (as_target) {
    note_add(en, en_size, "safe from shots:");
    note_add(ja, ja_size, "射撃に強い：");
    if (never->en[0]) {
      note_add(en, en_size, " no shot of %s can take it", never->en);
      note_add(ja, ja_size, "%sの射撃では取られない", never->ja);
    }
    if (near->en[0]) {
      note_add(en, en_size, "%s a shot of %s takes it only from more than %d points", never->en[0] ? ";" : "",
               near->en, near_distance);
      note_add(ja, ja_size, "%s%sの射撃では%d点より遠くからしか取られない", never->en[0] ? "。" : "", near->ja,
               near_distance);
    }
  } else {
    if (never->en[0]) {
      note_add(en, en_size, "its shots cannot take: %s", never->en);
      note_add(ja, ja_size, "この駒の射撃では取れない駒：%s", never->ja);
    }
    if (near->en[0]) {
      note_add(en, en_size, "%sits shots take %s only from more than %d points", never->en[0] ? "; " : "", near->en,
               near_distance);
      note_add(ja, ja_size, "%s%sはこの駒の射撃で%d点より遠くからしか取れない", never->en[0] ? "。" : "", near->ja,
               near_distance);
    }
  }
}

/* The lines of 4.6 for one face, as a target and as a shooter. */
static int shot_notes(ks_face face, ks_face_note *notes) {
  int n = 0;
  face_list never = {0}, near = {0};
  int near_distance = 0;
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) { /* as a target */
    if (!ks__faces[f].shooter) continue;
    const int blocked = blocked_up_to((ks_face)f, face);
    if (blocked == ks__faces[f].shot_range) list_add(&never, (ks_face)f);
    else if (blocked) list_add(&near, (ks_face)f), near_distance = blocked;
  }
  if (never.en[0] || near.en[0]) shot_note(&notes[n++], true, &never, &near, near_distance);
  const ks_face_info *fi = &ks__faces[face];
  if (!fi->shooter) return n;
  memset(&never, 0, sizeof never);
  memset(&near, 0, sizeof near);
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) { /* as a shooter */
    const int blocked = blocked_up_to(face, (ks_face)f);
    if (blocked == fi->shot_range) list_add(&never, (ks_face)f);
    else if (blocked) list_add(&near, (ks_face)f), near_distance = blocked;
  }
  if (never.en[0] || near.en[0]) shot_note(&notes[n++], false, &never, &near, near_distance);
  return n;
}

int ks_face_notes(ks_face face, ks_face_note notes[KS_MAX_FACE_NOTES]) {
  if (face <= KS_EMPTY || face >= KS_FACES) return -1;
  int n = 0;
  if (ks__faces[face].promotes != KS_EMPTY) {
    face_list forced = {0};
    for (int f = KS_EMPTY + 1; f < KS_FACES; f++)
      if (ks__forces_promotion(face, (ks_face)f)) list_add(&forced, (ks_face)f);
    ks_face_note *note = &notes[n++];
    note->section = "5.3";
    snprintf(note->text, sizeof note->text, "must promote, wherever it is, on capturing or shooting any of: %s",
             forced.en);
    snprintf(note->text_ja, sizeof note->text_ja, "どこにいても、次のどれかを取るか撃つと必ず成る：%s", forced.ja);
  }
  return n + shot_notes(face, notes + n);
}

/* Looks the power up in the table above. */
int ks_power_describe(unsigned power, const char **text, const char **text_ja, const char **section) {
  for (size_t i = 0; i < sizeof power_lines / sizeof power_lines[0]; i++)
    if (power_lines[i].power == power) {
      *text = power_lines[i].text;
      *text_ja = power_lines[i].ja;
      *section = power_lines[i].section;
      return 0;
    }
  return -1;
}

/* Gathers a face's help from the tables above and the move generator's face table. */
int ks_face_describe(ks_face face, ks_face_about *out) {
  if (face <= KS_EMPTY || face >= KS_FACES) return -1;
  const ks_face_info *fi = &ks__faces[face];
  memset(out, 0, sizeof *out);
  out->face = face;
  out->id = fi->id;
  out->kanji = fi->kanji;
  out->name = rows[face].name;
  out->betza = rows[face].betza;
  out->promotes = (ks_face)fi->promotes;
  out->reverts = (ks_face)fi->reverts;
  out->moves_as = (ks_face)fi->type;
  out->powers = powers_of(face);
  out->shot_range = fi->shooter ? fi->shot_range : 0;
  out->shots = fi->shooter ? (fi->legs == L_PRIEST2 ? 2 : fi->shots) : 0;
  out->section = "3.4";
  out->entry = groups[rows[face].group].text;
  out->entry_ja = groups[rows[face].group].ja;
  return 0;
}

/* Compares the ID with every face's, letters in either case. */
ks_face ks_face_by_id(const char *id) {
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    const char *known = ks__faces[f].id;
    size_t i = 0;
    while (known[i] && id[i] && toupper((unsigned char)id[i]) == known[i]) i++;
    if (!known[i] && !id[i]) return (ks_face)f;
  }
  return KS_EMPTY;
}

/* Lists the legal moves of the face alone on an empty board and marks where they end. */
int ks_face_reach(ks_face face, int color, int point, uint8_t reach[KS_POINTS]) {
  memset(reach, 0, KS_POINTS);
  if (face <= KS_EMPTY || face >= KS_FACES || point < 0 || point >= KS_POINTS || (color != KS_BLACK && color != KS_WHITE))
    return -1;
  ks_position pos;
  memset(&pos, 0, sizeof pos);
  pos.board[point] = ks_make(color, face);
  pos.to_move = (uint8_t)color;
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(&pos, &moves);
  if (n < 0) return -1;
  int points = 0;
  for (int i = 0; i < n; i++) {
    uint8_t *r = &reach[moves[i].to];
    if (!*r) points++;
    *r |= (uint8_t)(moves[i].to == point ? KS_REACH_PASS : KS_REACH_MOVE);
    if (moves[i].promote) *r |= KS_REACH_PROMOTES;
  }
  free(moves);
  return points;
}

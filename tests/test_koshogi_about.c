/* Ko shogi help data (docs/KOSHOGI.md, "Help for every piece"): every face described and found by
 * its ID, the points it reaches alone on an empty board against counts from the words of
 * KOSHOGI-RULES.md 3.4, White's reach the rotation of Black's, and the powers of 4.4-5.5. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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
  /* 6.1 names two commanding pieces; MA and the banner keep a side alive only as a pair */
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++)
    cr_assert_eq((powers((ks_face)f) & KS_POWER_COMMANDS) != 0, f == KS_G || f == KS_GV, "%s", ks_face_id((ks_face)f));
  cr_assert(powers(KS_MA) & KS_POWER_PAIRS_WITH_BANNER);
  cr_assert(powers(KS_BN) & KS_POWER_PAIRS_WITH_MA);
  cr_assert(powers(KS_FW) & KS_POWER_PAIRS_WITH_MA);
  cr_assert(!(powers(KS_GV) & KS_POWER_PAIRS_WITH_BANNER), "only the unpromoted MA makes the pair");
  cr_assert_eq(powers(KS_FC) & (KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS | KS_POWER_SHOOTS_OVER),
               KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS);
  cr_assert_eq(powers(KS_CN) & (KS_POWER_SHOOTS | KS_POWER_TWO_SHOTS | KS_POWER_SHOOTS_OVER),
               KS_POWER_SHOOTS | KS_POWER_SHOOTS_OVER);
  cr_assert(powers(KS_LB) & KS_POWER_SHOOTS);
  cr_assert_eq(powers(KS_FG) & (KS_POWER_SHOOTS | KS_POWER_PRIEST_SHOTS), KS_POWER_PRIEST_SHOTS,
               "a priest shoots after each jump, not only after a move that captured nothing (4.6)");
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
  cr_assert_eq(powers(KS_FG) & (KS_POWER_REVERTS_NEAR_LIGHT | KS_POWER_REVERTS_WITHOUT_PRIEST),
               KS_POWER_REVERTS_NEAR_LIGHT);
  cr_assert_eq(powers(KS_TC) & (KS_POWER_REVERTS_NEAR_LIGHT | KS_POWER_REVERTS_WITHOUT_PRIEST),
               KS_POWER_REVERTS_WITHOUT_PRIEST, "the fog is no reason for the thunderclap (5.5)");
  cr_assert_eq(powers(KS_FW) & (KS_POWER_REVERTS_NEAR_LIGHT | KS_POWER_REVERTS_WITHOUT_PRIEST),
               KS_POWER_REVERTS_WITHOUT_PRIEST, "nor for the flag waver");
  cr_assert(powers(KS_TP) & KS_POWER_KEEPS_DRUM_BANNER, "TP's effect on drum and banner (5.5)");
  cr_assert(powers(KS_CL) & KS_POWER_CLERK);
  cr_assert(powers(KS_HF) & KS_POWER_FORTRESS);
  cr_assert(powers(KS_AC) & KS_POWER_STEP_MOVER);
  cr_assert(!(powers(KS_PAC) & KS_POWER_STEP_MOVER), "promoted: no longer a step mover (5.3)");
}

/* Every power a face can have reads as a line with its section; anything else is refused. */
Test(koshogi_about, every_power_has_a_line) {
  const char *text = NULL, *text_ja = NULL, *section = NULL;
  for (unsigned power = KS_POWER_COMMANDS; power <= KS_POWER_LAST; power <<= 1) {
    cr_assert_eq(ks_power_describe(power, &text, &text_ja, &section), 0, "power %#x", power);
    cr_assert(strlen(text) > 10 && (section[0] == '4' || section[0] == '5' || section[0] == '6'), "power %#x", power);
  }
  cr_assert_eq(ks_power_describe(KS_POWER_LAST << 1, &text, &text_ja, &section), -1);
  cr_assert_eq(ks_power_describe(KS_POWER_COMMANDS | KS_POWER_JUMPS, &text, &text_ja, &section), -1,
               "one power at a time");
  cr_assert(ks_power_describe(KS_POWER_SHOOTS, &text, &text_ja, &section) == 0 && strcmp(section, "4.6") == 0);
}

/* Whether a line of help is Japanese: not empty, and its only Latin letters are piece IDs (the
 * notation's, docs/KOSHOGI-RULES.md 7), as the page's Chromium test also demands. */
static bool is_japanese(const char *text) {
  if (!text || !text[0]) return false;
  bool japanese = false;
  for (const char *p = text; *p;) {
    if ((unsigned char)*p >= 0x80) japanese = true;
    size_t letters = 0;
    while ((p[letters] >= 'A' && p[letters] <= 'Z') || (p[letters] >= 'a' && p[letters] <= 'z')) letters++;
    if (letters == 0) {
      p++;
      continue;
    }
    char word[8] = "";
    if (letters >= sizeof word) return false;
    memcpy(word, p, letters);
    bool upper = true;
    for (size_t i = 0; i < letters; i++) upper = upper && word[i] >= 'A' && word[i] <= 'Z';
    if (letters > 1 && (!upper || ks_face_by_id(word) == KS_EMPTY)) return false; /* an English word */
    p += letters;
  }
  return japanese;
}

/* Every line of every face's help (its entry of 3.4, each power, each note) has its Japanese,
 * so the page in Japanese has no line left in English: a power or a note added without one fails
 * here. */
Test(koshogi_about, every_line_of_help_is_in_japanese) {
  cr_assert(is_japanese("射撃に強い：LB、+XBの射撃では取られない") && !is_japanese("shoots: 撃つ") && !is_japanese("") &&
            !is_japanese("G, MA") && !is_japanese("撃つ en"));
  int notes_seen = 0;
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    ks_face_about a;
    cr_assert_eq(ks_face_describe((ks_face)f, &a), 0);
    cr_assert(is_japanese(a.entry_ja), "%s: entry %s", a.id, a.entry);
    for (unsigned power = KS_POWER_COMMANDS; power <= KS_POWER_LAST; power <<= 1) {
      const char *text, *text_ja, *section;
      if (a.powers & power) {
        cr_assert_eq(ks_power_describe(power, &text, &text_ja, &section), 0);
        cr_assert(is_japanese(text_ja), "%s: \"%s\" has no Japanese: \"%s\"", a.id, text, text_ja);
      }
    }
    ks_face_note notes[KS_MAX_FACE_NOTES];
    const int n = ks_face_notes((ks_face)f, notes);
    for (int i = 0; i < n; i++, notes_seen++) {
      cr_assert(is_japanese(notes[i].text_ja), "%s: \"%s\" has no Japanese: \"%s\"", a.id, notes[i].text,
                notes[i].text_ja);
      /* whole, not cut short by the buffer */
      cr_assert_lt(strlen(notes[i].text_ja) + 1, sizeof notes[i].text_ja, "%s: %s", a.id, notes[i].text_ja);
      cr_assert_lt(strlen(notes[i].text) + 1, sizeof notes[i].text, "%s: %s", a.id, notes[i].text);
    }
  }
  cr_assert_gt(notes_seen, 30);
}

/* ---- the help's claims against the engine's play ----
 * Every claim of the help that names a rule (commanding, forced promotion, shot immunity, turning
 * back, the Taoist priest's part) is checked here against what the engine does on a board, so that
 * the help and the engine cannot drift apart. */

static bool has(ks_face face, unsigned power) { return (powers(face) & power) != 0; }

static int at(int file, int rank) { return ks_point(file, rank); }

/* A set of faces. */
typedef struct face_set {
  bool has[KS_FACES];
} face_set;

/* The faces listed in one of a face's notes: after `marker`, up to `stop` (or the end), IDs
 * separated by ", ". */
static face_set listed(ks_face face, const char *marker, const char *stop) {
  ks_face_note notes[KS_MAX_FACE_NOTES];
  const int n = ks_face_notes(face, notes);
  cr_assert_geq(n, 0);
  for (int i = 0; i < n; i++) {
    const char *start = strstr(notes[i].text, marker);
    if (!start) continue;
    start += strlen(marker);
    const char *end = stop ? strstr(start, stop) : NULL;
    char list[320];
    snprintf(list, sizeof list, "%.*s", end ? (int)(end - start) : (int)strlen(start), start);
    face_set set = {{false}};
    for (char *save = NULL, *id = strtok_r(list, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
      const ks_face f = ks_face_by_id(id);
      cr_assert_neq(f, KS_EMPTY, "%s: \"%s\" in a note is no ID", ks_face_id(face), id);
      set.has[f] = true;
    }
    return set;
  }
  const face_set none = {{false}};
  return none;
}

static bool in(face_set set, ks_face face) { return set.has[face]; }

static bool empty_set(face_set set) {
  for (int f = 0; f < KS_FACES; f++)
    if (set.has[f]) return false;
  return true;
}

/* 6.1: a side holding any one or two faces is defeated exactly when the help says none of them
 * commands and they do not make the pair of MA and a banner. */
Test(koshogi_about, commanding_claims_are_the_defeat_rule) {
  for (int a = KS_EMPTY + 1; a < KS_FACES; a++)
    for (int b = KS_EMPTY; b < KS_FACES; b++) {
      ks_position pos;
      memset(&pos, 0, sizeof pos);
      pos.board[at(10, 0)] = ks_make(KS_WHITE, KS_G);
      pos.board[at(10, 18)] = ks_make(KS_BLACK, (ks_face)a);
      if (b) pos.board[at(12, 18)] = ks_make(KS_BLACK, (ks_face)b);
      const ks_face fa = (ks_face)a, fb = (ks_face)b;
      const bool alive = has(fa, KS_POWER_COMMANDS) || (b && has(fb, KS_POWER_COMMANDS)) ||
                         (b && has(fa, KS_POWER_PAIRS_WITH_BANNER) && has(fb, KS_POWER_PAIRS_WITH_MA)) ||
                         (b && has(fa, KS_POWER_PAIRS_WITH_MA) && has(fb, KS_POWER_PAIRS_WITH_BANNER));
      cr_assert_eq(ks_defeated(&pos, KS_BLACK), !alive, "Black with %s %s", ks_face_id(fa), b ? ks_face_id(fb) : "");
    }
}

/* 5.3: a piece that can promote must promote on capturing (or shooting) exactly the faces its
 * help lists. Each mover stands on 10j (outside the zone) with a Taoist priest of its side in a
 * far corner (the drum and banner need one); the target is put on each point in turn until the
 * mover has a move that takes it. */
Test(koshogi_about, forced_promotion_claims_are_the_engine_s) {
  int tested = 0, forced_tested = 0;
  static ks_move moves[KS_MAX_MOVES];
  for (int m = KS_EMPTY + 1; m < KS_FACES; m++) {
    ks_face_about a;
    ks_face_describe((ks_face)m, &a);
    const face_set forcing = listed((ks_face)m, "any of: ", NULL);
    if (a.promotes == KS_EMPTY) {
      cr_assert(empty_set(forcing), "%s cannot promote, yet its help lists forcing captures", a.id);
      continue;
    }
    cr_assert(in(forcing, KS_G), "%s: capturing the general forces every promotion (5.3)", a.id);
    for (int t = KS_EMPTY + 1; t < KS_FACES; t++) {
      bool found = false;
      for (int p = 6 * KS_SIZE; p < KS_POINTS && !found; p++) { /* ranks g to s: outside Black's zone */
        ks_position pos;
        memset(&pos, 0, sizeof pos);
        const int from = at(10, 9);
        if (p == from || p == at(1, 18)) continue;
        pos.board[from] = ks_make(KS_BLACK, (ks_face)m);
        pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_TP);
        pos.board[p] = ks_make(KS_WHITE, (ks_face)t);
        const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
        for (int i = 0; i < n; i++) {
          const ks_move *mv = &moves[i];
          const bool takes = (mv->ncap == 1 && mv->cap[0] == p) || (mv->nshot == 1 && mv->shot[0] == p);
          if (mv->from != from || !takes) continue;
          found = true;
          const bool must = mv->promote && !mv->optional;
          cr_assert_eq(must, in(forcing, (ks_face)t), "%s taking %s: the engine %s promotion, the help %s", a.id,
                       ks_face_id((ks_face)t), must ? "forces" : "does not force",
                       in(forcing, (ks_face)t) ? "lists it" : "does not");
        }
      }
      tested += found;
      forced_tested += found && in(forcing, (ks_face)t);
      cr_assert(found || !in(forcing, (ks_face)t), "%s never took %s, which its help lists", a.id, ks_face_id((ks_face)t));
    }
  }
  cr_assert_gt(tested, 1500, "pairs tested: %d", tested);
  cr_assert_gt(forced_tested, 200, "forcing pairs tested: %d", forced_tested);
  cr_assert(in(listed(KS_CM, "any of: ", NULL), KS_FC), "a cavalryman capturing a Frankish cannon promotes (5.3)");
}

/* 4.6: for every shooter, target and distance within its range, the engine lets it shoot the
 * target exactly when neither the target's help nor the shooter's says it cannot. The shooter
 * moves from 10j to the nearest point it reaches, and shoots along a line on which the target is
 * off every line through 10j (so a net target does not freeze it, and nothing blocks its move). */
Test(koshogi_about, shot_immunity_claims_are_the_engine_s) {
  static ks_move moves[KS_MAX_MOVES];
  int shots_tested = 0, refusals = 0;
  for (int s = KS_EMPTY + 1; s < KS_FACES; s++) {
    ks_face_about a;
    ks_face_describe((ks_face)s, &a);
    if (!a.shots) continue;
    const int from = at(10, 9);
    uint8_t reach[KS_POINTS];
    ks_face_reach((ks_face)s, KS_BLACK, from, reach);
    int x = -1, best = 99;
    for (int p = 0; p < KS_POINTS; p++) {
      const int dr = abs(p / KS_SIZE - from / KS_SIZE), dc = abs(p % KS_SIZE - from % KS_SIZE);
      const int d = dr > dc ? dr : dc;
      if ((reach[p] & KS_REACH_MOVE) && p != from && d < best) best = d, x = p;
    }
    cr_assert_geq(x, 0);
    const face_set cannot = listed((ks_face)s, "cannot take: ", ";"), cannot_near = listed((ks_face)s, "its shots take ", " only from");
    for (int t = KS_EMPTY + 1; t < KS_FACES; t++) {
      const face_set never = listed((ks_face)t, "no shot of ", " can take it");
      const face_set near = listed((ks_face)t, "a shot of ", " takes it only");
      cr_assert_eq(in(never, (ks_face)s), in(cannot, (ks_face)t), "%s and %s: the two helps disagree", a.id,
                   ks_face_id((ks_face)t));
      cr_assert_eq(in(near, (ks_face)s), in(cannot_near, (ks_face)t), "%s and %s: the two helps disagree", a.id,
                   ks_face_id((ks_face)t));
      int near_limit = 0; /* "only from more than N points" */
      if (in(near, (ks_face)s)) {
        ks_face_note notes[KS_MAX_FACE_NOTES];
        const int n = ks_face_notes((ks_face)t, notes);
        for (int i = 0; i < n; i++) {
          const char *more = strstr(notes[i].text, "more than ");
          if (more) near_limit = atoi(more + strlen("more than "));
        }
        cr_assert_gt(near_limit, 0);
      }
      for (int d = 1; d <= a.shot_range; d++) {
        int target = -1;
        for (int dir = 0; dir < 8 && target < 0; dir++) {
          static const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
          const int row = x / KS_SIZE + dy[dir] * d, col = x % KS_SIZE + dx[dir] * d;
          if (row < 0 || row >= KS_SIZE || col < 0 || col >= KS_SIZE) continue;
          const int rr = abs(row - from / KS_SIZE), cc = abs(col - from % KS_SIZE);
          if (rr == 0 || cc == 0 || rr == cc) continue; /* on a line through 10j */
          target = row * KS_SIZE + col;
        }
        cr_assert_geq(target, 0);
        ks_position pos;
        memset(&pos, 0, sizeof pos);
        pos.board[from] = ks_make(KS_BLACK, (ks_face)s);
        pos.board[target] = ks_make(KS_WHITE, (ks_face)t);
        const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
        bool shot = false;
        for (int i = 0; i < n; i++) shot |= moves[i].from == from && moves[i].to == x && moves[i].nshot >= 1 && moves[i].shot[0] == target;
        const bool claimed = !in(never, (ks_face)s) && !(in(near, (ks_face)s) && d <= near_limit);
        cr_assert_eq(shot, claimed, "%s shooting %s from %d points: the engine %s, the help says it %s", a.id,
                     ks_face_id((ks_face)t), d, shot ? "shoots" : "does not", claimed ? "can" : "cannot");
        shots_tested++;
        refusals += !shot;
      }
    }
  }
  cr_assert_gt(shots_tested, 2000, "%d", shots_tested);
  cr_assert_gt(refusals, 50, "immunities exercised: %d", refusals);
  cr_assert(in(listed(KS_FG, "no shot of ", " can take it"), KS_LB));
}

/* Plays Black's general from 1s to 2s, so that the reversions of 5.6 step 5 are judged. */
static void general_steps(ks_position *pos) {
  ks_move m;
  char err[160];
  cr_assert_eq(ks_move_parse(pos, "G-2s", &m, err, sizeof err), 0, "%s", err);
  ks_play(pos, &m);
}

/* 5.5: a face turns back for exactly the reasons its help gives: its side's Taoist priest gone,
 * or an immaculate light near; the faces whose help says they keep the drum and banner promoted
 * (the Taoist priest) and turn fogs back (the light) do exactly that. */
Test(koshogi_about, turning_back_claims_are_the_engine_s) {
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    const ks_face face = (ks_face)f;
    ks_position pos;
    /* no Taoist priest on Black's side (unless the face is one) */
    memset(&pos, 0, sizeof pos);
    pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_G);
    pos.board[at(19, 0)] = ks_make(KS_WHITE, KS_G);
    pos.board[at(10, 9)] = ks_make(KS_BLACK, face);
    general_steps(&pos);
    const bool without_priest = ks_face_of(pos.board[at(10, 9)]) != face;
    cr_assert_eq(without_priest, has(face, KS_POWER_REVERTS_WITHOUT_PRIEST), "%s without its priest", ks_face_id(face));
    /* a priest present, and a White light two points away on the file */
    memset(&pos, 0, sizeof pos);
    pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_G);
    pos.board[at(19, 0)] = ks_make(KS_WHITE, KS_G);
    pos.board[at(19, 18)] = ks_make(KS_BLACK, KS_TP);
    pos.board[at(10, 9)] = ks_make(KS_BLACK, face);
    pos.board[at(10, 7)] = ks_make(KS_WHITE, KS_IL);
    general_steps(&pos);
    const bool near_light = ks_face_of(pos.board[at(10, 9)]) != face;
    cr_assert_eq(near_light, has(face, KS_POWER_REVERTS_NEAR_LIGHT), "%s near a light", ks_face_id(face));
    /* the face as the only possible priest: does a thunderclap stay promoted, and may a drum promote? */
    memset(&pos, 0, sizeof pos);
    pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_G);
    pos.board[at(19, 0)] = ks_make(KS_WHITE, KS_G);
    pos.board[at(19, 18)] = ks_make(KS_BLACK, face);
    pos.board[at(10, 9)] = ks_make(KS_BLACK, KS_TC);
    general_steps(&pos);
    const bool keeps = ks_face_of(pos.board[at(10, 9)]) == KS_TC;
    cr_assert_eq(keeps, has(face, KS_POWER_KEEPS_DRUM_BANNER), "a thunderclap beside %s", ks_face_id(face));
    memset(&pos, 0, sizeof pos);
    pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_G);
    pos.board[at(19, 18)] = ks_make(KS_BLACK, face);
    pos.board[at(10, 6)] = ks_make(KS_BLACK, KS_DR); /* one step from the zone */
    static ks_move moves[KS_MAX_MOVES];
    const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
    bool drum_promotes = false;
    for (int i = 0; i < n; i++) drum_promotes |= moves[i].from == at(10, 6) && moves[i].promote;
    cr_assert_eq(drum_promotes, has(face, KS_POWER_KEEPS_DRUM_BANNER), "a drum beside %s", ks_face_id(face));
    /* the face as White's, two points from a Black fog */
    memset(&pos, 0, sizeof pos);
    pos.board[at(1, 18)] = ks_make(KS_BLACK, KS_G);
    pos.board[at(19, 0)] = ks_make(KS_WHITE, KS_G);
    pos.board[at(10, 9)] = ks_make(KS_BLACK, KS_FG);
    pos.board[at(10, 7)] = ks_make(KS_WHITE, face);
    general_steps(&pos);
    const bool fog_back = ks_face_of(pos.board[at(10, 9)]) == KS_TP;
    cr_assert_eq(fog_back, has(face, KS_POWER_TURNS_FOGS_BACK), "a fog near %s", ks_face_id(face));
  }
}

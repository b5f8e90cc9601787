/* Ko shogi: the starting setup (KOSHOGI-RULES.md 2) and move generation checked by the counts of
 * KOSHOGI-RULES.md 4.11: 226 moves for Black, by piece type, and perft 2 = 50,940. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "koshogi/koshogi.h"

/* KOSHOGI-RULES.md 2.2, D1, D2: 90 pieces of 34 types per side; White is Black rotated by 180°. */
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
  /* a few points by name (KOSHOGI-RULES.md 2.3): White's general 10a, Taoist priest 18a, drum 9b, vanguard 10g */
  cr_assert_eq(pos.board[ks_point(10, 0)], ks_make(KS_WHITE, KS_G));
  cr_assert_eq(pos.board[ks_point(18, 0)], ks_make(KS_WHITE, KS_TP));
  cr_assert_eq(pos.board[ks_point(9, 1)], ks_make(KS_WHITE, KS_DR));
  cr_assert_eq(pos.board[ks_point(10, 6)], ks_make(KS_WHITE, KS_VG));
  cr_assert_eq(pos.board[ks_point(2, 18)], ks_make(KS_BLACK, KS_TP));
}

/* KOSHOGI-RULES.md 4.11: Black's 226 moves from the start, by piece type, the four passes and the
 * chariot units' captures on 19f and 1f with and without promotion. */
Test(koshogi, starting_moves_by_piece) {
  ks_position pos;
  ks_start(&pos);
  ks_move moves[KS_MAX_MOVES];
  const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
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

/* ---- rules on set-up positions ---- */

static int pt(const char *name) { /* "10j" */
  int file = 0;
  char rank = 0;
  sscanf(name, "%d%c", &file, &rank);
  return ks_point(file, rank - 'a');
}

static void put(ks_position *pos, const char *point, int color, ks_face face) {
  pos->board[pt(point)] = ks_make(color, face);
}

static void empty(ks_position *pos, int to_move) {
  memset(pos, 0, sizeof *pos);
  pos->to_move = (uint8_t)to_move;
}

/* An empty board but for the two generals, in far corners (1s and 19a); Black to move. */
static void generals_only(ks_position *pos) {
  empty(pos, KS_BLACK);
  put(pos, "1s", KS_BLACK, KS_G);
  put(pos, "19a", KS_WHITE, KS_G);
}

/* The legal moves of the piece on a point. */
static int moves_of(const ks_position *pos, const char *point, ks_move *out) {
  ks_move all[KS_MAX_MOVES];
  const int n = ks_legal_moves(pos, all, KS_MAX_MOVES);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (all[i].from == pt(point)) out[k++] = all[i];
  return k;
}

static bool legal(const ks_position *pos, const char *text) {
  ks_move m;
  char err[200];
  return ks_move_parse(pos, text, &m, err, sizeof err) == 0;
}

static void play(ks_position *pos, const char *text) {
  ks_move m;
  char err[200];
  cr_assert_eq(ks_move_parse(pos, text, &m, err, sizeof err), 0, "%s", err);
  ks_play(pos, &m);
}

/* For every legal move of pos: ks_make_move gives what ks_play gives, and ks_unmake_move gives
 * pos back exactly. Returns the number of moves checked. */
static int check_make_unmake(const ks_position *pos) {
  static ks_move moves[KS_MAX_MOVES];
  const int n = ks_legal_moves(pos, moves, KS_MAX_MOVES);
  for (int i = 0; i < n; i++) {
    ks_position played = *pos, made = *pos;
    ks_undo undo;
    ks_play(&played, &moves[i]);
    ks_make_move(&made, &moves[i], &undo);
    cr_assert(memcmp(&played, &made, sizeof made) == 0, "ks_make_move differs from ks_play");
    cr_assert_leq(undo.n, KS_UNDO_MAX);
    ks_unmake_move(&made, &undo);
    cr_assert(memcmp(pos, &made, sizeof made) == 0, "ks_unmake_move did not restore the position");
  }
  return n;
}

/* 3.4, 4.2-4.4: pieces that never promote, alone in the middle of the board. */
Test(koshogi, movement_on_an_empty_board) {
  ks_position pos;
  ks_move m[KS_MAX_MOVES];
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_G);
  cr_assert_eq(moves_of(&pos, "10j", m), 8, "general: K");
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_EL);
  cr_assert_eq(moves_of(&pos, "10j", m), 36, "elephant: B, 9 points on each diagonal");
  /* 4.5: the sumo wrestler reaches the 8 neighbours, the 16 points at distance 2, and passes */
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_WR);
  cr_assert_eq(moves_of(&pos, "10j", m), 25);
  cr_assert(legal(&pos, "WR-10j"), "the pass");
  /* a White cavalryman (N) in the corner: two knight points */
  empty(&pos, KS_WHITE);
  put(&pos, "1a", KS_WHITE, KS_CM);
  cr_assert_eq(moves_of(&pos, "1a", m), 2);
}

/* 4.3: a friendly piece blocks a ranging line; an enemy piece ends it with a capture. */
Test(koshogi, ranging_blocked_and_capturing) {
  ks_position pos;
  ks_move m[KS_MAX_MOVES];
  empty(&pos, KS_BLACK);
  put(&pos, "10m", KS_BLACK, KS_CH); /* R5, outside the zone */
  put(&pos, "10l", KS_BLACK, KS_P);  /* blocks forward entirely */
  put(&pos, "12m", KS_WHITE, KS_P);  /* captured two points to the left */
  put(&pos, "10o", KS_BLACK, KS_SH); /* two points back: one step back only */
  /* forward 0, left 1 + capture, right 5 (9m..5m), back 1 (10n) */
  cr_assert_eq(moves_of(&pos, "10m", m), 0 + 2 + 5 + 1);
  cr_assert(legal(&pos, "CHx12m"));
  cr_assert(!legal(&pos, "CH-13m"), "no ranging past a captured piece");
  cr_assert(!legal(&pos, "CH-10k"), "no ranging through a friend");
}

/* 4.6: bows cannot shoot shields; cannons shoot over pieces; the line of sight of bows. */
Test(koshogi, shooting_and_immunities) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_LB);
  put(&pos, "9f", KS_WHITE, KS_SH);
  put(&pos, "11f", KS_WHITE, KS_P);
  cr_assert(!legal(&pos, "LB-9i*9f"), "a bow cannot shoot a shield");
  cr_assert(legal(&pos, "LB-11i*11f"), "a bow shoots a pawn three points away");
  put(&pos, "11g", KS_WHITE, KS_P);
  cr_assert(!legal(&pos, "LB-11i*11f"), "the line of sight is blocked by the pawn on 11g");
  cr_assert(legal(&pos, "LB-11i*11g"));
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_CN);
  put(&pos, "9h", KS_BLACK, KS_P);
  put(&pos, "9f", KS_WHITE, KS_SH);
  put(&pos, "9e", KS_WHITE, KS_SU);
  cr_assert(legal(&pos, "CN-9i*9f"), "a cannon shoots a shield over a piece");
  cr_assert(!legal(&pos, "CN-9i*9e"), "nobody shoots a shield unit but priests");
  cr_assert(!legal(&pos, "CNx9h"), "no capture of a friend");
  /* D19: a priest lands only on empty points or enemy priests, and shoots after landing */
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_TP);
  put(&pos, "12h", KS_WHITE, KS_G);
  put(&pos, "8h", KS_WHITE, KS_SM);
  put(&pos, "11g", KS_WHITE, KS_P);
  cr_assert(!legal(&pos, "TPx12h"), "a priest does not capture a general by displacement");
  cr_assert(legal(&pos, "TPx8h"), "but captures a priest");
  cr_assert(!legal(&pos, "TP-10l*10k"), "no target on 10k");
  cr_assert(legal(&pos, "TP-10h*11g"), "a jump to 10h, then a shot at the adjacent pawn");
  cr_assert(!legal(&pos, "TPx8h*9g"), "no shot after a capture");
}

/* 5.5, D11: a five-li fog on a line with an immaculate light within 5 points reverts. */
Test(koshogi, fog_reverts_near_a_light) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10s", KS_BLACK, KS_G);
  put(&pos, "10a", KS_WHITE, KS_G);
  put(&pos, "10j", KS_BLACK, KS_FG);
  put(&pos, "14j", KS_WHITE, KS_IL); /* the same rank, 4 points away */
  put(&pos, "2s", KS_BLACK, KS_TP);
  play(&pos, "G-9s");
  cr_assert_eq(pos.board[pt("10j")], ks_make(KS_BLACK, KS_TP), "the fog reverted at the end of a move");
}

/* 5.4: the clerk's promotion promotes its guards and kills the enemy poison flames. */
Test(koshogi, clerk_promotion) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10g", KS_BLACK, KS_CL);
  put(&pos, "1s", KS_BLACK, KS_AG);
  put(&pos, "1r", KS_BLACK, KS_RG);
  put(&pos, "5e", KS_WHITE, KS_PF);
  put(&pos, "6e", KS_WHITE, KS_EN);
  check_make_unmake(&pos);
  play(&pos, "CL-10e+");
  cr_assert_eq(pos.board[pt("10e")], ks_make(KS_BLACK, KS_MR));
  cr_assert_eq(pos.board[pt("1s")], ks_make(KS_BLACK, KS_SK));
  cr_assert_eq(pos.board[pt("1r")], ks_make(KS_BLACK, KS_EW));
  cr_assert_eq(pos.board[pt("5e")], 0, "the enemy poison flame died");
  cr_assert_eq(pos.board[pt("6e")], ks_make(KS_WHITE, KS_EN), "an engineer is not a flame");
}

/* 5.5, D10: without its Taoist priest a player's thunderclap reverts, and a drum cannot promote. */
Test(koshogi, priest_loss) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_TC);
  put(&pos, "10e", KS_BLACK, KS_DR);
  put(&pos, "12j", KS_BLACK, KS_G);
  check_make_unmake(&pos);
  cr_assert(!legal(&pos, "DR-11d+"), "a drum without its priest cannot promote");
  play(&pos, "G-12k");
  cr_assert_eq(pos.board[pt("10j")], ks_make(KS_BLACK, KS_DR), "the thunderclap reverted");
  put(&pos, "2s", KS_BLACK, KS_TP);
  pos.to_move = KS_BLACK;
  cr_assert(legal(&pos, "DR-11d+"), "with the priest back on the board it can");
}

/* 4.8, D20: a poison flame burns every piece around its destination, friend or foe. */
Test(koshogi, burning_both_ways) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_PF);
  put(&pos, "9h", KS_WHITE, KS_P);
  put(&pos, "11h", KS_BLACK, KS_P);
  put(&pos, "10g", KS_WHITE, KS_CH);
  put(&pos, "10k", KS_BLACK, KS_SH); /* next to the start, not to the destination: kept */
  play(&pos, "+EN-10i");
  cr_assert_eq(pos.board[pt("9h")], 0);
  cr_assert_eq(pos.board[pt("11h")], 0, "a friend burns too");
  cr_assert_neq(pos.board[pt("10g")], 0, "two points away: kept");
  cr_assert_neq(pos.board[pt("10k")], 0);
  cr_assert_eq(pos.board[pt("10i")], ks_make(KS_BLACK, KS_PF), "the flame survives");
}

/* 4.9, D21: a net immobilizes the first piece on its ranging lines if it is an enemy. */
Test(koshogi, net_immobilizes) {
  ks_position pos;
  ks_move m[KS_MAX_MOVES];
  empty(&pos, KS_WHITE);
  put(&pos, "10j", KS_BLACK, KS_SK);
  put(&pos, "14j", KS_WHITE, KS_G);  /* first on its left line: frozen */
  put(&pos, "6j", KS_BLACK, KS_P);   /* first on its right line: a friend */
  put(&pos, "4j", KS_WHITE, KS_CU);  /* behind the friend: free */
  put(&pos, "12h", KS_WHITE, KS_SH); /* first on its forward-left diagonal: frozen */
  cr_assert_eq(moves_of(&pos, "14j", m), 0);
  cr_assert_eq(moves_of(&pos, "12h", m), 0);
  cr_assert_gt(moves_of(&pos, "4j", m), 0);
}

/* 4.10, D3: pawns lose the forward step when their drum is gone. */
Test(koshogi, pawns_and_the_drum) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_P);
  cr_assert(!legal(&pos, "P-10i"));
  cr_assert(legal(&pos, "P-10k"));
  put(&pos, "1s", KS_BLACK, KS_DR);
  cr_assert(legal(&pos, "P-10i"));
}

/* 6.2, 6.4-6.6: winning by capture, losing to one's own flame, repetition, perpetual check,
 * and having no legal move. */
static void game_from(ks_game *g, const ks_position *pos) {
  cr_assert_eq(ks_game_init(g), 0);
  g->pos = *pos;
  g->keys[0] = ks_key(pos);
}

static void game_play(ks_game *g, const char *text) {
  ks_move m;
  char err[200];
  cr_assert_eq(ks_move_parse(&g->pos, text, &m, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ks_game_play(g, &m), 0);
}

Test(koshogi, endings) {
  ks_position pos;
  ks_game g;
  /* capturing the last commanding piece wins */
  empty(&pos, KS_BLACK);
  put(&pos, "10s", KS_BLACK, KS_G);
  put(&pos, "10b", KS_WHITE, KS_G);
  put(&pos, "10c", KS_BLACK, KS_MI);
  game_from(&g, &pos);
  game_play(&g, "MIx10b+");
  cr_assert_eq(g.result, KS_BLACK_WINS);
  cr_assert_eq(g.reason, KS_BY_DEFEAT);
  ks_game_free(&g);
  /* a poison flame burning its own general loses (D30) */
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_G);
  put(&pos, "10l", KS_BLACK, KS_PF);
  put(&pos, "10a", KS_WHITE, KS_G);
  game_from(&g, &pos);
  game_play(&g, "+EN-10k");
  cr_assert_eq(g.result, KS_WHITE_WINS);
  cr_assert_eq(g.reason, KS_BY_SELF_DEFEAT);
  ks_game_free(&g);
  /* four times the same position without checks: no contest */
  empty(&pos, KS_BLACK);
  put(&pos, "10s", KS_BLACK, KS_G);
  put(&pos, "15s", KS_BLACK, KS_WR);
  put(&pos, "10a", KS_WHITE, KS_G);
  put(&pos, "15a", KS_WHITE, KS_WR);
  game_from(&g, &pos);
  for (int i = 0; i < 3; i++) {
    game_play(&g, "WR-15s");
    cr_assert_eq(g.result, KS_ONGOING);
    game_play(&g, "WR-15a");
  }
  cr_assert_eq(g.result, KS_NO_CONTEST);
  cr_assert_eq(g.reason, KS_BY_REPETITION);
  ks_game_free(&g);
  /* the same, but every Black move checks the White general: Black loses (6.5) */
  empty(&pos, KS_BLACK);
  put(&pos, "10s", KS_BLACK, KS_G);
  put(&pos, "10j", KS_BLACK, KS_CU);
  put(&pos, "10a", KS_WHITE, KS_G);
  put(&pos, "15a", KS_WHITE, KS_WR);
  game_from(&g, &pos);
  for (int i = 0; i < 3 && g.result == KS_ONGOING; i++) {
    game_play(&g, "CU-10k");
    game_play(&g, "WR-15a");
    game_play(&g, "CU-10j");
    if (g.result == KS_ONGOING) game_play(&g, "WR-15a");
  }
  cr_assert_eq(g.result, KS_WHITE_WINS);
  cr_assert_eq(g.reason, KS_BY_PERPETUAL);
  ks_game_free(&g);
  /* White's only piece frozen by a net: no legal move, White loses */
  empty(&pos, KS_BLACK);
  put(&pos, "10s", KS_BLACK, KS_G);
  put(&pos, "10j", KS_BLACK, KS_SK);
  put(&pos, "14j", KS_WHITE, KS_G);
  game_from(&g, &pos);
  game_play(&g, "G-9s");
  cr_assert_eq(g.result, KS_BLACK_WINS);
  cr_assert_eq(g.reason, KS_BY_NO_MOVES);
  ks_game_free(&g);
}

/* A set-up position that is over already is decided when the game starts, as if the side not to
 * move had just moved into it (6.2, 6.6): no move is played in it. */
Test(koshogi, set_up_position_already_over) {
  static const struct {
    ks_face black[2], white[2];
    int to_move, result, reason;
  } cases[] = {
      {{KS_MA, KS_DR}, {KS_G, 0}, KS_BLACK, KS_WHITE_WINS, KS_BY_DEFEAT},   /* no G, GV, nor MA with a banner */
      {{KS_MA, KS_DR}, {KS_G, 0}, KS_WHITE, KS_WHITE_WINS, KS_BY_DEFEAT},   /* whoever is to move */
      {{KS_G, 0}, {KS_BN, KS_FW}, KS_BLACK, KS_BLACK_WINS, KS_BY_DEFEAT},   /* two banners and no MA */
      {{KS_P, 0}, {KS_SH, 0}, KS_BLACK, KS_WHITE_WINS, KS_BY_DEFEAT},       /* both: the side that moved wins */
      {{KS_P, 0}, {KS_SH, 0}, KS_WHITE, KS_BLACK_WINS, KS_BY_DEFEAT},
      {{KS_MA, KS_BN}, {KS_G, 0}, KS_BLACK, KS_ONGOING, KS_BY_NONE},        /* the pair keeps Black alive */
      {{KS_GV, 0}, {KS_G, 0}, KS_WHITE, KS_ONGOING, KS_BY_NONE},
  };
  static const char *const black_at[2] = {"10s", "12s"}, *const white_at[2] = {"10a", "12a"};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ks_position pos;
    empty(&pos, cases[c].to_move);
    for (int i = 0; i < 2; i++) {
      if (cases[c].black[i]) put(&pos, black_at[i], KS_BLACK, cases[c].black[i]);
      if (cases[c].white[i]) put(&pos, white_at[i], KS_WHITE, cases[c].white[i]);
    }
    ks_game g;
    cr_assert_eq(ks_game_init_at(&g, &pos, 1), 0);
    cr_assert_eq(g.result, cases[c].result, "case %zu", c);
    cr_assert_eq(g.reason, cases[c].reason, "case %zu", c);
    ks_move moves[KS_MAX_MOVES];
    if (cases[c].result != KS_ONGOING && ks_legal_moves(&pos, moves, KS_MAX_MOVES) > 0)
      cr_assert_eq(ks_game_play(&g, &moves[0]), -1, "case %zu: a move was played in a finished game", c);
    ks_game_free(&g);
  }
  /* Black to move with its only piece frozen by a net: no legal move, White wins (6.6) */
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "14j", KS_BLACK, KS_G);
  put(&pos, "10j", KS_WHITE, KS_SK);
  put(&pos, "10a", KS_WHITE, KS_G);
  ks_game g;
  cr_assert_eq(ks_game_init_at(&g, &pos, 1), 0);
  cr_assert_eq(g.result, KS_WHITE_WINS);
  cr_assert_eq(g.reason, KS_BY_NO_MOVES);
  ks_game_free(&g);
}

/* Whether a move's text names its origin: a point right after the piece's ID (7.5). */
static bool has_origin(const char *text) {
  const char after_id = text[strspn(text, "+ABCDEFGHIJKLMNOPQRSTUVWXYZ")];
  return after_id >= '1' && after_id <= '9';
}

/* 7: every legal move of a long random game is written and read back to itself, and the whole
 * list written at once (ks_moves_format) as each move alone; bad texts are refused with a reason. */
Test(koshogi, notation_round_trip) {
  ks_position pos;
  ks_start(&pos);
  ks_move moves[KS_MAX_MOVES];
  uint64_t r = 12345;
  static char texts[KS_MAX_MOVES][KS_MOVE_TEXT];
  long checked = 0, with_origin = 0;
  for (int ply = 0; ply < 120; ply++) {
    const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
    if (n == 0) break;
    cr_assert_eq(ks_moves_format(&pos, moves, n, texts), 0);
    for (int i = 0; i < n; i++) {
      char text[64], err[200];
      ks_move back;
      cr_assert_gt(ks_move_format(&pos, &moves[i], text, sizeof text), 0);
      cr_assert_str_eq(texts[i], text, "ply %d: the list and the single move are written alike", ply);
      with_origin += has_origin(text);
      cr_assert_eq(ks_move_parse(&pos, text, &back, err, sizeof err), 0, "ply %d: %s", ply, err);
      cr_assert(back.from == moves[i].from && back.to == moves[i].to && back.promote == moves[i].promote &&
                    back.ncap == moves[i].ncap && back.nshot == moves[i].nshot,
                "ply %d: %s read back as another move", ply, text);
      checked++;
    }
    r = r * 6364136223846793005u + 1442695040888963407u;
    ks_play(&pos, &moves[(r >> 33) % (uint64_t)n]);
  }
  cr_assert_gt(checked, 10000);
  cr_assert_gt(with_origin, 100, "moves that need their origin written: %ld", with_origin);
  ks_start(&pos);
  static const struct {
    const char *text, *reason;
  } bad[] = {{"", "expected a piece"},           {"VG10h", "expected -, x or !"},
             {"VG-20a", "expected a point"},     {"VG-10h*10a", "no legal move"},
             {"CM-7o", "write the origin"},      {"WR-13s+", "cannot promote"},
             {"VG-10h+junk", "unexpected"},      {"QQ-1a", "no legal move"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ks_move m;
    char err[200];
    cr_assert_eq(ks_move_parse(&pos, bad[i].text, &m, err, sizeof err), -1, "%s", bad[i].text);
    cr_assert(strstr(err, bad[i].reason), "\"%s\": %s", bad[i].text, err);
  }
}

/* Records: written and read back to the same game; an illegal move is named by number. */
Test(koshogi, record_round_trip) {
  ks_game g, back;
  cr_assert_eq(ks_game_init(&g), 0);
  ks_move moves[KS_MAX_MOVES];
  uint64_t r = 99;
  for (int ply = 0; ply < 60 && g.result == KS_ONGOING; ply++) {
    const int n = ks_legal_moves(&g.pos, moves, KS_MAX_MOVES);
    r = r * 6364136223846793005u + 1442695040888963407u;
    ks_game_play(&g, &moves[(r >> 33) % (uint64_t)n]);
  }
  char *text = ks_record_write(&g, "Ann", "Ben");
  char black[64], white[64], err[256];
  cr_assert_eq(ks_record_read(&back, text, black, white, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(black, "Ann");
  cr_assert_eq(back.nplies, g.nplies);
  cr_assert(memcmp(back.pos.board, g.pos.board, sizeof g.pos.board) == 0);
  ks_game_free(&back);
  free(text);
  ks_game_free(&g);
  cr_assert_eq(ks_record_read(&back, "1. VG-10h VGx10h 2. CM9p-7o CM-7e", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "move 2 (White)"), "%s", err);
  cr_assert(strstr(err, "write the origin"), "%s", err);
  cr_assert_eq(back.nplies, 3, "the moves before the error are kept");
  ks_game_free(&back);
}

/* An end the board does not decide (a game played online): resignation on either side's turn,
 * a flag fallen, a draw agreed; written as [Termination] and read back to the same end. A result
 * that does not go with the reason is refused, in the game and in a record. */
Test(koshogi, record_says_how_a_game_ended_off_the_board) {
  const struct {
    int result, reason;
    const char *termination, *tag;
  } ends[] = {
      {KS_BLACK_WINS, KS_BY_RESIGNATION, "[Termination \"resignation\"]", "[Result \"1-0\"]"}, /* on Black's turn */
      {KS_WHITE_WINS, KS_BY_TIME, "[Termination \"time\"]", "[Result \"0-1\"]"},
      {KS_NO_CONTEST, KS_BY_AGREEMENT, "[Termination \"agreement\"]", "[Result \"1/2-1/2\"]"},
  };
  for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
    ks_game g, back;
    cr_assert_eq(ks_game_init(&g), 0);
    ks_move moves[KS_MAX_MOVES];
    cr_assert_gt(ks_legal_moves(&g.pos, moves, KS_MAX_MOVES), 0);
    ks_game_play(&g, &moves[0]);
    cr_assert_gt(ks_legal_moves(&g.pos, moves, KS_MAX_MOVES), 0);
    ks_game_play(&g, &moves[0]); /* Black to move */
    cr_assert_eq(ks_game_end(&g, ends[i].result, ends[i].reason), 0);
    cr_assert_eq(ks_game_end(&g, ends[i].result, ends[i].reason), -1, "over already");
    char *text = ks_record_write(&g, "Ann", "Ben");
    cr_assert(strstr(text, ends[i].termination) && strstr(text, ends[i].tag), "%s", text);
    char err[256];
    cr_assert_eq(ks_record_read(&back, text, NULL, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(back.result, ends[i].result, "%s", text);
    cr_assert_eq(back.reason, ends[i].reason, "%s", text);
    ks_game_free(&back);
    free(text);
    ks_game_free(&g);
  }
  ks_game g;
  cr_assert_eq(ks_game_init(&g), 0);
  cr_assert_eq(ks_game_end(&g, KS_NO_CONTEST, KS_BY_TIME), -1, "a flag falls for one side");
  cr_assert_eq(ks_game_end(&g, KS_BLACK_WINS, KS_BY_AGREEMENT), -1, "an agreement is a draw");
  cr_assert_eq(ks_game_end(&g, KS_BLACK_WINS, KS_BY_DEFEAT), -1, "the board decides a defeat");
  cr_assert_eq(g.result, KS_ONGOING);
  ks_game_free(&g);
  char err[256];
  cr_assert_eq(ks_record_read(&g, "[Result \"1-0\"]\n[Termination \"agreement\"]\n\n1-0", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "a draw agreed is 1/2-1/2"), "%s", err);
  ks_game_free(&g);
}

/* KOSHOGI-RULES.md 4.11: after CUx19f+ White has 218 moves, among them the cannon shot over three
 * pieces CN-15b*19f. */
Test(koshogi, after_the_chariot_unit_promotes) {
  ks_position pos;
  ks_start(&pos);
  play(&pos, "CUx19f+");
  ks_move moves[KS_MAX_MOVES];
  cr_assert_eq(ks_legal_moves(&pos, moves, KS_MAX_MOVES), 218);
  cr_assert(legal(&pos, "CN-15b*19f"));
}

/* D25: the cavalry's second jump keeps the first one's class (or goes straight back); the
 * winged horse's does not need to. */
Test(koshogi, cavalry_second_jump) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_CV);
  cr_assert(legal(&pos, "CV-10f"), "two forward jumps: (+1,+2) then (-1,+2)");
  cr_assert(legal(&pos, "CV-14j"), "two sideways jumps");
  cr_assert(legal(&pos, "CV-10j"), "out and straight back: a pass");
  cr_assert(!legal(&pos, "CV-12j"), "a forward jump then a backward one");
  pos.board[pt("10j")] = ks_make(KS_BLACK, KS_WG);
  cr_assert(legal(&pos, "+CV-12j"), "the winged horse may");
}

/* D26, D27: the thunderclap turns as it steps; the flag waver stays on its first line. */
Test(koshogi, thunderclap_and_flag_waver) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "2s", KS_BLACK, KS_TP); /* so that neither reverts */
  put(&pos, "10j", KS_BLACK, KS_TC);
  put(&pos, "10i", KS_WHITE, KS_P);
  put(&pos, "10h", KS_WHITE, KS_P);
  cr_assert(legal(&pos, "+DR-9i"));
  cr_assert(legal(&pos, "+DRx10ix10h-9h"), "two captures, then a turn");
  cr_assert(legal(&pos, "+DR!10i!10h"), "igui of two pieces, four steps back along the file");
  cr_assert(!legal(&pos, "+DRx10ix10h-8f"), "not more than five steps");
  pos.board[pt("10j")] = ks_make(KS_BLACK, KS_FW);
  cr_assert(legal(&pos, "+BN-9j"), "a step sideways is on a line");
  cr_assert(!legal(&pos, "+BNx10ix10h-9h"), "the flag waver cannot turn");
  cr_assert(legal(&pos, "+BN!10i!10h"));
  cr_assert(legal(&pos, "+BN-5j"), "five steps along the rank");
  cr_assert(!legal(&pos, "+BN-4j"), "not six");
}

/* D12, D17: only the Frankish guns shoot a five-li fog, and only from 6 or 7 points. */
Test(koshogi, shooting_a_fog) {
  ks_position pos;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_FC);
  put(&pos, "9c", KS_WHITE, KS_FG);  /* 6 points from 9i */
  put(&pos, "11d", KS_WHITE, KS_FG); /* 5 points from 11i */
  cr_assert(legal(&pos, "FC-9i*9c"));
  cr_assert(!legal(&pos, "FC-11i*11d"));
  pos.board[pt("10j")] = ks_make(KS_BLACK, KS_XB);
  cr_assert(!legal(&pos, "XB-11i*11d"), "a bow never");
}

/* ---- every face's movement against a model written from the Betza strings of 3.2-3.4 ---- */

/* Directions as (file step, rank step) seen from Black: rank step -1 is forward. */
enum { F_ = 1, FR = 2, R_ = 4, BR = 8, B_ = 16, BL = 32, L_ = 64, FL = 128 };
static const int dir_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_dr[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
#define ORTH (F_ | R_ | B_ | L_)
#define DIAG (FR | BR | BL | FL)
#define ALL8 (ORTH | DIAG)

/* Leaps and two-leg patterns. */
enum { LEAP_D = 1, LEAP_A = 2, LEAP_N = 4 };
enum { TWO_NONE, TWO_KK, TWO_FF, TWO_WW, TWO_FD, TWO_WA, TWO_NN, TWO_CAVALRY, TWO_PRIEST, WALK_FREE, WALK_LINE };

typedef struct model {
  int ride, ride_max; /* ranging directions and how far */
  int step;           /* one-step directions */
  int leap;           /* LEAP_* */
  int pattern;        /* TWO_* or WALK_* */
} model;

/* 3.2-3.4, read independently of the generator (a component per Betza atom). */
static const model models[KS_FACES] = {
    [KS_G] = {0, 0, ALL8, 0, 0},
    [KS_CL] = {0, 0, DIAG, LEAP_D, 0},
    [KS_SO] = {0, 0, ORTH, LEAP_A, 0},
    [KS_AC] = {0, 0, DIAG | F_ | L_ | R_, 0, 0},
    [KS_WR] = {0, 0, 0, 0, TWO_KK},
    [KS_AI] = {0, 0, ORTH | FL | FR, 0, 0},
    [KS_ST] = {0, 0, DIAG | F_, 0, 0},
    [KS_CS] = {0, 0, DIAG | F_ | B_, 0, 0},
    [KS_EN] = {0, 0, FL | FR | F_ | B_, 0, 0},
    [KS_TP] = {0, 0, 0, LEAP_D | LEAP_A, 0},
    [KS_SM] = {0, 0, 0, LEAP_D | LEAP_A, 0},
    [KS_AG] = {F_, 18, B_, 0, 0},
    [KS_MA] = {0, 0, ALL8, 0, 0},
    [KS_DR] = {0, 0, DIAG | L_ | R_, 0, 0},
    [KS_BN] = {0, 0, DIAG | L_ | R_, 0, 0},
    [KS_SN] = {0, 0, DIAG | L_ | R_ | B_, 0, 0},
    [KS_MI] = {ALL8, 18, 0, 0, 0},
    [KS_QM] = {ORTH, 18, DIAG, 0, 0},
    [KS_CE] = {DIAG, 18, ORTH, 0, 0},
    [KS_RG] = {B_, 18, F_, 0, 0},
    [KS_FC] = {0, 0, DIAG, 0, 0},
    [KS_EL] = {DIAG, 18, 0, 0, 0},
    [KS_LB] = {0, 0, DIAG, 0, 0},
    [KS_XB] = {0, 0, DIAG, 0, 0},
    [KS_CN] = {0, 0, DIAG, 0, 0},
    [KS_CM] = {0, 0, 0, LEAP_N, 0},
    [KS_CV] = {0, 0, 0, 0, TWO_CAVALRY},
    [KS_P] = {0, 0, ORTH, 0, 0},
    [KS_PU] = {F_ | B_, 18, L_ | R_, 0, 0},
    [KS_SH] = {0, 0, DIAG, 0, 0},
    [KS_SU] = {L_ | R_, 18, DIAG, 0, 0},
    [KS_CH] = {ORTH, 5, 0, 0, 0},
    [KS_CU] = {ORTH, 18, 0, 0, 0},
    [KS_VG] = {F_, 5, 0, 0, 0},
    [KS_MR] = {0, 0, 0, 0, TWO_FD},
    [KS_BD] = {0, 0, 0, 0, TWO_WA},
    [KS_TB] = {F_ | B_, 18, ALL8, 0, 0},
    [KS_VB] = {L_ | R_, 18, ALL8, 0, 0},
    [KS_VC] = {DIAG | F_, 18, 0, 0, 0},
    [KS_PF] = {0, 0, FL | FR | F_ | B_, 0, 0},
    [KS_FG] = {0, 0, 0, 0, TWO_PRIEST},
    [KS_IL] = {0, 0, 0, 0, TWO_PRIEST},
    [KS_SK] = {L_ | R_ | FL | FR, 18, B_, 0, 0},
    [KS_GV] = {0, 0, ALL8, 0, 0},
    [KS_TC] = {0, 0, 0, 0, WALK_FREE},
    [KS_FW] = {0, 0, 0, 0, WALK_LINE},
    [KS_DA] = {ALL8, 18, 0, 0, TWO_KK},
    [KS_TW] = {ORTH, 18, 0, 0, TWO_FF},
    [KS_WH] = {DIAG, 18, 0, 0, TWO_WW},
    [KS_EW] = {L_ | R_ | BL | BR, 18, F_, 0, 0},
    [KS_CG] = {ORTH, 5, 0, 0, 0},
    [KS_LC] = {0, 0, 0, LEAP_N, 0},
    [KS_XC] = {0, 0, 0, LEAP_N, 0},
    [KS_GC] = {ORTH, 5, 0, 0, 0},
    [KS_WG] = {0, 0, 0, 0, TWO_NN},
    [KS_CO] = {DIAG | F_ | B_, 18, 0, 0, 0},
    [KS_HF] = {L_ | R_ | DIAG, 18, 0, 0, 0},
    [KS_PAC] = {ORTH, 18, DIAG, 0, 0},          /* as QM */
    [KS_PSN] = {DIAG, 18, ORTH, 0, 0},          /* as CE */
    [KS_PCM] = {0, 0, 0, 0, TWO_CAVALRY},       /* as CV */
    [KS_PP] = {F_ | B_, 18, L_ | R_, 0, 0},     /* as PU */
    [KS_PSH] = {L_ | R_, 18, DIAG, 0, 0},       /* as SU */
    [KS_PCH] = {ORTH, 18, 0, 0, 0},             /* as CU */
    [KS_PCU] = {ALL8, 18, 0, 0, 0},             /* as MI */
    [KS_COV] = {DIAG | F_ | B_, 18, 0, 0, 0},   /* as CO */
};

/* What stands on a point for the model: 0 off the board, 1 empty, 2 a friend, 3 an enemy. */
static int model_at(const ks_position *pos, int file, int rank) {
  if (file < 1 || file > KS_SIZE || rank < 0 || rank >= KS_SIZE) return 0;
  const ks_piece p = pos->board[ks_point(file, rank)];
  return !p ? 1 : ks_color_of(p) == KS_BLACK ? 2 : 3;
}

/* Offsets of the one-point and leap atoms, as (file step, rank step) with -1 forward. Files
 * are numbered right to left, so a step to Black's right lowers the file number. */
static int atom_offsets(const char *atom, int out[][2]) {
  static const int w[4][2] = {{0, -1}, {0, 1}, {1, 0}, {-1, 0}}, f[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  static const int n[8][2] = {{1, 2}, {1, -2}, {-1, 2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};
  int k = 0;
  for (const char *a = atom; *a; a++) {
    const int(*src)[2] = *a == 'W' || *a == 'D' ? w : *a == 'F' || *a == 'A' ? f : n;
    const int count = *a == 'N' ? 8 : 4, scale = *a == 'D' || *a == 'A' ? 2 : 1;
    for (int i = 0; i < count; i++) {
      out[k][0] = src[i][0] * scale;
      out[k][1] = src[i][1] * scale;
      k++;
    }
  }
  return k;
}

/* The points a face on (file, rank) reaches under the model: marks reach[point]. */
static void model_reach(const ks_position *pos, ks_face face, int file, int rank, bool reach[KS_POINTS]) {
  const model *m = &models[face];
  memset(reach, 0, KS_POINTS * sizeof *reach);
  /* Black's right is towards file 1: a dx of +1 (right) lowers the file number. */
  for (int d = 0; d < 8; d++) {
    const int max = (m->ride & (1 << d)) ? m->ride_max : (m->step & (1 << d)) ? 1 : 0;
    for (int k = 1; k <= max; k++) {
      const int f = file - dir_dx[d] * k, r = rank + dir_dr[d] * k, what = model_at(pos, f, r);
      if (what == 0 || what == 2) break;
      reach[ks_point(f, r)] = true;
      if (what == 3) break;
    }
  }
  int off[16][2];
  char leaps[4] = "", *l = leaps;
  if (m->leap & LEAP_D) *l++ = 'D';
  if (m->leap & LEAP_A) *l++ = 'A';
  if (m->leap & LEAP_N) *l++ = 'N';
  for (int i = 0, n = atom_offsets(leaps, off); i < n; i++) {
    const int f = file + off[i][0], r = rank + off[i][1], what = model_at(pos, f, r);
    if (what == 1 || (what == 3 && face != KS_TP && face != KS_SM)) reach[ks_point(f, r)] = true;
  }
  if (m->pattern == TWO_NONE) return;
  if (m->pattern == WALK_FREE || m->pattern == WALK_LINE) {
    /* D26, D27: up to five orthogonal steps; landings empty, enemy or the start (friends
     * never); a line piece keeps the axis of its first step */
    typedef struct { int f, r, steps, axis; } node;
    node queue[4096];
    int head = 0, tail = 0;
    queue[tail++] = (node){file, rank, 0, -1};
    while (head < tail) {
      const node at = queue[head++];
      if (at.steps == 5) continue;
      for (int d = 0; d < 8; d += 2) {
        const int axis = d % 4;
        if (m->pattern == WALK_LINE && at.axis >= 0 && axis != at.axis) continue;
        const int f = at.f - dir_dx[d], r = at.r + dir_dr[d], what = model_at(pos, f, r);
        const bool start = f == file && r == rank;
        if (!start && (what == 0 || what == 2)) continue;
        reach[ks_point(f, r)] = true;
        if (tail < 4096) queue[tail++] = (node){f, r, at.steps + 1, axis};
      }
    }
    return;
  }
  /* D28: two legs, the second optional; the first lands on an empty point or an enemy, the
   * second also on the start. Priests land on empty points only here (no enemy priests). */
  const char *legs = m->pattern == TWO_KK ? "WF" : m->pattern == TWO_FF ? "F" : m->pattern == TWO_WW ? "W"
                     : m->pattern == TWO_FD ? "FD" : m->pattern == TWO_WA ? "WA" : m->pattern == TWO_PRIEST ? "DA" : "N";
  const bool priest = m->pattern == TWO_PRIEST;
  const int n = atom_offsets(legs, off);
  for (int i = 0; i < n; i++) {
    const int f1 = file + off[i][0], r1 = rank + off[i][1], first = model_at(pos, f1, r1);
    if (!(first == 1 || (first == 3 && !priest))) continue;
    reach[ks_point(f1, r1)] = true;
    for (int j = 0; j < n; j++) {
      if (m->pattern == TWO_CAVALRY) { /* D25: the same class (long component), or straight back */
        const bool back = off[j][0] == -off[i][0] && off[j][1] == -off[i][1];
        const bool vertical_i = abs(off[i][1]) == 2, vertical_j = abs(off[j][1]) == 2;
        const int long_i = vertical_i ? off[i][1] : off[i][0], long_j = vertical_j ? off[j][1] : off[j][0];
        if (!back && !(vertical_i == vertical_j && long_i == long_j)) continue;
      }
      const int f2 = f1 + off[j][0], r2 = r1 + off[j][1], second = model_at(pos, f2, r2);
      const bool start = f2 == file && r2 == rank;
      if (start || second == 1 || (second == 3 && !priest)) reach[ks_point(f2, r2)] = true;
    }
  }
}

/* Every face on 10j, alone, among friends and among enemies: the points its legal moves end on
 * are exactly those of the model (3.2-3.4, 4.2-4.5, D22-D28). */
Test(koshogi, every_face_against_the_betza_model) {
  static const char *const settings[] = {"alone", "ringed by friends", "ringed by enemies"};
  for (int face = 1; face < KS_FACES; face++) {
    const model *m = &models[face];
    cr_assert(m->ride || m->step || m->leap || m->pattern, "no model for %s", ks_face_id((ks_face)face));
    for (int setting = 0; setting < 3; setting++) {
      ks_position pos;
      empty(&pos, KS_BLACK);
      put(&pos, "18s", KS_BLACK, KS_DR); /* so that the pawn keeps its forward step */
      put(&pos, "2s", KS_BLACK, KS_TP);  /* so that nothing reverts */
      put(&pos, "10a", KS_WHITE, KS_G);
      pos.board[pt("10j")] = ks_make(KS_BLACK, (ks_face)face);
      if (setting)
        for (int d = 0; d < 8; d++)
          pos.board[ks_point(10 - dir_dx[d], 9 + dir_dr[d])] = ks_make(setting == 1 ? KS_BLACK : KS_WHITE, KS_P);
      bool expected[KS_POINTS], got[KS_POINTS] = {false};
      model_reach(&pos, (ks_face)face, 10, 9, expected);
      ks_move moves[KS_MAX_MOVES];
      const int n = moves_of(&pos, "10j", moves);
      for (int i = 0; i < n; i++) got[moves[i].to] = true;
      for (int sq = 0; sq < KS_POINTS; sq++) {
        char point[4];
        ks_point_format(sq, point);
        cr_assert_eq(got[sq], expected[sq], "%s %s: %s %s", ks_face_id((ks_face)face), settings[setting], point,
                     expected[sq] ? "is not reached" : "is reached but should not be");
      }
    }
  }
}

/* The moves of the piece on `from` that end on `to` (any path, captures and shots). */
static int moves_to(const ks_position *pos, const char *from, const char *to, ks_move *out) {
  ks_move all[KS_MAX_MOVES];
  const int n = moves_of(pos, from, all);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (all[i].to == pt(to)) out[k++] = all[i];
  return k;
}

/* Whether some move from `from` to `to` promotes, and whether some declines. */
static void promotion_options(const ks_position *pos, const char *from, const char *to, bool *promotes,
                              bool *declines) {
  ks_move m[KS_MAX_MOVES];
  *promotes = *declines = false;
  for (int i = 0, n = moves_to(pos, from, to, m); i < n; i++) {
    if (m[i].promote) *promotes = true;
    else *declines = true;
  }
}

/* 5.2, D4, D5: zone promotion is optional, even for a piece left without moves; a move is
 * eligible if it starts in the zone (Black's: ranks a-f) or any leg lands there; passed-over
 * points and shot targets do not count. */
Test(koshogi, zone_promotion) {
  ks_position pos;
  bool promotes, declines;
  generals_only(&pos);
  put(&pos, "2s", KS_BLACK, KS_TP);
  put(&pos, "10e", KS_BLACK, KS_VG);
  promotion_options(&pos, "10e", "10a", &promotes, &declines);
  cr_assert(promotes && declines, "D4: a vanguard on the last rank need not promote");
  put(&pos, "5g", KS_BLACK, KS_CH);
  promotion_options(&pos, "5g", "5f", &promotes, &declines);
  cr_assert(promotes && declines, "into the zone (rank f)");
  promotion_options(&pos, "5g", "5h", &promotes, &declines);
  cr_assert(!promotes && declines, "outside the zone");
  put(&pos, "15c", KS_BLACK, KS_CH);
  promotion_options(&pos, "15c", "15h", &promotes, &declines);
  cr_assert(promotes && declines, "D5: out of the zone");
  /* a cavalry's two sideways jumps 10g-8f-6g: the first lands in the zone, the move ends outside */
  put(&pos, "10g", KS_BLACK, KS_CV);
  promotion_options(&pos, "10g", "6g", &promotes, &declines);
  cr_assert(promotes && declines, "D5: a leg landed in the zone");
  put(&pos, "10h", KS_BLACK, KS_CV);
  promotion_options(&pos, "10h", "12l", &promotes, &declines);
  cr_assert(!promotes && declines, "two backward jumps stay outside");
  /* a longbow steps 14h-13g and shoots a pawn on 13e, in the zone: the target does not count */
  put(&pos, "14h", KS_BLACK, KS_LB);
  put(&pos, "13e", KS_WHITE, KS_P);
  ks_move m[KS_MAX_MOVES];
  const int n = moves_to(&pos, "14h", "13g", m);
  int shots = 0;
  for (int i = 0; i < n; i++) {
    shots += m[i].nshot;
    cr_assert(!m[i].promote, "D5: a shot into the zone does not make the move eligible");
  }
  cr_assert_eq(shots, 1, "the shot itself is legal");
}

/* 5.3, D6, D7, D8: promotion by capture is compulsory, wherever the capturer stands, by
 * displacement or by a shot, applied at the end of the move; the named faces are literal. */
Test(koshogi, capture_promotion) {
  ks_position pos;
  bool promotes, declines;
  generals_only(&pos);
  put(&pos, "2s", KS_BLACK, KS_TP);
  /* any promotable piece that takes a drum */
  put(&pos, "10m", KS_BLACK, KS_CH);
  put(&pos, "10l", KS_WHITE, KS_DR);
  promotion_options(&pos, "10m", "10l", &promotes, &declines);
  cr_assert(promotes && !declines, "a chariot takes the drum: it must promote, far from the zone");
  /* a sumo wrestler promotes only a step mover that takes it (D6): a pawn, not a chariot */
  pos.board[pt("10l")] = ks_make(KS_WHITE, KS_WR);
  promotion_options(&pos, "10m", "10l", &promotes, &declines);
  cr_assert(!promotes && declines, "a chariot is not a step mover");
  put(&pos, "11l", KS_BLACK, KS_P);
  promotion_options(&pos, "11l", "10l", &promotes, &declines);
  cr_assert(promotes && !declines, "a pawn is");
  /* the face is literal: a thunderclap too, for a step mover (D7) */
  pos.board[pt("10l")] = ks_make(KS_WHITE, KS_TC);
  promotion_options(&pos, "11l", "10l", &promotes, &declines);
  cr_assert(promotes && !declines);
  /* a shot counts as a capture (D7): a longbow steps and shoots a sumo wrestler */
  generals_only(&pos);
  put(&pos, "10m", KS_BLACK, KS_LB);
  put(&pos, "9j", KS_WHITE, KS_WR);
  ks_move m[KS_MAX_MOVES];
  const int n = moves_to(&pos, "10m", "9l", m);
  int shooting = 0;
  for (int i = 0; i < n; i++) {
    if (m[i].nshot) {
      shooting++;
      cr_assert(m[i].promote && !m[i].optional, "the longbow shot a sumo wrestler: it promotes");
    } else {
      cr_assert(!m[i].promote, "the plain step does not");
    }
  }
  cr_assert_eq(shooting, 1);
  /* D8: a cavalryman promotes on taking a Frankish cannon, not a chariot of the gods */
  generals_only(&pos);
  put(&pos, "10m", KS_BLACK, KS_CM);
  put(&pos, "9k", KS_WHITE, KS_FC);
  put(&pos, "11k", KS_WHITE, KS_CG);
  promotion_options(&pos, "10m", "9k", &promotes, &declines);
  cr_assert(promotes && !declines, "a cavalryman takes a Frankish cannon");
  promotion_options(&pos, "10m", "11k", &promotes, &declines);
  cr_assert(!promotes && declines, "but not for a chariot of the gods");
  /* D7: at the end of the move: a cavalry that takes a drum with its first jump still makes
   * a cavalry's second jump (the same class), not a winged horse's */
  generals_only(&pos);
  put(&pos, "10m", KS_BLACK, KS_CV);
  put(&pos, "9k", KS_WHITE, KS_DR);
  promotion_options(&pos, "10m", "8i", &promotes, &declines);
  cr_assert(promotes && !declines, "a second forward jump after taking the drum, then the promotion");
  cr_assert_eq(moves_to(&pos, "10m", "7l", m), 0, "a winged horse's second jump is not allowed yet");
}

/* 5.4, D9: the clerk's promotion by capture has the same effect as by the zone. */
Test(koshogi, clerk_promotion_by_capture) {
  ks_position pos;
  generals_only(&pos);
  put(&pos, "2s", KS_BLACK, KS_TP);
  put(&pos, "10m", KS_BLACK, KS_CL);
  put(&pos, "9l", KS_WHITE, KS_DR);
  put(&pos, "5s", KS_BLACK, KS_AG);
  put(&pos, "15a", KS_BLACK, KS_RG); /* the guards promote wherever they stand */
  put(&pos, "3c", KS_WHITE, KS_PF);
  put(&pos, "3d", KS_BLACK, KS_PF); /* only the opponent's flames die */
  ks_move m[KS_MAX_MOVES];
  cr_assert_eq(moves_to(&pos, "10m", "9l", m), 1);
  cr_assert(m[0].promote);
  ks_play(&pos, &m[0]);
  cr_assert_eq(pos.board[pt("9l")], ks_make(KS_BLACK, KS_MR));
  cr_assert_eq(pos.board[pt("5s")], ks_make(KS_BLACK, KS_SK));
  cr_assert_eq(pos.board[pt("15a")], ks_make(KS_BLACK, KS_EW));
  cr_assert_eq(pos.board[pt("3c")], 0);
  cr_assert_eq(pos.board[pt("3d")], ks_make(KS_BLACK, KS_PF));
}

/* Whether some move of the piece on `from` shoots `target` (alone or with another shot). */
static bool shoots(const ks_position *pos, const char *from, const char *target) {
  ks_move m[KS_MAX_MOVES];
  const int n = moves_of(pos, from, m);
  for (int i = 0; i < n; i++)
    for (int s = 0; s < m[i].nshot; s++)
      if (m[i].shot[s] == pt(target)) return true;
  return false;
}

/* D13-D16, D18: shooters move first and never shoot in place; a capture by displacement ends
 * that leg's shooting; only enemy pieces, in sight, are targets, and an earlier shot of the
 * same move clears the line; the Frankish cannon fires twice, in any directions, up to 7
 * points; chariot-type pieces cannot take a heavenly fortress. */
Test(koshogi, shooting_rules) {
  ks_position pos;
  ks_move m[KS_MAX_MOVES];
  generals_only(&pos);
  put(&pos, "10j", KS_BLACK, KS_LB);
  put(&pos, "10g", KS_WHITE, KS_P); /* in line with 10j only: no shot in place (D13) */
  cr_assert(!shoots(&pos, "10j", "10g"), "D13: a shooter moves first");
  put(&pos, "9i", KS_WHITE, KS_P);
  put(&pos, "8h", KS_WHITE, KS_P); /* in line with 9i */
  cr_assert_eq(moves_to(&pos, "10j", "9i", m), 1, "D14: the longbow takes the pawn by displacement");
  cr_assert(m[0].ncap == 1 && m[0].nshot == 0, "D14: and fires no shot after it");
  pos.board[pt("9i")] = 0;
  cr_assert(shoots(&pos, "10j", "8h"), "from the empty 9i it shoots 8h");
  pos.board[pt("8h")] = ks_make(KS_BLACK, KS_P);
  cr_assert(!shoots(&pos, "10j", "8h"), "D15: never a friend");
  /* the Frankish cannon: from 9i, two shots (D16), the first clearing the line for the second */
  generals_only(&pos);
  put(&pos, "10j", KS_BLACK, KS_FC);
  put(&pos, "9f", KS_WHITE, KS_P);
  put(&pos, "9e", KS_WHITE, KS_P);
  put(&pos, "12i", KS_WHITE, KS_P);
  put(&pos, "2i", KS_WHITE, KS_P); /* 7 points from 9i */
  put(&pos, "9q", KS_WHITE, KS_P); /* 8 points from 9i */
  bool in_line = false, two_ways = false, seven = false, eight = false;
  const int n = moves_to(&pos, "10j", "9i", m);
  for (int i = 0; i < n; i++) {
    for (int s = 0; s < m[i].nshot; s++) {
      seven |= m[i].shot[s] == pt("2i");
      eight |= m[i].shot[s] == pt("9q");
    }
    if (m[i].nshot != 2) continue;
    const int a = m[i].shot[0], b = m[i].shot[1];
    if ((a == pt("9f") && b == pt("9e")) || (a == pt("9e") && b == pt("9f"))) in_line = true;
    if ((a == pt("9f") && b == pt("12i")) || (a == pt("12i") && b == pt("9f"))) two_ways = true;
  }
  cr_assert(in_line, "D15, D16: 9f, then 9e behind it");
  cr_assert(two_ways, "D16: two directions");
  cr_assert(seven, "D16: 7 points from 9i");
  cr_assert(!eight, "D16: not 8");
  /* D18: chariot, chariot unit (and +CH) and gun carriage do not take a heavenly fortress */
  static const ks_face chariots[] = {KS_CH, KS_CU, KS_PCH, KS_GC, KS_CG};
  for (size_t i = 0; i < sizeof chariots / sizeof *chariots; i++) {
    generals_only(&pos);
    put(&pos, "10h", KS_BLACK, chariots[i]);
    put(&pos, "10e", KS_WHITE, KS_HF);
    cr_assert_eq(moves_to(&pos, "10h", "10e", m), 0, "D18: %s takes the fortress", ks_face_id(chariots[i]));
    pos.board[pt("10e")] = ks_make(KS_WHITE, KS_SU);
    cr_assert_gt(moves_to(&pos, "10h", "10e", m), 0, "%s takes a shield unit", ks_face_id(chariots[i]));
  }
  generals_only(&pos);
  put(&pos, "10h", KS_BLACK, KS_MI);
  put(&pos, "10e", KS_WHITE, KS_HF);
  cr_assert_gt(moves_to(&pos, "10h", "10e", m), 0, "a millenary does");
}

/* 6.1, D29: defeated = no general, no governor, and not both middle troop and banner (either
 * face); the sole objective piece is the one critical piece, when there is exactly one. */
Test(koshogi, defeat_condition) {
  static const struct {
    ks_face pieces[3];
    bool defeated;
    int objective; /* index into pieces, or -1 */
  } cases[] = {
      {{KS_G, 0, 0}, false, 0},          {{KS_GV, 0, 0}, false, 0},         {{KS_G, KS_GV, 0}, false, -1},
      {{KS_G, KS_MA, KS_BN}, false, -1}, {{KS_MA, KS_BN, 0}, false, -1},    {{KS_MA, KS_FW, 0}, false, -1},
      {{KS_MA, 0, 0}, true, -1},         {{KS_BN, KS_FW, 0}, true, -1},     {{KS_G, KS_MA, 0}, false, 0},
      {{KS_GV, KS_BN, 0}, false, 0},     {{KS_DR, KS_P, 0}, true, -1},
  };
  static const char *const points[3] = {"10s", "11s", "9s"};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    ks_position pos;
    empty(&pos, KS_BLACK);
    put(&pos, "10a", KS_WHITE, KS_G);
    for (int i = 0; i < 3; i++)
      if (cases[c].pieces[i]) put(&pos, points[i], KS_BLACK, cases[c].pieces[i]);
    cr_assert_eq(ks_defeated(&pos, KS_BLACK), cases[c].defeated, "case %zu", c);
    cr_assert(!ks_defeated(&pos, KS_WHITE));
    const int expected = cases[c].objective < 0 ? -1 : pt(points[cases[c].objective]);
    cr_assert_eq(ks_sole_objective(&pos, KS_BLACK), expected, "case %zu", c);
  }
}

/* Make and unmake: over a 300-ply random game and the positions of the effect tests above
 * (burning, the clerk's effect, reversions), unmaking restores every position exactly. */
Test(koshogi, make_and_unmake) {
  ks_position pos;
  ks_start(&pos);
  ks_move moves[KS_MAX_MOVES];
  uint64_t r = 777;
  long checked = 0;
  for (int ply = 0; ply < 300; ply++) {
    checked += check_make_unmake(&pos);
    const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
    if (n == 0) break;
    r = r * 6364136223846793005u + 1442695040888963407u;
    ks_play(&pos, &moves[(r >> 33) % (uint64_t)n]);
  }
  cr_assert_gt(checked, 20000);
  /* a poison flame among pieces of both colours, next to a light and a fog */
  generals_only(&pos);
  put(&pos, "10j", KS_BLACK, KS_PF);
  for (int d = 0; d < 8; d++)
    if (d != 0) pos.board[ks_point(10 - dir_dx[d], 8 + dir_dr[d])] = ks_make(d % 2 ? KS_WHITE : KS_BLACK, KS_TP);
  put(&pos, "5h", KS_WHITE, KS_FG);
  put(&pos, "3h", KS_BLACK, KS_IL);
  cr_assert_gt(check_make_unmake(&pos), 0);
}

/* D20's rule option burn=enemy: a flame burns only enemy pieces, so it can never burn its own
 * general; the option is read and written as text, kept in records, and checked. */
Test(koshogi, burn_enemy_option) {
  ks_position pos;
  char err[160], text[64];
  empty(&pos, KS_BLACK);
  cr_assert_eq(ks_rules_parse("burn=enemy", &pos, err, sizeof err), 0, "%s", err);
  cr_assert_eq(pos.burn, KS_BURN_ENEMY);
  ks_rules_format(&pos, text, sizeof text);
  cr_assert_str_eq(text, "burn=enemy");
  put(&pos, "10j", KS_BLACK, KS_PF);
  put(&pos, "9h", KS_WHITE, KS_P);
  put(&pos, "11h", KS_BLACK, KS_P);
  play(&pos, "+EN-10i");
  cr_assert_eq(pos.board[pt("9h")], 0, "the enemy burns");
  cr_assert_eq(pos.board[pt("11h")], ks_make(KS_BLACK, KS_P), "the friend does not");
  /* the flame next to its own general: no self-defeat under burn=enemy */
  ks_game g;
  empty(&pos, KS_BLACK);
  put(&pos, "10j", KS_BLACK, KS_G);
  put(&pos, "10l", KS_BLACK, KS_PF);
  put(&pos, "10a", KS_WHITE, KS_G);
  cr_assert_eq(ks_rules_parse("burn=enemy", &pos, err, sizeof err), 0);
  game_from(&g, &pos);
  game_play(&g, "+EN-10k");
  cr_assert_eq(g.result, KS_ONGOING);
  cr_assert_eq(g.pos.board[pt("10j")], ks_make(KS_BLACK, KS_G));
  ks_game_free(&g);
  /* bad options leave the position as it was */
  empty(&pos, KS_BLACK);
  cr_assert_eq(ks_rules_parse("burn=enemy,burn=maybe", &pos, err, sizeof err), -1);
  cr_assert(strstr(err, "burn=maybe"), "%s", err);
  cr_assert_eq(pos.burn, KS_BURN_BOTH);
  cr_assert_eq(ks_rules_parse("", &pos, err, sizeof err), 0);
  ks_rules_format(&pos, text, sizeof text);
  cr_assert_str_eq(text, "", "the defaults are not written");
  /* a record keeps the option; it must come before the moves */
  cr_assert_eq(ks_game_init(&g), 0);
  cr_assert_eq(ks_rules_parse("burn=enemy", &g.pos, err, sizeof err), 0);
  game_play(&g, "VG-10h");
  char *record = ks_record_write(&g, "A", "B");
  cr_assert(strstr(record, "[Rules \"burn=enemy\"]"), "%s", record);
  ks_game back;
  cr_assert_eq(ks_record_read(&back, record, NULL, NULL, err, sizeof err), 0, "%s", err);
  cr_assert_eq(back.pos.burn, KS_BURN_ENEMY);
  cr_assert_eq(back.nplies, 1);
  ks_game_free(&back);
  free(record);
  ks_game_free(&g);
  cr_assert_eq(ks_record_read(&back, "1. VG-10h\n[Rules \"burn=enemy\"]\n", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "line 2") && strstr(err, "before the moves"), "%s", err);
  ks_game_free(&back);
  cr_assert_eq(ks_record_read(&back, "[Rules \"burn=all\"]\n1. VG-10h\n", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "line 1") && strstr(err, "burn=all"), "%s", err);
  ks_game_free(&back);
}

/* Ko shogi positions as text (docs/KOSHOGI.md, "Positions"): the start as documented, every face of
 * both colours beside every other, the positions of played games read back exactly, and an error
 * naming the field and the character for each way a text can be wrong. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "koshogi/koshogi.h"

/* The starting position as docs/KOSHOGI.md gives it. */
static const char start_text[] =
    "agtpencsstaiwracsogclacwraistcsensmag/rgce1qm1mi1snbnmadrsn1mi1qm1cerg/"
    "elcnxblbelcnxblbelfcellbxbcnellbxbcnel/cv1cm1cm1cm1cm1cm1cm1cm1cm1cv/1pu1p1p1p1pu1p1p1p1pu1/"
    "cusuchshchshchshchsuchshchshchshchsucu/9vg9/19/19/19/19/19/9VG9/CUSUCHSHCHSHCHSHCHSUCHSHCHSHCHSHCHSUCU/"
    "1PU1P1P1P1PU1P1P1P1PU1/CV1CM1CM1CM1CM1CM1CM1CM1CM1CV/ELCNXBLBELCNXBLBELFCELLBXBCNELLBXBCNEL/"
    "RGCE1QM1MI1SNDRMABNSN1MI1QM1CERG/AGSMENCSSTAIWRACCLGSOACWRAISTCSENTPAG b 1";

/* Writes pos, reads it back and checks that the same position and number come back, and that
 * writing again gives the same text. */
static void round_trip(const ks_position *pos, int number) {
  char text[KS_POSITION_TEXT], again[KS_POSITION_TEXT], err[200];
  cr_assert_gt(ks_position_write(pos, number, text, sizeof text), 0);
  ks_position back;
  memset(&back, 0x5a, sizeof back);
  int n = 0;
  cr_assert_eq(ks_position_parse(text, &back, &n, err, sizeof err), 0, "%s: %s", text, err);
  cr_assert(memcmp(back.board, pos->board, sizeof back.board) == 0, "%s", text);
  cr_assert_eq(back.to_move, pos->to_move, "%s", text);
  cr_assert_eq(back.burn, pos->burn, "%s", text);
  cr_assert_eq(n, number);
  cr_assert_gt(ks_position_write(&back, n, again, sizeof again), 0);
  cr_assert_str_eq(again, text);
}

Test(koshogi_position, the_start_as_documented) {
  ks_position pos, read;
  ks_start(&pos);
  char text[KS_POSITION_TEXT], err[200];
  cr_assert_eq(ks_position_write(&pos, 1, text, sizeof text), (int)strlen(start_text));
  cr_assert_str_eq(text, start_text);
  int number = 0;
  cr_assert_eq(ks_position_parse(start_text, &read, &number, err, sizeof err), 0, "%s", err);
  cr_assert(memcmp(&read, &pos, sizeof pos) == 0);
  cr_assert_eq(number, 1);
  cr_assert_eq(ks_position_write(&pos, 1, text, strlen(start_text)), -1, "no room for the NUL");
  pos.burn = KS_BURN_ENEMY;
  pos.to_move = KS_WHITE;
  round_trip(&pos, 57);
  cr_assert_eq(ks_position_parse("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 w 3 -", &read, NULL, err,
                                 sizeof err),
               0, "%s", err);
  cr_assert_eq(read.to_move, KS_WHITE);
  /* tabs and line ends separate fields as spaces do: a text read from a file */
  cr_assert_eq(ks_position_parse("\t19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19\tb\n2\r\n", &read, &number,
                                 err, sizeof err),
               0, "%s", err);
  cr_assert_eq(number, 2);
}

/* Every face of each colour just before every face of each colour, on rank j: the longest-match
 * reading of IDs never splits or joins two pieces wrongly. */
Test(koshogi_position, every_pair_of_faces) {
  for (int a = 1; a < 2 * KS_FACES; a++)
    for (int b = 1; b < 2 * KS_FACES; b++) {
      if (a % KS_FACES == 0 || b % KS_FACES == 0) continue;
      ks_position pos;
      memset(&pos, 0, sizeof pos);
      pos.board[ks_point(11, 9)] = ks_make(a / KS_FACES, (ks_face)(a % KS_FACES));
      pos.board[ks_point(10, 9)] = ks_make(b / KS_FACES, (ks_face)(b % KS_FACES));
      pos.board[ks_point(1, 9)] = ks_make(b / KS_FACES, (ks_face)(a % KS_FACES));
      round_trip(&pos, 1);
    }
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Eight games of random moves, 150 plies at most: every position on the way is read back exactly,
 * promotions, shots, burning and reversions included. */
Test(koshogi_position, the_positions_of_played_games) {
  int positions = 0;
  for (int g = 0; g < 8; g++) {
    ks_game game;
    cr_assert_eq(ks_game_init(&game), 0);
    if (g % 2) game.pos.burn = KS_BURN_ENEMY;
    while (game.result == KS_ONGOING && game.nplies < 150) {
      round_trip(&game.pos, game.nplies / 2 + 1);
      positions++;
      ks_move *moves = NULL;
      const int n = ks_legal_moves_alloc(&game.pos, &moves);
      cr_assert_gt(n, 0);
      cr_assert_eq(ks_game_play(&game, &moves[next_random() % (uint64_t)n]), 0);
      free(moves);
    }
    round_trip(&game.pos, game.nplies / 2 + 1);
    ks_game_free(&game);
  }
  cr_assert_gt(positions, 1000);
}

/* Parses text, expecting an error that contains each of the given pieces of text (the field, the
 * character, the reason); pos must be unchanged. */
static void expect_error(const char *text, const char *field, const char *where, const char *why) {
  ks_position pos;
  ks_start(&pos);
  const ks_position before = pos;
  char err[256] = "";
  int number = 77;
  cr_assert_eq(ks_position_parse(text, &pos, &number, err, sizeof err), -1, "accepted: %s", text);
  cr_assert(strncmp(err, field, strlen(field)) == 0, "\"%s\" should name the field %s", err, field);
  cr_assert(strstr(err, where), "\"%s\" should say %s", err, where);
  cr_assert(strstr(err, why), "\"%s\" should say %s", err, why);
  cr_assert(memcmp(&pos, &before, sizeof pos) == 0, "the position is unchanged");
  cr_assert_eq(number, 77);
}

/* The start's text with its first occurrence of `from` replaced by `to`. */
static const char *edited(const char *from, const char *to) {
  static char text[KS_POSITION_TEXT];
  const char *at = strstr(start_text, from);
  cr_assert(at, "%s", from);
  snprintf(text, sizeof text, "%.*s%s%s", (int)(at - start_text), start_text, to, at + strlen(from));
  return text;
}

Test(koshogi_position, every_error_names_its_field) {
  expect_error("", "ranks", "character 1", "empty");
  expect_error("   ", "ranks", "character 4", "empty");
  expect_error(edited("agtp", "agqp"), "ranks: rank a", "character 3", "\"qpe\" starts no piece ID");
  expect_error(edited("/9vg9/", "/9vG9/"), "ranks: rank g", "character 204", "mixes cases");
  expect_error(edited("/9vg9/", "/9vg10/"), "ranks: rank g", "character 207", "more than 19 points");
  expect_error(edited("/9vg9/", "/9vg8/"), "ranks: rank g", "character 207", "18 points, not 19");
  expect_error(edited("/9vg9/", "/9vg09/"), "ranks: rank g", "character 206", "not a count of empty points");
  expect_error(edited("/9vg9/", "/9vg0/9/"), "ranks: rank g", "character 206", "not a count of empty points");
  /* a run of digits far past any count is an error, not an overflow */
  expect_error(edited("/9vg9/", "/9vg99999999999999999999/"), "ranks: rank g", "character 206", "not a count of empty points");
  expect_error(edited("/9vg9/", "/9vg9/19/"), "ranks", "more than 19 ranks", "");
  expect_error(edited("/9vg9/19/", "/9vg9/"), "ranks", "18 ranks, not 19", "");
  expect_error("19/19 b 1", "ranks", "character 6", "2 ranks, not 19");
  /* the first rank's error is counted from the start of the text; rank s's from its own place */
  expect_error(edited("TPAG b", "TPAGX b"), "ranks: rank s", "character 429", "\"X\" starts no piece ID");
  expect_error(edited(" b 1", ""), "side to move", "character 429", "missing");
  expect_error(edited(" b 1", " x 1"), "side to move", "character 430", "\"x\" is neither b nor w");
  expect_error(edited(" b 1", " black 1"), "side to move", "character 430", "\"black\"");
  expect_error(edited(" b 1", " b"), "move number", "character 431", "missing");
  expect_error(edited(" b 1", " b 0"), "move number", "character 432", "\"0\" is not a number from 1");
  expect_error(edited(" b 1", " b 1x"), "move number", "character 432", "\"1x\"");
  expect_error(edited(" b 1", " b 99999999999999999999"), "move number", "character 432", "not a number");
  expect_error(edited(" b 1", " b 1 burn=maybe"), "rules", "character 434", "burn=maybe");
  expect_error(edited(" b 1", " b 1 burn=enemy 7"), "end", "character 445", "unexpected \"7\"");
}

/* A game from a set-up position with White to move: its record keeps the position (rules
 * included), numbers White's first move "N...", and reads back to the same moves. */
Test(koshogi_position, a_record_from_a_set_up_position) {
  ks_position pos;
  ks_start(&pos);
  pos.to_move = KS_WHITE;
  pos.burn = KS_BURN_ENEMY;
  ks_game game;
  cr_assert_eq(ks_game_init_at(&game, &pos, 12), 0);
  for (int i = 0; i < 7; i++) {
    ks_move *moves = NULL;
    const int n = ks_legal_moves_alloc(&game.pos, &moves);
    cr_assert_gt(n, 0);
    cr_assert_eq(ks_game_play(&game, &moves[next_random() % (uint64_t)n]), 0);
    free(moves);
  }
  cr_assert_eq(ks_game_ply_number(&game, 0), 12);
  cr_assert_eq(ks_game_ply_side(&game, 0), KS_WHITE);
  cr_assert_eq(ks_game_ply_number(&game, 1), 13);
  char *text = ks_record_write(&game, "A", "B");
  char position[KS_POSITION_TEXT], tag[KS_POSITION_TEXT + 16];
  ks_position_write(&pos, 12, position, sizeof position);
  snprintf(tag, sizeof tag, "[Position \"%s\"]\n", position);
  cr_assert(strstr(text, tag), "%s", text);
  cr_assert(strstr(text, "burn=enemy\"]"), "%s", text);
  cr_assert(strstr(text, "\n12... "), "%s", text);
  cr_assert(strstr(text, " 13. "), "%s", text);
  ks_game back;
  char err[256];
  cr_assert_eq(ks_record_read(&back, text, NULL, NULL, err, sizeof err), 0, "%s", err);
  cr_assert_eq(back.nplies, game.nplies);
  cr_assert(memcmp(&back.start, &pos, sizeof pos) == 0);
  cr_assert(memcmp(&back.pos, &game.pos, sizeof pos) == 0);
  cr_assert_eq(back.first_number, 12);
  ks_game_free(&back);
  free(text);
  ks_game_free(&game);
  cr_assert_eq(ks_record_read(&back, "1. VG-10h\n[Position \"19 b 1\"]\n", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "line 2: the [Position] tag must come before the moves"), "%s", err);
  ks_game_free(&back);
  cr_assert_eq(ks_record_read(&back, "[Position \"19 b 1\"]\n", NULL, NULL, err, sizeof err), -1);
  cr_assert(strstr(err, "line 1: [Position] ranks"), "%s", err);
  ks_game_free(&back);
}

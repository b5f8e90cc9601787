/* The browser's calls on libkoshogi (src/wasm/koshogi_wasm.c), compiled natively: the moves as
 * the page chooses them step by step, a game played and written, the help, the errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "koshogi_wasm.h"

/* A set-up position with a multi-leg move (WR 15k by 14j), a shot (LB 5m) and an optional
 * promotion (AC 3g). */
static const char *position = "9g8ch/19/19/19/19/9CH9/16AC2/19/13p5/5p13/4WR14/19/14LB4/19/19/19/19/19/9G9 b 1";

/* Whether the answer contains the text. */
static bool has(const char *answer, const char *text) { return strstr(answer, text) != NULL; }

Test(koshogi_wasm, moves_as_steps) {
  ksw_context *c = ksw_new();
  cr_assert(c);
  const char *s = ksw_start(c, position);
  cr_assert(has(s, "\"position\":\"9g8ch/"), "%s", s);
  /* 15k = row 10, column 4 = 194; 14j = 176; 13i = 158; 5m = 242, 6l = 222, 6i = 165 */
  cr_assert(has(s, "{\"from\":194,\"steps\":[[176,\"x\"],[158,\"m\"]],\"promote\":0,\"text\":\"WRx14j-13i\"}"));
  cr_assert(has(s, "{\"from\":194,\"steps\":[[176,\"x\"]],\"promote\":0,\"text\":\"WRx14j\"}"), "a capture that ends there");
  cr_assert(has(s, "{\"from\":194,\"steps\":[[176,\"x\"],[194,\"m\"]],\"promote\":0,\"text\":\"WR!14j\"}"), "igui");
  cr_assert(has(s, "{\"from\":242,\"steps\":[[222,\"m\"],[165,\"*\"]],\"promote\":0,\"text\":\"LB-6l*6i\"}"));
  cr_assert(has(s, "\"promote\":1,\"text\":\"AC-3f+\"") && has(s, "\"promote\":0,\"text\":\"AC-3f=\""));
  cr_assert(has(s, "\"toMove\":0,\"ply\":0,\"plies\":0,\"number\":1,\"firstNumber\":1,\"firstToMove\":0,\"result\":0"));
  ksw_free(c);
}

Test(koshogi_wasm, a_game_to_its_end_and_its_record) {
  ksw_context *c = ksw_new();
  ksw_start(c, position);
  const char *played[] = {"WRx14j-13i", "CH-1b", "LB-6l*6i", "CH-1a", "AC-3f+", "CH-1b", "CHx10a+"};
  const char *s = NULL;
  for (size_t i = 0; i < sizeof played / sizeof played[0]; i++) {
    s = ksw_play(c, played[i]);
    cr_assert(!has(s, "\"error\""), "%s: %s", played[i], s);
  }
  cr_assert(has(s, "\"result\":1,\"reason\":1"), "Black wins by defeat: %s", s);
  cr_assert(has(s, "\"legal\":[]"));
  cr_assert(has(s, "\"last\":{\"from\":104,\"to\":9,\"caps\":[9],\"shots\":[]}"), "%s", s);
  cr_assert(has(ksw_play(c, "G-10r"), "the game is over"));
  s = ksw_state(c, 3);
  cr_assert(has(s, "\"ply\":3,\"plies\":7") && has(s, "\"last\":{\"from\":242,\"to\":222,\"caps\":[],\"shots\":[165]}"), "%s", s);
  const char *record = ksw_record(c, "Ann", "Bob");
  cr_assert(has(record, "[Position \\\"9g8ch/") && has(record, "1. WRx14j-13i CH-1b 2. LB-6l*6i"), "%s", record);
  char copy[4096];
  snprintf(copy, sizeof copy, "[Black \"Ann\"]\n[Position \"%s\"]\n1. WRx14j-13i CH-1b\n", position);
  s = ksw_load(c, copy);
  cr_assert(has(s, "\"plies\":2") && has(s, "\"black\":\"Ann\""), "%s", s);
  s = ksw_truncate(c, 1);
  cr_assert(has(s, "\"plies\":1") && has(s, "\"toMove\":1"), "%s", s);
  ksw_free(c);
}

Test(koshogi_wasm, the_computer_moves) {
  ksw_context *c = ksw_new();
  ksw_start(c, position);
  const char *s = ksw_think(c, 50);
  cr_assert(has(s, "\"think\":{\"text\":\"CHx10a+\""), "a capture of the last general: %s", s);
  cr_assert(has(s, "\"result\":1"));
  cr_assert(has(ksw_think(c, 50), "the game is over"));
  ksw_start(c, "");
  cr_assert(has(ksw_think(c, 0), "1 to 600000 ms"));
  ksw_free(c);
}

Test(koshogi_wasm, help_and_errors) {
  ksw_context *c = ksw_new();
  const char *s = ksw_help(c, "wr", 0);
  cr_assert(has(s, "\"id\":\"WR\",\"kanji\":\"力士\"") && has(s, "\",\"section\":\"4.5\"}") && has(s, "\"at\":180"), "%s", s);
  cr_assert(has(s, "[180,2]"), "the pass marked on its own point: %s", s);
  /* each line in English and in Japanese, both from the library's tables */
  cr_assert(has(s, "{\"text\":\"moves in legs"), "%s", s);
  cr_assert(has(s, "(a pass)\",\"ja\":\"何段かに分けて動く"), "%s", s);
  cr_assert(has(s, "\"entry\":\"Sentries and officers\",\"entryJa\":\"護兵と将校\""), "%s", s);
  cr_assert(has(ksw_help(c, "LB", 1), "\"shots\":1,\"shotRange\":3"));
  /* the page shows the lines the terminal shows, from the same tables (ks_face_notes) */
  s = ksw_help(c, "CM", 0);
  cr_assert(has(s, "any of: G, MA, DR, BN, FC, +MA\",\"ja\":\"どこにいても、次のどれかを取るか撃つと必ず成る：G、MA、DR、BN、FC、+MA\",\"section\":\"5.3\""), "%s", s);
  s = ksw_help(c, "SH", 0);
  cr_assert(has(s, "no shot of LB, XB, +LB, +XB can take it\",\"ja\":\"射撃に強い：LB、XB、+LB、+XBの射撃では取られない\",\"section\":\"4.6\""), "%s", s);
  cr_assert(!has(ksw_help(c, "MA", 0), "a commanding piece ("), "6.1 names only G and GV");
  cr_assert(has(ksw_help(c, "QQ", 0), "\"error\":\"no piece has that ID\""));
  cr_assert(has(ksw_help(c, "G", 2), "\"error\""));
  cr_assert(has(ksw_start(c, "9g9 b 1"), "\"error\":\"ranks, at character 4: 1 ranks, not 19"));
  cr_assert(has(ksw_play(c, "G-10r"), "\"error\""));
  cr_assert(has(ksw_load(c, "1. XX-1a"), "\"error\":\"line 1"));
  cr_assert(has(ksw_faces(c), "{\"id\":\"G\",\"kanji\":\"将\",\"name\":\"General\"}"));
  ksw_free(c);
}

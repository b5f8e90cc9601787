#include <criterion/criterion.h>
#include <string.h>

#include "goita/goita.h"

Test(rules, defaults_are_seed_000_readings) {
  goita_rules r;
  goita_rules_default(&r);
  cr_expect_eq(r.players, 4);
  cr_expect(r.teyaku);
  cr_expect_eq(r.king_attack, GOITA_KING_ATTACK_ANY_OF_ABC);
  cr_expect_eq(r.king_face_down, GOITA_KING_FACE_DOWN_FORBIDDEN);
  cr_expect_eq(r.double_goshi, GOITA_DOUBLE_GOSHI_WIN);
  cr_expect_eq(r.goshi_both_teams, GOITA_GOSHI_REDEAL_IF_BOTH);
  cr_expect_eq(r.next_dealer, GOITA_NEXT_DEALER_WINNER);
  cr_expect_eq(r.target, 150);
  cr_expect_eq(r.draw, GOITA_DRAW_RANDOM);
}

Test(rules, parse_every_option) {
  goita_rules r;
  goita_error err;
  cr_assert_eq(goita_rules_parse(&r,
                                 "king_face_down=allowed, target=150,king_attack=a_or_last,teyaku=off,"
                                 "double_goshi=points:70,goshi_both_teams=play_if_both,next_dealer=rotate,"
                                 "draw=A2,players=4",
                                 &err),
               GOITA_OK, "%s", err.message);
  cr_expect_eq(r.king_face_down, GOITA_KING_FACE_DOWN_ALLOWED);
  cr_expect_eq(r.king_attack, GOITA_KING_ATTACK_A_OR_LAST);
  cr_expect(!r.teyaku);
  cr_expect_eq(r.double_goshi, GOITA_DOUBLE_GOSHI_POINTS);
  cr_expect_eq(r.double_goshi_points, 70);
  cr_expect_eq(r.goshi_both_teams, GOITA_GOSHI_PLAY_IF_BOTH);
  cr_expect_eq(r.next_dealer, GOITA_NEXT_DEALER_ROTATE);
  cr_expect_eq(r.draw, GOITA_DRAW_A2);
}

Test(rules, format_reads_back_to_the_same_rules) {
  const char *texts[] = {"", "king_attack=a_or_b,target=99", "players=3", "players=2,next_dealer=rotate",
                         "double_goshi=points:0,draw=C", "teyaku=off,king_face_down=allowed,draw=A1"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    goita_rules a, b;
    char buf[256], buf2[256];
    cr_assert_eq(goita_rules_parse(&a, texts[i], NULL), GOITA_OK, "%s", texts[i]);
    cr_assert_gt(goita_rules_format(&a, buf, sizeof buf), 0);
    cr_assert_eq(goita_rules_parse(&b, buf, NULL), GOITA_OK, "%s", buf);
    cr_expect_eq(memcmp(&a, &b, sizeof a), 0, "%s -> %s", texts[i], buf);
    goita_rules_format(&b, buf2, sizeof buf2);
    cr_expect_str_eq(buf, buf2);
  }
}

Test(rules, format_reports_short_buffer) {
  goita_rules r;
  goita_rules_default(&r);
  char small[16];
  cr_expect_eq(goita_rules_format(&r, small, sizeof small), GOITA_ENOSPACE);
}

static void expect_error(const char *text, int status, int position, const char *mention) {
  goita_rules r;
  goita_rules_default(&r);
  r.target = 77; /* must stay untouched on error */
  goita_error err;
  memset(&err, 0, sizeof err);
  cr_expect_eq(goita_rules_parse(&r, text, &err), status, "%s", text);
  cr_expect_eq(err.position, position, "%s: position %d", text, err.position);
  cr_expect(strstr(err.message, mention) != NULL, "\"%s\" should mention \"%s\"", err.message, mention);
  cr_expect_eq(r.target, 77);
}

Test(rules, errors_name_the_option_or_value) {
  expect_error("king_attak=a_or_b", GOITA_EOPTION, 0, "king_attak");
  expect_error("target=150,king_attack=sometimes", GOITA_EVALUE, 1, "sometimes");
  expect_error("target=150,king_attack=sometimes", GOITA_EVALUE, 1, "any_of_abc");
  expect_error("target=-5", GOITA_EVALUE, 0, "target");
  expect_error("target=15x", GOITA_EVALUE, 0, "15x");
  expect_error("target=0", GOITA_EVALUE, 0, "target");
  expect_error("players=5", GOITA_EVALUE, 0, "players");
  expect_error("teyaku", GOITA_EOPTION, 0, "name=value");
  expect_error("target=100,target=120", GOITA_EOPTION, 1, "twice");
  expect_error("double_goshi=points:", GOITA_EVALUE, 0, "points:N");
  expect_error("draw=D", GOITA_EVALUE, 0, "A1");
}

Test(rules, fewer_players_turn_teyaku_off) {
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "players=3", NULL), GOITA_OK);
  cr_expect(!r.teyaku);
  cr_expect_eq(goita_rules_hand_size(&r), 10);
  cr_expect_eq(goita_rules_sides(&r), 3);
  cr_expect_eq(goita_rules_kind_total(&r, GOITA_PAWN), 8);
  expect_error("players=3,teyaku=on", GOITA_EVALUE, -1, "players=4");
  expect_error("players=2,draw=B", GOITA_EVALUE, -1, "players=4");
  cr_assert_eq(goita_rules_parse(&r, "players=2", NULL), GOITA_OK);
  cr_expect_eq(goita_rules_hand_size(&r), 12);
  cr_expect_eq(goita_rules_side_of(&r, 1), 1);
}

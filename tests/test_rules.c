#include <criterion/criterion.h>
#include <stdio.h>
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
                         "double_goshi=points:0,draw=C", "teyaku=off,king_face_down=allowed,draw=A1",
                         "preset=french", "preset=japanese,king_face_down=allowed",
                         "players=3,three_player_set_aside=random,teyaku=on,goshi=on",
                         "goshi_decision=holder_and_partner,double_goshi=points:10000,goshi_both_teams=play_if_both",
                         "scale=ones,target=1000,double_goshi=points:1000"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    goita_rules a, b;
    char buf[GOITA_RULES_TEXT_SIZE], buf2[GOITA_RULES_TEXT_SIZE];
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

Test(rules, fewer_players_turn_teyaku_and_goshi_off_unless_asked) {
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "players=3", NULL), GOITA_OK);
  cr_expect(!r.teyaku);
  cr_expect(!r.goshi);
  cr_expect_eq(goita_rules_hand_size(&r), 10);
  cr_expect_eq(goita_rules_sides(&r), 3);
  cr_expect_eq(goita_rules_kind_total(&r, GOITA_PAWN), 8);
  cr_expect_eq(goita_rules_set_aside(&r), 0);
  /* seed 002: the base rules stay the same, so both may be asked for (RULES.md 8) */
  cr_assert_eq(goita_rules_parse(&r, "players=3,teyaku=on,goshi=on", NULL), GOITA_OK);
  cr_expect(r.teyaku);
  cr_expect(r.goshi);
  expect_error("players=2,draw=B", GOITA_EVALUE, -1, "players=4");
  cr_assert_eq(goita_rules_parse(&r, "players=2", NULL), GOITA_OK);
  cr_expect_eq(goita_rules_hand_size(&r), 12);
  cr_expect_eq(goita_rules_side_of(&r, 1), 1);
  cr_expect_eq(goita_rules_set_aside(&r), 8);
}

Test(rules, three_players_may_set_two_random_pieces_aside) {
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "players=3,three_player_set_aside=random", NULL), GOITA_OK);
  cr_expect_eq(r.three_player_set_aside, GOITA_SET_ASIDE_RANDOM);
  cr_expect_eq(goita_rules_kind_total(&r, GOITA_PAWN), 10);
  cr_expect_eq(goita_rules_set_aside(&r), 2);
  expect_error("three_player_set_aside=some", GOITA_EVALUE, 0, "random");
}

Test(rules, new_readings_parse_and_default_to_seed_000) {
  goita_rules r;
  goita_rules_default(&r);
  cr_expect(r.goshi);
  cr_expect_eq(r.goshi_decision, GOITA_GOSHI_DECISION_PARTNER);
  cr_expect_eq(r.king_b, GOITA_KING_B_HOLDS);
  cr_expect_eq(r.scale, GOITA_SCALE_TENS);
  cr_assert_eq(goita_rules_parse(&r, "goshi_decision=holder_and_partner,king_b=dealt,goshi=off", NULL), GOITA_OK);
  cr_expect_eq(r.goshi_decision, GOITA_GOSHI_DECISION_HOLDER_AND_PARTNER);
  cr_expect_eq(r.king_b, GOITA_KING_B_DEALT);
  cr_expect(!r.goshi);
  expect_error("king_b=both", GOITA_EVALUE, 0, "dealt");
  expect_error("goshi_decision=holder", GOITA_EVALUE, 0, "holder_and_partner");
}

Test(rules, presets_expand_to_their_options) {
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "preset=french", NULL), GOITA_OK);
  cr_expect_eq(r.king_attack, GOITA_KING_ATTACK_A_OR_LAST);
  cr_expect(!r.teyaku);
  cr_expect_eq(r.goshi_decision, GOITA_GOSHI_DECISION_HOLDER_AND_PARTNER);
  cr_expect_eq(r.next_dealer, GOITA_NEXT_DEALER_ROTATE);
  cr_expect_eq(r.scale, GOITA_SCALE_ONES);
  cr_expect_eq(r.target, 150); /* the same game, shown as 15 */
  cr_expect_eq(goita_rules_shown_points(&r, r.target), 15);
  cr_expect_str_eq(goita_rules_preset(&r), "french");

  cr_assert_eq(goita_rules_parse(&r, "preset=japanese", NULL), GOITA_OK);
  cr_expect_eq(r.king_attack, GOITA_KING_ATTACK_A_OR_B);
  cr_expect_eq(r.king_b, GOITA_KING_B_DEALT);
  cr_expect_str_eq(goita_rules_preset(&r), "japanese");

  cr_assert_eq(goita_rules_parse(&r, "", NULL), GOITA_OK);
  cr_expect_str_eq(goita_rules_preset(&r), "standard");
  /* the game's length and the number of players do not change the rule set's name */
  cr_assert_eq(goita_rules_parse(&r, "preset=french,target=20,players=3", NULL), GOITA_OK);
  cr_expect_eq(r.target, 200);
  cr_expect_str_eq(goita_rules_preset(&r), "french");
  /* an option after the preset overrides it, and the rules are then no preset */
  cr_assert_eq(goita_rules_parse(&r, "preset=french,next_dealer=winner", NULL), GOITA_OK);
  cr_expect_eq(r.next_dealer, GOITA_NEXT_DEALER_WINNER);
  cr_expect_null(goita_rules_preset(&r));
  expect_error("target=100,preset=french", GOITA_EOPTION, 1, "first");
  expect_error("preset=dutch", GOITA_EVALUE, 0, "french");
}

Test(rules, scale_ones_reads_and_writes_numbers_in_ones) {
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "target=20,double_goshi=points:7,scale=ones", NULL), GOITA_OK);
  cr_expect_eq(r.target, 200);
  cr_expect_eq(r.double_goshi_points, 70);
  char text[GOITA_RULES_TEXT_SIZE];
  cr_assert_gt(goita_rules_format(&r, text, sizeof text), 0);
  cr_expect(strstr(text, "target=20,") != NULL, "%s", text);
  cr_expect(strstr(text, "double_goshi=points:7,") != NULL, "%s", text);
  r.target = 155; /* set directly: the ones scale cannot show it */
  goita_error err;
  cr_expect_eq(goita_rules_validate(&r, &err), GOITA_EVALUE);
  cr_expect(strstr(err.message, "multiple of 10") != NULL, "%s", err.message);
}

Test(rules, french_preset_keeps_the_five_pawn_rule_with_fewer_players) {
  /* RULES.md 8 and 11: seed 002's variants keep its base rules, 5 pawns included. */
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "preset=french,players=3", NULL), GOITA_OK);
  cr_expect(r.goshi);
  cr_expect(!r.teyaku);
  cr_expect_eq(r.double_goshi, GOITA_DOUBLE_GOSHI_DECIDE);
  cr_expect_eq(r.king_face_down, GOITA_KING_FACE_DOWN_ALLOWED);
  cr_expect_str_eq(goita_rules_preset(&r), "french");
  cr_assert_eq(goita_rules_parse(&r, "preset=french,players=2,goshi=off", NULL), GOITA_OK);
  cr_expect(!r.goshi);
  cr_expect_null(goita_rules_preset(&r));
  cr_assert_eq(goita_rules_parse(&r, "preset=standard,players=3", NULL), GOITA_OK);
  cr_expect(!r.goshi);
  cr_expect_str_eq(goita_rules_preset(&r), "standard");
  /* the new value reads back from what format writes */
  char text[GOITA_RULES_TEXT_SIZE];
  goita_rules back;
  cr_assert_gt(goita_rules_format(&r, text, sizeof text), 0);
  cr_assert_eq(goita_rules_parse(&r, "double_goshi=redeal_or_play", NULL), GOITA_OK);
  cr_assert_gt(goita_rules_format(&r, text, sizeof text), 0);
  cr_expect(strstr(text, "double_goshi=redeal_or_play") != NULL, "%s", text);
  cr_assert_eq(goita_rules_parse(&back, text, NULL), GOITA_OK);
  cr_expect_eq(back.double_goshi, GOITA_DOUBLE_GOSHI_DECIDE);
}

Test(rules, an_unknown_option_error_names_every_option_or_the_nearest) {
  /* The list used to be cut at the 200 bytes of goita_error.message, never reaching scale. */
  expect_error("foo=1", GOITA_EOPTION, 0, "three_player_set_aside,scale)");
  expect_error("target=100,an_option_name_long_enough_to_fill_the_whole_line=1", GOITA_EOPTION, 1, ",scale)");
  expect_error("TARGET=100", GOITA_EOPTION, 0, "did you mean target?");
  expect_error("king_atack=a_or_b", GOITA_EOPTION, 0, "did you mean king_attack?");
}

Test(rules, a_number_on_the_ones_scale_is_checked_as_written) {
  /* 10000 on the ones scale was reported as "100000 points", a number never typed. */
  expect_error("scale=ones,target=10000", GOITA_EVALUE, 1, "target: 10000 is too large on scale=ones");
  expect_error("target=1001,scale=ones", GOITA_EVALUE, 0, "from 1 to 1000");
  expect_error("scale=ones,double_goshi=points:1001", GOITA_EVALUE, 1, "N from 0 to 1000");
  goita_rules r;
  cr_assert_eq(goita_rules_parse(&r, "scale=ones,target=1000", NULL), GOITA_OK);
  cr_expect_eq(r.target, 10000);
}

Test(rules, the_options_table_reads_writes_and_defaults_every_option) {
  size_t count = 0;
  const goita_rule_option *o = goita_rules_options(&count);
  cr_assert_eq(count, 15);
  cr_expect_str_eq(o[0].name, "preset");
  /* every default as written gives the defaults; the writer writes the options in table order */
  goita_rules def, r;
  goita_rules_default(&def);
  char text[GOITA_RULES_TEXT_SIZE] = "", one[96];
  for (size_t i = 1; i < count; i++) {
    snprintf(one, sizeof one, "%s%s=%s", i > 1 ? "," : "", o[i].name, o[i].default_value);
    strcat(text, one);
  }
  char written[GOITA_RULES_TEXT_SIZE];
  cr_assert_gt(goita_rules_format(&def, written, sizeof written), 0);
  cr_expect_str_eq(written, text);
  cr_assert_eq(goita_rules_parse(&r, text, NULL), GOITA_OK);
  cr_expect(memcmp(&r, &def, sizeof r) == 0);
  /* every named value reads, writes back as itself, and a section and a help line are given */
  for (size_t i = 0; i < count; i++) {
    cr_expect(o[i].section && *o[i].section && o[i].help && *o[i].help && o[i].seeds, "%s", o[i].name);
    cr_expect_eq(o[i].values == NULL, o[i].kind == GOITA_RULE_OPTION_NUMBER, "%s", o[i].name);
    for (int v = 0; o[i].values && o[i].values[v]; v++) {
      snprintf(one, sizeof one, "%s=%s", o[i].name, o[i].values[v]);
      goita_error err;
      cr_expect_eq(goita_rules_parse(&r, one, &err), GOITA_OK, "%s: %s", one, err.message);
      if (i == 0) continue;
      cr_assert_gt(goita_rules_format(&r, written, sizeof written), 0);
      cr_expect(strstr(written, one) != NULL, "%s not in %s", one, written);
    }
  }
}

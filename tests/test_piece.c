#include <criterion/criterion.h>
#include <string.h>

#include "goita/goita.h"

Test(piece, values_follow_rules_section_1) {
  const int expect[] = {0, 10, 20, 20, 30, 30, 40, 40, 50};
  for (int k = 0; k <= 8; k++) cr_expect_eq(goita_kind_value(k), expect[k], "kind %d", k);
  cr_expect_eq(goita_kind_value(goita_mark_kind(9)), 50);
}

Test(piece, the_set_has_32_pieces) {
  int total = 0;
  for (int k = 1; k <= 8; k++) total += goita_kind_total(k);
  cr_expect_eq(total, GOITA_PIECES);
}

Test(piece, kings_are_one_kind) {
  cr_expect_eq(goita_mark_kind(8), GOITA_KING);
  cr_expect_eq(goita_mark_kind(9), GOITA_KING);
  cr_expect_eq(goita_mark_kind(0), GOITA_NONE);
  cr_expect_eq(goita_mark_kind(10), GOITA_NONE);
}

Test(piece, draw_ranks) {
  cr_expect_eq(goita_mark_draw_rank(8), 1);
  cr_expect_eq(goita_mark_draw_rank(9), 2);
  cr_expect_eq(goita_mark_draw_rank(7), 3);
  cr_expect_eq(goita_mark_draw_rank(1), 9);
  cr_expect_eq(goita_mark_draw_rank(0), 0);
}

Test(piece, names) {
  cr_expect_str_eq(goita_mark_kanji(8), "王");
  cr_expect_str_eq(goita_mark_kanji(9), "玉");
  cr_expect_str_eq(goita_mark_kanji(1), "し");
  cr_expect_str_eq(goita_mark_kanji(3), "馬");
  cr_expect_str_eq(goita_mark_english(7), "rook");
  cr_expect_eq(goita_mark_ascii(6), 'B');
  cr_expect_str_eq(goita_mark_kanji(42), "?");
}

Test(status, table) {
  cr_expect_str_eq(goita_err_name(GOITA_EILLEGAL), "EILLEGAL");
  cr_expect_str_eq(goita_strerror(GOITA_OK), "success");
  cr_expect_str_eq(goita_strerror(-999), "unknown status");
}

/* Piece tables (RULES.md 1). */
#include "goita/piece.h"

int goita_mark_kind(int mark) {
  if (mark == GOITA_MARK_GYOKU) return GOITA_KING;
  if (mark < 1 || mark > 8) return GOITA_NONE;
  return mark;
}

int goita_kind_value(int kind) {
  static const int value[GOITA_KIND_SLOTS] = {0, 10, 20, 20, 30, 30, 40, 40, 50};
  return kind >= 0 && kind < GOITA_KIND_SLOTS ? value[kind] : 0;
}

int goita_kind_total(int kind) {
  static const int total[GOITA_KIND_SLOTS] = {0, 10, 4, 4, 4, 4, 2, 2, 2};
  return kind >= 0 && kind < GOITA_KIND_SLOTS ? total[kind] : 0;
}

int goita_mark_draw_rank(int mark) {
  /* 王 1, 玉 2, then 飛 (7) 3 down to し (1) 9. */
  if (mark == GOITA_MARK_OU) return 1;
  if (mark == GOITA_MARK_GYOKU) return 2;
  if (mark >= 1 && mark <= 7) return 10 - mark;
  return 0;
}

const char *goita_mark_kanji(int mark) {
  static const char *const kanji[10] = {"?", "し", "香", "馬", "銀", "金", "角", "飛", "王", "玉"};
  return mark >= 1 && mark <= 9 ? kanji[mark] : "?";
}

const char *goita_mark_english(int mark) {
  static const char *const names[10] = {"none",   "pawn",   "lance", "knight", "silver",
                                        "gold",   "bishop", "rook",  "king",   "king"};
  return mark >= 0 && mark <= 9 ? names[mark] : "none";
}

char goita_mark_ascii(int mark) {
  static const char letters[11] = "?PLNSGBRKk";
  return mark >= 1 && mark <= 9 ? letters[mark] : '?';
}

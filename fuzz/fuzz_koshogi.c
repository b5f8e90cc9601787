/* Fuzz target: the Ko shogi notation and positions. The input is read as a game record (every
 * move parsed and played, from a [Position] tag's position when it has one); any move the parser
 * accepts, written again, must read back as the same move. The input is also read as a position
 * text: one that is accepted, written again, must read back as the same position. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "koshogi/koshogi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4000) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ks_game game;
  char err[256], black[64], white[64];
  const int st = ks_record_read(&game, text, black, white, err, sizeof err);
  FUZZ_CHECK(st == 0 || err[0] != '\0');
  /* every move played reads back from its own text */
  ks_position pos = game.start;
  for (int i = 0; i < game.nplies; i++) {
    char written[64];
    ks_move back;
    FUZZ_CHECK(ks_move_format(&pos, &game.moves[i], written, sizeof written) > 0);
    FUZZ_CHECK(ks_move_parse(&pos, written, &back, err, sizeof err) == 0);
    FUZZ_CHECK(back.from == game.moves[i].from && back.to == game.moves[i].to &&
               back.promote == game.moves[i].promote);
    ks_play(&pos, &game.moves[i]);
  }
  ks_game_free(&game);
  int number = 0;
  if (ks_position_parse(text, &pos, &number, err, sizeof err) == 0) {
    char written[KS_POSITION_TEXT];
    ks_position back;
    int number2 = 0;
    FUZZ_CHECK(ks_position_write(&pos, number, written, sizeof written) > 0);
    FUZZ_CHECK(ks_position_parse(written, &back, &number2, err, sizeof err) == 0);
    FUZZ_CHECK(memcmp(&back, &pos, sizeof pos) == 0 && number2 == number);
  } else {
    FUZZ_CHECK(err[0] != '\0');
  }
  free(text);
  return 0;
}

/* Fuzz target: player specs (goita_player_new). A spec that reads writes itself out in full,
 * and that full spec reads back to itself. Specs naming a table size are skipped: a large one
 * is a legitimate request for gigabytes. */
#include <string.h>

#include "fuzz.h"
#include "goita/goita.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 300) return 0;
  char text[301];
  memcpy(text, data, size);
  text[size] = '\0';
  if (strlen(text) != size || strstr(text, "tt_mb")) return 0;
  goita_player *p = NULL;
  goita_error err;
  if (goita_player_new(&p, text, &err) != GOITA_OK) {
    FUZZ_CHECK(p == NULL && err.message[0] != '\0');
    return 0;
  }
  goita_player *again = NULL;
  FUZZ_CHECK(goita_player_new(&again, goita_player_spec(p), &err) == GOITA_OK);
  FUZZ_CHECK(strcmp(goita_player_spec(p), goita_player_spec(again)) == 0);
  goita_player_free(again);
  goita_player_free(p);
  return 0;
}

/* Fuzz target: history strings, full and hidden (goita_history_parse, goita_history_parse_view).
 * Besides not crashing, whatever reads must write out and read back to the same state. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "goita/goita.h"

static const char *const option_sets[] = {"", "king_face_down=allowed", "teyaku=off,king_attack=a_or_b",
                                          "players=3", "players=2", "goshi_both_teams=play_if_both"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 600) return 0;
  goita_rules rules;
  goita_rules_parse(&rules, option_sets[data[0] % 6], NULL);
  char text[640];
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';

  goita_round r, again;
  goita_error err;
  if (goita_history_parse(&r, &rules, text, &err) == GOITA_OK) {
    char out[512];
    FUZZ_CHECK(goita_history_format(&r, out, sizeof out) > 0);
    FUZZ_CHECK(goita_history_parse(&again, &rules, out, &err) == GOITA_OK);
    FUZZ_CHECK(memcmp(&r, &again, sizeof r) == 0);
  } else {
    FUZZ_CHECK(err.message[0] != '\0');
  }

  goita_view v, back;
  if (goita_history_parse_view(&v, &rules, text, GOITA_VIEWER_INFER, &err) == GOITA_OK) {
    char out[512];
    FUZZ_CHECK(goita_history_format_view(&v, out, sizeof out) > 0);
    FUZZ_CHECK(goita_history_parse_view(&back, &rules, out, v.seat, &err) == GOITA_OK);
    FUZZ_CHECK(memcmp(&v, &back, sizeof v) == 0);
  } else {
    FUZZ_CHECK(err.message[0] != '\0');
  }
  return 0;
}

/* Fuzz target: rule option text (goita_rules_parse). Options that read write out and read
 * back to the same rules. */
#include <string.h>

#include "fuzz.h"
#include "goita/goita.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1000) return 0;
  char text[1001];
  memcpy(text, data, size);
  text[size] = '\0';
  goita_rules rules, again;
  goita_error err;
  if (goita_rules_parse(&rules, text, &err) != GOITA_OK) {
    FUZZ_CHECK(err.message[0] != '\0');
    return 0;
  }
  char out[512];
  FUZZ_CHECK(goita_rules_format(&rules, out, sizeof out) > 0);
  FUZZ_CHECK(goita_rules_parse(&again, out, &err) == GOITA_OK);
  FUZZ_CHECK(memcmp(&rules, &again, sizeof rules) == 0);
  return 0;
}

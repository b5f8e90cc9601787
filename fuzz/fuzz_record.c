/* Fuzz target: full-game JSON records (goita_record_read_json). A record that reads writes out
 * and reads back to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "goita/goita.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 200000) return 0;
  goita_record rec;
  goita_error err;
  if (goita_record_read_json(&rec, (const char *)data, size, &err) != GOITA_OK) {
    FUZZ_CHECK(err.message[0] != '\0' && rec.rounds == NULL);
    return 0;
  }
  char *first = NULL, *second = NULL;
  FUZZ_CHECK(goita_record_write_json(&rec, &first, &err) == GOITA_OK);
  goita_record back;
  FUZZ_CHECK(goita_record_read_json(&back, first, strlen(first), &err) == GOITA_OK);
  FUZZ_CHECK(goita_record_write_json(&back, &second, &err) == GOITA_OK);
  FUZZ_CHECK(strcmp(first, second) == 0);
  free(first);
  free(second);
  goita_record_free(&back);
  goita_record_free(&rec);
  return 0;
}

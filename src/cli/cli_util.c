/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool cli_parse_u64(const char *opt, const char *text, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (errno || !end || *end || text[0] == '-' || text[0] == '\0') {
    fprintf(stderr, "goita: %s: \"%s\" is not a non-negative whole number\n", opt, text);
    return false;
  }
  *out = (uint64_t)v;
  return true;
}

bool cli_parse_rules(const char *text, goita_rules *rules) {
  goita_error err;
  if (goita_rules_parse(rules, text, &err) != GOITA_OK) {
    fprintf(stderr, "goita: --rules: %s\n", err.message);
    return false;
  }
  return true;
}

const char *cli_option_value(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "goita: %s needs a value\n", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

const char *cli_mark(int mark, bool ascii) {
  static const char *const letters[10] = {"?", "P", "L", "N", "S", "G", "B", "R", "K", "k"};
  if (!ascii) return goita_mark_kanji(mark);
  return mark >= 1 && mark <= 9 ? letters[mark] : "?";
}

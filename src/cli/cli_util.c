/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

bool cli_parse_range(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi, const char *unit,
                     uint64_t *out) {
  if (!cli_parse_u64(opt, text, out)) return false;
  if (*out < lo || *out > hi) {
    fprintf(stderr, "goita %s: %s is %llu-%llu%s%s\n", cmd, opt, (unsigned long long)lo, (unsigned long long)hi,
            unit ? " " : "", unit ? unit : "");
    return false;
  }
  return true;
}

bool cli_parse_table_mb(const char *cmd, const char *text, uint64_t *mb) {
  return cli_parse_range(cmd, "--tt-mb", text, 1, 65536, "(MiB)", mb);
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

char *cli_read_file(const char *path, size_t *len) {
  const bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "goita: cannot open %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t size = 0, cap = 4096;
  char *buf = malloc(cap);
  for (size_t n; buf && (n = fread(buf + size, 1, cap - size - 1, f)) > 0;) {
    size += n;
    if (size + 1 == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) free(buf);
      buf = grown;
    }
  }
  const bool failed = !buf || ferror(f);
  if (!is_stdin) fclose(f);
  if (failed) {
    fprintf(stderr, "goita: cannot read %s%s\n", is_stdin ? "standard input" : path, buf ? "" : ": out of memory");
    free(buf);
    return NULL;
  }
  buf[size] = '\0';
  *len = size;
  return buf;
}

bool cli_write_file(const char *path, const char *text) {
  /* Written beside the target and renamed over it, so a full disk never leaves half a file
   * where a good one was. */
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
    fprintf(stderr, "goita: path too long: %s\n", path);
    return false;
  }
  FILE *f = fopen(tmp, "wb");
  const size_t len = strlen(text);
  bool ok = f && fwrite(text, 1, len, f) == len && fputc('\n', f) != EOF;
  if (f && fclose(f) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "goita: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp);
  }
  return ok;
}

void cli_utc_now(char *buf, size_t size) {
  const time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cli_json_string(FILE *out, const char *text) {
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(out, "\\u%04x", *c);
    else
      fputc(*c, out);
  }
}

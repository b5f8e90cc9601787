/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "files.h"

bool cli_read_rules(const char *text, void *target, char *why, size_t size) {
  goita_error err;
  if (goita_rules_parse(target, text, &err) == GOITA_OK) return true;
  snprintf(why, size, "%s", err.message);
  return false;
}

cli_option cli_rules_option(goita_rules *rules) {
  return (cli_option){"--rules", CLI_READ, "OPTS", rules,
                      "rule options, e.g. preset=french or target=100,king_face_down=allowed "
                      "(goita rules lists them)",
                      .fallback = "the standard rules", .read = cli_read_rules};
}

cli_option cli_tt_mb_option(uint64_t *mb) {
  return (cli_option){"--tt-mb", CLI_UINT, "N", mb, "the size of the solver's transposition table",
                      .lo = 1, .hi = 65536, .unit = "MiB"};
}

bool cli_check_writable(const char *cmd, const char *path) {
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
    fprintf(stderr, "goita %s: path too long: %s\n", cmd, path);
    return false;
  }
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "goita %s: cannot write %s: it is a folder\n", cmd, path);
    return false;
  }
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    fprintf(stderr, "goita %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    return false;
  }
  fclose(f);
  remove(tmp);
  return true;
}

const char *cli_mark(int mark, bool ascii) {
  static const char *const letters[10] = {"?", "P", "L", "N", "S", "G", "B", "R", "K", "k"};
  if (!ascii) return goita_mark_kanji(mark);
  return mark >= 1 && mark <= 9 ? letters[mark] : "?";
}

char *cli_read_file(const char *cmd, const char *path, size_t *len) {
  char why[256];
  char *text = cli_file_read(path, true, len, why, sizeof why);
  if (!text) fprintf(stderr, "goita %s: cannot read %s: %s\n", cmd, strcmp(path, "-") ? path : "standard input", why);
  return text;
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

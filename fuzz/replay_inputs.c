/* Runs a fuzz target over files without libFuzzer: the seed corpus and the regression inputs
 * (fuzz/regressions) are replayed by the ordinary test suite with any compiler.
 * Usage: fuzz_X_replay FILE_OR_DIR... */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  static uint8_t buf[1 << 20];
  const size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  return 0;
}

int main(int argc, char **argv) {
  int failures = 0, files = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      failures += run_file(argv[i]);
      files++;
      continue;
    }
    DIR *dir = opendir(argv[i]);
    for (struct dirent *e; dir && (e = readdir(dir));) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      failures += run_file(path);
      files++;
    }
    if (dir) closedir(dir);
  }
  printf("%d inputs replayed\n", files);
  return failures || files == 0;
}

/* Reading and checking the files a command names, with the reason when it cannot. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *cli_file_read(const char *path, bool dash_is_stdin, size_t *len, char *why, size_t size) {
  const bool is_stdin = dash_is_stdin && strcmp(path, "-") == 0;
  /* fopen opens a folder for reading on Linux and the first read fails with EISDIR; saying so
   * in words is clearer than "Is a directory", and the same for every command. */
  struct stat st;
  if (!is_stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(why, size, "it is a folder");
    return NULL;
  }
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    snprintf(why, size, "%s", strerror(errno));
    return NULL;
  }
  size_t used = 0, cap = 4096;
  char *buf = malloc(cap);
  int error = 0;
  for (size_t n; buf && (n = fread(buf + used, 1, cap - used - 1, f)) > 0;) {
    used += n;
    if (used + 1 == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) free(buf);
      buf = grown;
    }
  }
  if (buf && ferror(f)) error = errno ? errno : EIO;
  if (!is_stdin) fclose(f);
  if (!buf || error) {
    snprintf(why, size, "%s", buf ? strerror(error) : "out of memory");
    free(buf);
    return NULL;
  }
  buf[used] = '\0';
  if (len) *len = used;
  return buf;
}

bool cli_file_check_new(const char *path, char *why, size_t size) {
  struct stat st;
  if (stat(path, &st) == 0) {
    snprintf(why, size, "%s", S_ISDIR(st.st_mode) ? "it is a folder" : "the file exists");
    return false;
  }
  const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    snprintf(why, size, "%s", strerror(errno));
    return false;
  }
  close(fd);
  unlink(path);
  return true;
}

bool cli_file_check_folder(const char *dir, char *why, size_t size) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    snprintf(why, size, "%s", strerror(errno));
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    snprintf(why, size, "it is not a folder");
    return false;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    snprintf(why, size, "%s", strerror(errno));
    return false;
  }
  return true;
}

/* Reading and checking the files a command names, for the goita and koshogi commands alike:
 * one place that says why a file cannot be read or written ("it is a folder", the system's
 * reason), so every command's error gives the reason. Depends on neither library. */
#ifndef CLI_FILES_H
#define CLI_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Reads the whole file at path ("-" for standard input when dash_is_stdin) into a new
 * zero-terminated string, its length in *len (may be NULL). Returns NULL with why filled (a
 * folder, a missing file, the system's reason, out of memory); prints nothing. */
char *cli_file_read(const char *path, bool dash_is_stdin, size_t *len, char *why, size_t size);

/* Checks, before a long game, that a new file can be made at path: false with why filled when
 * path exists (a folder included) or its folder cannot take a new file. The check makes the
 * file and removes it again. */
bool cli_file_check_new(const char *path, char *why, size_t size);

/* Checks that dir is a folder new files can be made in; false with why filled. */
bool cli_file_check_folder(const char *dir, char *why, size_t size);

#endif

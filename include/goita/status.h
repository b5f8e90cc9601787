/* Status codes shared by every libgoita function: 0 is success, negative is an error. */
#ifndef GOITA_STATUS_H
#define GOITA_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's public functions: the library is built with hidden visibility, so only
 * what carries GOITA_API is exported from the shared library. */
#if defined(__GNUC__)
#define GOITA_API __attribute__((visibility("default")))
#else
#define GOITA_API
#endif

/* One table for every error: name, code and message. */
#define GOITA_STATUS_MAP(X)                                              \
  X(OK, 0, "success")                                                    \
  X(EINVAL, -1, "invalid argument")                                      \
  X(EPARSE, -2, "malformed text")                                        \
  X(EOPTION, -3, "unknown rule option")                                  \
  X(EVALUE, -4, "invalid rule option value")                             \
  X(EILLEGAL, -5, "illegal move")                                        \
  X(ETURN, -6, "not this seat's turn")                                   \
  X(EOVER, -7, "the round or game is over")                              \
  X(ENOSPACE, -8, "output buffer too small")                             \
  X(EDEAL, -9, "invalid deal")                                           \
  X(ESTATE, -10, "operation not valid in this state")                   \
  X(ENOMEM, -11, "out of memory")

typedef enum goita_status {
#define GOITA__STATUS_ENUM(name, code, msg) GOITA_##name = (code),
  GOITA_STATUS_MAP(GOITA__STATUS_ENUM)
#undef GOITA__STATUS_ENUM
} goita_status;

/* Returns the message for a status code ("unknown status" for a code not in the table). */
GOITA_API const char *goita_strerror(int status);

/* Returns the name of a status code without prefix ("EILLEGAL"), or "UNKNOWN". */
GOITA_API const char *goita_err_name(int status);

/* Details of a failure: the status, where it happened (token index, character offset or
 * option number, -1 when not applicable) and a sentence naming what was wrong. */
typedef struct goita_error {
  int status;
  int position;
  char message[200];
} goita_error;

/* Fills err (when not NULL) and returns status. Used by the library; a caller may use it too. */
GOITA_API int goita_error_set(goita_error *err, int status, int position, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif

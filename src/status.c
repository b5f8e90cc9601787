/* Status table and error details. */
#include <stdarg.h>
#include <stdio.h>

#include "goita/goita.h"

const char *goita_strerror(int status) {
  switch (status) {
#define GOITA__STATUS_MSG(name, code, msg) \
  case (code):                             \
    return (msg);
    GOITA_STATUS_MAP(GOITA__STATUS_MSG)
#undef GOITA__STATUS_MSG
  }
  return "unknown status";
}

const char *goita_err_name(int status) {
  switch (status) {
#define GOITA__STATUS_NAME(name, code, msg) \
  case (code):                              \
    return #name;
    GOITA_STATUS_MAP(GOITA__STATUS_NAME)
#undef GOITA__STATUS_NAME
  }
  return "UNKNOWN";
}

int goita_error_set(goita_error *err, int status, int position, const char *fmt, ...) {
  if (err) {
    err->status = status;
    err->position = position;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

const char *goita_version(void) { return GOITA_VERSION_STRING; }

/* The operators' log (log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static char log_node[64] = "goita";

void srv_log_node(const char *node) { snprintf(log_node, sizeof log_node, "%s", node && *node ? node : "goita"); }

void srv_log(const char *fmt, ...) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct tm tm;
  gmtime_r(&now.tv_sec, &tm);
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  /* one fprintf per line: lines of several threads never interleave */
  fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %s %s\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
          tm.tm_hour, tm.tm_min, tm.tm_sec, now.tv_nsec / 1000000, log_node, text);
}

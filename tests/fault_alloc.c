/* The counting allocator of fault_alloc.h: the linker sends the program's calls of malloc,
 * calloc, realloc and strdup here (-Wl,--wrap=...), and __real_X is the C library's. */
#include "fault_alloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
/* GOITA_FAULT_TRACE=1 shows where the failing allocation was made (sanitizer builds). */
#define TRACE() (getenv("GOITA_FAULT_TRACE") ? __sanitizer_print_stack_trace() : (void)0)
#else
#define TRACE() ((void)0)
#endif

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);

static long counted, fail_at;
static bool fired;
static int paused;

void fault_alloc_fail_at(long n) {
  counted = 0;
  fail_at = n > 0 ? n : 0;
  fired = false;
}

bool fault_alloc_fired(void) { return fired; }

long fault_alloc_count(void) { return counted; }

void fault_alloc_pause(void) { paused++; }

void fault_alloc_resume(void) { paused--; }

/* Counts one allocation; returns whether it is the one to fail. */
static bool fails(void) {
  if (paused) return false;
  if (++counted != fail_at) return false;
  fired = true;
  TRACE();
  return true;
}

void *__wrap_malloc(size_t size) { return fails() ? NULL : __real_malloc(size); }

void *__wrap_calloc(size_t n, size_t size) { return fails() ? NULL : __real_calloc(n, size); }

/* A failed realloc leaves the block as it was, as the C library's does. */
void *__wrap_realloc(void *p, size_t size) { return fails() ? NULL : __real_realloc(p, size); }

char *__wrap_strdup(const char *s) {
  const size_t n = strlen(s) + 1;
  char *copy = __wrap_malloc(n);
  return copy ? memcpy(copy, s, n) : NULL;
}

static void *json_counted_malloc(size_t size) { return __wrap_malloc(size); }

void fault_alloc_install(void) { json_set_alloc_funcs(json_counted_malloc, free); }

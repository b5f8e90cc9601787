/* Fault injection for allocations, as SQLite's tests fail the N-th malloc (docs/SERVER.md
 * "Fault injection"). Linked only into a test program, with -Wl,--wrap=malloc (and calloc,
 * realloc, strdup): every allocation made by the code linked into that program (the program,
 * libgoita, libgoita-record, the server's library) and, once fault_alloc_install has run, by
 * jansson is counted, and the one armed fails. Single-threaded use only. */
#ifndef GOITA_TESTS_FAULT_ALLOC_H
#define GOITA_TESTS_FAULT_ALLOC_H

#include <stdbool.h>

/* Sends jansson's allocations (the server's JSON, libgoita-record's) through the counter too. */
void fault_alloc_install(void);
/* The n-th allocation from now (counting from 1) fails, once; 0 fails none. Counting restarts. */
void fault_alloc_fail_at(long n);
/* Whether the armed allocation has come (and failed). */
bool fault_alloc_fired(void);
/* Allocations counted since the last fault_alloc_fail_at. */
long fault_alloc_count(void);
/* The test's own work between these (reading what the hub sent, say) is neither counted nor
 * failed; they nest. */
void fault_alloc_pause(void);
void fault_alloc_resume(void);

#endif

/* The solver's transposition table (solver_table.c; docs/SOLVER.md "The table"): buckets of
 * four 16-byte entries in one cache line, in two parts. The probes are inline, for the search.
 * Internal to the library. */
#ifndef GOITA_SOLVER_TABLE_H
#define GOITA_SOLVER_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "solver_internal.h"

/* The table has two parts. Positions with few pieces are many and each saves little: they
 * share a small near part that stays in the core's cache, so that their probes are cheap and
 * cannot evict the entries of big subtrees, which have the far part to themselves. */
#define NEAR_PIECES 24
#define NEAR_BYTES_MAX ((size_t)1 << 20)

/* The bucket of key, for a position with that many pieces. */
static inline tt_bucket *bucket_of(const goita_solver *s, uint64_t key, int pieces) {
  const uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 32; /* 32 well-mixed bits */
  if (pieces < NEAR_PIECES) return &s->table[(h * s->near_buckets) >> 32];
  return &s->table[s->near_buckets + ((h * (s->buckets - s->near_buckets)) >> 32)];
}

/* The tag of key in the current generation. */
static inline uint64_t tag_of(const goita_solver *s, uint64_t key) {
  return key | (uint64_t)s->gen << TAG_GEN_SHIFT;
}

/* The entry of key, or NULL. Every way is compared, without branches: a hit's place is not
 * predictable. */
static inline tt_entry *tt_find(goita_solver *s, uint64_t key, int pieces) {
  tt_bucket *b = bucket_of(s, key, pieces);
  const uint64_t tag = tag_of(s, key);
  tt_entry *hit = NULL;
  for (int i = 0; i < TT_WAYS; i++) hit = b->e[i].tag == tag ? &b->e[i] : hit;
  return hit;
}

/* Records bounds for position p of key: in the entry of key if present, else in place of the
 * least valuable entry of its bucket. */
void goita__tt_store(goita_solver *s, uint64_t key, const spos *p, int lower, int upper, int move);

/* Allocates an empty table of about table_bytes (at least 64 KiB) for s and sizes its parts.
 * Returns GOITA_OK or GOITA_ENOMEM. */
int goita__tt_init(goita_solver *s, size_t table_bytes);

/* Frees the table. */
void goita__tt_free(goita_solver *s);

/* Starts a new generation (a new deal): the table's and the forced-run cache's older entries
 * count as empty. */
void goita__tt_new_generation(goita_solver *s);

/* Empties the table (the pages stored to since it was last emptied) and the forced-run cache. */
void goita__tt_clear(goita_solver *s);

#endif

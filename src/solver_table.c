/* The solver's transposition table (solver_table.h): storing, sizing, generations. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "solver_table.h"

void goita__tt_store(goita_solver *s, uint64_t key, const spos *p, int lower, int upper, int move) {
  tt_bucket *b = bucket_of(s, key, p->pieces);
  const uint64_t tag = tag_of(s, key);
  /* One pass finds the entry of key, or else the one that saves the least work: stale (another
   * generation's), or with the fewest pieces. */
  tt_entry *slot = &b->e[0];
  int worst = INT_MAX;
  for (int i = 0; i < TT_WAYS; i++) {
    tt_entry *e = &b->e[i];
    const int w = e->tag == tag ? -2 : (e->tag >> TAG_GEN_SHIFT) != s->gen ? -1 : e->pieces;
    if (w < worst) {
      worst = w;
      slot = e;
    }
  }
  if (worst == -2) {
    if (lower < slot->lower) lower = slot->lower;
    if (upper > slot->upper) upper = slot->upper;
  } else {
    slot->tag = tag;
    slot->pieces = p->pieces;
    const size_t page = (size_t)(b - s->table) >> DIRTY_PAGE_LOG;
    s->dirty[page >> 6] |= 1ull << (page & 63);
  }
  slot->lower = (int8_t)lower;
  slot->upper = (int8_t)upper;
  slot->move = (uint8_t)move;
}

int goita__tt_init(goita_solver *s, size_t table_bytes) {
  if (table_bytes < ((size_t)64 << 10)) table_bytes = (size_t)64 << 10;
  /* bucket_of scales 32 hash bits by the bucket count: at most 2^32 buckets (256 GiB) */
  if (table_bytes / sizeof(tt_bucket) > UINT32_MAX) table_bytes = (size_t)UINT32_MAX * sizeof(tt_bucket);
  const size_t buckets = table_bytes / sizeof(tt_bucket);
  size_t near_bytes = table_bytes / 16;
  if (near_bytes > NEAR_BYTES_MAX) near_bytes = NEAR_BYTES_MAX;
  s->table = aligned_alloc(64, buckets * sizeof(tt_bucket));
  const size_t pages = (buckets >> DIRTY_PAGE_LOG) + 1;
  s->dirty = calloc(pages / 64 + 1, sizeof *s->dirty);
  if (!s->table || !s->dirty) {
    free(s->table);
    free(s->dirty);
    return GOITA_ENOMEM;
  }
  memset(s->table, 0, buckets * sizeof(tt_bucket));
  s->buckets = buckets;
  s->near_buckets = near_bytes / sizeof(tt_bucket);
  s->gen = 1;
  return GOITA_OK;
}

void goita__tt_free(goita_solver *s) {
  free(s->table);
  free(s->dirty);
}

void goita__tt_clear(goita_solver *s) {
  const size_t words = ((s->buckets >> DIRTY_PAGE_LOG) + 1) / 64 + 1;
  for (size_t w = 0; w < words; w++)
    for (uint64_t bits = s->dirty[w]; bits; bits &= bits - 1) {
      const size_t first = (w * 64 + (size_t)__builtin_ctzll(bits)) << DIRTY_PAGE_LOG;
      const size_t n = s->buckets - first < ((size_t)1 << DIRTY_PAGE_LOG) ? s->buckets - first
                                                                           : (size_t)1 << DIRTY_PAGE_LOG;
      memset(&s->table[first], 0, n * sizeof *s->table);
    }
  memset(s->dirty, 0, words * sizeof *s->dirty);
  memset(s->runs, 0, sizeof s->runs);
  s->gen = 1;
}

void goita__tt_new_generation(goita_solver *s) {
  if (++s->gen > MAX_GEN) goita__tt_clear(s); /* the old tags could come back: start clean */
}

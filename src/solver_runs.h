/* Forced runs (solver_runs.c): the best finish the mover can force by leading, again and
 * again, attacks no opponent can answer. The cache probe is inline, for the search. Internal
 * to the library. */
#ifndef GOITA_SOLVER_RUNS_H
#define GOITA_SOLVER_RUNS_H

#include <stdint.h>

#include "solver_internal.h"

/* The best finish the mover of p can force by a run, tens (0: none), worked out without the
 * cache. h is the mover's hand, safe the attack kinds no opponent can answer. */
int goita__forced_run_uncached(const goita_solver *s, const spos *p, const hand_info *h, unsigned safe);

/* goita__forced_run_uncached through a small cache: the answer depends only on the mover's
 * hand (its counts and kings for rule (b): hand_code), which of its kinds no opponent can
 * answer, the attack and whether a king is up, so a run worked out in one deal serves the
 * next: the deals a player samples at one decision all give it the same hand. */
static inline int forced_run(goita_solver *s, const spos *p, const hand_info *h, unsigned opponents_held) {
  const unsigned safe = s->safe_from[opponents_held];
  const uint32_t local = (uint32_t)(h - s->info[p->turn]);
  /* A run makes size / 2 - 1 safe attacks before its final lead (when answering, the first
   * after the defence): without that many safe pieces there is none, and the cache is not
   * asked. */
  const uint32_t safe_bits = local & s->bits_of_kinds[p->turn][(safe >> 1) & s->dealt_kinds[p->turn]];
  if (s->info[p->turn][safe_bits].size < h->size / 2 - 1) return 0;
  const uint64_t key = (uint64_t)hand_code(h) | (uint64_t)((safe & h->held) >> 1) << 24 |
                       (uint64_t)p->kingup << 32 | (uint64_t)p->attack << 33 | 1ull << 37;
  run_memo *m = &s->runs[(key * 0x9E3779B97F4A7C15ull) >> (64 - RUN_MEMO_LOG)];
  if (m->word >> 8 == key) return (int)(m->word & 255u);
  const int v = goita__forced_run_uncached(s, p, h, safe);
  m->word = key << 8 | (uint64_t)v;
  return v;
}

#endif

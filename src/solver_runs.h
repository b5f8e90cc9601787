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
 * hand, which of its kinds no opponent can answer, the attack and whether a king is up. */
static inline int forced_run(goita_solver *s, const spos *p, const hand_info *h, unsigned opponents_held) {
  const unsigned safe = s->safe_from[opponents_held];
  const uint32_t local = (uint32_t)(h - s->info[p->turn]);
  /* A run makes size / 2 - 1 safe attacks before its final lead (when answering, the first
   * after the defence): without that many safe pieces there is none, and the cache is not
   * asked. */
  const uint32_t safe_bits = local & s->bits_of_kinds[p->turn][(safe >> 1) & 255u];
  if (s->info[p->turn][safe_bits].size < h->size / 2 - 1) return 0;
  const uint32_t key = 1u + (local | (uint32_t)p->turn << 12 | ((safe & h->held) >> 1) << 14 |
                             (uint32_t)p->kingup << 22 | (uint32_t)p->attack << 23);
  run_memo *m = &s->runs[(key * 0x9E3779B1u) >> (32 - RUN_MEMO_LOG)];
  if (m->key == key && m->gen == s->gen) return m->value;
  const int v = goita__forced_run_uncached(s, p, h, safe);
  m->key = key;
  m->gen = s->gen;
  m->value = (uint8_t)v;
  return v;
}

#endif

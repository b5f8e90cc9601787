/* The one random generator of the project: xoshiro256** seeded through splitmix64.
 * Every random choice takes a generator explicitly; there is no global state. */
#ifndef GOITA_RNG_H
#define GOITA_RNG_H

#include <stdint.h>

#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goita_rng {
  uint64_t s[4];
} goita_rng;

/* Seeds the generator; equal seeds give equal sequences on every platform. */
GOITA_API void goita_rng_seed(goita_rng *rng, uint64_t seed);

/* Returns the next 64 random bits. */
GOITA_API uint64_t goita_rng_next(goita_rng *rng);

/* Returns a uniform integer in [0, bound) without modulo bias; bound must be > 0. */
GOITA_API uint32_t goita_rng_below(goita_rng *rng, uint32_t bound);

/* Shuffles n bytes in place (Fisher-Yates). */
GOITA_API void goita_rng_shuffle(goita_rng *rng, uint8_t *items, int n);

/* Returns splitmix64 of x: used to derive independent seeds from one seed. */
GOITA_API uint64_t goita_seed_mix(uint64_t x);

#ifdef __cplusplus
}
#endif
#endif

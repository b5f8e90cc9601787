/* xoshiro256** (Blackman and Vigna) seeded by splitmix64. */
#include "goita/rng.h"

uint64_t goita_seed_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void goita_rng_seed(goita_rng *rng, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) {
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    rng->s[i] = z ^ (z >> 31);
  }
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t goita_rng_next(goita_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint32_t goita_rng_below(goita_rng *rng, uint32_t bound) {
  /* Lemire's multiply-and-reject: unbiased, usually one multiplication. */
  uint64_t m = (goita_rng_next(rng) >> 32) * bound;
  uint32_t low = (uint32_t)m;
  if (low < bound) {
    uint32_t threshold = (uint32_t)(-bound) % bound;
    while (low < threshold) {
      m = (goita_rng_next(rng) >> 32) * bound;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

void goita_rng_shuffle(goita_rng *rng, uint8_t *items, int n) {
  /* Fisher-Yates with Lemire's unbiased bounded draw, two 32-bit draws per 64-bit output. */
  uint64_t bits = 0;
  int have = 0;
  for (int i = n - 1; i > 0; i--) {
    const uint32_t bound = (uint32_t)i + 1;
    uint32_t j;
    for (;;) {
      if (have == 0) {
        bits = goita_rng_next(rng);
        have = 2;
      }
      const uint64_t m = (bits >> 32) * bound;
      bits <<= 32;
      have--;
      const uint32_t low = (uint32_t)m;
      if (low >= bound || low >= (uint32_t)(-bound) % bound) {
        j = (uint32_t)(m >> 32);
        break;
      }
    }
    const uint8_t t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

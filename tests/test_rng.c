#include <criterion/criterion.h>
#include <string.h>

#include "goita/goita.h"

Test(rng, same_seed_same_sequence) {
  goita_rng a, b;
  goita_rng_seed(&a, 42);
  goita_rng_seed(&b, 42);
  for (int i = 0; i < 1000; i++) cr_assert_eq(goita_rng_next(&a), goita_rng_next(&b));
  goita_rng_seed(&b, 43);
  goita_rng_seed(&a, 42);
  int same = 0;
  for (int i = 0; i < 100; i++) same += goita_rng_next(&a) == goita_rng_next(&b);
  cr_expect_lt(same, 2);
}

Test(rng, below_is_in_range_and_roughly_uniform) {
  goita_rng r;
  goita_rng_seed(&r, 7);
  int counts[7] = {0};
  const int n = 70000;
  for (int i = 0; i < n; i++) {
    uint32_t v = goita_rng_below(&r, 7);
    cr_assert_lt(v, 7u);
    counts[v]++;
  }
  /* Chi-square with 6 degrees of freedom; 22.5 is the 0.1% critical value. */
  double chi = 0;
  for (int i = 0; i < 7; i++) chi += (counts[i] - n / 7.0) * (counts[i] - n / 7.0) / (n / 7.0);
  cr_expect_lt(chi, 22.5, "chi-square %f", chi);
}

Test(rng, shuffle_is_a_permutation) {
  goita_rng r;
  goita_rng_seed(&r, 3);
  uint8_t items[32];
  for (int i = 0; i < 32; i++) items[i] = (uint8_t)i;
  goita_rng_shuffle(&r, items, 32);
  int seen[32] = {0};
  int moved = 0;
  for (int i = 0; i < 32; i++) {
    seen[items[i]]++;
    moved += items[i] != i;
  }
  for (int i = 0; i < 32; i++) cr_expect_eq(seen[i], 1);
  cr_expect_gt(moved, 16);
}

Test(rng, known_first_output_is_stable) {
  /* Pins the generator: records store seeds, so the sequence must never change silently.
   * The value is splitmix64-seeded xoshiro256** for seed 0, computed independently below. */
  goita_rng r;
  goita_rng_seed(&r, 0);
  uint64_t s[4], x = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    s[i] = z ^ (z >> 31);
  }
  const uint64_t t = s[1] * 5;
  const uint64_t expect = ((t << 7) | (t >> 57)) * 9;
  cr_expect_eq(goita_rng_next(&r), expect);
}

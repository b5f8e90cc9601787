/* goita bench: fixed, seeded workloads that print per-case figures and a signature line.
 * The signature changes whenever the engine's behaviour changes, not with the machine. */
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mix_into(uint64_t sig, uint64_t value) { return goita_seed_mix(sig ^ value); }

/* Plays seeded rounds between uniformly random players on one thread. */
static int bench_playout(uint64_t rounds, uint64_t seed, const goita_rules *rules) {
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  uint64_t moves = 0, sig = 0;
  goita_round r;
  goita_move legal[GOITA_MAX_LEGAL];
  const double start = now_seconds();
  for (uint64_t i = 0; i < rounds; i++) {
    goita_round_deal(&r, rules, (int)(i % (uint64_t)rules->players), goita_seed_mix(seed + i));
    while (!goita_round_over(&r)) {
      const int n = goita_round_legal_moves(&r, legal);
      goita_round_apply_unchecked(&r, legal[goita_rng_below(&rng, (uint32_t)n)]);
      moves++;
    }
    sig = mix_into(sig, (uint64_t)r.nlog << 24 | (uint64_t)(uint8_t)r.result.winner << 16 |
                            (uint64_t)(uint16_t)r.result.points);
  }
  const double secs = now_seconds() - start;
  printf("playout  rounds %llu  moves %llu  %.3f s  %.2fM moves/s  %.0fk rounds/s  %.1f moves/round\n",
         (unsigned long long)rounds, (unsigned long long)moves, secs, (double)moves / secs / 1e6,
         (double)rounds / secs / 1e3, (double)moves / (double)rounds);
  printf("signature playout %016llx moves %llu\n", (unsigned long long)sig, (unsigned long long)moves);
  return 0;
}

int cmd_bench(int argc, char **argv) {
  uint64_t rounds = 1000000, seed = 1;
  goita_rules rules;
  goita_rules_default(&rules);
  const char *section = "playout";
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--rounds") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--rounds", v, &rounds)) return 2;
    } else if (strcmp(argv[i], "--seed") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--seed", v, &seed)) return 2;
    } else if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, &rules)) return 2;
    } else if (argv[i][0] != '-') {
      section = argv[i];
    } else {
      fprintf(stderr, "goita bench: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  if (strcmp(section, "playout") == 0) return bench_playout(rounds ? rounds : 1, seed, &rules);
  fprintf(stderr, "goita bench: unknown section \"%s\" (sections: playout)\n", section);
  return 2;
}

#include "test_support.h"

#include <criterion/criterion.h>

goita_round test_round(const char *rules_text, const char *history) {
  goita_rules rules;
  goita_error err;
  cr_assert_eq(goita_rules_parse(&rules, rules_text, &err), GOITA_OK, "rules: %s", err.message);
  goita_round r;
  cr_assert_eq(goita_history_parse(&r, &rules, history, &err), GOITA_OK, "history: %s", err.message);
  return r;
}

goita_move test_random_move(goita_round *r, goita_rng *rng) {
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, moves);
  cr_assert_gt(n, 0, "no legal move in a round that is not over");
  const goita_move m = moves[goita_rng_below(rng, (uint32_t)n)];
  goita_error err;
  cr_assert_eq(goita_round_apply(r, m, &err), GOITA_OK, "generated move rejected: %s", err.message);
  return m;
}

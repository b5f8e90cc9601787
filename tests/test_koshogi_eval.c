/* The evaluation as the fitter sees it (tools/koshogi_fit.py): ks_evaluate is the dot product of
 * ks__eval_features and ks__eval_weights, and the self-play that makes the fitter's data is the
 * same game from the same seed. */
#include <criterion/criterion.h>
#include <string.h>

#include "internal.h"
#include "koshogi/koshogi.h"
#include "selfplay.h"

/* Positions of seeded random games where Black takes whenever it can: the armies thin out and
 * grow unequal until a commanding piece stands alone, and every feature is met. */
Test(koshogi_eval, evaluate_is_the_dot_product_of_features_and_weights) {
  static ks_move moves[KS_MAX_MOVES];
  bool seen[KS_EVAL_FEATURES] = {false};
  int compared = 0, decided = 0;
  for (uint64_t game = 1; game <= 30; game++) {
    ks_position pos;
    ks_start(&pos);
    uint64_t r = game * 7919;
    for (int ply = 0; ply < 700; ply++) {
      int features[KS_EVAL_FEATURES];
      const int won = ks__eval_features(&pos, features);
      if (won) { /* a side defeated on the board: the win score, no features */
        cr_assert_eq(ks_evaluate(&pos), won, "game %d ply %d", (int)game, ply);
        for (int f = 0; f < KS_EVAL_FEATURES; f++) cr_assert_eq(features[f], 0);
        decided++;
        break;
      }
      long dot = 0;
      for (int f = 0; f < KS_EVAL_FEATURES; f++) {
        dot += (long)features[f] * ks__eval_weights[f];
        seen[f] |= features[f] != 0;
      }
      cr_assert_eq(ks_evaluate(&pos), dot, "game %d ply %d: ks_evaluate %d, features times weights %ld",
                   (int)game, ply, ks_evaluate(&pos), dot);
      compared++;
      int n = pos.to_move == KS_BLACK ? ks__capture_moves(&pos, moves, KS_MAX_MOVES) : 0;
      if (n <= 0) n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
      if (n <= 0) break;
      r = r * 6364136223846793005u + 1442695040888963407u;
      ks_play(&pos, &moves[(r >> 33) % (uint64_t)(n < KS_MAX_MOVES ? n : KS_MAX_MOVES)]);
    }
  }
  cr_assert_gt(compared, 2000, "%d positions", compared);
  const int positional[] = {KS_F_CLOSING,  KS_F_PRESSING,      KS_F_MOBILITY,     KS_F_GUARD_NEAR,
                            KS_F_GUARD_FAR, KS_F_ATTACKER_NEAR, KS_F_ATTACKER_FAR, KS_F_ADVANCE,
                            KS_F_BESIEGERS, KS_F_TEMPO};
  for (size_t i = 0; i < sizeof positional / sizeof *positional; i++) {
    char name[32];
    ks__eval_feature_name(positional[i], name, sizeof name);
    cr_assert(seen[positional[i]], "the feature %s was never met", name);
  }
  cr_assert(seen[KS_F_MATERIAL + KS_P - 1] && seen[KS_F_MATERIAL + KS_CH - 1], "material was never unequal");
  cr_assert_gt(decided, 0, "no game reached a side defeated on the board");
}

/* The names the fitter writes beside the weights. */
Test(koshogi_eval, feature_names) {
  char name[32];
  ks__eval_feature_name(KS_F_MATERIAL + KS_CH - 1, name, sizeof name);
  cr_assert_str_eq(name, "material CH");
  ks__eval_feature_name(KS_F_MATERIAL + KS_PCH - 1, name, sizeof name);
  cr_assert_str_eq(name, "material +CH");
  ks__eval_feature_name(KS_F_MOBILITY, name, sizeof name);
  cr_assert_str_eq(name, "mobility");
  ks__eval_feature_name(KS_F_TEMPO, name, sizeof name);
  cr_assert_str_eq(name, "tempo");
}

/* What a self-play game reports: its quiet positions' keys and plies, and the result. */
typedef struct reported {
  uint64_t keys[64];
  int plies[64];
  int n;
} reported;

static void note(void *ctx, const ks_position *pos, int ply) {
  reported *r = ctx;
  if (r->n < 64) {
    r->keys[r->n] = ks_key(pos);
    r->plies[r->n] = ply;
  }
  r->n++;
}

static int play(uint64_t seed, reported *r, int *plies) {
  const ks__selfplay_options opt = {.nodes = 40, .limit = 30, .opening = 6, .skip = 8, .adjudicate = 4000,
                                    .hash_mib = 1};
  memset(r, 0, sizeof *r);
  return ks__selfplay(&opt, seed, note, r, plies);
}

Test(koshogi_eval, selfplay_is_the_same_game_from_the_same_seed) {
  reported a, b, c;
  int plies_a, plies_b, plies_c;
  const int result_a = play(7, &a, &plies_a), result_b = play(7, &b, &plies_b);
  cr_assert_geq(result_a, 0);
  cr_assert_geq(play(8, &c, &plies_c), 0);
  cr_assert_eq(result_a, result_b);
  cr_assert_eq(plies_a, plies_b);
  cr_assert_eq(plies_a, 30, "a game of 40 nodes a move is not decided in 30 plies (%d)", plies_a);
  cr_assert_gt(a.n, 0, "no quiet position reported");
  cr_assert_eq(a.n, b.n);
  cr_assert_eq(memcmp(a.keys, b.keys, sizeof a.keys), 0, "the same seed played another game");
  for (int i = 0; i < a.n && i < 64; i++) cr_assert_geq(a.plies[i], 8, "a position before --skip");
  cr_assert_neq(memcmp(a.keys, c.keys, sizeof a.keys), 0, "another seed played the same game");
}

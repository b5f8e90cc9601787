/* Internal pieces of the computer players shared between levels (not installed). */
#ifndef GOITA_PLAYER_INTERNAL_H
#define GOITA_PLAYER_INTERNAL_H

#include "goita/goita.h"

/* The rule-based player's judgement (player_rules.c): a preference score for each move of
 * the view's seat, higher is better, in rough tenths of a round's points. Every level that
 * needs a model of how people play uses it: the rules level takes the best, playouts draw
 * from a softmax of it, and inference asks how likely an observed move was. */
void goita__heuristic_scores(const goita_view *view, const goita_move *moves, int n, double *scores);

/* Temperature of the softmax that turns scores into a playing policy. */
#define GOITA__POLICY_TEMPERATURE 2.0

/* Fills p[i] with the policy's probability of moves[i] given their scores. */
void goita__policy_probabilities(const double *scores, int n, double temperature, double *p);

/* Plays the round out from round with every seat drawing its moves from the policy on its own
 * view; returns the points of the side of `seat` (negative when another side scores). */
int goita__playout(goita_round *round, int seat, goita_rng *rng);

/* Returns the points of the round's result for the side of seat (0 for a redeal). */
int goita__result_for(const goita_round *round, int seat);

/* ---- Levels ---- */

#define GOITA__MAX_PARAMS 8

/* One parameter of a level: an integer in [min, max], or on/off when names is set. */
typedef struct goita__param {
  const char *name;
  int min, max, fallback;
  const char *help;
} goita__param;

typedef struct goita__level goita__level;

struct goita_player {
  const goita__level *level;
  int param[GOITA__MAX_PARAMS];
  uint64_t seed;
  char spec[160];
  void *state; /* the level's own working memory */
};

struct goita__level {
  const char *name;
  const char *help;
  const goita__param *params; /* terminated by a NULL name */
  /* Prepares the level's state once the parameters are read; returns a status. */
  int (*init)(goita_player *player, goita_error *err);
  void (*release)(goita_player *player);
  /* Chooses among the legal moves (n >= 2) of the view's seat. */
  int (*choose)(goita_player *player, const goita_view *view, const goita_move *moves, int n, goita_rng *rng,
                goita_move *move, goita_player_info *info);
};

/* The sampling level (player_sampler.c). */
extern const goita__level goita__sampler_level;

/* Returns a uniform double in [0, 1). */
static inline double goita__unit(goita_rng *rng) { return (double)(goita_rng_next(rng) >> 11) * 0x1.0p-53; }

#endif

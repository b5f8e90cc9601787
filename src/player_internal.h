/* The computer players' levels (player.c): what a level is, its parameters, and the sampling
 * levels (player_sampler.c). Their model of play is the policy (policy.h). Not installed. */
#ifndef GOITA_PLAYER_INTERNAL_H
#define GOITA_PLAYER_INTERNAL_H

#include <time.h>

#include "goita/goita.h"
#include "policy.h"

#define GOITA__MAX_PARAMS 17

/* One parameter of a level: an integer in [min, max], or one of names (its index). */
typedef struct goita__param {
  const char *name;
  int min, max, fallback;
  const char *help;
  const char *const *names; /* NULL for a number */
} goita__param;

/* Names of on/off parameters. */
extern const char *const goita__on_off[];

typedef struct goita__level goita__level;

struct goita_player {
  const goita__level *level;
  int param[GOITA__MAX_PARAMS];
  uint32_t given; /* bit i: param[i] was given by the spec or goita_player_set, not a default */
  uint64_t seed;
  char spec[320]; /* the level and every parameter: room for the longest values */
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

/* The sampling levels (player_sampler.c) and the budgeted ones (player_master.c). */
extern const goita__level goita__sampler_level;
extern const goita__level goita__expert_level;
extern const goita__level goita__master_level;
extern const goita__level goita__master_2026_11_level;
extern const goita__level goita__fast_level;

/* Values every move of a sampled deal exactly with the solver; adds its nodes to *nodes. */
void goita__value_exact(goita_solver *solver, const goita_round *deal, const goita_move *moves, int n, double *out,
                        uint64_t *nodes);

/* The solver's exact value of round (in play, not over) for the side of seat; adds its nodes. */
int goita__exact_for(goita_solver *solver, const goita_round *round, int seat, uint64_t *nodes);

/* A mistake floor for inference: everyone plays any legal move with some probability, so one
 * surprising move does not rule a deal out. */
#define GOITA__INFER_NOISE 0.1

/* The log-probability, under policy, of every move the others (not viewer) made in a sampled
 * deal, with a floor for surprising moves; adds the legal moves weighed to *work. */
double goita__log_likelihood(const goita__policy *policy, const goita_round *sample, int viewer, uint64_t *work,
                             double *partner);

/* As goita__log_likelihood, seat by seat: ll[s] is the log-probability of seat s's moves, for
 * every seat s whose bit is set in `seats` (0 for the others). A seat's moves depend only on the
 * hand it was dealt and the public moves, so a search drawing many deals may keep a seat's value
 * for every deal that deals it the same hand. */
void goita__log_likelihood_seats(const goita__policy *policy, const goita_round *sample, unsigned seats,
                                 uint64_t *work, double ll[GOITA_MAX_SEATS]);

/* What a budgeted level (master, fast) believes of the hands it cannot see: draws `deals`
 * deals from the view as it does to choose a move (weighed by its inference) and writes, for
 * every seat and kind, the weighted share of the deals in which that seat holds the kind. For
 * measuring how well a level reads the others' moves (goita-read); the view is the seat's own,
 * so nothing hidden goes in. Returns GOITA_OK, GOITA_EINVAL for another level, or
 * GOITA_ESTATE when no deal agrees with the view. */
int goita__budgeted_beliefs(goita_player *player, const goita_view *view, int deals,
                            double held[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]);

/* Makes a sampling player use policy (the caller keeps it alive) for playouts and inference,
 * whatever its parameter says: for training a policy on its own games. */
void goita__sampler_use_policy(goita_player *player, const goita__policy *policy);

/* Returns a monotonic clock in milliseconds, for time budgets and reports. */
static inline double goita__now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#endif

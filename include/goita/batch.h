/* A batched environment for reinforcement learning: N seeded games stepped at once by one call,
 * with each game's observation, action mask, rewards and termination written into arrays the
 * caller owns (numpy arrays in Python: goita.batch). A finished episode starts the next one at
 * once (auto-reset), so every game always has a seat to move.
 *
 * Each step moves one seat in every game: the seat whose observation (goita/observation.h)
 * and mask the arrays hold, which seat[i] names. The mask is that of the same seat, so it is
 * never empty. Observations are built with goita_view_observe from that seat's view alone:
 * nothing in them or in the mask depends on another seat's hidden pieces.
 *
 * Thread safety: a batch is used by one thread at a time (it writes its arrays on each call);
 * separate batches share nothing and may run in separate threads. */
#ifndef GOITA_BATCH_H
#define GOITA_BATCH_H

#include <stdint.h>

#include "goita/game.h"
#include "goita/observation.h"
#include "goita/rules.h"
#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum goita_batch_episode {
  GOITA_BATCH_ROUND = 0, /* an episode is one round */
  GOITA_BATCH_GAME = 1   /* an episode is a game to the target */
} goita_batch_episode;

typedef struct goita_batch_options {
  goita_rules rules;
  goita_batch_episode episode;
  /* A side's reward when a round ends: (its points - the mean of the other sides' points) *
   * reward_scale, so the sides' rewards sum to zero; 0.1 by default (30 points give 3.0). */
  float reward_scale;
} goita_batch_options;

/* The caller's arrays, each with room for n games, row i for game i. */
typedef struct goita_batch_arrays {
  uint8_t *obs;        /* n x GOITA_OBS_SIZE: the observation of the seat to move */
  uint8_t *mask;       /* n x GOITA_NUM_ACTIONS: 1 for each legal action of that seat */
  float *rewards;      /* n x GOITA_MAX_SEATS: the last step's reward of each (absolute) seat */
  uint8_t *terminated; /* n: 1 when the last step ended an episode (the arrays already hold the
                          next episode's first observation) */
  int8_t *seat;        /* n: the seat to move, whose observation and mask the arrays hold */
} goita_batch_arrays;

typedef struct goita_batch goita_batch;

/* Sets options to the default rules, round episodes and reward_scale 0.1. */
GOITA_API void goita_batch_options_default(goita_batch_options *options);

/* Creates a batch of n games (1..2^24) writing into arrays (every pointer required; the arrays
 * must outlive the batch). The games start with goita_batch_reset. Returns GOITA_OK,
 * GOITA_EINVAL (err says which argument is wrong), GOITA_EVALUE for invalid rules (as
 * goita_rules_validate) or GOITA_ENOMEM; *out is NULL on error. */
GOITA_API int goita_batch_new(goita_batch **out, const goita_batch_options *options, int n,
                              const goita_batch_arrays *arrays, goita_error *err);

/* Frees a batch (NULL is allowed). */
GOITA_API void goita_batch_free(goita_batch *batch);

/* Returns the number of games (batch must not be NULL). */
GOITA_API int goita_batch_size(const goita_batch *batch);

/* Starts every game: game i's first episode is the game goita_game_start makes from seeds[i],
 * and its later episodes take seeds from a generator seeded by seeds[i]; the random actions of
 * goita_batch_step_random come from another generator seeded by seeds[i]. A deal that would
 * end an episode before its first move (a hand bonus or double 5 pawns at the deal, in a round
 * episode; a game won at its first deal) is not an episode: the next seed is taken instead.
 * Writes every game's first observation and mask, zero rewards and terminations. Returns
 * GOITA_OK or GOITA_EINVAL for a NULL argument. */
GOITA_API int goita_batch_reset(goita_batch *batch, const uint64_t *seeds, goita_error *err);

/* Makes action actions[i] in game i, for every game, then writes the arrays. Every action must
 * be legal (its mask byte 1); otherwise nothing changes and GOITA_EILLEGAL is returned with
 * err->position the first such game. Rewards: each seat's share of every round that ended in
 * this step (in a game episode, also of a round the next deal decided at once). Returns
 * GOITA_OK, GOITA_EILLEGAL, or GOITA_ESTATE before goita_batch_reset. */
GOITA_API int goita_batch_step(goita_batch *batch, const int32_t *actions, goita_error *err);

/* Steps every game with an action drawn uniformly from the legal ones by the game's own
 * generator, and writes them into actions when it is not NULL. Returns GOITA_OK, or
 * GOITA_ESTATE before goita_batch_reset. */
GOITA_API int goita_batch_step_random(goita_batch *batch, int32_t *actions);

/* Returns game i's state (full information: for tests and analysis, never for an agent), or
 * NULL when i is out of range or before goita_batch_reset (batch must not be NULL). The
 * pointer is valid until the next call on the batch. */
GOITA_API const goita_game *goita_batch_game(const goita_batch *batch, int i);

#ifdef __cplusplus
}
#endif
#endif

/* Computer players: given only what one seat may know (its view), choose a move, including
 * the 5-pawn decision.
 *
 * A player is named by a spec, a level and optional parameters: "random", "rules",
 * "sampler:samples=64", "sampler:infer=on,samples=32". goita_player_levels lists the levels
 * and goita_player_describe their parameters. A player's choice is a function of its seed and
 * the view alone (not of earlier calls), so games replay exactly and two states that look the
 * same to a seat get the same move. */
#ifndef GOITA_PLAYER_H
#define GOITA_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "goita/round.h"
#include "goita/status.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goita_player goita_player;

/* What a player reports about one choice (all optional to read). */
typedef struct goita_player_info {
  int nmoves;                          /* legal moves considered */
  goita_move moves[GOITA_MAX_LEGAL];
  double value[GOITA_MAX_LEGAL];       /* each move's estimated points for the seat's side;
                                          heuristic players give their preference scores */
  int has_values;                      /* 0 when the level does not evaluate moves */
  int samples;                         /* deals sampled (sampling levels) */
  int deals[GOITA_MAX_LEGAL];          /* deals in which each move was valued (master, fast) */
  int agree[GOITA_MAX_LEGAL];          /* deals in which each move was (one of) the best */
  uint64_t nodes;                      /* solver nodes searched */
  double ms;                           /* time taken */
} goita_player_info;

/* Creates a player from a spec. Returns GOITA_OK, GOITA_EPARSE / GOITA_EVALUE with err
 * naming the unknown level, parameter or bad value, or GOITA_ENOMEM when memory runs out. */
GOITA_API int goita_player_new(goita_player **player, const char *spec, goita_error *err);

/* Frees a player (NULL is allowed). */
GOITA_API void goita_player_free(goita_player *player);

/* Returns the player's spec written in full (every parameter), e.g.
 * "sampler:samples=48,infer=off,solve=24,rollouts=4". */
GOITA_API const char *goita_player_spec(const goita_player *player);

/* Changes one parameter ("samples=64", "ms=500") of a player. Returns GOITA_OK, or the errors
 * of goita_player_new; on error the player is unchanged. */
GOITA_API int goita_player_set(goita_player *player, const char *setting, goita_error *err);

/* Sets the seed of the player's random choices (default 0). */
GOITA_API void goita_player_seed(goita_player *player, uint64_t seed);

/* Chooses a move for the seat of view, which must be that seat's turn. info, when not NULL,
 * receives what the player thought. Returns GOITA_OK, GOITA_ETURN when it is not the view's
 * seat's turn (or the view is an observer's), GOITA_EOVER when the round is over. */
GOITA_API int goita_player_choose(goita_player *player, const goita_view *view, goita_move *move,
                        goita_player_info *info);

/* The levels, weakest first, as a NULL-terminated list of names: a constant, safe to read
 * from any thread at any time (as goita_player_describe's strings are). */
GOITA_API const char *const *goita_player_levels(void);

/* Returns a one-line description of a level and its parameters, or NULL for an unknown name. */
GOITA_API const char *goita_player_describe(const char *level);

#ifdef __cplusplus
}
#endif
#endif

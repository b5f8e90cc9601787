/* A game: rounds to the target with dealer succession (RULES.md 5-7). */
#ifndef GOITA_GAME_H
#define GOITA_GAME_H

#include "goita/status.h"
#include "goita/draw.h"
#include "goita/rng.h"
#include "goita/round.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the deal generator (shuffle and seed derivation). A record stores it so that a
 * seed replays the same deals only under the generator that made them. */
#define GOITA_DEAL_GENERATOR_VERSION 1

typedef struct goita_game {
  goita_rules rules;
  uint64_t seed;
  goita_rng rng;            /* gives the draw and each round's deal seed */
  goita_draw_result draw;
  int16_t score[GOITA_MAX_SEATS]; /* per side (teams 0 and 1 with 4 players) */
  int16_t score_before[GOITA_MAX_SEATS]; /* scores before the current round was dealt */
  int16_t round_index;      /* rounds dealt so far, counting redeals */
  bool over;
  int8_t winner_side;       /* -1 until the game is over */
  goita_round round;        /* the current round */
} goita_game;

/* Starts a game: runs the draw of rules->draw and deals the first round.
 * Returns GOITA_OK or GOITA_EINVAL for invalid rules. */
GOITA_API int goita_game_start(goita_game *game, const goita_rules *rules, uint64_t seed, goita_error *err);

/* Applies a move to the current round; when the round ends, scores it and decides whether
 * the game is over. Returns the status of goita_round_apply. */
GOITA_API int goita_game_apply(goita_game *game, goita_move move, goita_error *err);

/* Deals the next round after the current one is over, with the dealer the rules give
 * (the same dealer after a redeal). Returns GOITA_ESTATE if the round is not over and
 * GOITA_EOVER if the game is. */
GOITA_API int goita_game_next_round(goita_game *game, goita_error *err);

/* Replaces the current round's deal with given hands: for replaying records and setting up
 * positions. Only before any move of the round. The dealer must be the one the game gives,
 * except in the first round, whose dealer a draw at the table may have chosen. */
GOITA_API int goita_game_set_deal(goita_game *game, int dealer, const uint8_t hands[][GOITA_MAX_HAND],
                        goita_error *err);

/* Returns the dealer of the round that follows the current (finished) round. */
GOITA_API int goita_game_next_dealer(const goita_game *game);

/* Fills view with what seat may know of the game: the round view plus scores. */
GOITA_API int goita_game_view(const goita_game *game, int seat, goita_view *view);

#ifdef __cplusplus
}
#endif
#endif

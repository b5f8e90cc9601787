/* Choosing the first dealer and the teams (RULES.md 7), simulated with the seeded generator. */
#ifndef GOITA_DRAW_H
#define GOITA_DRAW_H

#include <stdint.h>

#include "goita/status.h"
#include "goita/rng.h"
#include "goita/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Draw rounds kept for display; a longer tie sequence is resolved but not kept. */
#define GOITA_DRAW_MAX_ROUNDS 8

typedef struct goita_draw_result {
  goita_draw_method method;
  int8_t players;
  int8_t dealer;                  /* seat of the first dealer */
  int8_t seat_of[GOITA_MAX_SEATS]; /* seat_of[player]: players are numbered in joining order */
  uint8_t rounds;                 /* draw rounds made (more than 1 after ties in A1) */
  /* drawn[r][player]: the mark drawn in round r, 0 when the player did not draw again. */
  uint8_t drawn[GOITA_DRAW_MAX_ROUNDS][GOITA_MAX_SEATS];
} goita_draw_result;

/* Runs a drawing method for players 2-4. Methods B and C choose teams and need 4 players.
 * Seating: player 0 stays in seat 0 with the partner opposite (seat 2); the other pair takes
 * seats 1 and 3 in player order. Returns GOITA_OK or GOITA_EINVAL. */
GOITA_API int goita_draw_run(goita_draw_method method, int players, goita_rng *rng,
                   goita_draw_result *out);

/* Like goita_draw_run, but the pieces drawn are given: marks[i] is the i-th piece taken, in
 * player order round after round (only players still tied take part in a later round).
 * For tests and for replaying a physical draw. Returns GOITA_EINVAL when the marks run out
 * or are impossible for the method. */
GOITA_API int goita_draw_scripted(goita_draw_method method, int players, const uint8_t *marks,
                        int nmarks, goita_draw_result *out);

#ifdef __cplusplus
}
#endif
#endif

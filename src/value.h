/* The value network (value.c): what a position of the round is worth to a side, learned from
 * playouts so that a search can value a sampled deal in one evaluation instead of a few noisy
 * playouts. It sees the whole round (every hand: it values a sampled deal, not a view), so no
 * interface that serves a player may feed it anything but the player's own sampled deals.
 *
 * The network is small and runs in integers (weights of 16 bits, fixed-point activations), so
 * its value, and every choice made from it, is the same on every machine and in WebAssembly.
 * Its weights are written by goita-train --model value (src/train/train_value.c) into
 * src/value_net.c. Internal to the library. */
#ifndef GOITA_VALUE_INTERNAL_H
#define GOITA_VALUE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "goita/goita.h"

/* Inputs, seen from one seat q positions after the valued seat (0 itself, 1 the next opponent,
 * 2 the partner, 3 the other opponent): pieces of each kind in q's hand, whether q holds the
 * kind, q's hand size; then whose turn, the attack to answer, its attacker, the passes since
 * and the kings face-up. */
enum {
  GOITA__VALUE_COUNTS = 0,                           /* + 8 * q + kind - 1 */
  GOITA__VALUE_HOLDS = GOITA__VALUE_COUNTS + 32,     /* + 8 * q + kind - 1 */
  GOITA__VALUE_SIZE = GOITA__VALUE_HOLDS + 32,       /* + q */
  GOITA__VALUE_TURN = GOITA__VALUE_SIZE + 4,         /* + q */
  GOITA__VALUE_ATTACK = GOITA__VALUE_TURN + 4,       /* + kind (0: the seat to move leads) */
  GOITA__VALUE_ATTACKER = GOITA__VALUE_ATTACK + 9,   /* + q, when there is an attack */
  GOITA__VALUE_PASSES = GOITA__VALUE_ATTACKER + 4,   /* passes since the attack */
  GOITA__VALUE_KINGS_UP = GOITA__VALUE_PASSES + 1,   /* kings face-up */
  GOITA__VALUE_INPUTS = GOITA__VALUE_KINGS_UP + 1
};

/* The network values positions with more pieces left in hands than this: its labels are
 * playouts to this many pieces, then the solver's exact value. */
#define GOITA__VALUE_STOP_PIECES 20

#define GOITA__VALUE_H1 128 /* units of the first hidden layer */
#define GOITA__VALUE_H2 32 /* and of the second */

/* Fixed point: weights are kept times 2^WEIGHT_SHIFT, activations times 2^ACT_SHIFT, and every
 * hidden unit is a ReLU clipped at ACT_CLIP (so sums of products fit in 32 bits). The output
 * is in tens of points for the valued seat's side, times 2^(WEIGHT_SHIFT + ACT_SHIFT). */
#define GOITA__VALUE_WEIGHT_SHIFT 10
#define GOITA__VALUE_ACT_SHIFT 5
#define GOITA__VALUE_ACT_CLIP 8.0
#define GOITA__VALUE_WEIGHT_MAX 31.0 /* |weight| < 2^15 / 2^WEIGHT_SHIFT */

/* Weights are kept input-major (w1[k][i] weighs input k in unit i): the evaluation adds each
 * input that is not 0 to every unit at once, and skips the others (most inputs, and most
 * activations after a ReLU, are 0). */
typedef struct goita__value_net {
  int16_t w1[GOITA__VALUE_INPUTS][GOITA__VALUE_H1];
  int32_t b1[GOITA__VALUE_H1]; /* times 2^WEIGHT_SHIFT */
  int16_t w2[GOITA__VALUE_H1][GOITA__VALUE_H2];
  int32_t b2[GOITA__VALUE_H2]; /* times 2^(WEIGHT_SHIFT + ACT_SHIFT) */
  int16_t w3[GOITA__VALUE_H2];
  int32_t b3; /* times 2^(WEIGHT_SHIFT + ACT_SHIFT) */
} goita__value_net;

/* The trained network (value_net.c). */
extern const goita__value_net goita__value_net_trained;

/* Whether the network was trained for these rules: 4 players, the default king rules and
 * points in tens (the rules of the deal and of the end of the round it learned). */
bool goita__value_applies(const goita_rules *rules);

/* Writes the inputs of round (in the play phase) seen from seat. */
void goita__value_inputs(const goita_round *round, int seat, int16_t x[GOITA__VALUE_INPUTS]);

/* Returns the network's value of the inputs, in tens of points for the side of their seat,
 * times 2^(WEIGHT_SHIFT + ACT_SHIFT): an integer, the same on every machine. */
int32_t goita__value_eval(const goita__value_net *net, const int16_t x[GOITA__VALUE_INPUTS]);

/* The value of round for the side of seat, in points. */
double goita__value_points(const goita__value_net *net, const goita_round *round, int seat);

#endif

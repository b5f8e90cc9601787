/* The value network's inputs and its evaluation in integers (value.h). */
#include "value.h"

#include <string.h>

bool goita__value_applies(const goita_rules *rules) {
  return rules->players == 4 && rules->king_attack == GOITA_KING_ATTACK_ANY_OF_ABC &&
         rules->king_b == GOITA_KING_B_HOLDS && rules->king_face_down == GOITA_KING_FACE_DOWN_FORBIDDEN &&
         rules->scale == GOITA_SCALE_TENS;
}

void goita__value_inputs(const goita_round *r, int seat, int16_t x[GOITA__VALUE_INPUTS]) {
  memset(x, 0, sizeof(int16_t) * GOITA__VALUE_INPUTS);
  for (int q = 0; q < 4; q++) {
    const int s = (seat + q) % 4;
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
      x[GOITA__VALUE_COUNTS + 8 * q + k - 1] = r->hand[s][k];
      x[GOITA__VALUE_HOLDS + 8 * q + k - 1] = r->hand[s][k] > 0;
    }
    x[GOITA__VALUE_SIZE + q] = r->size[s];
  }
  x[GOITA__VALUE_TURN + (r->turn - seat + 4) % 4] = 1;
  x[GOITA__VALUE_ATTACK + r->attack] = 1;
  if (r->attack != GOITA_NONE) x[GOITA__VALUE_ATTACKER + (r->attacker - seat + 4) % 4] = 1;
  x[GOITA__VALUE_PASSES] = r->passes;
  x[GOITA__VALUE_KINGS_UP] = r->kings_up;
}

/* A hidden unit's activation: the ReLU of acc (in 2^(WEIGHT_SHIFT + ACT_SHIFT) of a unit,
 * shifted down by `shift` to 2^ACT_SHIFT), clipped at ACT_CLIP. */
static inline int32_t activation(int32_t acc, int shift) {
  const int32_t clip = (int32_t)GOITA__VALUE_ACT_CLIP << GOITA__VALUE_ACT_SHIFT;
  const int32_t a = acc > 0 ? acc >> shift : 0;
  return a < clip ? a : clip;
}

int32_t goita__value_eval(const goita__value_net *net, const int16_t x[GOITA__VALUE_INPUTS]) {
  int32_t h1[GOITA__VALUE_H1], h2[GOITA__VALUE_H2];
  /* inputs are whole numbers: the first layer's sums are in 2^WEIGHT_SHIFT */
  memcpy(h1, net->b1, sizeof h1);
  for (int k = 0; k < GOITA__VALUE_INPUTS; k++) {
    if (!x[k]) continue;
    const int32_t xk = x[k];
    for (int i = 0; i < GOITA__VALUE_H1; i++) h1[i] += net->w1[k][i] * xk;
  }
  for (int i = 0; i < GOITA__VALUE_H1; i++) h1[i] = activation(h1[i], GOITA__VALUE_WEIGHT_SHIFT - GOITA__VALUE_ACT_SHIFT);
  memcpy(h2, net->b2, sizeof h2);
  for (int k = 0; k < GOITA__VALUE_H1; k++) {
    if (!h1[k]) continue;
    const int32_t hk = h1[k];
    for (int i = 0; i < GOITA__VALUE_H2; i++) h2[i] += net->w2[k][i] * hk;
  }
  int32_t out = net->b3;
  for (int j = 0; j < GOITA__VALUE_H2; j++) out += net->w3[j] * activation(h2[j], GOITA__VALUE_WEIGHT_SHIFT);
  return out;
}

double goita__value_points(const goita__value_net *net, const goita_round *round, int seat) {
  int16_t x[GOITA__VALUE_INPUTS];
  goita__value_inputs(round, seat, x);
  return goita__value_eval(net, x) * (10.0 / (1 << (GOITA__VALUE_WEIGHT_SHIFT + GOITA__VALUE_ACT_SHIFT)));
}

/* Policies (policy.c): a move's score is a weighted sum of features of the move, seen from the
 * seat's view. Every level that needs a model of how people play uses one: the rules level
 * takes the best move of the hand-set weights, playouts draw from a softmax, inference asks how
 * likely an observed move was, and goita-train learns the weights. Internal to the library. */
#ifndef GOITA_POLICY_INTERNAL_H
#define GOITA_POLICY_INTERNAL_H

#include "goita/goita.h"


enum goita__feature {
  F_FINISH, F_FINISH_POINTS,                          /* the play places the last piece */
  F_UNANSWERABLE, F_ANSWER_INVERSE,                   /* unseen pieces that could answer the attack */
  F_PASSED_OPPONENTS, F_NEXT_PASSED,                  /* opponents who declined this kind before */
  F_ATTACK_VALUE, F_KEEP_ATTACK_KIND, F_UNSEEN_ATTACK_KIND, F_KINGS_AFTER,
  F_STRONG_ATTACK_EARLY, F_KING_ATTACK, F_BREAKS_PAIR,
  F_LAST_PAIR_VALUE, F_LAST_HIGH_VALUE,               /* the two pieces left after the play */
  F_LEAD_BLOCK_VALUE, F_LEAD_BREAKS_PAIR, F_LEAD_BLOCK_PAWN, /* the face-down piece of a lead */
  F_KING_BLOCK, F_KING_BLOCK_ATTACK_VALUE,
  F_DEFEND_PARTNER_EARLY, F_DEFEND_PARTNER_LATE, F_DEFEND_OPPONENT, F_DEFEND_SMALL_HAND,
  F_PASS_PARTNER, F_PASS_OPPONENT_FINISHING, F_PASS_OPPONENT, F_PASS_OPPONENT_SMALL,
  F_PASS_OPPONENT_ATTACK_VALUE, F_PASS_COULD_BLOCK,
  F_GO, F_GO_STRENGTH,                                /* the 5-pawn decision to play on */
  /* Features only the inference model weighs (the playout policy keeps them at 0): what the
   * mover's hand makes of a pass or a play, the signs that tell hands apart. */
  F_INFERENCE_FIRST,
  F_PASS_BLOCKERS = F_INFERENCE_FIRST,                /* pieces that could answer the pass's attack */
  F_PASS_KING_ONLY,                                   /* only a king could have answered */
  F_PASS_PARTNER_COULD_BLOCK,                         /* declined to take the partner's lead */
  F_PASS_KINGS_HELD,
  F_ATTACK_COUNT,                                     /* pieces of the attack's kind held before */
  F_ATTACK_SINGLE,                                    /* the attack is the last of its kind */
  F_KING_BLOCK_HAVING_KIND,                           /* a king used while the kind was held */
  F_BLOCK_COUNT,                                      /* pieces of the blocking kind held before */
  F_HIGH_AFTER,                                       /* bishops, rooks and kings kept */
  F_PAIRS_AFTER, F_PAWNS_AFTER,                       /* kinds kept in twos or more; pawns kept */
  /* the attack's kind, one feature a kind (a king's is F_KING_ATTACK) */
  F_ATTACK_IS_PAWN, F_ATTACK_IS_LANCE, F_ATTACK_IS_KNIGHT, F_ATTACK_IS_SILVER, F_ATTACK_IS_GOLD,
  F_ATTACK_IS_BISHOP, F_ATTACK_IS_ROOK,
  /* a lead's face-down kind (a pawn's is F_LEAD_BLOCK_PAWN) */
  F_LEAD_BLOCK_LANCE, F_LEAD_BLOCK_KNIGHT, F_LEAD_BLOCK_SILVER, F_LEAD_BLOCK_GOLD, F_LEAD_BLOCK_BISHOP,
  F_LEAD_BLOCK_ROOK, F_LEAD_BLOCK_KING,
  /* a pass on an attack whose kind is held, by that kind */
  F_PASS_HOLDING_PAWN, F_PASS_HOLDING_LANCE, F_PASS_HOLDING_KNIGHT, F_PASS_HOLDING_SILVER, F_PASS_HOLDING_GOLD,
  F_PASS_HOLDING_BISHOP, F_PASS_HOLDING_ROOK, F_PASS_HOLDING_KING,
  /* What is played against what is kept: the pieces of each kind in the mover's hand (before
   * the move), one block of 8 for each kind attacked with, for each kind a lead puts face down,
   * and for a pass on the partner and on an opponent. A linear model tells hands apart only by
   * features in which the hand and the move meet; these are the general ones. */
  F_ATTACK_X_HAND,                                    /* + 8 * (attack kind - 1) + (kind - 1) */
  F_LEAD_BLOCK_X_HAND = F_ATTACK_X_HAND + 64,         /* + 8 * (face-down kind - 1) + (kind - 1) */
  F_PASS_X_HAND = F_LEAD_BLOCK_X_HAND + 64,           /* + (0 partner, 8 opponent) + (kind - 1) */
  GOITA__FEATURES = F_PASS_X_HAND + 16
};

typedef struct goita__policy {
  double temperature;               /* of the softmax that turns scores into a playing policy */
  double weight[GOITA__FEATURES];
} goita__policy;

/* Writes the feature's name as C (an enumerator, or a block's first one plus an offset). */
void goita__feature_name(int feature, char *out, size_t size);
extern const goita__policy goita__rules_policy;   /* set by hand */
extern const goita__policy goita__learned_policy; /* trained by goita train (policy_learned.c) */
/* how strong players move, for inference: fitted by goita-train --model inference to the moves
 * of the master's self-play (policy_inference.c) */
extern const goita__policy goita__inference_policy;
extern const goita__policy goita__inference_policy_2026_11; /* the one of master_2026_11 */

/* Fills f[i] with the features of moves[i] for the view's seat. */
void goita__policy_features(const goita_view *view, const goita_move *moves, int n,
                            double (*f)[GOITA__FEATURES]);

/* Writes each move's score under the policy. */
void goita__policy_scores(const goita__policy *policy, const goita_view *view, const goita_move *moves, int n,
                          double *scores);

/* Fills p[i] with the policy's probability of moves[i] given their scores. */
void goita__policy_probabilities(const double *scores, int n, double temperature, double *p);

/* Plays the round out from round with every seat drawing its moves from the policy on its own
 * view (the seats of seat's side from `own`, which may be the same policy); returns the points
 * of the side of `seat` (negative when another side scores). With
 * stop_pieces > 0 it stops (returning 0, the round not over) once at most that many pieces are
 * left in hands. Adds the work done to *work: a unit per move played and per legal move weighed. */
int goita__playout(const goita__policy *policy, const goita__policy *own, goita_round *round, int seat,
                   goita_rng *rng, uint64_t *work, int stop_pieces);

/* Returns the points of the round's result for the side of seat (0 for a redeal). */
int goita__result_for(const goita_round *round, int seat);

/* Returns a uniform double in [0, 1). */
static inline double goita__unit(goita_rng *rng) { return (double)(goita_rng_next(rng) >> 11) * 0x1.0p-53; }

#endif

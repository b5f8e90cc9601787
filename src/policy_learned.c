/* The learned policy's weights, written by goita-train (src/train/train.c): self-play of a
 * sampling player, the policy fitted to its move values. Made by:
 *   goita-train --games 300 --iterations 3 --seed 1 --teacher sampler
 * Do not edit by hand; run it again. */
#include "policy.h"

const goita__policy goita__learned_policy = {
    2.0,
    {
        [F_FINISH] = 42.6238,
        [F_FINISH_POINTS] = 1.5417,
        [F_UNANSWERABLE] = 3.2504,
        [F_ANSWER_INVERSE] = 1.5309,
        [F_PASSED_OPPONENTS] = 0.3991,
        [F_NEXT_PASSED] = 0.3554,
        [F_ATTACK_VALUE] = 0.4106,
        [F_KEEP_ATTACK_KIND] = 1.8763,
        [F_UNSEEN_ATTACK_KIND] = -1.3244,
        [F_KINGS_AFTER] = 1.3058,
        [F_STRONG_ATTACK_EARLY] = -0.4579,
        [F_KING_ATTACK] = -1.5052,
        [F_BREAKS_PAIR] = -0.5346,
        [F_LAST_PAIR_VALUE] = 0.6233,
        [F_LAST_HIGH_VALUE] = 0.0598,
        [F_LEAD_BLOCK_VALUE] = -0.2985,
        [F_LEAD_BREAKS_PAIR] = 0.8604,
        [F_LEAD_BLOCK_PAWN] = 1.1097,
        [F_KING_BLOCK] = -2.9078,
        [F_KING_BLOCK_ATTACK_VALUE] = 0.2029,
        [F_DEFEND_PARTNER_EARLY] = 3.8517,
        [F_DEFEND_PARTNER_LATE] = 3.1748,
        [F_DEFEND_OPPONENT] = 4.2414,
        [F_DEFEND_SMALL_HAND] = -0.7729,
        [F_PASS_PARTNER] = 8.8527,
        [F_PASS_OPPONENT_FINISHING] = 0.8213,
        [F_PASS_OPPONENT] = 5.5834,
        [F_PASS_OPPONENT_SMALL] = 0.3777,
        [F_PASS_OPPONENT_ATTACK_VALUE] = 0.0646,
        [F_PASS_COULD_BLOCK] = -1.1117,
        [F_GO] = -3.4544,
        [F_GO_STRENGTH] = 0.3427,
    },
};

/* Observations and actions for learning agents: a view as a fixed array of bytes, and moves as
 * action numbers. The Python environment (python/goita/env.py) and the batched environment
 * (goita/batch.h) share this encoding; docs/PYTHON.md documents it field by field.
 *
 * Thread safety: every function here reads only its arguments; any thread may call them. */
#ifndef GOITA_OBSERVATION_H
#define GOITA_OBSERVATION_H

#include <stdint.h>

#include "goita/status.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one observation. Every seat in it is counted from the viewer (0 = the viewer,
 * 1 = next in turn, ...); seats a game with fewer players lacks are zero.
 *   0 hand[8]            the viewer's pieces per kind 1..8 (pawn .. king)
 *   8 kings              the viewer's physical kings: bit 0 王, bit 1 玉
 *   9 hand_size[4]       pieces in hand, per relative seat
 *  13 plays[4]           plays made, per relative seat
 *  17 block_row[4][6]    marks 1-9, 0 = empty or face-down and unseen
 *  41 attack_row[4][6]   marks 1-9, 0 = empty
 *  65 face_down[4]       bit i: block i of that seat was placed face-down
 *  69 attack             kind to answer, 0 when the seat to move leads
 *  70 passes             passes since the last attack
 *  71 phase              0 five-pawn decision, 1 play, 2 over
 *  72 kings_up           kings face-up on the table
 *  73 face_down_count[4] face-down pieces per relative seat
 *  77 turn               relative seat to move (255 when none)
 *  78 attacker           relative seat of the last attack, 255 when none
 *  79 dealer             relative seat of the dealer
 *  80 goshi, 81 deciders, 82 redeal_votes, 83 go_votes: bit r for relative seat r
 *  84 score[4]           game score per side from the viewer's side on, in tens (0..255) */
#define GOITA_OBS_SIZE 88

/* Actions: 0 pass, 1 redeal, 2 play on (the 5-pawn decisions), then 3 + 8 * (block - 1) +
 * (attack - 1) for a play of kinds block and attack (1 pawn .. 8 king). */
#define GOITA_ACTION_PASS 0
#define GOITA_ACTION_REDEAL 1
#define GOITA_ACTION_GO 2
#define GOITA_ACTION_PLAY0 3
#define GOITA_NUM_ACTIONS (GOITA_ACTION_PLAY0 + 8 * 8)

/* Writes the GOITA_OBS_SIZE bytes of a seat's view (from goita_game_view, or goita_round_view
 * with zero scores) into out. Returns GOITA_OK, or GOITA_EINVAL for an observer's view, which
 * has no seat to count from. */
GOITA_API int goita_view_observe(const goita_view *view, uint8_t *out);

/* Returns the action of a move (kings 8 and 9 are the same action), or GOITA_EINVAL for a
 * move no action stands for. */
GOITA_API int goita_move_action(goita_move move);

/* Writes into *move the move seat makes with action. Returns GOITA_OK, or GOITA_EINVAL when
 * action is not below GOITA_NUM_ACTIONS. */
GOITA_API int goita_action_move(int action, int seat, goita_move *move);

#ifdef __cplusplus
}
#endif
#endif

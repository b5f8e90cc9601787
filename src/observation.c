/* A view as the bytes of an observation (goita/observation.h), and moves as action numbers. */
#include <string.h>

#include "goita/observation.h"
#include "internal.h"

/* The relative seat of an absolute one; anything not a seat (-1: none) stays as its byte. */
static uint8_t relative_seat(int seat, int viewer, int players) {
  if (seat < 0 || seat >= players) return (uint8_t)seat;
  return (uint8_t)(seat >= viewer ? seat - viewer : seat - viewer + players);
}

/* A set of absolute seats (bit s) as the same set of relative seats (bit r): the players'
 * bits rotated right by the viewer's seat. */
static uint8_t relative_bits(unsigned bits, int viewer, int players) {
  const unsigned seats = (1u << players) - 1;
  bits &= seats;
  return (uint8_t)(((bits >> viewer) | (bits << (players - viewer))) & seats);
}

/* Bits set in a byte: without a popcount instruction the builtin is a library call, which
 * cost more than the rest of this encoding. */
static uint8_t bits_in(uint8_t x) {
  x = (uint8_t)(x - ((x >> 1) & 0x55));
  x = (uint8_t)((x & 0x33) + ((x >> 2) & 0x33));
  return (uint8_t)((x + (x >> 4)) & 0x0f);
}

int goita_view_observe(const goita_view *v, uint8_t *out) {
  const int viewer = v->seat, players = v->players;
  if (viewer < 0 || viewer >= players) return GOITA_EINVAL;
  memset(out, 0, GOITA_OBS_SIZE);
  memcpy(out, &v->hand[GOITA_PAWN], 8);
  out[8] = v->kings;
  for (int r = 0, s = viewer; r < players; r++, s = s + 1 == players ? 0 : s + 1) {
    out[9 + r] = v->size[s];
    out[13 + r] = v->plays[s];
    memcpy(out + 17 + GOITA_MAX_PLAYS * r, v->block_row[s], GOITA_MAX_PLAYS);
    memcpy(out + 41 + GOITA_MAX_PLAYS * r, v->attack_row[s], GOITA_MAX_PLAYS);
    out[65 + r] = v->face_down[s];
    out[73 + r] = bits_in(v->face_down[s]);
  }
  out[69] = v->attack;
  out[70] = v->passes;
  out[71] = v->phase;
  out[72] = v->kings_up;
  out[77] = relative_seat(v->turn, viewer, players);
  out[78] = relative_seat(v->attacker, viewer, players);
  out[79] = relative_seat(v->dealer, viewer, players);
  out[80] = relative_bits(v->goshi, viewer, players);
  out[81] = relative_bits(v->deciders, viewer, players);
  out[82] = relative_bits(v->redeal_votes, viewer, players);
  out[83] = relative_bits(v->go_votes, viewer, players);
  const int sides = goita_rules_sides(&v->rules);
  for (int r = 0; r < sides; r++) {
    const int score = v->score[goita_rules_side_of(&v->rules, (viewer + r) % players)];
    out[84 + r] = (uint8_t)(score < 0 ? 0 : score / 10 > 255 ? 255 : score / 10);
  }
  return GOITA_OK;
}

int goita_move_action(goita_move m) {
  switch (m.type) {
    case GOITA_MOVE_PASS: return GOITA_ACTION_PASS;
    case GOITA_MOVE_REDEAL: return GOITA_ACTION_REDEAL;
    case GOITA_MOVE_GO: return GOITA_ACTION_GO;
    case GOITA_MOVE_PLAY: {
      const int block = MARK_KIND(m.block), attack = MARK_KIND(m.attack);
      if (block < GOITA_PAWN || block > GOITA_KING || attack < GOITA_PAWN || attack > GOITA_KING) break;
      return GOITA_ACTION_PLAY0 + 8 * (block - 1) + (attack - 1);
    }
    default: break;
  }
  return GOITA_EINVAL;
}

int goita_action_move(int action, int seat, goita_move *move) {
  if (action < 0 || action >= GOITA_NUM_ACTIONS) return GOITA_EINVAL;
  static const uint8_t decisions[GOITA_ACTION_PLAY0] = {GOITA_MOVE_PASS, GOITA_MOVE_REDEAL, GOITA_MOVE_GO};
  if (action < GOITA_ACTION_PLAY0) {
    *move = (goita_move){decisions[action], (uint8_t)seat, 0, 0};
  } else {
    const int play = action - GOITA_ACTION_PLAY0;
    *move = goita_move_play(seat, play / 8 + 1, play % 8 + 1);
  }
  return GOITA_OK;
}

/* Moves on the solver's compact position (spos): taking pieces, passing, settling the turn
 * past forced passes, and the rules of kings on a hand's facts. All inline: the search makes
 * every move through them. Internal to the library. */
#ifndef GOITA_SOLVER_MOVES_H
#define GOITA_SOLVER_MOVES_H

#include <stdbool.h>
#include <stdint.h>

#include "solver_internal.h"

/* A move: the face-down or defending kind (block) and the attack kind; 0 is a pass. */
#define MOVE(b, a) ((uint8_t)((b) << 4 | (a)))
#define MOVE_BLOCK(m) ((m) >> 4)
#define MOVE_ATTACK(m) ((m)&15)

/* hands without one piece of kind from seat's hand (the lowest bit of the kind's range). */
static inline uint32_t take(const goita_solver *s, uint32_t hands, int seat, int kind) {
  const uint32_t have = hands & s->kind_mask[seat][kind];
  return hands & ~(have & (0u - have));
}

/* Moves the turn past seats that cannot answer (their only move is a pass) and gives the lead
 * back to the attacker when every other seat has passed. hand[seat] is each seat's hand; the
 * attacker's may be out of date (it is never asked). */
SEARCH_INLINE void settle_by(int n, spos *p, const hand_info *const *hand) {
  for (;;) {
    if (p->turn == p->attacker) {
      p->attack = 0;
      p->passes = 0;
      return;
    }
    if (hand[p->turn]->held & defenders[p->attack]) return;
    p->passes++;
    p->turn = (uint8_t)next_seat(n, p->turn);
  }
}

/* settle_by with the hands read from p. */
static inline void settle(const goita_solver *s, spos *p) {
  const hand_info *hand[GOITA_MAX_SEATS] = {NULL};
  hands_of(s, s->players, p->hands, hand);
  settle_by(s->players, p, hand);
}

/* Whether a king may attack (goita__king_attack_ok on the solver's rules). */
static inline bool king_attack_ok(const goita_solver *s, int kingup, int kings, int size) {
  if (kingup) return true;
  switch (s->rules.king_attack) {
    case GOITA_KING_ATTACK_ANY_OF_ABC: return kings == 2 || size == 2;
    case GOITA_KING_ATTACK_A_OR_LAST: return size == 2;
    case GOITA_KING_ATTACK_A_OR_B: return kings == 2;
  }
  return false;
}

/* Mirrors goita__face_down_king_ok (internal.h) on a hand_info. */
static inline bool face_down_king_ok(const goita_solver *s, const hand_info *h, int kingup) {
  if (s->rules.king_face_down == GOITA_KING_FACE_DOWN_ALLOWED) return true;
  if (h->size != 2) return false;
  if (h->kings == 2) return true;
  return s->rules.king_attack == GOITA_KING_ATTACK_A_OR_B && !kingup && h->kings == 1;
}

/* The attacks allowed after placing block (kind) from hand h; leading says where it goes. */
static inline unsigned attacks_after(const goita_solver *s, const hand_info *h, int kingup, int block,
                                     bool leading) {
  unsigned attacks = h->held;
  if (!(h->pairs & (1u << block))) attacks &= ~(1u << block);
  if ((attacks & KING_BIT) &&
      !king_attack_ok(s, kingup || (!leading && block == GOITA_KING), h->kings_b, h->size))
    attacks &= ~KING_BIT;
  return attacks;
}

/* Applies a play of the mover; returns the finish value in tens (0 when the round goes on). */
SEARCH_INLINE int play(const goita_solver *s, int n, const spos *p, int move, spos *child,
                       const hand_info *const *hand) {
  const int b = MOVE_BLOCK(move), a = MOVE_ATTACK(move);
  const int me = p->turn;
  const bool leading = p->attack == 0;
  uint32_t hands = take(s, p->hands, me, b);
  hands = take(s, hands, me, a);
  if (!(hands & s->kind_mask[me][0])) { /* kind_mask[seat][0] holds every bit of the seat */
    return kind_tens[a] * (leading && a == b ? 2 : 1);
  }
  child->hands = hands;
  child->pieces = (uint8_t)(p->pieces - 2);
  child->kingup = (uint8_t)(p->kingup | (a == GOITA_KING) | (!leading && b == GOITA_KING));
  child->attack = (uint8_t)a;
  child->attacker = (uint8_t)me;
  child->passes = 0;
  child->turn = (uint8_t)next_seat(n, me);
  settle_by(n, child, hand); /* the mover is the attacker: its old hand is never asked */
  return 0;
}

/* Applies a pass of the mover. */
SEARCH_INLINE void pass(int n, const spos *p, spos *child, const hand_info *const *hand) {
  *child = *p;
  child->passes++;
  child->turn = (uint8_t)next_seat(n, p->turn);
  settle_by(n, child, hand); /* the turn reaches the attacker before the mover */
}

/* Makes the child of p after move (0: a pass); returns the finish value in tens when the move
 * ends the round, else 0. */
SEARCH_INLINE int make_child(const goita_solver *s, int n, const spos *p, int move, spos *child,
                             const hand_info *const *hand) {
  if (move) return play(s, n, p, move, child, hand);
  pass(n, p, child, hand);
  return 0;
}

#endif

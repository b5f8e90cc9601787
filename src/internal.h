/* Internal helpers shared by the library's modules (not installed). */
#ifndef GOITA_INTERNAL_H
#define GOITA_INTERNAL_H

#include "goita/goita.h"

/* The kind of a valid mark (1-9), for hot paths; goita_mark_kind checks its argument. */
#define MARK_KIND(m) ((m) == GOITA_MARK_GYOKU ? GOITA_KING : (m))

/* Seats are written 1-4 to people, as in the notation. */
#define SEAT_NAME(s) ((s) + 1)

/* Everything the legality of one seat's plays depends on; built from a round or a view. */
typedef struct goita__turn {
  const goita_rules *rules;
  const uint8_t *hand; /* counts per kind */
  unsigned held;       /* bit k: hand[k] > 0 */
  int size;            /* pieces in hand */
  int attack;          /* kind to answer, GOITA_NONE when leading */
  int kings_up;        /* kings face-up on the table */
  int kings_b;         /* kings that count for rule (b): goita__kings_for_b */
  int seat;
} goita__turn;

/* RULES.md 4, king as attack: (a) a king face-up (counting a king just placed in defence),
 * (b) both kings (kings_b, judged before the play), (c) the play places the last piece. */
static inline bool goita__king_attack_ok(const goita_rules *rules, int kings_up, int kings_b, int size) {
  if (kings_up > 0) return true;
  switch (rules->king_attack) {
    case GOITA_KING_ATTACK_ANY_OF_ABC: return kings_b == 2 || size == 2;
    case GOITA_KING_ATTACK_A_OR_LAST: return size == 2;
    case GOITA_KING_ATTACK_A_OR_B: return kings_b == 2;
  }
  return false;
}

/* The kings that count for rule (b) (RULES.md 4): those in hand, or, under king_b=dealt, 2
 * when the seat was dealt both and still holds one (the other may have gone face-down). */
static inline int goita__kings_for_b(const goita_rules *rules, int kings_in_hand, int kings_dealt) {
  return rules->king_b == GOITA_KING_B_DEALT && kings_in_hand > 0 ? kings_dealt : kings_in_hand;
}

/* RULES.md 4, king face-down: forbidden unless allowed by option, or the leader's only two
 * pieces are both kings. Engine reading for king_attack=a_or_b: a leader whose last two
 * pieces are one king and another piece, with no king face-up, may not attack with the king
 * and so may lead it face-down (otherwise the round could not go on). */
static inline bool goita__face_down_king_ok(const goita__turn *t) {
  if (t->rules->king_face_down == GOITA_KING_FACE_DOWN_ALLOWED) return true;
  if (t->size != 2) return false;
  if (t->hand[GOITA_KING] == 2) return true;
  return t->rules->king_attack == GOITA_KING_ATTACK_A_OR_B && t->kings_up == 0 &&
         t->hand[GOITA_KING] == 1;
}

/* RULES.md 4, defence: the attack's kind, or a king against knight to rook. */
static inline bool goita__can_block(int block, int attack) {
  return block == attack || (block == GOITA_KING && attack >= GOITA_KNIGHT && attack <= GOITA_ROOK);
}

/* Writes the marks of the set the rules play with, ascending, into marks (room for
 * GOITA_PIECES); returns how many (32, or 30 with 3 players). */
int goita__full_set(const goita_rules *rules, uint8_t *marks);

/* Writes the legal plays (and a pass when not leading) of t into out; returns the count. */
int goita__gen_moves(const goita__turn *t, goita_move *out);

/* Checks one play or pass of t; returns GOITA_OK or GOITA_EILLEGAL with err filled. */
int goita__check_move(const goita__turn *t, goita_move move, goita_error *err);

/* Makes the solver's next solve start a new generation of its table, even of the same deal:
 * what it holds then counts as empty, as in a new solver (the nodes a solve takes, which
 * budgets count, then depend on nothing solved before). */
void goita__solver_forget_deal(goita_solver *solver);

/* Reads a history string as goita_history_parse_view does (viewer may be GOITA_VIEWER_INFER,
 * and is set to the seat read) and writes one full round consistent with it into round: the
 * hidden pieces filled by goita__complete_hidden. Errors as goita_history_parse_view. */
int goita__history_fill(goita_round *round, int *viewer, const goita_rules *rules, const char *text,
                        goita_error *err);

#endif

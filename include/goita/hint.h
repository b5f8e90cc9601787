/* Hints: the best moves of a computer player from one seat's own view, each with the facts a
 * sentence can say why from (the pieces the other seats likely hold, the move's value), and
 * the count of the pieces that seat has not seen. Built from the view alone, so a hint shows
 * nothing the seat may not know. */
#ifndef GOITA_HINT_H
#define GOITA_HINT_H

#include <stdint.h>

#include "goita/status.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moves a hint offers, best first. */
#define GOITA_HINT_MOVES 3
#define GOITA_HINT_REASONS 4

/* The kinds of reason; a client words each in its language from piece, seat, count, chance. */
typedef enum goita_reason_kind {
  GOITA_REASON_FINISH = 0,       /* goes out: count = points (doubled when a pair is led) */
  GOITA_REASON_PAIR_LEFT,        /* leaves two of piece for a doubled finish */
  GOITA_REASON_SAFE_ATTACK,      /* the opponents likely cannot answer piece: chance */
  GOITA_REASON_TAKES_LEAD,       /* answers opponent seat, who has count pieces left */
  GOITA_REASON_PARTNER_ATTACK,   /* a pass: lets partner seat's attack with piece stand */
  GOITA_REASON_PARTNER_ANSWERS,  /* a pass: partner seat likely can answer piece: chance */
  GOITA_REASON_KEEPS             /* keeps piece, which the next-best move spends */
} goita_reason_kind;

typedef struct goita_hint_reason {
  uint8_t kind;   /* goita_reason_kind */
  uint8_t piece;  /* a kind (1-8), 0 when none */
  int8_t seat;    /* a seat, -1 when none */
  int16_t count;  /* points or pieces, per kind */
  double chance;  /* 0-1, per kind */
} goita_hint_reason;

typedef struct goita_hint_move {
  goita_move move;
  double value;   /* the player's estimate of the points it brings the seat's side */
  int deals;      /* deals in which it was valued */
  int agree;      /* deals in which it was (one of) the best */
  int nreasons;
  goita_hint_reason reasons[GOITA_HINT_REASONS];
} goita_hint_move;

typedef struct goita_hint {
  int nmoves;
  goita_hint_move moves[GOITA_HINT_MOVES];
  int samples;                                   /* deals the player looked at */
  double held[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]; /* chance each seat holds a kind (own: 0 or 1) */
  uint8_t unseen[GOITA_KIND_SLOTS];              /* goita_view_unseen */
} goita_hint;

/* Counts, per kind, the pieces the viewer has not seen: the set less its own hand and the
 * pieces face-up on the table (kings as one kind, 8). Public facts only. */
GOITA_API void goita_view_unseen(const goita_view *view, uint8_t unseen[GOITA_KIND_SLOTS]);

/* Makes the hint for the seat of view, whose turn it must be, with a computer player of spec
 * (a budgeted level, "master" or "fast", also reads the others' moves for held; any other
 * level's held comes from uniform deals) seeded by seed. Returns GOITA_OK, the errors of
 * goita_player_new (err says why), GOITA_ETURN when it is not the seat's turn, GOITA_EOVER
 * once the round is over. */
GOITA_API int goita_hint_make(const goita_view *view, const char *spec, uint64_t seed, goita_hint *hint,
                              goita_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Views: what one seat (or an observer) may know of a round, and nothing more. Every player,
 * bot, screen and network message is built from a view, never from the full state. */
#ifndef GOITA_VIEW_H
#define GOITA_VIEW_H

#include "goita/status.h"
#include "goita/round.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOITA_OBSERVER (-1)

typedef struct goita_view {
  goita_rules rules;
  int8_t seat;        /* the viewer, or GOITA_OBSERVER */
  int8_t players;
  int8_t dealer;
  int8_t turn;
  int8_t attacker;
  uint8_t phase;
  uint8_t attack;
  uint8_t passes;
  uint8_t kings_up;
  uint8_t hand[GOITA_KIND_SLOTS]; /* the viewer's own hand (all zero for an observer) */
  uint8_t kings;                  /* the viewer's physical kings: bit 0 王, bit 1 玉 */
  uint8_t size[GOITA_MAX_SEATS];  /* pieces in each hand */
  uint8_t plays[GOITA_MAX_SEATS];
  /* Rows as on the table; 0 marks a face-down piece the viewer cannot see. */
  /* A finishing lead is turned face-up (its pair decides the doubling), so everyone sees it. */
  uint8_t block_row[GOITA_MAX_SEATS][GOITA_MAX_PLAYS];
  uint8_t attack_row[GOITA_MAX_SEATS][GOITA_MAX_PLAYS];
  uint8_t face_down[GOITA_MAX_SEATS];
  uint8_t goshi;        /* seats that showed 5 pawns (their 5 pawns are public) */
  uint8_t deciders;     /* seats still to make a 5-pawn decision */
  uint8_t redeal_votes; /* decisions made so far (public announcements) */
  uint8_t go_votes;
  uint8_t nlog;
  goita_move log[GOITA_MAX_LOG]; /* the moves, with unseen face-down blocks as 0 */
  goita_round_result result;
  /* The hand a teyaku winner shows (marks ascending, RULES.md 3.1); zero otherwise. */
  uint8_t teyaku_hand[GOITA_MAX_HAND];
  /* Filled by goita_game_view; zero for a bare round. */
  int16_t score[GOITA_MAX_SEATS];
  int16_t round_index;
} goita_view;

/* Fills view with what seat (0..players-1, or GOITA_OBSERVER) may know of round.
 * Returns GOITA_OK or GOITA_EINVAL for a seat out of range. */
GOITA_API int goita_round_view(const goita_round *round, int seat, goita_view *view);

/* Writes the viewer's legal moves (it must be the viewer's turn) into out, computed from the
 * view alone, and returns their number; the same list goita_round_legal_moves gives. */
GOITA_API int goita_view_legal_moves(const goita_view *view, goita_move *out);

#ifdef __cplusplus
}
#endif
#endif

/* The community notation ("history string" of goita-core, RECORD_FORMAT.md):
 *   hand,hand,hand,hand,sD[,move]...   hands as 8 digits, seats written 1-4, move "113" / "2p".
 * 5-pawn decisions, which goita-core does not write, ride on the dealer token, whose extra
 * characters goita-core ignores: "s1+3r" = seat 3 chose redeal, "s1+3g" = seat 3 chose play.
 * The same grammar serves 3 and 2 players with 10 and 12 digits a hand. */
#ifndef GOITA_NOTATION_H
#define GOITA_NOTATION_H

#include <stddef.h>

#include "goita/round.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads one move token ("113", "2p"; decisions "3r" / "3g") with seats written 1-4.
 * Returns GOITA_OK or GOITA_EPARSE. The token is only read, not checked against a round. */
int goita_move_parse(const char *text, size_t len, goita_move *move);

/* Writes a move token with its seat as 1-4 (a play's block written in the open).
 * Returns the length or GOITA_ENOSPACE. */
int goita_move_format(goita_move move, char *buf, size_t size);

/* Reads a full-information history string into round (under rules) and applies every
 * move with full checks. On error the round is left untouched and err names the token
 * (err->position is its 0-based index among the comma-separated tokens) and the reason. */
int goita_history_parse(goita_round *round, const goita_rules *rules, const char *text,
                        goita_error *err);

/* Writes the round as a full-information history string (hands as dealt, sorted; every
 * face-down piece in the open). Returns the length or GOITA_ENOSPACE. */
int goita_history_format(const goita_round *round, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif

/* The community notation ("history string" of goita-core, docs/RECORDS.md 1):
 *   hand,hand,hand,hand,sD[,move]...   hands as 8 digits, seats written 1-4, move "113" / "2p".
 * 5-pawn decisions, which goita-core does not write, ride on the dealer token, whose extra
 * characters goita-core ignores: "s1+3r" = seat 3 chose redeal, "s1+3g" = seat 3 chose play.
 * The same grammar serves 3 and 2 players with 10 and 12 digits a hand. */
#ifndef GOITA_NOTATION_H
#define GOITA_NOTATION_H

#include <stddef.h>

#include "goita/status.h"
#include "goita/round.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads one move token ("113", "2p"; decisions "3r" / "3g") with seats written 1-4.
 * Returns GOITA_OK or GOITA_EPARSE. The token is only read, not checked against a round. */
GOITA_API int goita_move_parse(const char *text, size_t len, goita_move *move);

/* Writes a move token with its seat as 1-4 (a play's block written in the open).
 * Returns the length or GOITA_ENOSPACE. */
GOITA_API int goita_move_format(goita_move move, char *buf, size_t size);

/* Reads a full-information history string into round (under rules) and applies every
 * move with full checks. On error the round is left untouched and err names the token
 * (err->position is its 0-based index among the comma-separated tokens) and the reason. */
GOITA_API int goita_history_parse(goita_round *round, const goita_rules *rules, const char *text,
                        goita_error *err);

/* Viewer argument of goita_history_parse_view: work out who the string was written for. */
#define GOITA_VIEWER_INFER (-2)

/* Reads a history string as one seat (or an observer) sees it: other hands as the pieces
 * they have shown padded with x ("123xxxxx"), others' face-down blocks as x ("1x3"), the
 * viewer's own hand in full. viewer is a seat 0..players-1, GOITA_OBSERVER or
 * GOITA_VIEWER_INFER (the seat whose hand is written in full and whose blocks are never x;
 * observer when there is none). A full string reads too. The string must be consistent
 * with some deal of the hidden pieces under the rules: every move is checked as the round
 * would check it. Errors as goita_history_parse; view is untouched on error. */
GOITA_API int goita_history_parse_view(goita_view *view, const goita_rules *rules, const char *text, int viewer,
                             goita_error *err);

/* Writes what view shows as a history string: the viewer's hand as dealt, each other hand as
 * the pieces it has shown (face-up, the 5 pawns announced, a teyaku hand) sorted and padded
 * with x, and others' face-down blocks as x. A finishing play is always written in the open.
 * For goita_round_view(round, seat) this is goita-core's toHiddenString(seat). Returns the
 * length or GOITA_ENOSPACE. */
GOITA_API int goita_history_format_view(const goita_view *view, char *buf, size_t size);

/* Writes the round as a full-information history string (hands as dealt, sorted; every
 * face-down piece in the open). Returns the length or GOITA_ENOSPACE. */
GOITA_API int goita_history_format(const goita_round *round, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif

/* Reading hidden views: the pieces a history string writes x filled with a deal that fits
 * everything it shows (hidden.c). Internal to the library. */
#ifndef GOITA_HIDDEN_INTERNAL_H
#define GOITA_HIDDEN_INTERNAL_H

#include "history.h"

/* Fills every x of a hidden history (hands and face-down blocks) with pieces so that the
 * round is consistent with everything written: the set's counts, pieces shown, the pawn
 * announcements a hand would have made, and kings a seat must have held (hidden.c). The
 * viewer's hand must be written in full. Returns GOITA_OK or GOITA_EPARSE / GOITA_EILLEGAL. */
int goita__complete_hidden(goita__history *h, const goita_rules *rules, int viewer, goita_error *err);

#endif

/* Sampling the hidden pieces: full rounds a seat's view could have come from. The computer
 * players that search ("what if the others hold this?") and anyone studying a position use
 * them. A sample is built from the view alone, so it can reveal nothing the seat does not know. */
#ifndef GOITA_SAMPLE_H
#define GOITA_SAMPLE_H

#include "goita/status.h"
#include "goita/rng.h"
#include "goita/round.h"
#include "goita/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deals the pieces the viewer cannot see (the other hands, their face-down pieces, and with
 * 2 players the 8 set aside) at random and writes the full round into out: a round whose view
 * for the viewer equals view (scores aside). Every such deal is equally likely: the deal is
 * drawn uniformly and rejected until it agrees with everything the view shows (pieces on the
 * table, hand sizes, 5-pawn announcements, the pawns a hand would have announced, kings that
 * may not lie face-down, every move being legal). When rejection keeps failing (a very
 * constrained view) it falls back to one consistent deal. Returns GOITA_OK, GOITA_EINVAL for
 * an observer's view, or GOITA_ESTATE when no deal agrees with the view (err says why). */
GOITA_API int goita_view_sample(const goita_view *view, goita_rng *rng, goita_round *out, goita_error *err);

/* Returns whether two views show the same (rules, scores and round index aside). */
GOITA_API bool goita_view_same(const goita_view *a, const goita_view *b);

#ifdef __cplusplus
}
#endif
#endif

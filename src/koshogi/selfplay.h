/* Self-play for fitting the evaluation (docs/KOSHOGI.md, "The evaluation's weights, fitted on
 * games"): the search against itself at a node budget, from seeded openings, reporting the
 * quiet positions it passes through. Internal: the koshogi command and the tests use it. */
#ifndef KOSHOGI_SELFPLAY_H
#define KOSHOGI_SELFPLAY_H

#include "koshogi/koshogi.h"

typedef struct ks__selfplay_options {
  long nodes;        /* each move's node budget */
  int limit;         /* plies; a game still open there is drawn */
  int opening;       /* random pawn steps before the search plays */
  int skip;          /* no position is reported before this ply */
  int adjudicate;    /* both searches scoring at least this for the same side, four plies running,
                        win the game for that side (0: never) */
  size_t hash_mib;   /* each side's table */
} ks__selfplay_options;

/* Called for each quiet position (one whose chosen move neither captures nor shoots, from ply
 * opt->skip on), with the ply it arose at. */
typedef void (*ks__quiet_fn)(void *ctx, const ks_position *pos, int ply);

/* Plays one game of the search against itself, each side with its own table, from an opening
 * of random pawn steps drawn from seed (the same seed and options, the same game). Returns
 * KS_BLACK_WINS, KS_WHITE_WINS or KS_NO_CONTEST (a draw, the limit included) and the plies
 * played in *plies, or -1 when out of memory. */
int ks__selfplay(const ks__selfplay_options *opt, uint64_t seed, ks__quiet_fn quiet, void *ctx, int *plies);

#endif

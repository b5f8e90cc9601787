/* The computer's strengths at a Ko shogi table (docs/KOSHOGI.md "Online"): each level is a
 * search budget in nodes, not in time, so a level plays the same on a busy server as on an idle
 * one and the same position always gets the same move. One table of levels, here only. */
#ifndef GOITA_SERVER_KS_LEVELS_H
#define GOITA_SERVER_KS_LEVELS_H

#include "koshogi/koshogi.h"

typedef struct srv_ks_level {
  const char *name;
  long nodes; /* the search's budget for one move */
} srv_ks_level;

/* clang-format off */
#define SRV_KS_LEVELS(X)  \
  X("ks-novice",   2000)  \
  X("ks-club",    20000)  \
  X("ks-expert", 100000)
/* clang-format on */

/* The longest a move may take whatever its budget: a guard for an overloaded machine. */
#define SRV_KS_THINK_MAX_MS 10000

/* The level of this name, NULL for none. */
const srv_ks_level *srv_ks_level_find(const char *name);
/* The levels in order of strength, and how many there are. */
const srv_ks_level *srv_ks_levels(int *count);
/* Chooses the side to move's move at a level with a searcher the caller owns (a worker's; its
 * table is cleared first, so the choice depends on the game only) and writes it in notation.
 * Returns 0, or -1 when the side to move has no legal move. Fills info when not NULL. */
int srv_ks_think(ks_searcher *searcher, const ks_game *game, const srv_ks_level *level, char move[KS_MOVE_TEXT],
                 ks_search_info *info);

/* srv_ks_think on a game given as its record (a think job's, hub.h): replays it and chooses.
 * Returns 0, or -1 (a record that does not read, no legal move, no memory). */
int srv_ks_think_record(ks_searcher *searcher, const char *record, const srv_ks_level *level, char move[KS_MOVE_TEXT]);

#endif

/* Ko shogi ratings (docs/KOSHOGI.md "Online"), kept apart from Goita's: the same Weng-Lin model
 * (ratings.h), with a smaller spread, since a Ko shogi game has no luck in it. */
#ifndef GOITA_SERVER_KS_RATING_H
#define GOITA_SERVER_KS_RATING_H

#include "ks_table.h"
#include "ratings.h"

/* The spread of one player's performance in one game: with two settled players (deviations near
 * 80) it puts the model's scale near Elo's 400 / ln 10 = 174, so rating differences mean about
 * what they mean in chess. Goita's 200 allows for the luck of the deal. */
#define SRV_KS_RATING_BETA 100.0

typedef struct srv_ks_rating {
  double rating, deviation;
} srv_ks_rating;

/* Whether a finished game moves ratings: each side made at least one move (a game resigned or
 * lost on time before that is not a game played). */
bool srv_ks_game_rated(const srv_ks_table *table);
/* Rates a finished game from both players' Ko shogi ratings before it (indexed by side): fills
 * after, and returns true; false (after = before) for a game that is not rated. */
bool srv_ks_rate(const srv_ks_table *table, const srv_ks_rating before[2], srv_ks_rating after[2]);

#endif

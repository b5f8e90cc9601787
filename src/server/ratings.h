/* Ratings after a finished game (docs/SERVER.md "Ratings"): a Bayesian skill model after Weng
 * and Lin (2011, Bradley-Terry "full pair"), on an Elo-like scale. Every rated player has a
 * rating (the mean of its skill) and a deviation (how unsure that is); a side's strength is the
 * sum of its seats'; each player moves by its own share of the side's uncertainty. Pure
 * functions: no hub, no storage, so the tests check them against the doc's worked examples. */
#ifndef GOITA_SERVER_RATINGS_H
#define GOITA_SERVER_RATINGS_H

#include <stdbool.h>
#include <stdint.h>

#define SRV_RATING_START 1500.0    /* a new player's rating */
#define SRV_DEVIATION_START 350.0  /* and deviation */
#define SRV_RATING_BETA 200.0      /* the spread of one seat's performance in one game */
#define SRV_RATING_TAU 10.0        /* the deviation added before each game: skills drift */
#define SRV_RATING_KAPPA 0.0001    /* the least a variance may shrink to in one game, as a factor */

/* One seat of a finished game as the rating sees it. */
typedef struct srv_rating_seat {
  int64_t entity;   /* the rated player; seats with the same entity are one player (a computer level) */
  int side;         /* 0 .. sides - 1 */
  int rank;         /* the side's place: 0 is first; equal ranks are a draw between the sides */
  double rating, deviation; /* before the game */
} srv_rating_seat;

/* A seat's player after the game. */
typedef struct srv_rating_result {
  bool rated;               /* false: the player sat on two sides (a computer level), so not rated */
  double rating, deviation; /* after the game; the old values when not rated */
} srv_rating_result;

/* Rates a finished game of n seats (at most 4): fills out[i] for each seat. Seats of one entity
 * on one side get the same result, computed once as one seat's share; an entity on two sides
 * keeps its rating and is marked not rated. */
void srv_ratings_update(const srv_rating_seat *seats, int n, srv_rating_result *out);
/* The same with another spread of one seat's performance than Goita's SRV_RATING_BETA (a game
 * with less luck in it, as Ko shogi's). */
void srv_ratings_update_spread(const srv_rating_seat *seats, int n, double beta, srv_rating_result *out);

#endif

/* Ratings after a finished game (ratings.h): Weng-Lin's Bradley-Terry full-pair update over
 * sides, with each seat's skill N(rating, deviation^2) and each side's strength the sum of its
 * seats' skills. docs/SERVER.md "Ratings" derives the formulas and works examples by hand. */
#include <math.h>

#include "ratings.h"

#define MAX_SEATS 4

typedef struct side_sum {
  double rating;   /* sum of the seats' ratings */
  double variance; /* sum of the seats' variances, each widened by tau^2 */
  int seats, rank;
} side_sum;

/* Whether the seat's entity also sits on another side: it would be playing itself. */
static bool on_two_sides(const srv_rating_seat *seats, int n, int i) {
  for (int j = 0; j < n; j++)
    if (seats[j].entity == seats[i].entity && seats[j].side != seats[i].side) return true;
  return false;
}

/* The share of a game one pair of sides is worth: with k sides a player meets k - 1 others,
 * and a whole game counts as one, whatever k. */
static double pair_weight(const side_sum *sides, int nsides) {
  int k = 0;
  for (int q = 0; q < nsides; q++) k += sides[q].seats > 0;
  return k > 1 ? 1.0 / (k - 1) : 0;
}

void srv_ratings_update(const srv_rating_seat *seats, int n, srv_rating_result *out) {
  srv_ratings_update_spread(seats, n, SRV_RATING_BETA, out);
}

void srv_ratings_update_spread(const srv_rating_seat *seats, int n, double beta, srv_rating_result *out) {
  side_sum sides[MAX_SEATS] = {{0}};
  if (n > MAX_SEATS) n = MAX_SEATS;
  for (int i = 0; i < n; i++) {
    side_sum *q = &sides[seats[i].side < 0 || seats[i].side >= MAX_SEATS ? 0 : seats[i].side];
    q->rating += seats[i].rating;
    q->variance += seats[i].deviation * seats[i].deviation + SRV_RATING_TAU * SRV_RATING_TAU;
    q->seats++;
    q->rank = seats[i].rank;
  }
  const double weight = pair_weight(sides, MAX_SEATS);
  for (int i = 0; i < n; i++) {
    out[i] = (srv_rating_result){.rated = false, .rating = seats[i].rating, .deviation = seats[i].deviation};
    if (on_two_sides(seats, n, i) || weight == 0) continue;
    const side_sum *q = &sides[seats[i].side];
    const double variance = seats[i].deviation * seats[i].deviation + SRV_RATING_TAU * SRV_RATING_TAU;
    double move = 0, information = 0;
    for (int r = 0; r < MAX_SEATS; r++) {
      const side_sum *o = &sides[r];
      if (o == q || o->seats == 0) continue;
      const double c = sqrt(q->variance + o->variance + (q->seats + o->seats) * beta * beta);
      const double expected = 1 / (1 + exp((o->rating - q->rating) / c));
      const double result = q->rank < o->rank ? 1 : q->rank > o->rank ? 0 : 0.5;
      move += weight * variance / c * (result - expected);
      information += weight * expected * (1 - expected) / (c * c);
    }
    const double shrink = fmax(1 - variance * information, SRV_RATING_KAPPA);
    out[i] = (srv_rating_result){.rated = true, .rating = seats[i].rating + move, .deviation = sqrt(variance * shrink)};
  }
}

/* The rating maths (src/server/ratings.c) against the worked examples of docs/SERVER.md
 * "Ratings", which are computed there by hand to the precision checked here (0.01). */
#include <criterion/criterion.h>

#include "ratings.h"

#define NEW SRV_RATING_START, SRV_DEVIATION_START

static void expect(const srv_rating_result *r, double rating, double deviation) {
  cr_assert(r->rated, "not rated");
  cr_expect_float_eq(r->rating, rating, 0.01, "rating %.4f, the doc says %.2f", r->rating, rating);
  cr_expect_float_eq(r->deviation, deviation, 0.01, "deviation %.4f, the doc says %.2f", r->deviation, deviation);
}

/* Example 1: four new players; seats 1 and 3 (side 0) win. */
Test(ratings, four_new_players) {
  const srv_rating_seat seats[4] = {{1, 0, 0, NEW}, {2, 1, 1, NEW}, {3, 0, 0, NEW}, {4, 1, 1, NEW}};
  srv_rating_result out[4];
  srv_ratings_update(seats, 4, out);
  expect(&out[0], 1576.01, 341.79);
  expect(&out[1], 1423.99, 341.79);
  expect(&out[2], 1576.01, 341.79);
  expect(&out[3], 1423.99, 341.79);
}

/* Example 2: a strong settled player with a newcomer loses to two settled players; the newcomer
 * takes most of the loss. */
Test(ratings, unequal_partners) {
  const srv_rating_seat seats[4] = {
      {1, 0, 1, 1800, 80}, {2, 1, 0, 1650, 80}, {3, 0, 1, NEW}, {4, 1, 0, 1550, 80}};
  srv_rating_result out[4];
  srv_ratings_update(seats, 4, out);
  expect(&out[0], 1793.55, 80.41);
  expect(&out[1], 1656.45, 80.41);
  expect(&out[2], 1378.35, 332.06);
  expect(&out[3], 1556.45, 80.41);
}

/* Example 3: one computer level holds both seats of the winning side: it is rated once, by one
 * seat's share. */
Test(ratings, level_on_one_side) {
  const srv_rating_seat seats[4] = {{1, 0, 1, NEW}, {9, 1, 0, 1700, 120}, {2, 0, 1, NEW}, {9, 1, 0, 1700, 120}};
  srv_rating_result out[4];
  srv_ratings_update(seats, 4, out);
  expect(&out[0], 1434.37, 338.67);
  expect(&out[1], 1707.76, 119.96);
  expect(&out[2], 1434.37, 338.67);
  expect(&out[3], 1707.76, 119.96);
}

/* Example 4: a level on both sides is not rated; it still counts in the sides' strengths. */
Test(ratings, level_on_both_sides) {
  const srv_rating_seat seats[4] = {{1, 0, 0, NEW}, {9, 1, 1, 1600, 100}, {9, 0, 0, 1600, 100}, {9, 1, 1, 1600, 100}};
  srv_rating_result out[4];
  srv_ratings_update(seats, 4, out);
  expect(&out[0], 1619.36, 332.70);
  for (int s = 1; s < 4; s++) {
    cr_expect(!out[s].rated, "seat %d's level was rated", s);
    cr_expect_eq(out[s].rating, 1600);
    cr_expect_eq(out[s].deviation, 100);
  }
}

/* Example 5: three new players, placed first, second and third by their scores. */
Test(ratings, three_players) {
  const srv_rating_seat seats[3] = {{1, 0, 0, NEW}, {2, 1, 1, NEW}, {3, 2, 2, NEW}};
  srv_rating_result out[3];
  srv_ratings_update(seats, 3, out);
  expect(&out[0], 1607.49, 333.23);
  expect(&out[1], 1500.00, 333.23);
  expect(&out[2], 1392.51, 333.23);
}

/* Helpers shared by the unit tests. */
#ifndef GOITA_TEST_SUPPORT_H
#define GOITA_TEST_SUPPORT_H

#include "goita/goita.h"

/* Reads a full-information history string under rules text, failing the test on error. */
goita_round test_round(const char *rules_text, const char *history);

/* Plays a uniformly random legal move; returns the move played. */
goita_move test_random_move(goita_round *round, goita_rng *rng);

#endif

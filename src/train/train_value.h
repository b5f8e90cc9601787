/* goita-train --model value (train_value.c): the value network fitted to playouts. */
#ifndef GOITA_TRAIN_VALUE_H
#define GOITA_TRAIN_VALUE_H

#include <stdint.h>

typedef struct goita__train_value_options {
  const char *teacher;  /* the level whose self-play gives the positions */
  const char *labeller; /* the level whose playouts label them; NULL: the learned policy's */
  uint64_t seed;
  long rounds, jobs, epochs;
  double rate;         /* Adam's step at the start */
  const char *out;     /* the C file to write */
  const char *data;    /* when not NULL: the positions are read from this file if it holds
                          those of these options, else generated and written to it */
  const char *command; /* the command line, written into it */
} goita__train_value_options;

/* Generates the data, fits the network, writes it; prints its progress. Returns 0 or 1. */
int goita__train_value(const goita__train_value_options *options);

#endif

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

/* Adds one weight as its file writes it (e.g. "%.4f;" or "%d;") to a fingerprint of a model's
 * weights (FNV-1a; start from GOITA_TRAIN_FINGERPRINT_START). A file made by a teacher that
 * played with an earlier model names that model by it. */
#define GOITA_TRAIN_FINGERPRINT_START 14695981039346656037ULL
static inline unsigned long long goita__fingerprint_add(unsigned long long h, const char *text, int len) {
  for (int i = 0; i < len; i++) h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
  return h;
}

/* Generates the data, fits the network, writes it; prints its progress. Returns 0 or 1. */
int goita__train_value(const goita__train_value_options *options);

#endif

/* History strings split into tokens (history.c): the grammar only, no rules applied.
 * Internal to the library. */
#ifndef GOITA_HISTORY_INTERNAL_H
#define GOITA_HISTORY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "goita/goita.h"

/* A history string split into its parts before any rule is applied (history.c). Hidden
 * pieces (x) are 0; text pointers refer to the string being read. */
typedef struct goita__token {
  const char *text;
  size_t len;
  int index; /* 0-based among the comma-separated tokens */
} goita__token;

typedef struct goita__history {
  int players;
  int dealer;
  uint8_t hands[GOITA_MAX_SEATS][GOITA_MAX_HAND]; /* marks as written; 0 for x */
  goita__token hand_token[GOITA_MAX_SEATS];
  goita__token dealer_token;
  int ndecisions;
  goita_move decisions[GOITA_MAX_SEATS];
  int nmoves;
  goita_move moves[GOITA_MAX_LOG]; /* a face-down block written x is 0 */
  goita__token move_token[GOITA_MAX_LOG];
  uint64_t x_blocks; /* bit i: moves[i] was written with an x block */
  bool hidden;       /* some piece is written x */
} goita__history;

/* Names a token in an error: 'token 9 "441": reason'. */
int goita__token_error(goita_error *err, int status, const goita__token *t, const char *reason);

/* Splits text into hands, dealer (with decisions) and moves, checking only the grammar for
 * the rules' number of players and hand size. x is accepted in hands and as a block when
 * allow_hidden. Returns GOITA_OK or GOITA_EPARSE / GOITA_EILLEGAL naming the token. */
int goita__history_split(goita__history *h, const goita_rules *rules, const char *text, bool allow_hidden,
                         goita_error *err);

#endif

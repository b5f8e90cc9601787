/* Full-game records (docs/RECORDS.md): the rules, the seed and deal generator, the players,
 * every round as a history string with its decisions, scores, the result and timestamps, as
 * JSON. Reading a record replays it through the rules engine: every deal, move and score
 * is checked, so a record that reads is a game that happened under its rules. */
#ifndef GOITA_RECORD_H
#define GOITA_RECORD_H

#include <stddef.h>

#include "goita/status.h"
#include "goita/game.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOITA_RECORD_FORMAT "goita-record"
#define GOITA_RECORD_VERSION 1
/* Room for a player's name or engine (UTF-8, with the terminating zero): enough for a
 * level's full spec with every parameter, as goita play and watch write it. */
#define GOITA_RECORD_NAME_SIZE 256
/* Room for a timestamp: ISO 8601 / RFC 3339, e.g. "2026-11-21T09:30:00Z". */
#define GOITA_RECORD_TIME_SIZE 40

typedef struct goita_record_round {
  goita_round round; /* the round as played, with full information */
  int16_t score_before[GOITA_MAX_SEATS];
  int16_t score_after[GOITA_MAX_SEATS];
  char started[GOITA_RECORD_TIME_SIZE];  /* "" when unknown */
  char finished[GOITA_RECORD_TIME_SIZE];
} goita_record_round;

typedef struct goita_record {
  goita_rules rules;
  bool seeded;       /* deals come from seed; otherwise every deal is as written */
  uint64_t seed;
  int generator;     /* GOITA_DEAL_GENERATOR_VERSION of the build that dealt */
  int first_dealer;  /* seat, 0-based */
  char name[GOITA_MAX_SEATS][GOITA_RECORD_NAME_SIZE];   /* per seat; "" when unknown */
  char engine[GOITA_MAX_SEATS][GOITA_RECORD_NAME_SIZE]; /* computer player, "" for a person */
  char started[GOITA_RECORD_TIME_SIZE];
  char finished[GOITA_RECORD_TIME_SIZE];
  int nrounds;
  int capacity;
  goita_record_round *rounds; /* owned: free with goita_record_free */
  int16_t score[GOITA_MAX_SEATS]; /* per side after the last round */
  bool over;
  int8_t winner_side; /* -1 unless over */
} goita_record;

/* Starts an empty record of game (rules, seed, first dealer); names and engines empty. */
GOITA_API void goita_record_init(goita_record *rec, const goita_game *game);

/* Appends the game's current round (finished or not) with its scores. A record's rounds
 * are finished except perhaps the last; adding after an unfinished round replaces it, so a
 * caller may save a round in progress and again once it ends. Times may be NULL.
 * Returns GOITA_OK, GOITA_ENOMEM when memory runs out, or GOITA_EVALUE for a time too long. */
GOITA_API int goita_record_add_round(goita_record *rec, const goita_game *game, const char *started,
                           const char *finished, goita_error *err);

/* Releases the rounds; the record is empty afterwards. */
GOITA_API void goita_record_free(goita_record *rec);

/* Writes the record as JSON into a new string (free it with free()). Returns GOITA_OK or
 * GOITA_ENOMEM. */
GOITA_API int goita_record_write_json(const goita_record *rec, char **json, goita_error *err);

/* Reads a JSON record (len bytes of text) and replays it. Unknown fields, wrong types,
 * malformed history strings, deals that do not match the seed, scores or results that do not
 * follow from the moves: each is an error that names the field (e.g. rounds[2].history) and
 * the reason. On error rec is left empty (initialised, nothing to free). */
GOITA_API int goita_record_read_json(goita_record *rec, const char *text, size_t len, goita_error *err);

#ifdef __cplusplus
}
#endif
#endif

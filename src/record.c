/* Full-game records as JSON (docs/RECORDS.md), read strictly and replayed. */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void goita_record_init(goita_record *rec, const goita_game *game) {
  memset(rec, 0, sizeof *rec);
  rec->rules = game->rules;
  rec->seeded = true;
  rec->seed = game->seed;
  rec->generator = GOITA_DEAL_GENERATOR_VERSION;
  rec->first_dealer = game->draw.dealer;
  rec->winner_side = -1;
}

void goita_record_free(goita_record *rec) {
  free(rec->rounds);
  rec->rounds = NULL;
  rec->nrounds = rec->capacity = 0;
}

static int copy_time(char *dst, const char *src, const char *what, goita_error *err) {
  if (!src) src = "";
  if (strlen(src) >= GOITA_RECORD_TIME_SIZE)
    return goita_error_set(err, GOITA_EVALUE, -1, "%s: a timestamp has fewer than %d characters", what,
                           GOITA_RECORD_TIME_SIZE);
  strcpy(dst, src);
  return GOITA_OK;
}

int goita_record_add_round(goita_record *rec, const goita_game *game, const char *started, const char *finished,
                           goita_error *err) {
  if (rec->nrounds > 0 && !goita_round_over(&rec->rounds[rec->nrounds - 1].round)) rec->nrounds--;
  if (rec->nrounds == rec->capacity) {
    const int capacity = rec->capacity ? 2 * rec->capacity : 8;
    goita_record_round *grown = realloc(rec->rounds, (size_t)capacity * sizeof *grown);
    if (!grown) return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory for %d rounds", capacity);
    rec->rounds = grown;
    rec->capacity = capacity;
  }
  goita_record_round *r = &rec->rounds[rec->nrounds];
  memset(r, 0, sizeof *r);
  int st = copy_time(r->started, started, "started", err);
  if (st == GOITA_OK) st = copy_time(r->finished, finished, "finished", err);
  if (st != GOITA_OK) return st;
  r->round = game->round;
  memcpy(r->score_before, game->score_before, sizeof r->score_before);
  memcpy(r->score_after, game->score, sizeof r->score_after);
  rec->nrounds++;
  memcpy(rec->score, game->score, sizeof rec->score);
  rec->over = game->over;
  rec->winner_side = game->winner_side;
  return GOITA_OK;
}

/* ---- Writing ---- */

static const char *const end_names[] = {"none", "finish", "teyaku", "double_goshi", "redeal"};

/* Appends value to array and returns the array, or NULL (both released) when either is NULL or
 * there was no memory for it: an array short of an element would be written as if whole, while
 * a NULL makes the json_pack it goes into fail, and the record's writing with it. */
static json_t *append(json_t *array, json_t *value) {
  if (json_array_append_new(array, value) == 0) return array;
  json_decref(array);
  return NULL;
}

/* The seats of a side as people number them: [1,3] for team 0. */
static json_t *side_seats(const goita_rules *rules, int side) {
  json_t *seats = json_array();
  for (int s = 0; s < rules->players; s++)
    if (goita_rules_side_of(rules, s) == side) seats = append(seats, json_integer(SEAT_NAME(s)));
  return seats;
}

static json_t *scores(const goita_rules *rules, const int16_t *score) {
  json_t *a = json_array();
  for (int i = 0; i < goita_rules_sides(rules); i++) a = append(a, json_integer(score[i]));
  return a;
}

static json_t *text_or_null(const char *s) { return s[0] ? json_string(s) : json_null(); }

static json_t *round_json(const goita_record *rec, const goita_record_round *rr) {
  const goita_round *r = &rr->round;
  char history[512];
  goita_history_format(r, history, sizeof history);
  json_t *decisions = json_array();
  for (int i = 0; i < r->nlog; i++)
    if (r->log[i].type == GOITA_MOVE_REDEAL || r->log[i].type == GOITA_MOVE_GO) {
      char tok[8];
      goita_move_format(r->log[i], tok, sizeof tok);
      decisions = append(decisions, json_string(tok));
    }
  json_t *result = json_null();
  if (goita_round_over(r)) {
    const goita_round_result *res = &r->result;
    result = json_pack("{s:s,s:o,s:i,s:b}", "end", end_names[res->end], "winner",
                       res->winner >= 0 ? json_integer(SEAT_NAME(res->winner)) : json_null(), "points", res->points,
                       "doubled", res->doubled);
  }
  return json_pack("{s:i,s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "dealer", SEAT_NAME(r->dealer), "history", history,
                   "decisions", decisions, "result", result, "score_before", scores(&rec->rules, rr->score_before),
                   "score_after", scores(&rec->rules, rr->score_after), "started", text_or_null(rr->started),
                   "finished", text_or_null(rr->finished));
}

/* A text being written by dump_text: malloc'd, NULL once an allocation failed. */
typedef struct dump_buffer {
  char *text;
  size_t len, cap;
} dump_buffer;

static int dump_append(const char *bytes, size_t n, void *data) {
  dump_buffer *b = data;
  if (!b->text) return -1;
  if (b->len + n + 1 > b->cap) {
    const size_t cap = 2 * (b->len + n + 1);
    char *grown = realloc(b->text, cap);
    if (!grown) {
      free(b->text);
      b->text = NULL;
      return -1;
    }
    b->text = grown;
    b->cap = cap;
  }
  memcpy(b->text + b->len, bytes, n);
  b->len += n;
  b->text[b->len] = '\0';
  return 0;
}

/* json_dumps, but NULL whenever memory ran out: jansson 2.14's json_dumps ignores a failure to
 * write an object's key and goes on, so that a record written under memory pressure could lose
 * "seat" and still be returned. The text is malloc'd. */
static char *dump_text(const json_t *json, size_t flags) {
  dump_buffer b = {malloc(1024), 0, 1024};
  if (b.text) b.text[0] = '\0';
  if (json_dump_callback(json, dump_append, &b, flags) != 0) {
    free(b.text);
    return NULL;
  }
  return b.text;
}

int goita_record_write_json(const goita_record *rec, char **out, goita_error *err) {
  char rules[GOITA_RULES_TEXT_SIZE], seed[24];
  goita_rules_format(&rec->rules, rules, sizeof rules);
  snprintf(seed, sizeof seed, "%" PRIu64, rec->seed);
  json_t *players = json_array();
  for (int s = 0; s < rec->rules.players; s++)
    players = append(players, json_pack("{s:i,s:o,s:o}", "seat", SEAT_NAME(s), "name", text_or_null(rec->name[s]),
                                             "engine", text_or_null(rec->engine[s])));
  json_t *rounds = json_array();
  for (int i = 0; i < rec->nrounds; i++) rounds = append(rounds, round_json(rec, &rec->rounds[i]));
  json_t *result = json_pack("{s:b,s:o}", "over", rec->over,
                             "winner", rec->over ? side_seats(&rec->rules, rec->winner_side) : json_null());
  json_t *root = json_pack("{s:s,s:i,s:s,s:o,s:o,s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "format", GOITA_RECORD_FORMAT, "version",
                           GOITA_RECORD_VERSION, "rules", rules, "seed", rec->seeded ? json_string(seed) : json_null(),
                           "generator", rec->seeded ? json_integer(rec->generator) : json_null(), "first_dealer",
                           SEAT_NAME(rec->first_dealer), "players", players, "started", text_or_null(rec->started),
                           "finished", text_or_null(rec->finished), "rounds", rounds, "score",
                           scores(&rec->rules, rec->score), "result", result);
  char *text = root ? dump_text(root, JSON_INDENT(2)) : NULL;
  json_decref(root);
  if (!text) return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory writing the record");
  *out = text;
  return GOITA_OK;
}

/* ---- Reading ---- */

/* A field being read, for error messages: "rounds[2].history". */
typedef struct reader {
  goita_error *err;
  char path[96];
} reader;

static int fail(reader *rd, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *rd, int status, const char *fmt, ...) {
  char why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return goita_error_set(rd->err, status, -1, "%s: %s", rd->path[0] ? rd->path : "record", why);
}

static void at(reader *rd, const char *prefix, const char *field) {
  snprintf(rd->path, sizeof rd->path, "%s%s%s", prefix, prefix[0] ? "." : "", field);
}

/* Checks that obj is an object with only the allowed fields, all present. */
static int check_fields(reader *rd, const char *prefix, json_t *obj, const char *const *fields, size_t n) {
  if (!json_is_object(obj)) return fail(rd, GOITA_EPARSE, "expected an object");
  const char *key;
  json_t *value;
  json_object_foreach(obj, key, value) {
    bool known = false;
    for (size_t i = 0; i < n; i++) known |= strcmp(key, fields[i]) == 0;
    if (!known) {
      at(rd, prefix, key);
      return fail(rd, GOITA_EPARSE, "unknown field");
    }
  }
  for (size_t i = 0; i < n; i++)
    if (!json_object_get(obj, fields[i])) {
      at(rd, prefix, fields[i]);
      return fail(rd, GOITA_EPARSE, "missing");
    }
  return GOITA_OK;
}

static int get_int(reader *rd, const char *prefix, json_t *obj, const char *field, long lo, long hi, int *out) {
  at(rd, prefix, field);
  json_t *v = json_object_get(obj, field);
  if (!json_is_integer(v)) return fail(rd, GOITA_EPARSE, "expected a whole number");
  const json_int_t x = json_integer_value(v);
  if (x < lo || x > hi) return fail(rd, GOITA_EVALUE, "%" JSON_INTEGER_FORMAT " is not in %ld-%ld", x, lo, hi);
  *out = (int)x;
  return GOITA_OK;
}

/* A string or null (written as "") of fewer than size bytes. */
static int get_text(reader *rd, const char *prefix, json_t *obj, const char *field, char *out, size_t size) {
  at(rd, prefix, field);
  json_t *v = json_object_get(obj, field);
  if (json_is_null(v)) {
    out[0] = '\0';
    return GOITA_OK;
  }
  if (!json_is_string(v)) return fail(rd, GOITA_EPARSE, "expected a string or null");
  if (json_string_length(v) >= size || strlen(json_string_value(v)) != json_string_length(v))
    return fail(rd, GOITA_EVALUE, "a string of at most %zu bytes without NUL", size - 1);
  memcpy(out, json_string_value(v), json_string_length(v) + 1);
  return GOITA_OK;
}

static int get_scores(reader *rd, const char *prefix, json_t *obj, const char *field, const goita_rules *rules,
                      int16_t *out) {
  at(rd, prefix, field);
  json_t *v = json_object_get(obj, field);
  const int sides = goita_rules_sides(rules);
  if (!json_is_array(v) || json_array_size(v) != (size_t)sides)
    return fail(rd, GOITA_EPARSE, "expected %d scores, one per side", sides);
  memset(out, 0, sizeof(int16_t) * GOITA_MAX_SEATS);
  for (int i = 0; i < sides; i++) {
    json_t *x = json_array_get(v, (size_t)i);
    if (!json_is_integer(x) || json_integer_value(x) < -30000 || json_integer_value(x) > 30000)
      return fail(rd, GOITA_EPARSE, "a score is a whole number");
    out[i] = (int16_t)json_integer_value(x);
  }
  return GOITA_OK;
}

static int check_scores(reader *rd, const char *prefix, const char *field, const goita_rules *rules,
                        const int16_t *written, const int16_t *replayed) {
  for (int i = 0; i < goita_rules_sides(rules); i++)
    if (written[i] != replayed[i]) {
      at(rd, prefix, field);
      return fail(rd, GOITA_EILLEGAL, "side %d has %d, but the moves give %d", i + 1, written[i], replayed[i]);
    }
  return GOITA_OK;
}

static int read_header(reader *rd, json_t *root, goita_record *rec) {
  static const char *const fields[] = {"format", "version", "rules", "seed", "generator", "first_dealer",
                                       "players", "started", "finished", "rounds", "score", "result"};
  int st = check_fields(rd, "", root, fields, sizeof fields / sizeof *fields);
  if (st != GOITA_OK) return st;
  at(rd, "", "format");
  json_t *v = json_object_get(root, "format");
  if (!json_is_string(v) || strcmp(json_string_value(v), GOITA_RECORD_FORMAT) != 0)
    return fail(rd, GOITA_EPARSE, "expected \"%s\"", GOITA_RECORD_FORMAT);
  int version;
  if ((st = get_int(rd, "", root, "version", 1, 1000, &version)) != GOITA_OK) return st;
  if (version != GOITA_RECORD_VERSION)
    return fail(rd, GOITA_EVALUE, "version %d; this build reads version %d", version, GOITA_RECORD_VERSION);
  at(rd, "", "rules");
  v = json_object_get(root, "rules");
  if (!json_is_string(v)) return fail(rd, GOITA_EPARSE, "expected rule option text");
  goita_error why;
  if (goita_rules_parse(&rec->rules, json_string_value(v), &why) != GOITA_OK)
    return fail(rd, why.status, "%s", why.message);
  at(rd, "", "seed");
  v = json_object_get(root, "seed");
  rec->seeded = !json_is_null(v);
  if (rec->seeded) {
    const char *text = json_string_value(v);
    char *end = NULL;
    if (!text || text[0] < '0' || text[0] > '9' || strlen(text) > 20) end = NULL;
    else rec->seed = strtoull(text, &end, 10);
    if (!end || *end) return fail(rd, GOITA_EPARSE, "expected the seed as a decimal string, or null");
    if ((st = get_int(rd, "", root, "generator", 1, 1000, &rec->generator)) != GOITA_OK) return st;
    if (rec->generator != GOITA_DEAL_GENERATOR_VERSION)
      return fail(rd, GOITA_EVALUE, "deals made by generator %d; this build has generator %d", rec->generator,
                  GOITA_DEAL_GENERATOR_VERSION);
  } else if (!json_is_null(json_object_get(root, "generator"))) {
    at(rd, "", "generator");
    return fail(rd, GOITA_EPARSE, "null when there is no seed");
  }
  if ((st = get_int(rd, "", root, "first_dealer", 1, rec->rules.players, &rec->first_dealer)) != GOITA_OK) return st;
  rec->first_dealer--;
  at(rd, "", "players");
  v = json_object_get(root, "players");
  if (!json_is_array(v) || json_array_size(v) != (size_t)rec->rules.players)
    return fail(rd, GOITA_EPARSE, "expected %d players, one per seat", rec->rules.players);
  for (int s = 0; s < rec->rules.players; s++) {
    static const char *const player_fields[] = {"seat", "name", "engine"};
    char prefix[32];
    snprintf(prefix, sizeof prefix, "players[%d]", s);
    snprintf(rd->path, sizeof rd->path, "%s", prefix);
    json_t *p = json_array_get(v, (size_t)s);
    int seat;
    if ((st = check_fields(rd, prefix, p, player_fields, 3)) != GOITA_OK ||
        (st = get_int(rd, prefix, p, "seat", s + 1, s + 1, &seat)) != GOITA_OK ||
        (st = get_text(rd, prefix, p, "name", rec->name[s], sizeof rec->name[s])) != GOITA_OK ||
        (st = get_text(rd, prefix, p, "engine", rec->engine[s], sizeof rec->engine[s])) != GOITA_OK)
      return st;
  }
  if ((st = get_text(rd, "", root, "started", rec->started, sizeof rec->started)) != GOITA_OK) return st;
  return get_text(rd, "", root, "finished", rec->finished, sizeof rec->finished);
}

/* Reads rounds[i] and plays it into the game, checking everything written against it. */
static int read_round(reader *rd, json_t *obj, int i, goita_record *rec, goita_game *game) {
  static const char *const fields[] = {"dealer", "history", "decisions", "result", "score_before",
                                       "score_after", "started", "finished"};
  char prefix[32];
  snprintf(prefix, sizeof prefix, "rounds[%d]", i);
  snprintf(rd->path, sizeof rd->path, "%s", prefix);
  int st = check_fields(rd, prefix, obj, fields, sizeof fields / sizeof *fields);
  if (st != GOITA_OK) return st;
  goita_record_round *rr = &rec->rounds[i];
  memset(rr, 0, sizeof *rr);
  if ((st = get_text(rd, prefix, obj, "started", rr->started, sizeof rr->started)) != GOITA_OK ||
      (st = get_text(rd, prefix, obj, "finished", rr->finished, sizeof rr->finished)) != GOITA_OK ||
      (st = get_scores(rd, prefix, obj, "score_before", &rec->rules, rr->score_before)) != GOITA_OK ||
      (st = get_scores(rd, prefix, obj, "score_after", &rec->rules, rr->score_after)) != GOITA_OK)
    return st;
  int dealer;
  if ((st = get_int(rd, prefix, obj, "dealer", 1, rec->rules.players, &dealer)) != GOITA_OK) return st;
  dealer--;
  if (i > 0) {
    goita_error why;
    if (!goita_round_over(&game->round)) {
      snprintf(rd->path, sizeof rd->path, "rounds[%d]", i - 1);
      return fail(rd, GOITA_ESTATE, "only the last round may be unfinished");
    }
    if (goita_game_next_round(game, &why) != GOITA_OK) return fail(rd, GOITA_EOVER, "the game was already over");
  }
  at(rd, prefix, "history");
  json_t *v = json_object_get(obj, "history");
  if (!json_is_string(v)) return fail(rd, GOITA_EPARSE, "expected a history string");
  goita_round played;
  goita_error why;
  st = goita_history_parse(&played, &rec->rules, json_string_value(v), &why);
  if (st != GOITA_OK) return fail(rd, st, "%s", why.message);
  if (played.dealer != dealer) return fail(rd, GOITA_EILLEGAL, "the dealer is seat %d, not seat %d", played.dealer + 1, dealer + 1);
  if (i == 0 && dealer != rec->first_dealer)
    return fail(rd, GOITA_EILLEGAL, "the first round is dealt by first_dealer (seat %d)", rec->first_dealer + 1);
  if (played.dealer != game->round.dealer && !(i == 0 && !rec->seeded))
    return fail(rd, GOITA_EILLEGAL, "seat %d deals this round, not seat %d", game->round.dealer + 1, played.dealer + 1);
  if (rec->seeded) {
    if (memcmp(played.deal, game->round.deal, sizeof played.deal) != 0)
      return fail(rd, GOITA_EILLEGAL, "the hands are not the ones seed %" PRIu64 " deals for this round", rec->seed);
  } else if (goita_game_set_deal(game, dealer, (const uint8_t(*)[GOITA_MAX_HAND])played.deal, &why) != GOITA_OK) {
    return fail(rd, why.status, "%s", why.message);
  }
  for (int m = 0; m < played.nlog; m++) goita_game_apply(game, played.log[m], NULL);
  rr->round = game->round;
  /* The decisions, written out in full. */
  at(rd, prefix, "decisions");
  v = json_object_get(obj, "decisions");
  if (!json_is_array(v)) return fail(rd, GOITA_EPARSE, "expected a list of decisions (\"3r\", \"3g\")");
  size_t n = 0;
  for (int m = 0; m < played.nlog; m++) {
    const goita_move d = played.log[m];
    if (d.type != GOITA_MOVE_REDEAL && d.type != GOITA_MOVE_GO) continue;
    json_t *x = json_array_get(v, n++);
    goita_move written;
    if (!json_is_string(x) || goita_move_parse(json_string_value(x), json_string_length(x), &written) != GOITA_OK ||
        !goita_move_equal(written, d))
      return fail(rd, GOITA_EILLEGAL, "decision %zu does not match the history", n);
  }
  if (json_array_size(v) != n) return fail(rd, GOITA_EILLEGAL, "the history has %zu decisions", n);
  /* The result and scores follow from the moves. */
  at(rd, prefix, "result");
  v = json_object_get(obj, "result");
  const goita_round_result *res = &rr->round.result;
  if (json_is_null(v) != !goita_round_over(&rr->round))
    return fail(rd, GOITA_EILLEGAL, goita_round_over(&rr->round) ? "the round is over" : "the round is not over");
  if (!json_is_null(v)) {
    static const char *const result_fields[] = {"end", "winner", "points", "doubled"};
    char rprefix[48];
    snprintf(rprefix, sizeof rprefix, "%s.result", prefix);
    if ((st = check_fields(rd, rprefix, v, result_fields, 4)) != GOITA_OK) return st;
    json_t *end = json_object_get(v, "end"), *winner = json_object_get(v, "winner");
    json_t *points = json_object_get(v, "points"), *doubled = json_object_get(v, "doubled");
    const bool same = json_is_string(end) && strcmp(json_string_value(end), end_names[res->end]) == 0 &&
                      (res->winner < 0 ? json_is_null(winner)
                                       : json_is_integer(winner) && json_integer_value(winner) == res->winner + 1) &&
                      json_is_integer(points) && json_integer_value(points) == res->points &&
                      json_is_boolean(doubled) && json_boolean_value(doubled) == res->doubled;
    if (!same) {
      snprintf(rd->path, sizeof rd->path, "%s", rprefix);
      return fail(rd, GOITA_EILLEGAL, "the moves give %s, winner seat %d, %d points%s", end_names[res->end],
                  res->winner + 1, res->points, res->doubled ? " (doubled)" : "");
    }
  }
  if ((st = check_scores(rd, prefix, "score_before", &rec->rules, rr->score_before, game->score_before)) != GOITA_OK)
    return st;
  return check_scores(rd, prefix, "score_after", &rec->rules, rr->score_after, game->score);
}

static int read_record(reader *rd, json_t *root, goita_record *rec) {
  int st = read_header(rd, root, rec);
  if (st != GOITA_OK) return st;
  goita_game game;
  goita_error why;
  if (goita_game_start(&game, &rec->rules, rec->seed, &why) != GOITA_OK) return fail(rd, why.status, "%s", why.message);
  if (rec->seeded && game.draw.dealer != rec->first_dealer) {
    at(rd, "", "first_dealer");
    return fail(rd, GOITA_EILLEGAL, "seed %" PRIu64 " draws seat %d", rec->seed, game.draw.dealer + 1);
  }
  at(rd, "", "rounds");
  json_t *rounds = json_object_get(root, "rounds");
  if (!json_is_array(rounds) || json_array_size(rounds) == 0 || json_array_size(rounds) > 100000)
    return fail(rd, GOITA_EPARSE, "expected a list of rounds (at least one)");
  const size_t n = json_array_size(rounds);
  rec->rounds = calloc(n, sizeof *rec->rounds);
  if (!rec->rounds) return fail(rd, GOITA_ENOMEM, "out of memory for %zu rounds", n);
  rec->capacity = (int)n;
  for (size_t i = 0; i < n; i++) {
    if ((st = read_round(rd, json_array_get(rounds, i), (int)i, rec, &game)) != GOITA_OK) return st;
    rec->nrounds++;
  }
  int16_t score[GOITA_MAX_SEATS];
  if ((st = get_scores(rd, "", root, "score", &rec->rules, score)) != GOITA_OK ||
      (st = check_scores(rd, "", "score", &rec->rules, score, game.score)) != GOITA_OK)
    return st;
  memcpy(rec->score, game.score, sizeof rec->score);
  rec->over = game.over;
  rec->winner_side = game.winner_side;
  static const char *const result_fields[] = {"over", "winner"};
  snprintf(rd->path, sizeof rd->path, "result");
  json_t *result = json_object_get(root, "result");
  if ((st = check_fields(rd, "result", result, result_fields, 2)) != GOITA_OK) return st;
  json_t *over = json_object_get(result, "over"), *winner = json_object_get(result, "winner");
  json_t *expected = game.over ? side_seats(&rec->rules, game.winner_side) : json_null();
  if (!expected) return fail(rd, GOITA_ENOMEM, "out of memory");
  const bool same = json_is_boolean(over) && json_boolean_value(over) == game.over && json_equal(winner, expected);
  json_decref(expected);
  if (!same) return fail(rd, GOITA_EILLEGAL, game.over ? "the game is over: side %d won" : "the game is not over",
                         game.winner_side + 1);
  return GOITA_OK;
}

int goita_record_read_json(goita_record *rec, const char *text, size_t len, goita_error *err) {
  memset(rec, 0, sizeof *rec);
  rec->winner_side = -1;
  json_error_t jerr;
  /* jansson 2.14's lexer drops a byte it has no room for and goes on, so that a record read
   * under memory pressure can name a rule option "teyau", or fail as a syntax error. Its
   * parser is deterministic: two readings that differ, or a text read only once of two,
   * mean memory ran out. Records are read rarely (a replay, a restart), so twice is cheap. */
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  json_error_t again_err;
  json_t *again = json_loadb(text, len, JSON_REJECT_DUPLICATES, &again_err);
  const bool differ = (root == NULL) != (again == NULL) || (root && !json_equal(root, again));
  json_decref(again);
  if (differ || (!root && json_error_code(&jerr) == json_error_out_of_memory)) {
    json_decref(root);
    return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory reading the record");
  }
  if (!root)
    return goita_error_set(err, GOITA_EPARSE, jerr.position, "line %d column %d: %s", jerr.line, jerr.column,
                           jerr.text);
  reader rd = {err, ""};
  const int st = read_record(&rd, root, rec);
  json_decref(root);
  if (st != GOITA_OK) {
    goita_record_free(rec);
    memset(rec, 0, sizeof *rec);
    rec->winner_side = -1;
  }
  return st;
}

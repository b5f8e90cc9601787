/* Rule options: defaults, reading and writing option text (RULES.md 3-8). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "goita/goita.h"

#define TARGET_MAX 10000

void goita_rules_default(goita_rules *rules) {
  memset(rules, 0, sizeof *rules);
  rules->players = 4;
  rules->teyaku = true;
  rules->double_goshi = GOITA_DOUBLE_GOSHI_WIN;
  rules->double_goshi_points = 0;
  rules->goshi_both_teams = GOITA_GOSHI_REDEAL_IF_BOTH;
  rules->king_attack = GOITA_KING_ATTACK_ANY_OF_ABC;
  rules->king_face_down = GOITA_KING_FACE_DOWN_FORBIDDEN;
  rules->next_dealer = GOITA_NEXT_DEALER_WINNER;
  rules->target = 150;
  rules->draw = GOITA_DRAW_RANDOM;
}

/* Names of the values of the enumerated options, indexed by enum value. */
static const char *const king_attack_names[] = {"any_of_abc", "a_or_last", "a_or_b", NULL};
static const char *const king_face_down_names[] = {"forbidden", "allowed", NULL};
static const char *const goshi_both_names[] = {"redeal_if_both", "play_if_both", NULL};
static const char *const next_dealer_names[] = {"winner", "rotate", NULL};
static const char *const draw_names[] = {"random", "A1", "A2", "B", "C", NULL};
static const char *const on_off_names[] = {"off", "on", NULL};

enum { OPT_PLAYERS, OPT_TEYAKU, OPT_DOUBLE_GOSHI, OPT_GOSHI_BOTH, OPT_KING_ATTACK,
       OPT_KING_FACE_DOWN, OPT_NEXT_DEALER, OPT_TARGET, OPT_DRAW, OPT_COUNT };

static const char *const option_names[OPT_COUNT] = {
    "players", "teyaku", "double_goshi", "goshi_both_teams", "king_attack",
    "king_face_down", "next_dealer", "target", "draw"};

/* Returns the index of value in names (case-insensitive), or -1. */
static int lookup(const char *const *names, const char *value) {
  for (int i = 0; names[i]; i++)
    if (strcasecmp(names[i], value) == 0) return i;
  return -1;
}

/* Reads a whole decimal integer in [lo, hi]; returns false on anything else. */
static bool read_int(const char *text, long lo, long hi, int *out) {
  if (!isdigit((unsigned char)text[0])) return false;
  char *end = NULL;
  long v = strtol(text, &end, 10);
  if (*end != '\0' || v < lo || v > hi) return false;
  *out = (int)v;
  return true;
}

/* Joins the value names for an error message ("a / b / c"). */
static void list_values(const char *const *names, char *buf, size_t size) {
  buf[0] = '\0';
  for (int i = 0; names[i]; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
  }
}

static int bad_value(goita_error *err, int index, const char *name, const char *value,
                     const char *const *names, const char *expected) {
  char allowed[160];
  if (names)
    list_values(names, allowed, sizeof allowed);
  else
    snprintf(allowed, sizeof allowed, "%s", expected);
  return goita_error_set(err, GOITA_EVALUE, index, "rule option %s: invalid value \"%s\" (expected %s)",
                         name, value, allowed);
}

/* Copies text[0..len) into buf trimmed of surrounding spaces. */
static void trimmed(const char *text, size_t len, char *buf, size_t size) {
  while (len && isspace((unsigned char)*text)) text++, len--;
  while (len && isspace((unsigned char)text[len - 1])) len--;
  if (len >= size) len = size - 1;
  memcpy(buf, text, len);
  buf[len] = '\0';
}

static int set_option(goita_rules *r, int opt, const char *name, const char *value, int index,
                      goita_error *err) {
  int v;
  switch (opt) {
    case OPT_PLAYERS:
      if (!read_int(value, 2, 4, &r->players)) return bad_value(err, index, name, value, NULL, "4, 3 or 2");
      return GOITA_OK;
    case OPT_TEYAKU:
      if ((v = lookup(on_off_names, value)) < 0) return bad_value(err, index, name, value, on_off_names, NULL);
      r->teyaku = v == 1;
      return GOITA_OK;
    case OPT_DOUBLE_GOSHI:
      if (strcasecmp(value, "win") == 0) {
        r->double_goshi = GOITA_DOUBLE_GOSHI_WIN;
        r->double_goshi_points = 0;
        return GOITA_OK;
      }
      if (strncasecmp(value, "points:", 7) == 0 && read_int(value + 7, 0, TARGET_MAX, &v)) {
        r->double_goshi = GOITA_DOUBLE_GOSHI_POINTS;
        r->double_goshi_points = v;
        return GOITA_OK;
      }
      return bad_value(err, index, name, value, NULL, "win or points:N with N from 0 to 10000");
    case OPT_GOSHI_BOTH:
      if ((v = lookup(goshi_both_names, value)) < 0) return bad_value(err, index, name, value, goshi_both_names, NULL);
      r->goshi_both_teams = (goita_goshi_both_teams)v;
      return GOITA_OK;
    case OPT_KING_ATTACK:
      if ((v = lookup(king_attack_names, value)) < 0) return bad_value(err, index, name, value, king_attack_names, NULL);
      r->king_attack = (goita_king_attack)v;
      return GOITA_OK;
    case OPT_KING_FACE_DOWN:
      if ((v = lookup(king_face_down_names, value)) < 0)
        return bad_value(err, index, name, value, king_face_down_names, NULL);
      r->king_face_down = (goita_king_face_down)v;
      return GOITA_OK;
    case OPT_NEXT_DEALER:
      if ((v = lookup(next_dealer_names, value)) < 0) return bad_value(err, index, name, value, next_dealer_names, NULL);
      r->next_dealer = (goita_next_dealer)v;
      return GOITA_OK;
    case OPT_TARGET:
      if (!read_int(value, 1, TARGET_MAX, &r->target))
        return bad_value(err, index, name, value, NULL, "a whole number from 1 to 10000");
      return GOITA_OK;
    case OPT_DRAW:
      if ((v = lookup(draw_names, value)) < 0) return bad_value(err, index, name, value, draw_names, NULL);
      r->draw = (goita_draw_method)v;
      return GOITA_OK;
  }
  return goita_error_set(err, GOITA_EOPTION, index, "unknown rule option \"%s\"", name);
}

int goita_rules_parse(goita_rules *rules, const char *text, goita_error *err) {
  goita_rules r;
  goita_rules_default(&r);
  bool given[OPT_COUNT] = {false};
  int index = 0;
  const char *p = text ? text : "";
  /* Whitespace-only text means the defaults. */
  while (*p && isspace((unsigned char)*p)) p++;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[128], name[64], value[64];
    trimmed(p, len, item, sizeof item);
    char *eq = strchr(item, '=');
    if (!eq)
      return goita_error_set(err, GOITA_EOPTION, index, "rule option %d \"%s\": expected name=value",
                             index + 1, item);
    *eq = '\0';
    trimmed(item, strlen(item), name, sizeof name);
    trimmed(eq + 1, strlen(eq + 1), value, sizeof value);
    int opt = -1;
    for (int i = 0; i < OPT_COUNT; i++)
      if (strcmp(option_names[i], name) == 0) opt = i;
    if (opt < 0) {
      char known[200];
      const char *names[OPT_COUNT + 1];
      for (int i = 0; i < OPT_COUNT; i++) names[i] = option_names[i];
      names[OPT_COUNT] = NULL;
      list_values(names, known, sizeof known);
      return goita_error_set(err, GOITA_EOPTION, index, "unknown rule option \"%s\" (known: %s)", name, known);
    }
    if (given[opt])
      return goita_error_set(err, GOITA_EOPTION, index, "rule option %s given twice", name);
    given[opt] = true;
    int st = set_option(&r, opt, name, value, index, err);
    if (st != GOITA_OK) return st;
    index++;
    if (!end) break;
    p = end + 1;
  }
  if (r.players != 4 && !given[OPT_TEYAKU]) r.teyaku = false;
  int st = goita_rules_validate(&r, err);
  if (st == GOITA_OK) *rules = r;
  return st;
}

int goita_rules_validate(const goita_rules *r, goita_error *err) {
  if (r->players < 2 || r->players > 4)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option players: %d is not 4, 3 or 2", r->players);
  if (r->teyaku && r->players != 4)
    return goita_error_set(err, GOITA_EVALUE, -1,
                           "rule option teyaku: on needs players=4 (RULES.md 8: off for 3 and 2 players)");
  if ((r->draw == GOITA_DRAW_B || r->draw == GOITA_DRAW_C) && r->players != 4)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option draw: %s chooses teams and needs players=4",
                           draw_names[r->draw]);
  if (r->target < 1 || r->target > TARGET_MAX)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option target: %d is not from 1 to 10000", r->target);
  if (r->double_goshi_points < 0 || r->double_goshi_points > TARGET_MAX)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option double_goshi: points %d out of range",
                           r->double_goshi_points);
  if ((unsigned)r->king_attack > GOITA_KING_ATTACK_A_OR_B || (unsigned)r->king_face_down > 1 ||
      (unsigned)r->goshi_both_teams > 1 || (unsigned)r->next_dealer > 1 ||
      (unsigned)r->double_goshi > 1 || (unsigned)r->draw > GOITA_DRAW_C)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule options: an enumerated value is out of range");
  return GOITA_OK;
}

int goita_rules_format(const goita_rules *r, char *buf, size_t size) {
  char goshi[32];
  if (r->double_goshi == GOITA_DOUBLE_GOSHI_POINTS)
    snprintf(goshi, sizeof goshi, "points:%d", r->double_goshi_points);
  else
    snprintf(goshi, sizeof goshi, "win");
  int n = snprintf(buf, size,
                   "players=%d,teyaku=%s,double_goshi=%s,goshi_both_teams=%s,king_attack=%s,"
                   "king_face_down=%s,next_dealer=%s,target=%d,draw=%s",
                   r->players, r->teyaku ? "on" : "off", goshi, goshi_both_names[r->goshi_both_teams & 1],
                   king_attack_names[r->king_attack % 3], king_face_down_names[r->king_face_down & 1],
                   next_dealer_names[r->next_dealer & 1], r->target, draw_names[r->draw % 5]);
  if (n < 0 || (size_t)n >= size) return GOITA_ENOSPACE;
  return n;
}

int goita_rules_hand_size(const goita_rules *r) { return r->players == 4 ? 8 : r->players == 3 ? 10 : 12; }

int goita_rules_sides(const goita_rules *r) { return r->players == 4 ? 2 : r->players; }

int goita_rules_side_of(const goita_rules *r, int seat) { return r->players == 4 ? seat % 2 : seat; }

int goita_rules_kind_total(const goita_rules *r, int kind) {
  int total = goita_kind_total(kind);
  if (kind == GOITA_PAWN && r->players == 3) total -= 2;
  return total;
}

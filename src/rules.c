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
  rules->goshi = true;
  rules->goshi_decision = GOITA_GOSHI_DECISION_PARTNER;
  rules->double_goshi = GOITA_DOUBLE_GOSHI_WIN;
  rules->double_goshi_points = 0;
  rules->goshi_both_teams = GOITA_GOSHI_REDEAL_IF_BOTH;
  rules->king_attack = GOITA_KING_ATTACK_ANY_OF_ABC;
  rules->king_b = GOITA_KING_B_HOLDS;
  rules->king_face_down = GOITA_KING_FACE_DOWN_FORBIDDEN;
  rules->next_dealer = GOITA_NEXT_DEALER_WINNER;
  rules->target = 150;
  rules->draw = GOITA_DRAW_RANDOM;
  rules->three_player_set_aside = GOITA_SET_ASIDE_PAWNS;
  rules->scale = GOITA_SCALE_TENS;
}

/* Names of the values of the enumerated options, indexed by enum value. */
static const char *const king_attack_names[] = {"any_of_abc", "a_or_last", "a_or_b", NULL};
static const char *const king_b_names[] = {"holds", "dealt", NULL};
static const char *const king_face_down_names[] = {"forbidden", "allowed", NULL};
static const char *const goshi_decision_names[] = {"partner", "holder_and_partner", NULL};
static const char *const goshi_both_names[] = {"redeal_if_both", "play_if_both", NULL};
static const char *const next_dealer_names[] = {"winner", "rotate", NULL};
static const char *const draw_names[] = {"random", "A1", "A2", "B", "C", NULL};
static const char *const set_aside_names[] = {"pawns", "random", NULL};
static const char *const scale_names[] = {"tens", "ones", NULL};
static const char *const on_off_names[] = {"off", "on", NULL};

/* The named rule sets of RULES.md 11, as option text over the defaults. */
static const char *const preset_names[] = {"standard", "japanese", "french", NULL};
static const char *const preset_options[] = {
    "",                                       /* seed 000: the defaults */
    "king_attack=a_or_b,king_b=dealt",        /* seed 001 */
    /* seed 002, the French edition; goshi=on holds for 3 and 2 players too ("la règle de base
     * reste la même"), and a double 5-pawn hand is decided like any 5-pawn hand */
    "king_attack=a_or_last,teyaku=off,goshi=on,goshi_decision=holder_and_partner,"
    "double_goshi=redeal_or_play,king_face_down=allowed,next_dealer=rotate,scale=ones",
};

enum { OPT_PRESET, OPT_PLAYERS, OPT_TEYAKU, OPT_GOSHI, OPT_GOSHI_DECISION, OPT_DOUBLE_GOSHI,
       OPT_GOSHI_BOTH, OPT_KING_ATTACK, OPT_KING_B, OPT_KING_FACE_DOWN, OPT_NEXT_DEALER, OPT_TARGET,
       OPT_DRAW, OPT_SET_ASIDE, OPT_SCALE, OPT_COUNT };

static const char *const option_names[OPT_COUNT + 1] = {
    "preset", "players", "teyaku", "goshi", "goshi_decision", "double_goshi", "goshi_both_teams",
    "king_attack", "king_b", "king_face_down", "next_dealer", "target", "draw",
    "three_player_set_aside", "scale", NULL};

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

/* Joins the value names for an error message ("a, b, c"). */
static void list_values(const char *const *names, char *buf, size_t size) {
  buf[0] = '\0';
  for (int i = 0; names[i]; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
  }
}

static int bad_value(goita_error *err, int index, const char *name, const char *value,
                     const char *const *names, const char *expected) {
  char allowed[256];
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

/* Reads one enumerated value into *field; returns GOITA_OK or the error. */
static int set_enum(int *field, const char *const *names, const char *name, const char *value, int index,
                    goita_error *err) {
  const int v = lookup(names, value);
  if (v < 0) return bad_value(err, index, name, value, names, NULL);
  *field = v;
  return GOITA_OK;
}

/* The option text being read: numbers written in the rules' scale are kept as written and
 * converted once the scale is known (it may come after them). */
typedef struct reading {
  goita_rules r;
  bool given[OPT_COUNT];
  bool preset_set[OPT_COUNT]; /* set by the preset: a choice, not a default of the players */
  int target;      /* as written, or -1 */
  int goshi_points; /* as written, or -1 */
} reading;

static int set_option(reading *rd, int opt, const char *name, const char *value, int index, goita_error *err) {
  goita_rules *r = &rd->r;
  int v = 0, st = GOITA_OK;
  switch (opt) {
    case OPT_PLAYERS:
      if (!read_int(value, 2, 4, &r->players)) return bad_value(err, index, name, value, NULL, "4, 3 or 2");
      return GOITA_OK;
    case OPT_TEYAKU:
    case OPT_GOSHI:
      if ((st = set_enum(&v, on_off_names, name, value, index, err)) != GOITA_OK) return st;
      *(opt == OPT_TEYAKU ? &r->teyaku : &r->goshi) = v == 1;
      return GOITA_OK;
    case OPT_GOSHI_DECISION:
      st = set_enum(&v, goshi_decision_names, name, value, index, err);
      r->goshi_decision = (goita_goshi_decision)v;
      return st;
    case OPT_DOUBLE_GOSHI:
      if (strcasecmp(value, "win") == 0) {
        r->double_goshi = GOITA_DOUBLE_GOSHI_WIN;
        rd->goshi_points = -1;
        return GOITA_OK;
      }
      if (strcasecmp(value, "redeal_or_play") == 0) {
        r->double_goshi = GOITA_DOUBLE_GOSHI_DECIDE;
        rd->goshi_points = -1;
        return GOITA_OK;
      }
      if (strncasecmp(value, "points:", 7) == 0 && read_int(value + 7, 0, TARGET_MAX, &v)) {
        r->double_goshi = GOITA_DOUBLE_GOSHI_POINTS;
        rd->goshi_points = v;
        return GOITA_OK;
      }
      return bad_value(err, index, name, value, NULL, "win, redeal_or_play or points:N with N from 0 to 10000");
    case OPT_GOSHI_BOTH:
      st = set_enum(&v, goshi_both_names, name, value, index, err);
      r->goshi_both_teams = (goita_goshi_both_teams)v;
      return st;
    case OPT_KING_ATTACK:
      st = set_enum(&v, king_attack_names, name, value, index, err);
      r->king_attack = (goita_king_attack)v;
      return st;
    case OPT_KING_B:
      st = set_enum(&v, king_b_names, name, value, index, err);
      r->king_b = (goita_king_b)v;
      return st;
    case OPT_KING_FACE_DOWN:
      st = set_enum(&v, king_face_down_names, name, value, index, err);
      r->king_face_down = (goita_king_face_down)v;
      return st;
    case OPT_NEXT_DEALER:
      st = set_enum(&v, next_dealer_names, name, value, index, err);
      r->next_dealer = (goita_next_dealer)v;
      return st;
    case OPT_TARGET:
      if (!read_int(value, 1, TARGET_MAX, &rd->target))
        return bad_value(err, index, name, value, NULL, "a whole number from 1 to 10000");
      return GOITA_OK;
    case OPT_DRAW:
      st = set_enum(&v, draw_names, name, value, index, err);
      r->draw = (goita_draw_method)v;
      return st;
    case OPT_SET_ASIDE:
      st = set_enum(&v, set_aside_names, name, value, index, err);
      r->three_player_set_aside = (goita_set_aside)v;
      return st;
    case OPT_SCALE:
      st = set_enum(&v, scale_names, name, value, index, err);
      r->scale = (goita_scale)v;
      return st;
  }
  return goita_error_set(err, GOITA_EOPTION, index, "unknown rule option \"%s\"", name);
}

/* Reads "name=value,..." into rd; index counts the options read before (for errors). */
static int read_options(reading *rd, const char *text, goita_error *err) {
  int index = 0;
  const char *p = text;
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
    const int opt = lookup(option_names, name);
    if (opt < 0 || strcmp(option_names[opt], name) != 0) {
      char known[400];
      list_values(option_names, known, sizeof known);
      return goita_error_set(err, GOITA_EOPTION, index, "unknown rule option \"%s\" (known: %s)", name, known);
    }
    if (rd->given[opt])
      return goita_error_set(err, GOITA_EOPTION, index, "rule option %s given twice", name);
    rd->given[opt] = true;
    if (opt == OPT_PRESET) {
      const int preset = lookup(preset_names, value);
      if (preset < 0) return bad_value(err, index, name, value, preset_names, NULL);
      if (index > 0)
        return goita_error_set(err, GOITA_EOPTION, index,
                               "rule option preset must come first (the options after it change it)");
      /* The preset's own options read as if written; they may be given again after it. */
      reading base = {.target = -1, .goshi_points = -1};
      goita_rules_default(&base.r);
      int st = read_options(&base, preset_options[preset], err);
      if (st != GOITA_OK) return st;
      rd->r = base.r;
      memcpy(rd->preset_set, base.given, sizeof rd->preset_set);
    } else {
      int st = set_option(rd, opt, name, value, index, err);
      if (st != GOITA_OK) return st;
    }
    index++;
    if (!end) break;
    p = end + 1;
  }
  return GOITA_OK;
}

int goita_rules_parse(goita_rules *rules, const char *text, goita_error *err) {
  reading rd = {.target = -1, .goshi_points = -1};
  goita_rules_default(&rd.r);
  int st = read_options(&rd, text ? text : "", err);
  if (st != GOITA_OK) return st;
  goita_rules *r = &rd.r;
  const int unit = r->scale == GOITA_SCALE_ONES ? 10 : 1;
  if (rd.target >= 0) r->target = rd.target * unit;
  if (rd.goshi_points >= 0) r->double_goshi_points = rd.goshi_points * unit;
  if (r->double_goshi != GOITA_DOUBLE_GOSHI_POINTS) r->double_goshi_points = 0;
  if (r->players != 4 && !rd.given[OPT_TEYAKU] && !rd.preset_set[OPT_TEYAKU]) r->teyaku = false;
  if (r->players != 4 && !rd.given[OPT_GOSHI] && !rd.preset_set[OPT_GOSHI]) r->goshi = false;
  st = goita_rules_validate(r, err);
  if (st == GOITA_OK) *rules = *r;
  return st;
}

int goita_rules_validate(const goita_rules *r, goita_error *err) {
  if (r->players < 2 || r->players > 4)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option players: %d is not 4, 3 or 2", r->players);
  if ((r->draw == GOITA_DRAW_B || r->draw == GOITA_DRAW_C) && r->players != 4)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option draw: %s chooses teams and needs players=4",
                           draw_names[r->draw]);
  if (r->target < 1 || r->target > TARGET_MAX)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option target: %d points is not from 1 to 10000",
                           r->target);
  if (r->double_goshi_points < 0 || r->double_goshi_points > TARGET_MAX)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option double_goshi: points %d out of range",
                           r->double_goshi_points);
  if ((unsigned)r->king_attack > GOITA_KING_ATTACK_A_OR_B || (unsigned)r->king_face_down > 1 ||
      (unsigned)r->goshi_both_teams > 1 || (unsigned)r->next_dealer > 1 || (unsigned)r->double_goshi > GOITA_DOUBLE_GOSHI_DECIDE ||
      (unsigned)r->draw > GOITA_DRAW_C || (unsigned)r->king_b > 1 || (unsigned)r->goshi_decision > 1 ||
      (unsigned)r->three_player_set_aside > 1 || (unsigned)r->scale > 1)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule options: an enumerated value is out of range");
  if (r->scale == GOITA_SCALE_ONES && (r->target % 10 || r->double_goshi_points % 10))
    return goita_error_set(err, GOITA_EVALUE, -1,
                           "rule option scale: ones shows points divided by 10, but target %d or double_goshi "
                           "points %d is not a multiple of 10",
                           r->target, r->double_goshi_points);
  return GOITA_OK;
}

int goita_rules_format(const goita_rules *r, char *buf, size_t size) {
  const int unit = r->scale == GOITA_SCALE_ONES ? 10 : 1;
  char goshi[32];
  if (r->double_goshi == GOITA_DOUBLE_GOSHI_POINTS)
    snprintf(goshi, sizeof goshi, "points:%d", r->double_goshi_points / unit);
  else
    snprintf(goshi, sizeof goshi, "%s", r->double_goshi == GOITA_DOUBLE_GOSHI_DECIDE ? "redeal_or_play" : "win");
  int n = snprintf(buf, size,
                   "players=%d,teyaku=%s,goshi=%s,goshi_decision=%s,double_goshi=%s,goshi_both_teams=%s,"
                   "king_attack=%s,king_b=%s,king_face_down=%s,next_dealer=%s,target=%d,draw=%s,"
                   "three_player_set_aside=%s,scale=%s",
                   r->players, on_off_names[r->teyaku ? 1 : 0], on_off_names[r->goshi ? 1 : 0],
                   goshi_decision_names[r->goshi_decision & 1], goshi, goshi_both_names[r->goshi_both_teams & 1],
                   king_attack_names[r->king_attack % 3], king_b_names[r->king_b & 1],
                   king_face_down_names[r->king_face_down & 1], next_dealer_names[r->next_dealer & 1],
                   r->target / unit, draw_names[r->draw % 5], set_aside_names[r->three_player_set_aside & 1],
                   scale_names[r->scale & 1]);
  if (n < 0 || (size_t)n >= size) return GOITA_ENOSPACE;
  return n;
}

const char *const *goita_rules_preset_names(void) { return preset_names; }

/* Returns whether two rule sets are the same, option by option. */
static bool same_rules(const goita_rules *a, const goita_rules *b) {
  return a->players == b->players && a->teyaku == b->teyaku && a->goshi == b->goshi &&
         a->goshi_decision == b->goshi_decision && a->double_goshi == b->double_goshi &&
         a->double_goshi_points == b->double_goshi_points && a->goshi_both_teams == b->goshi_both_teams &&
         a->king_attack == b->king_attack && a->king_b == b->king_b && a->king_face_down == b->king_face_down &&
         a->next_dealer == b->next_dealer && a->target == b->target && a->draw == b->draw &&
         a->three_player_set_aside == b->three_player_set_aside && a->scale == b->scale;
}

const char *goita_rules_preset(const goita_rules *r) {
  for (int i = 0; preset_names[i]; i++) {
    goita_rules p;
    char text[64];
    snprintf(text, sizeof text, "preset=%s,players=%d", preset_names[i], r->players);
    if (goita_rules_parse(&p, text, NULL) != GOITA_OK) continue;
    /* Same target and draw as given: a preset names the rules, not the game's length or who
     * sits where; either set-aside reading is seed 002's. */
    p.target = r->target;
    p.draw = r->draw;
    p.three_player_set_aside = r->three_player_set_aside;
    if (same_rules(&p, r)) return preset_names[i];
  }
  return NULL;
}

int goita_rules_shown_points(const goita_rules *r, int points) {
  return r->scale == GOITA_SCALE_ONES ? points / 10 : points;
}

int goita_rules_set_aside(const goita_rules *r) {
  if (r->players == 2) return 8;
  return r->players == 3 && r->three_player_set_aside == GOITA_SET_ASIDE_RANDOM ? 2 : 0;
}

int goita_rules_hand_size(const goita_rules *r) { return r->players == 4 ? 8 : r->players == 3 ? 10 : 12; }

int goita_rules_sides(const goita_rules *r) { return r->players == 4 ? 2 : r->players; }

int goita_rules_side_of(const goita_rules *r, int seat) { return r->players == 4 ? seat % 2 : seat; }

int goita_rules_kind_total(const goita_rules *r, int kind) {
  int total = goita_kind_total(kind);
  if (kind == GOITA_PAWN && r->players == 3 && r->three_player_set_aside == GOITA_SET_ASIDE_PAWNS) total -= 2;
  return total;
}

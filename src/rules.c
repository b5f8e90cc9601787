/* Rule options: one table of the options (RULES.md 12), and reading, writing, checking and
 * comparing option text from it (RULES.md 3-11). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "goita/goita.h"

/* The value names of the options with named values, indexed by the field's value. */
static const char *const preset_names[] = {"standard", "japanese", "french", NULL};
static const char *const on_off_names[] = {"off", "on", NULL};
static const char *const goshi_decision_names[] = {"partner", "holder_and_partner", NULL};
/* double_goshi's names; its third value is points:N (goita_double_goshi keeps POINTS at 1). */
static const char *const double_goshi_names[] = {"win", "redeal_or_play", NULL};
static const int double_goshi_values[] = {GOITA_DOUBLE_GOSHI_WIN, GOITA_DOUBLE_GOSHI_DECIDE};
static const char *const goshi_both_names[] = {"redeal_if_both", "play_if_both", NULL};
static const char *const king_attack_names[] = {"any_of_abc", "a_or_last", "a_or_b", NULL};
static const char *const king_b_names[] = {"holds", "dealt", NULL};
static const char *const king_face_down_names[] = {"forbidden", "allowed", NULL};
static const char *const next_dealer_names[] = {"winner", "rotate", NULL};
static const char *const draw_names[] = {"random", "A1", "A2", "B", "C", NULL};
static const char *const set_aside_names[] = {"pawns", "random", NULL};
static const char *const scale_names[] = {"tens", "ones", NULL};

/* Where an option lives in goita_rules, and how it is stored there. */
typedef enum field_type {
  FIELD_NONE,  /* preset: names other options, has no field */
  FIELD_INT,   /* an int: a number, or an enum (every goita_rules enum has the size of int) */
  FIELD_BOOL,  /* a bool: off / on */
  FIELD_GOSHI, /* double_goshi: the enum and double_goshi_points */
} field_type;

#define CHOICE GOITA_RULE_OPTION_CHOICE
#define NUMBER GOITA_RULE_OPTION_NUMBER
#define CHOICE_OR_POINTS GOITA_RULE_OPTION_CHOICE_OR_POINTS
#define AT(field) offsetof(goita_rules, field)

/* The options, one row each, in the order option text is written (RULES.md 12): id, name,
 * kind, value names, range of a number as written on the tens scale, whether that number is
 * written on the rules' scale, default (the field's value, and as written), RULES.md
 * section, seeds of the readings, help line, and the field. Adding an option is one row here
 * (and the field in goita_rules), a scenario and a line in RULES.md. */
#define RULE_OPTIONS(X)                                                                                            \
  X(PRESET, "preset", CHOICE, preset_names, 0, 0, false, 0, "standard", "11",                                      \
    "standard: 000; japanese: 001; french: 002",                                                                   \
    "a named rule set; written first, the options after it change it", FIELD_NONE, 0)                            \
  X(PLAYERS, "players", NUMBER, NULL, 2, 4, false, 4, "4", "2, 8", "4: 000, 001, 002; 3 and 2: 002",                \
    "players at the table: 4 in two teams, or 3 or 2 each for themselves", FIELD_INT, AT(players))                \
  X(TEYAKU, "teyaku", CHOICE, on_off_names, 0, 0, false, 1, "on", "3.1, 8", "on: 000, 001; off: 002",              \
    "6 or more pawns win the round at once (off with 3 and 2 players unless given)", FIELD_BOOL, AT(teyaku))      \
  X(GOSHI, "goshi", CHOICE, on_off_names, 0, 0, false, 1, "on", "3, 8",                                            \
    "on: 000, 001, 002 (with 3 and 2 players too: 002); off with 3 and 2: our reading for 000 and 001",            \
    "5 pawns may cancel the round (off with 3 and 2 players unless given)", FIELD_BOOL, AT(goshi))                 \
  X(GOSHI_DECISION, "goshi_decision", CHOICE, goshi_decision_names, 0, 0, false, GOITA_GOSHI_DECISION_PARTNER,     \
    "partner", "3.3, 3.4", "partner: 000, 001; holder_and_partner: 002",                                           \
    "who decides a 5-pawn redeal: the partner, or the holder with the partner", FIELD_INT, AT(goshi_decision))    \
  X(DOUBLE_GOSHI, "double_goshi", CHOICE_OR_POINTS, double_goshi_names, 0, 10000, true, GOITA_DOUBLE_GOSHI_WIN,    \
    "win", "3.2", "win: the players' convention; redeal_or_play: 002; points:150: goita-core",                     \
    "5 pawns in both partners' hands: win the game, decide, or score points:N", FIELD_GOSHI, AT(double_goshi))    \
  X(GOSHI_BOTH, "goshi_both_teams", CHOICE, goshi_both_names, 0, 0, false, GOITA_GOSHI_REDEAL_IF_BOTH,             \
    "redeal_if_both", "3.4, 8", "redeal_if_both: 000; play_if_both: a Tokyo house rule",                          \
    "5 pawns on both teams: redeal only if both choose it, or unless both play", FIELD_INT,                       \
    AT(goshi_both_teams))                                                                                          \
  X(KING_ATTACK, "king_attack", CHOICE, king_attack_names, 0, 0, false, GOITA_KING_ATTACK_ANY_OF_ABC,              \
    "any_of_abc", "4", "any_of_abc: 000; a_or_last: 002; a_or_b: 001",                                             \
    "when a king may attack: (a) a king face-up, (b) both kings held, (c) last piece", FIELD_INT,                 \
    AT(king_attack))                                                                                               \
  X(KING_B, "king_b", CHOICE, king_b_names, 0, 0, false, GOITA_KING_B_HOLDS, "holds", "4",                         \
    "holds: 000; dealt: 001", "rule (b): both kings held now, or both dealt", FIELD_INT, AT(king_b))              \
  X(KING_FACE_DOWN, "king_face_down", CHOICE, king_face_down_names, 0, 0, false, GOITA_KING_FACE_DOWN_FORBIDDEN,   \
    "forbidden", "4", "forbidden: 000; allowed: goita-core, and our reading of 002",                              \
    "whether a king may be led face-down", FIELD_INT, AT(king_face_down))                                         \
  X(NEXT_DEALER, "next_dealer", CHOICE, next_dealer_names, 0, 0, false, GOITA_NEXT_DEALER_WINNER, "winner", "5",   \
    "winner: 000; rotate: 002", "who deals the next round: the winner, or the next seat", FIELD_INT,              \
    AT(next_dealer))                                                                                               \
  X(TARGET, "target", NUMBER, NULL, 1, 10000, true, 150, "150", "6, 10", "150: 000; 15 on the ones scale: 002",     \
    "points that win the game, written on the rules' scale", FIELD_INT, AT(target))                               \
  X(DRAW, "draw", CHOICE, draw_names, 0, 0, false, GOITA_DRAW_RANDOM, "random", "7",                               \
    "A1, A2, B, C: 000; random: the engine", "how the first dealer (and with B, C the teams) is drawn",            \
    FIELD_INT, AT(draw))                                                                                           \
  X(SET_ASIDE, "three_player_set_aside", CHOICE, set_aside_names, 0, 0, false, GOITA_SET_ASIDE_PAWNS, "pawns",     \
    "8", "both: 002", "3 players: two pawns leave the game, or two random pieces each round", FIELD_INT,          \
    AT(three_player_set_aside))                                                                                    \
  X(SCALE, "scale", CHOICE, scale_names, 0, 0, false, GOITA_SCALE_TENS, "tens", "10", "tens: 000, 001; ones: 002", \
    "how points are written: tens (pawn 10) or ones (pawn 1, as seed 002)", FIELD_INT, AT(scale))

#define OPTION_ID(id, name, kind, values, min, max, scaled, def, def_text, section, seeds, help, type, offset) \
  OPT_##id,
enum { RULE_OPTIONS(OPTION_ID) OPT_COUNT };

#define OPTION_ROW(id, name, kind, values, min, max, scaled, def, def_text, section, seeds, help, type, offset) \
  {name, kind, values, min, max, scaled, def_text, section, seeds, help},
static const goita_rule_option options[OPT_COUNT] = {RULE_OPTIONS(OPTION_ROW)};

typedef struct option_field {
  field_type type;
  size_t offset;
  int def; /* the default value as stored */
} option_field;
#define OPTION_FIELD(id, name, kind, values, min, max, scaled, def, def_text, section, seeds, help, type, offset) \
  {type, offset, def},
static const option_field fields[OPT_COUNT] = {RULE_OPTIONS(OPTION_FIELD)};

/* FIELD_INT reads every enum of goita_rules through an int. */
_Static_assert(sizeof(goita_goshi_decision) == sizeof(int) && sizeof(goita_king_attack) == sizeof(int) &&
                   sizeof(goita_draw_method) == sizeof(int) && sizeof(goita_scale) == sizeof(int) &&
                   sizeof(goita_double_goshi) == sizeof(int),
               "rule enums are read as int");

const goita_rule_option *goita_rules_options(size_t *count) {
  if (count) *count = OPT_COUNT;
  return options;
}

const char *const *goita_rules_preset_names(void) { return preset_names; }

/* The named rule sets of RULES.md 11, as option text over the defaults, by preset_names. */
static const char *const preset_options[] = {
    "",                                /* seed 000: the defaults */
    "king_attack=a_or_b,king_b=dealt", /* seed 001 */
    /* seed 002, the French edition; goshi=on holds for 3 and 2 players too ("la règle de base
     * reste la même"), and a double 5-pawn hand is decided like any 5-pawn hand */
    ("king_attack=a_or_last,teyaku=off,goshi=on,goshi_decision=holder_and_partner,"
     "double_goshi=redeal_or_play,king_face_down=allowed,next_dealer=rotate,scale=ones"),
};

/* Returns an option's stored value as an int (a bool as 0 or 1; preset has none: 0). */
static int get_value(const goita_rules *r, int opt) {
  const void *at = (const char *)r + fields[opt].offset;
  switch (fields[opt].type) {
    case FIELD_INT:
    case FIELD_GOSHI: return *(const int *)at;
    case FIELD_BOOL: return *(const bool *)at ? 1 : 0;
    case FIELD_NONE: break;
  }
  return 0;
}

static void set_value(goita_rules *r, int opt, int v) {
  void *at = (char *)r + fields[opt].offset;
  switch (fields[opt].type) {
    case FIELD_INT:
    case FIELD_GOSHI: *(int *)at = v; break;
    case FIELD_BOOL: *(bool *)at = v != 0; break;
    case FIELD_NONE: break;
  }
}

/* How many points one written unit of a scaled number is: 10 with scale=ones. */
static int unit_of(const goita_rules *r) { return r->scale == GOITA_SCALE_ONES ? 10 : 1; }

void goita_rules_default(goita_rules *rules) {
  memset(rules, 0, sizeof *rules);
  for (int i = 0; i < OPT_COUNT; i++) set_value(rules, i, fields[i].def);
  rules->double_goshi_points = 0;
}

/* Returns the index of value in names (case-insensitive), or -1. */
static int lookup(const char *const *names, const char *value) {
  for (int i = 0; names[i]; i++)
    if (strcasecmp(names[i], value) == 0) return i;
  return -1;
}

/* Returns the option named exactly name, or -1. */
static int option_index(const char *name) {
  for (int i = 0; i < OPT_COUNT; i++)
    if (strcmp(options[i].name, name) == 0) return i;
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

/* Writes what an option takes ("any_of_abc, a_or_last or a_or_b", "a whole number from 1 to
 * 10000") into buf; unit 10 gives a scaled number's range on the ones scale. */
static void describe_values(int opt, int unit, char *buf, size_t size) {
  const goita_rule_option *o = &options[opt];
  size_t used = 0;
  buf[0] = '\0';
  if (o->values)
    for (int i = 0; o->values[i] && used < size; i++) {
      const bool last = !o->values[i + 1] && o->kind == CHOICE;
      used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : last ? " or " : ", ", o->values[i]);
    }
  if (used >= size) return;
  const int max = o->scaled ? o->max / unit : o->max;
  if (o->kind == NUMBER)
    snprintf(buf + used, size - used, "a whole number from %d to %d", o->min, max);
  else if (o->kind == CHOICE_OR_POINTS)
    snprintf(buf + used, size - used, " or points:N with N from %d to %d", o->min, max);
}

static int bad_value(goita_error *err, int index, int opt, const char *value) {
  char allowed[256];
  describe_values(opt, 1, allowed, sizeof allowed);
  return goita_error_set(err, GOITA_EVALUE, index, "rule option %s: invalid value \"%s\" (expected %s)",
                         options[opt].name, value, allowed);
}

/* The distance between two short names in single-letter edits (case-insensitive), capped. */
static int edits(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 31 || lb > 31) return 99;
  int row[32];
  for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      const int up = row[j];
      const int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
      int best = diag + !same;
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* An unknown option name: names the nearest known one when it is close (a letter's case, a
 * typo), else every known name. The message must hold the whole list, so a long unknown name
 * is shown cut rather than the list. */
static int unknown_option(goita_error *err, int index, const char *name) {
  int best = -1, best_edits = 3;
  for (int i = 0; i < OPT_COUNT; i++) {
    const int e = edits(name, options[i].name);
    if (e < best_edits) best = i, best_edits = e;
  }
  if (best >= 0)
    return goita_error_set(err, GOITA_EOPTION, index, "unknown rule option \"%.40s\" (did you mean %s?)", name,
                           options[best].name);
  char known[sizeof err->message];
  size_t used = 0;
  for (int i = 0; i < OPT_COUNT; i++)
    used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? "," : "", options[i].name);
  const char *head = "unknown rule option \"";
  const char *tail = "\" (known: ";
  const int room = (int)(sizeof err->message - strlen(head) - strlen(tail) - used - 2);
  const int shown = (int)strlen(name) <= room ? (int)strlen(name) : room - 3;
  return goita_error_set(err, GOITA_EOPTION, index, "%s%.*s%s%s%s)", head, shown > 0 ? shown : 0, name,
                         (int)strlen(name) <= room ? "" : "...", tail, known);
}

/* Copies text[0..len) into buf trimmed of surrounding spaces. */
static void trimmed(const char *text, size_t len, char *buf, size_t size) {
  while (len && isspace((unsigned char)*text)) text++, len--;
  while (len && isspace((unsigned char)text[len - 1])) len--;
  if (len >= size) len = size - 1;
  memcpy(buf, text, len);
  buf[len] = '\0';
}

/* The option text being read: numbers written on the rules' scale are kept as written and
 * converted once the scale is known (it may come after them). */
typedef struct reading {
  goita_rules r;
  bool given[OPT_COUNT];
  bool preset_set[OPT_COUNT]; /* set by the preset: a choice, not a default of the players */
  int written[OPT_COUNT];     /* a scaled number as written, or -1 */
  int index[OPT_COUNT];       /* where it was written, for its error */
} reading;

static void reading_start(reading *rd) {
  memset(rd, 0, sizeof *rd);
  goita_rules_default(&rd->r);
  for (int i = 0; i < OPT_COUNT; i++) rd->written[i] = -1;
}

/* Reads one option's value into rd; returns GOITA_OK or the error. */
static int set_option(reading *rd, int opt, const char *value, int index, goita_error *err) {
  const goita_rule_option *o = &options[opt];
  int v = 0;
  if (o->kind == NUMBER || (o->kind == CHOICE_OR_POINTS && strncasecmp(value, "points:", 7) == 0)) {
    const char *digits = o->kind == NUMBER ? value : value + 7;
    if (!read_int(digits, o->min, o->max, &v)) return bad_value(err, index, opt, value);
    if (o->kind == CHOICE_OR_POINTS) set_value(&rd->r, opt, GOITA_DOUBLE_GOSHI_POINTS);
    if (o->scaled) {
      rd->written[opt] = v;
      rd->index[opt] = index;
    } else {
      set_value(&rd->r, opt, v);
    }
    return GOITA_OK;
  }
  if ((v = lookup(o->values, value)) < 0) return bad_value(err, index, opt, value);
  if (fields[opt].type == FIELD_GOSHI) {
    v = double_goshi_values[v];
    rd->written[opt] = -1;
  }
  set_value(&rd->r, opt, v);
  return GOITA_OK;
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
    const int opt = option_index(name);
    if (opt < 0) return unknown_option(err, index, name);
    if (rd->given[opt])
      return goita_error_set(err, GOITA_EOPTION, index, "rule option %s given twice", name);
    rd->given[opt] = true;
    if (opt == OPT_PRESET) {
      const int preset = lookup(preset_names, value);
      if (preset < 0) return bad_value(err, index, opt, value);
      if (index > 0)
        return goita_error_set(err, GOITA_EOPTION, index,
                               "rule option preset must come first (the options after it change it)");
      /* The preset's own options read as if written; they may be given again after it. */
      reading base;
      reading_start(&base);
      int st = read_options(&base, preset_options[preset], err);
      if (st != GOITA_OK) return st;
      rd->r = base.r;
      memcpy(rd->preset_set, base.given, sizeof rd->preset_set);
      memcpy(rd->written, base.written, sizeof rd->written);
    } else {
      int st = set_option(rd, opt, value, index, err);
      if (st != GOITA_OK) return st;
    }
    index++;
    if (!end) break;
    p = end + 1;
  }
  return GOITA_OK;
}

int goita_rules_parse(goita_rules *rules, const char *text, goita_error *err) {
  reading rd;
  reading_start(&rd);
  int st = read_options(&rd, text ? text : "", err);
  if (st != GOITA_OK) return st;
  goita_rules *r = &rd.r;
  /* The scale is known now: a scaled number must fit the range on it, as the user wrote it. */
  const int unit = unit_of(r);
  for (int i = 0; i < OPT_COUNT; i++) {
    if (rd.written[i] < 0) continue;
    const goita_rule_option *o = &options[i];
    if (rd.written[i] > o->max / unit) {
      char allowed[128];
      describe_values(i, unit, allowed, sizeof allowed);
      return goita_error_set(err, GOITA_EVALUE, rd.index[i],
                             "rule option %s: %d is too large on scale=ones (expected %s)", o->name, rd.written[i],
                             allowed);
    }
    if (fields[i].type == FIELD_GOSHI)
      r->double_goshi_points = rd.written[i] * unit;
    else
      set_value(r, i, rd.written[i] * unit);
  }
  if (r->double_goshi != GOITA_DOUBLE_GOSHI_POINTS) r->double_goshi_points = 0;
  if (r->players != 4 && !rd.given[OPT_TEYAKU] && !rd.preset_set[OPT_TEYAKU]) r->teyaku = false;
  if (r->players != 4 && !rd.given[OPT_GOSHI] && !rd.preset_set[OPT_GOSHI]) r->goshi = false;
  st = goita_rules_validate(r, err);
  if (st == GOITA_OK) *rules = *r;
  return st;
}

/* Returns how many values an option with named values has. */
static int value_count(int opt) {
  int n = 0;
  while (options[opt].values[n]) n++;
  return n;
}

int goita_rules_validate(const goita_rules *r, goita_error *err) {
  for (int i = 0; i < OPT_COUNT; i++) {
    const goita_rule_option *o = &options[i];
    const int v = get_value(r, i);
    if (fields[i].type == FIELD_NONE || fields[i].type == FIELD_BOOL) continue;
    if (fields[i].type == FIELD_GOSHI) {
      if ((unsigned)v > GOITA_DOUBLE_GOSHI_DECIDE)
        return goita_error_set(err, GOITA_EVALUE, -1, "rule option %s: value %d is out of range", o->name, v);
      if (r->double_goshi_points < o->min || r->double_goshi_points > o->max)
        return goita_error_set(err, GOITA_EVALUE, -1, "rule option %s: points %d is not from %d to %d", o->name,
                               r->double_goshi_points, o->min, o->max);
    } else if (o->kind == NUMBER) {
      if (v < o->min || v > o->max)
        return goita_error_set(err, GOITA_EVALUE, -1, "rule option %s: %d%s is not from %d to %d", o->name, v,
                               o->scaled ? " points" : "", o->min, o->max);
    } else if (v < 0 || v >= value_count(i)) {
      return goita_error_set(err, GOITA_EVALUE, -1, "rule option %s: value %d is out of range", o->name, v);
    }
  }
  if ((r->draw == GOITA_DRAW_B || r->draw == GOITA_DRAW_C) && r->players != 4)
    return goita_error_set(err, GOITA_EVALUE, -1, "rule option draw: %s chooses teams and needs players=4",
                           draw_names[r->draw]);
  if (r->scale == GOITA_SCALE_ONES && (r->target % 10 || r->double_goshi_points % 10))
    return goita_error_set(err, GOITA_EVALUE, -1,
                           "rule option scale: ones shows points divided by 10, but target %d or double_goshi "
                           "points %d is not a multiple of 10",
                           r->target, r->double_goshi_points);
  return GOITA_OK;
}

int goita_rules_format(const goita_rules *r, char *buf, size_t size) {
  const int unit = unit_of(r);
  size_t used = 0;
  if (size == 0) return GOITA_ENOSPACE;
  buf[0] = '\0';
  for (int i = 0; i < OPT_COUNT; i++) {
    const goita_rule_option *o = &options[i];
    if (fields[i].type == FIELD_NONE) continue;
    const int v = get_value(r, i);
    const char *sep = used ? "," : "";
    int n;
    if (fields[i].type == FIELD_GOSHI && v == GOITA_DOUBLE_GOSHI_POINTS)
      n = snprintf(buf + used, size - used, "%s%s=points:%d", sep, o->name, r->double_goshi_points / unit);
    else if (fields[i].type == FIELD_GOSHI)
      n = snprintf(buf + used, size - used, "%s%s=%s", sep, o->name, o->values[v == GOITA_DOUBLE_GOSHI_DECIDE]);
    else if (o->kind == NUMBER)
      n = snprintf(buf + used, size - used, "%s%s=%d", sep, o->name, o->scaled ? v / unit : v);
    else
      n = snprintf(buf + used, size - used, "%s%s=%s", sep, o->name,
                   v >= 0 && v < value_count(i) ? o->values[v] : "?");
    if (n < 0 || (size_t)n >= size - used) return GOITA_ENOSPACE;
    used += (size_t)n;
  }
  return (int)used;
}

/* Returns whether two rule sets are the same, option by option. */
static bool same_rules(const goita_rules *a, const goita_rules *b) {
  for (int i = 0; i < OPT_COUNT; i++)
    if (get_value(a, i) != get_value(b, i)) return false;
  return a->double_goshi_points == b->double_goshi_points;
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

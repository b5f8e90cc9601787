/* Computer players: levels, specs ("sampler:samples=64,infer=on") and the choice itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "player_internal.h"

/* ---- random and rules: the two levels without parameters ---- */

static const goita__param no_params[] = {{NULL, 0, 0, 0, NULL, NULL}};

const char *const goita__on_off[] = {"off", "on", NULL};

static int random_choose(goita_player *p, const goita_view *v, const goita_move *moves, int n, goita_rng *rng,
                         goita_move *move, goita_player_info *info) {
  (void)p, (void)v, (void)info;
  *move = moves[goita_rng_below(rng, (uint32_t)n)];
  return GOITA_OK;
}

static int rules_choose(goita_player *p, const goita_view *v, const goita_move *moves, int n, goita_rng *rng,
                        goita_move *move, goita_player_info *info) {
  (void)p;
  double scores[GOITA_MAX_LEGAL];
  goita__policy_scores(&goita__rules_policy, v, moves, n, scores);
  /* the best score; equal ones are drawn at random so the player is not predictable */
  int best = 0, ties = 1;
  for (int i = 1; i < n; i++) {
    if (scores[i] > scores[best] + 1e-9) {
      best = i;
      ties = 1;
    } else if (scores[i] > scores[best] - 1e-9 && goita_rng_below(rng, (uint32_t)++ties) == 0) {
      best = i;
    }
  }
  *move = moves[best];
  if (info) {
    for (int i = 0; i < n; i++) info->value[i] = scores[i];
    info->has_values = 1;
  }
  return GOITA_OK;
}

static const goita__level random_level = {
    "random", "uniformly random legal moves", no_params, NULL, NULL, random_choose};
static const goita__level rules_level = {
    "rules",
    "a rule-based player: keeps kings for defence and strong pieces for the last attack, leads pairs for the "
    "double, defends its partner only when it helps, reads passes",
    no_params, NULL, NULL, rules_choose};

static const goita__level *const levels[] = {&random_level,         &rules_level,
                                             &goita__fast_level,    &goita__sampler_level,
                                             &goita__expert_level,  &goita__master_2026_11_level,
                                             &goita__master_level,  NULL};

/* The names of levels[], in its order: a constant, so that threads listing the levels at once
 * share it (filling it on each call raced). The count is checked here; that each name is its
 * level's, by test_player. */
static const char *const level_names[] = {"random", "rules",          "fast",   "sampler",
                                          "expert", "master_2026_11", "master", NULL};
_Static_assert(sizeof level_names / sizeof level_names[0] == sizeof levels / sizeof levels[0],
               "level_names must name every level of levels[]");

const char *const *goita_player_levels(void) { return level_names; }

static const goita__level *find_level(const char *name, size_t len) {
  for (int i = 0; levels[i]; i++)
    if (strlen(levels[i]->name) == len && strncasecmp(levels[i]->name, name, len) == 0) return levels[i];
  return NULL;
}

const char *goita_player_describe(const char *name) {
  const goita__level *l = name ? find_level(name, strlen(name)) : NULL;
  return l ? l->help : NULL;
}

/* ---- Specs ---- */

static void write_spec(goita_player *p) {
  size_t n = (size_t)snprintf(p->spec, sizeof p->spec, "%s", p->level->name);
  for (int i = 0; p->level->params[i].name && n < sizeof p->spec; i++) {
    const goita__param *d = &p->level->params[i];
    char value[16];
    if (d->names)
      snprintf(value, sizeof value, "%s", d->names[p->param[i]]);
    else
      snprintf(value, sizeof value, "%d", p->param[i]);
    n += (size_t)snprintf(p->spec + n, sizeof p->spec - n, "%s%s=%s", i ? "," : ":", d->name, value);
  }
}

/* Reads "name=value" (len characters) into the player's parameters. */
static int read_param(goita_player *p, const char *text, size_t len, int index, goita_error *err) {
  const char *eq = memchr(text, '=', len);
  if (!eq)
    return goita_error_set(err, GOITA_EPARSE, index, "parameter \"%.*s\" needs a value (name=value)", (int)len,
                           text);
  const size_t name_len = (size_t)(eq - text);
  const goita__param *params = p->level->params;
  for (int i = 0; params[i].name; i++) {
    if (strlen(params[i].name) != name_len || strncasecmp(params[i].name, text, name_len) != 0) continue;
    char value[32];
    const size_t value_len = len - name_len - 1;
    if (value_len == 0 || value_len >= sizeof value)
      return goita_error_set(err, GOITA_EVALUE, index, "parameter %s: missing or overlong value", params[i].name);
    memcpy(value, eq + 1, value_len);
    value[value_len] = '\0';
    if (params[i].names) {
      char known[80] = "";
      for (int j = 0; params[i].names[j]; j++) {
        if (strcasecmp(params[i].names[j], value) == 0) {
          p->param[i] = j;
          p->given |= 1u << i;
          return GOITA_OK;
        }
        strcat(known, j ? " or " : "");
        strcat(known, params[i].names[j]);
      }
      return goita_error_set(err, GOITA_EVALUE, index, "parameter %s is %s, not \"%s\"", params[i].name, known,
                             value);
    }
    char *end = NULL;
    const long v = strtol(value, &end, 10);
    if (*end != '\0' || v < params[i].min || v > params[i].max)
      return goita_error_set(err, GOITA_EVALUE, index, "parameter %s must be %d-%d, not \"%s\"", params[i].name,
                             params[i].min, params[i].max, value);
    p->param[i] = (int)v;
    p->given |= 1u << i;
    return GOITA_OK;
  }
  return goita_error_set(err, GOITA_EPARSE, index, "level %s has no parameter \"%.*s\"", p->level->name,
                         (int)name_len, text);
}

int goita_player_new(goita_player **out, const char *spec, goita_error *err) {
  if (!out || !spec) return goita_error_set(err, GOITA_EINVAL, -1, "a NULL argument");
  *out = NULL;
  const char *colon = strchr(spec, ':');
  const size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
  const goita__level *level = find_level(spec, name_len);
  if (!level) {
    char known[160] = "";
    for (int i = 0; levels[i]; i++) {
      strcat(known, i ? ", " : "");
      strcat(known, levels[i]->name);
    }
    return goita_error_set(err, GOITA_EPARSE, 0, "unknown player level \"%.*s\" (levels: %s)", (int)name_len, spec,
                           known);
  }
  goita_player *p = calloc(1, sizeof *p);
  if (!p) return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory");
  p->level = level;
  for (int i = 0; level->params[i].name; i++) p->param[i] = level->params[i].fallback;
  int st = GOITA_OK, index = 0;
  for (const char *t = colon ? colon + 1 : NULL; t && st == GOITA_OK;) {
    const char *comma = strchr(t, ',');
    const size_t len = comma ? (size_t)(comma - t) : strlen(t);
    st = read_param(p, t, len, index++, err);
    t = comma ? comma + 1 : NULL;
  }
  if (st == GOITA_OK && level->init) st = level->init(p, err);
  if (st != GOITA_OK) {
    free(p);
    return st;
  }
  write_spec(p);
  *out = p;
  return GOITA_OK;
}

void goita_player_free(goita_player *p) {
  if (!p) return;
  if (p->level->release) p->level->release(p);
  free(p);
}

int goita_player_set(goita_player *p, const char *setting, goita_error *err) {
  if (!p || !setting) return goita_error_set(err, GOITA_EINVAL, -1, "a NULL argument");
  int saved[GOITA__MAX_PARAMS];
  memcpy(saved, p->param, sizeof saved);
  const uint32_t given = p->given;
  int st = read_param(p, setting, strlen(setting), 0, err);
  if (st != GOITA_OK) p->given = given;
  if (st != GOITA_OK || memcmp(saved, p->param, sizeof saved) == 0) return st;
  /* The level's working memory depends on its parameters: make it anew. */
  if (p->level->release) p->level->release(p);
  p->state = NULL;
  if (p->level->init && (st = p->level->init(p, err)) != GOITA_OK) {
    memcpy(p->param, saved, sizeof saved);
    p->given = given;
    if (p->level->init(p, NULL) != GOITA_OK) p->state = NULL;
    return st;
  }
  write_spec(p);
  return GOITA_OK;
}

const char *goita_player_spec(const goita_player *p) { return p->spec; }

void goita_player_seed(goita_player *p, uint64_t seed) { p->seed = seed; }

/* A hash of everything the view shows: the player's random choices depend on its seed and
 * the view, never on what it was asked before. */
static uint64_t view_hash(const goita_view *v) {
  uint64_t h = 0xcbf29ce484222325ULL;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3ULL)
  MIX((uint8_t)v->seat);
  MIX((uint8_t)v->dealer);
  MIX(v->kings);
  for (int s = 0; s < GOITA_MAX_SEATS; s++) MIX((uint16_t)v->score[s]);
  for (int k = 0; k < GOITA_KIND_SLOTS; k++) MIX(v->hand[k]);
  for (int i = 0; i < v->nlog; i++) {
    const goita_move m = v->log[i];
    MIX((uint32_t)m.type | (uint32_t)m.seat << 8 | (uint32_t)m.block << 16 | (uint32_t)m.attack << 24);
  }
  MIX(v->nlog);
#undef MIX
  return h;
}

int goita_player_choose(goita_player *p, const goita_view *v, goita_move *move, goita_player_info *info) {
  if (!p || !v || !move) return GOITA_EINVAL;
  if (v->phase == GOITA_PHASE_OVER) return GOITA_EOVER;
  if (v->seat < 0 || v->seat != v->turn) return GOITA_ETURN;
  if (p->level->init && !p->state) return GOITA_ESTATE; /* a failed goita_player_set */
  const double start = goita__now_ms();
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_view_legal_moves(v, moves);
  if (info) {
    memset(info, 0, sizeof *info);
    info->nmoves = n;
    memcpy(info->moves, moves, (size_t)n * sizeof moves[0]);
  }
  int st = GOITA_OK;
  if (n == 1) {
    *move = moves[0];
  } else {
    goita_rng rng;
    goita_rng_seed(&rng, goita_seed_mix(p->seed ^ view_hash(v)));
    st = p->level->choose(p, v, moves, n, &rng, move, info);
  }
  if (info) info->ms = goita__now_ms() - start;
  return st;
}

/* Runs rules scenarios kept as data files (the .scn files in tests/scenarios); see tests/scenarios/README.md
 * for the format. Every line runs in order against the current case; a failed expectation is
 * reported with its file, line and case name. */
#include "scenario_runner.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"

typedef struct ctx {
  const char *path;
  int line;
  char name[96];
  bool has_section;
  int cases;
  int failures;
  goita_rules rules;
  goita_round round;
  bool have_round;
  goita_game game;
  bool have_game;
  goita_draw_result draw;
  goita_solo solo;
} ctx;

static void fail(ctx *c, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s:%d: case %s: %s\n", c->path, c->line, c->name[0] ? c->name : "(none)", msg);
  c->failures++;
}

/* Splits text into space-separated words in place; returns the count. */
static int words(char *text, char **out, int max) {
  int n = 0;
  for (char *p = strtok(text, " \t"); p && n < max; p = strtok(NULL, " \t")) out[n++] = p;
  return n;
}

/* Finds "key=" among words and returns its value, or NULL. */
static const char *kv(char **w, int n, const char *key) {
  size_t len = strlen(key);
  for (int i = 0; i < n; i++)
    if (strncmp(w[i], key, len) == 0 && w[i][len] == '=') return w[i] + len + 1;
  return NULL;
}

static bool yes(const char *v) { return v && strcmp(v, "yes") == 0; }

static int seat_arg(const char *v) { return atoi(v) - 1; }

static bool parse_move(ctx *c, const char *text, goita_move *m) {
  if (goita_move_parse(text, strlen(text), m) != GOITA_OK) {
    fail(c, "bad move token \"%s\" in the scenario", text);
    return false;
  }
  return true;
}

static const char *end_name(int end) {
  static const char *const names[] = {"none", "finish", "teyaku", "double_goshi", "redeal"};
  return end >= 0 && end <= 4 ? names[end] : "?";
}

static const char *phase_name(int phase) {
  static const char *const names[] = {"decide", "play", "over"};
  return phase >= 0 && phase <= 2 ? names[phase] : "?";
}

static goita_round *current_round(ctx *c) {
  if (c->have_game) return &c->game.round;
  if (c->have_round) return &c->round;
  fail(c, "no round yet (give a history line first)");
  return NULL;
}

static void check_legal(ctx *c, char **w, int n) {
  goita_round *r = current_round(c);
  if (!r) return;
  goita_move legal[GOITA_MAX_LEGAL];
  const int nl = goita_round_legal_moves(r, legal);
  goita_move want[GOITA_MAX_LEGAL + 8];
  int nw = 0;
  if (!(n == 1 && strcmp(w[0], "none") == 0))
    for (int i = 0; i < n && nw < GOITA_MAX_LEGAL + 8; i++)
      if (!parse_move(c, w[i], &want[nw++])) return;
  char got[1024] = "";
  for (int i = 0; i < nl; i++) {
    char tok[8];
    goita_move_format(legal[i], tok, sizeof tok);
    strncat(got, tok, sizeof got - strlen(got) - 2);
    strncat(got, " ", sizeof got - strlen(got) - 1);
  }
  for (int i = 0; i < nw; i++) {
    bool found = false;
    for (int j = 0; j < nl; j++) found |= goita_move_equal(want[i], legal[j]);
    char tok[8];
    goita_move_format(want[i], tok, sizeof tok);
    if (!found) fail(c, "expected %s to be legal; legal: %s", tok, got);
  }
  for (int j = 0; j < nl; j++) {
    bool found = false;
    for (int i = 0; i < nw; i++) found |= goita_move_equal(want[i], legal[j]);
    char tok[8];
    goita_move_format(legal[j], tok, sizeof tok);
    if (!found) fail(c, "%s is legal but not expected; legal: %s", tok, got);
  }
  for (int j = 0; j < nl; j++) {
    goita_error err;
    if (goita_round_check(r, legal[j], &err) != GOITA_OK) fail(c, "generated move rejected: %s", err.message);
  }
}

static void apply_moves(ctx *c, char **w, int n) {
  for (int i = 0; i < n; i++) {
    goita_move m;
    if (!parse_move(c, w[i], &m)) return;
    goita_error err;
    int st = c->have_game ? goita_game_apply(&c->game, m, &err)
                          : (current_round(c) ? goita_round_apply(&c->round, m, &err) : GOITA_EINVAL);
    if (st != GOITA_OK) {
      fail(c, "move %s rejected: %s", w[i], err.message);
      return;
    }
  }
}

static void check_result(ctx *c, char **w, int n) {
  goita_round *r = current_round(c);
  if (!r) return;
  const char *v;
  if ((v = kv(w, n, "phase")) && strcmp(v, phase_name(r->phase)) != 0)
    fail(c, "phase is %s, expected %s", phase_name(r->phase), v);
  if ((v = kv(w, n, "end")) && strcmp(v, end_name((int)r->result.end)) != 0)
    fail(c, "round ended by %s, expected %s", end_name((int)r->result.end), v);
  if ((v = kv(w, n, "winner")) && r->result.winner != seat_arg(v))
    fail(c, "winner is seat %d, expected %s", r->result.winner + 1, v);
  if ((v = kv(w, n, "points")) && r->result.points != atoi(v))
    fail(c, "points are %d, expected %s", r->result.points, v);
  if ((v = kv(w, n, "doubled")) && r->result.doubled != yes(v))
    fail(c, "doubled is %d, expected %s", r->result.doubled, v);
  if ((v = kv(w, n, "wins_game")) && r->result.wins_game != yes(v))
    fail(c, "wins_game is %d, expected %s", r->result.wins_game, v);
  if ((v = kv(w, n, "turn")) && r->turn != seat_arg(v)) fail(c, "turn is seat %d, expected %s", r->turn + 1, v);
  if ((v = kv(w, n, "leading")) && goita_round_leading(r) != yes(v))
    fail(c, "leading is %d, expected %s", goita_round_leading(r), v);
}

static void reject_history(ctx *c, char **w, int n) {
  const char *v = kv(w, n, "token");
  if (!v || n < 2) {
    fail(c, "reject needs token=N and a history");
    return;
  }
  goita_round r;
  goita_error err;
  memset(&err, 0, sizeof err);
  if (goita_history_parse(&r, &c->rules, w[n - 1], &err) == GOITA_OK) {
    fail(c, "history was accepted, expected an error at token %s", v);
    return;
  }
  if (err.position + 1 != atoi(v)) fail(c, "error at token %d, expected %s (%s)", err.position + 1, v, err.message);
  const char *why = kv(w, n, "why");
  if (why && !strstr(err.message, why)) fail(c, "error \"%s\" does not mention \"%s\"", err.message, why);
}

/* Plays a whole round of a game from a history string: the deal, then its moves. */
static void game_round(ctx *c, const char *history) {
  if (!c->have_game) {
    fail(c, "round needs a game line first");
    return;
  }
  goita_round parsed;
  goita_error err;
  if (goita_history_parse(&parsed, &c->rules, history, &err) != GOITA_OK) {
    fail(c, "round history rejected: %s", err.message);
    return;
  }
  if (goita_round_over(&c->game.round) && goita_game_next_round(&c->game, &err) != GOITA_OK) {
    fail(c, "next round: %s", err.message);
    return;
  }
  if (goita_game_set_deal(&c->game, parsed.dealer, (const uint8_t(*)[GOITA_MAX_HAND])parsed.deal, &err) != GOITA_OK) {
    fail(c, "deal: %s", err.message);
    return;
  }
  for (int i = 0; i < parsed.nlog; i++)
    if (goita_game_apply(&c->game, parsed.log[i], &err) != GOITA_OK) {
      fail(c, "game move %d: %s", i + 1, err.message);
      return;
    }
}

static void check_game(ctx *c, const char *key, char **w, int n) {
  if (!c->have_game) {
    fail(c, "%s needs a game", key);
    return;
  }
  const goita_game *g = &c->game;
  if (strcmp(key, "scores") == 0) {
    const int sides = goita_rules_sides(&g->rules);
    if (n != sides) fail(c, "scores lists %d sides, the game has %d", n, sides);
    for (int i = 0; i < n && i < sides; i++)
      if (g->score[i] != atoi(w[i])) fail(c, "side %d has %d, expected %s", i + 1, g->score[i], w[i]);
  } else if (strcmp(key, "game_over") == 0) {
    if (n < 1 || g->over != yes(w[0])) fail(c, "game over is %d, expected %s", g->over, n ? w[0] : "?");
    const char *v = kv(w, n, "winner");
    if (v && g->winner_side + 1 != atoi(v)) fail(c, "winner side %d, expected %s", g->winner_side + 1, v);
  } else if (strcmp(key, "next_dealer") == 0) {
    if (n < 1 || goita_game_next_dealer(g) != seat_arg(w[0]))
      fail(c, "next dealer is seat %d, expected %s", goita_game_next_dealer(g) + 1, n ? w[0] : "?");
  }
}

static int draw_method(const char *name) {
  static const char *const names[] = {"random", "A1", "A2", "B", "C"};
  for (int i = 0; i < 5; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

static int run_draw(ctx *c, char **w, int n) {
  /* draw METHOD players=N marks m1 m2 ... */
  if (n < 3 || draw_method(w[0]) < 0 || !kv(w, n, "players") || strcmp(w[2], "marks") != 0) {
    fail(c, "draw needs METHOD players=N marks ...");
    return GOITA_EINVAL;
  }
  uint8_t marks[64];
  int nm = 0;
  for (int i = 3; i < n && nm < 64; i++) marks[nm++] = (uint8_t)atoi(w[i]);
  return goita_draw_scripted((goita_draw_method)draw_method(w[0]), atoi(kv(w, n, "players")), marks, nm, &c->draw);
}

static void solo_action(ctx *c, const char *key, char **w, int n, bool expect_ok) {
  goita_error err;
  int st = GOITA_EINVAL;
  if (strcmp(key, "turn") == 0 && n == 2)
    st = goita_solo_turn(&c->solo, atoi(w[0]), atoi(w[1]), &err);
  else if (strcmp(key, "choose") == 0 && n == 2)
    st = goita_solo_choose(&c->solo, atoi(w[0]), atoi(w[1]), &err);
  else if (strcmp(key, "remove") == 0 && n == 1)
    st = goita_solo_remove(&c->solo, atoi(w[0]), &err);
  else {
    fail(c, "unknown solo action %s", key);
    return;
  }
  if (expect_ok && st != GOITA_OK) fail(c, "solo %s rejected: %s", key, err.message);
  if (!expect_ok && st == GOITA_OK) fail(c, "solo %s was accepted, expected a rejection", key);
}

static void solo_expect(ctx *c, char **w, int n) {
  static const char *const phases[] = {"turn", "choose", "remove", "over"};
  const char *v;
  if ((v = kv(w, n, "phase")) && strcmp(v, phases[c->solo.phase]) != 0)
    fail(c, "solo phase is %s, expected %s", phases[c->solo.phase], v);
  if ((v = kv(w, n, "score")) && c->solo.score != atoi(v)) fail(c, "solo score is %d, expected %s", c->solo.score, v);
  if ((v = kv(w, n, "turns")) && c->solo.turns != atoi(v)) fail(c, "solo turns are %d, expected %s", c->solo.turns, v);
  if ((v = kv(w, n, "discard"))) {
    int total = 0;
    for (int k = 0; k < GOITA_KIND_SLOTS; k++) total += c->solo.discard[k];
    if (total != atoi(v)) fail(c, "solo discard holds %d, expected %s", total, v);
  }
  if ((v = kv(w, n, "face_down")) && goita_solo_face_down(&c->solo) != atoi(v))
    fail(c, "solo face-down pieces %d, expected %s", goita_solo_face_down(&c->solo), v);
}

static void end_case(ctx *c) {
  if (c->name[0] && !c->has_section) fail(c, "case has no section line citing docs/RULES.md");
}

static void run_line(ctx *c, char *line) {
  char *key = line;
  char *rest = line + strcspn(line, " \t");
  if (*rest) *rest++ = '\0';
  while (*rest == ' ' || *rest == '\t') rest++;
  if (strcmp(key, "case") == 0) {
    end_case(c);
    memset(c->name, 0, sizeof c->name);
    snprintf(c->name, sizeof c->name, "%s", rest);
    c->has_section = false;
    c->have_round = c->have_game = false;
    goita_rules_default(&c->rules);
    c->cases++;
    return;
  }
  if (!c->name[0]) {
    fail(c, "line outside a case");
    return;
  }
  if (strcmp(key, "section") == 0) {
    c->has_section = rest[0] != '\0';
    return;
  }
  if (strcmp(key, "rules") == 0) {
    goita_error err;
    if (goita_rules_parse(&c->rules, rest, &err) != GOITA_OK) fail(c, "rules: %s", err.message);
    return;
  }
  if (strcmp(key, "history") == 0) {
    goita_error err;
    c->have_game = false;
    c->have_round = goita_history_parse(&c->round, &c->rules, rest, &err) == GOITA_OK;
    if (!c->have_round) fail(c, "history rejected: %s", err.message);
    return;
  }
  if (strcmp(key, "round") == 0) {
    game_round(c, rest);
    return;
  }
  char *w[80];
  const int n = words(rest, w, 80);
  if (strcmp(key, "legal") == 0) {
    check_legal(c, w, n);
  } else if (strcmp(key, "allowed") == 0 || strcmp(key, "illegal") == 0) {
    goita_round *r = current_round(c);
    for (int i = 0; r && i < n; i++) {
      goita_move m;
      if (!parse_move(c, w[i], &m)) return;
      const int st = goita_round_check(r, m, NULL);
      if (key[0] == 'a' && st != GOITA_OK) fail(c, "%s should be allowed (%s)", w[i], goita_strerror(st));
      if (key[0] == 'i' && st == GOITA_OK) fail(c, "%s should be illegal", w[i]);
    }
  } else if (strcmp(key, "play") == 0) {
    apply_moves(c, w, n);
  } else if (strcmp(key, "result") == 0) {
    check_result(c, w, n);
  } else if (strcmp(key, "reject") == 0) {
    /* the history is the last word; the rest are key=value */
    reject_history(c, w, n);
  } else if (strcmp(key, "game") == 0) {
    goita_error err;
    c->have_game = goita_game_start(&c->game, &c->rules, 1, &err) == GOITA_OK;
    if (!c->have_game) fail(c, "game: %s", err.message);
  } else if (strcmp(key, "scores") == 0 || strcmp(key, "game_over") == 0 || strcmp(key, "next_dealer") == 0) {
    check_game(c, key, w, n);
  } else if (strcmp(key, "draw") == 0) {
    if (run_draw(c, w, n) != GOITA_OK) fail(c, "draw rejected");
  } else if (strcmp(key, "draw_reject") == 0) {
    if (run_draw(c, w, n) == GOITA_OK) fail(c, "draw accepted, expected a rejection");
  } else if (strcmp(key, "draw_dealer") == 0) {
    if (n < 1 || c->draw.dealer != seat_arg(w[0])) fail(c, "draw dealer is seat %d", c->draw.dealer + 1);
  } else if (strcmp(key, "draw_rounds") == 0) {
    if (n < 1 || c->draw.rounds != atoi(w[0])) fail(c, "draw took %d rounds", c->draw.rounds);
  } else if (strcmp(key, "draw_seats") == 0) {
    for (int p = 0; p < n && p < GOITA_MAX_SEATS; p++)
      if (c->draw.seat_of[p] != seat_arg(w[p])) fail(c, "player %d sits at seat %d, expected %s", p + 1, c->draw.seat_of[p] + 1, w[p]);
  } else if (strcmp(key, "solo") == 0) {
    uint8_t grid[GOITA_SOLO_CELLS];
    const char *digits = n ? w[0] : "";
    if (strlen(digits) != GOITA_SOLO_CELLS) {
      fail(c, "solo grid needs 32 digits");
      return;
    }
    for (int i = 0; i < GOITA_SOLO_CELLS; i++) grid[i] = (uint8_t)(digits[i] - '0');
    goita_error err;
    if (goita_solo_setup(&c->solo, grid, &err) != GOITA_OK) fail(c, "solo grid: %s", err.message);
  } else if (strcmp(key, "solo_reject_grid") == 0) {
    uint8_t grid[GOITA_SOLO_CELLS] = {0};
    for (int i = 0; n && i < GOITA_SOLO_CELLS && w[0][i]; i++) grid[i] = (uint8_t)(w[0][i] - '0');
    if (goita_solo_setup(&c->solo, grid, NULL) == GOITA_OK) fail(c, "solo grid accepted, expected a rejection");
  } else if (strncmp(key, "solo_reject_", 12) == 0) {
    solo_action(c, key + 12, w, n, false);
  } else if (strncmp(key, "solo_", 5) == 0 && strcmp(key, "solo_expect") != 0) {
    solo_action(c, key + 5, w, n, true);
  } else if (strcmp(key, "solo_expect") == 0) {
    solo_expect(c, w, n);
  } else {
    fail(c, "unknown scenario key \"%s\"", key);
  }
}

scenario_stats scenario_run_file(const char *path) {
  scenario_stats stats = {0, 0};
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    stats.failures = 1;
    return stats;
  }
  ctx *c = calloc(1, sizeof *c);
  c->path = path;
  goita_rules_default(&c->rules);
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    c->line++;
    line[strcspn(line, "\r\n")] = '\0';
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '\0' || *p == '#') continue;
    run_line(c, p);
  }
  end_case(c);
  fclose(f);
  stats.cases = c->cases;
  stats.failures = c->failures;
  free(c);
  return stats;
}

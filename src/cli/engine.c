/* goita engine: a computer player behind the line protocol of docs/PROTOCOL.md, for GUIs,
 * match runners and test harnesses. Every problem with a line is answered with an "error"
 * line; the engine never stops on bad input. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PROTOCOL_VERSION 1
#define LINE_MAX_BYTES 4096

typedef struct engine {
  goita_rules rules;
  goita_player *player;
  goita_solver *solver; /* made at the first solve */
  bool have_position;
  char text[LINE_MAX_BYTES + 1]; /* the position as given (and extended by moves) */
  goita_view view;     /* the position as the seat to move sees it */
  bool full;           /* the position was given with every piece in the open */
  goita_round round;   /* that full position */
  int16_t score[GOITA_MAX_SEATS];
} engine;

/* The length of the valid UTF-8 character at c (n bytes left), or 0 for a byte that does not
 * start one (a stray continuation, an overlong form, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_length(const unsigned char *c, size_t n) {
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
  if (c[0] < 0x80) return 1;
  if (c[0] >= 0xC2 && c[0] <= 0xDF) len = 2;
  else if (c[0] >= 0xE0 && c[0] <= 0xEF) {
    len = 3;
    if (c[0] == 0xE0) lo = 0xA0;
    if (c[0] == 0xED) hi = 0x9F;
  } else if (c[0] >= 0xF0 && c[0] <= 0xF4) {
    len = 4;
    if (c[0] == 0xF0) lo = 0x90;
    if (c[0] == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (n < len || c[1] < lo || c[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if (c[i] < 0x80 || c[i] > 0xBF) return 0;
  return len;
}

/* Writes one reply line. The replies quote what they were sent, so a control character (ESC,
 * CR, ...), a backslash or a byte that is not UTF-8 is written as \xNN (a backslash as \\):
 * a reply is always one line of valid UTF-8 that cannot move a terminal's cursor. */
static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...) {
  char buf[2 * LINE_MAX_BYTES], *text = buf;
  va_list ap;
  va_start(ap, fmt);
  const int need = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (need >= (int)sizeof buf && (text = malloc((size_t)need + 1)) != NULL) { /* never cut a reply */
    va_start(ap, fmt);
    vsnprintf(text, (size_t)need + 1, fmt, ap);
    va_end(ap);
  }
  if (!text) text = buf;
  const unsigned char *c = (const unsigned char *)text;
  for (size_t n = strlen(text); n > 0;) {
    const size_t len = utf8_length(c, n);
    if (*c == '\\')
      fputs("\\\\", stdout);
    else if (len == 0 || *c < 0x20 || *c == 0x7F)
      printf("\\x%02X", *c);
    else
      fwrite(c, 1, len, stdout);
    const size_t step = len ? len : 1;
    c += step;
    n -= step;
  }
  if (text != buf) free(text);
  putchar('\n');
  fflush(stdout);
}

/* Reads a history string: in full (the view of the seat to move is taken), or as one seat
 * sees it (x for hidden pieces). On error the position is unchanged and err says why. */
static bool read_position(engine *e, const char *text, goita_error *err) {
  if (strlen(text) > LINE_MAX_BYTES) return goita_error_set(err, GOITA_EPARSE, -1, "the position is too long"), false;
  if (!strchr(text, 'x')) {
    goita_round r;
    if (goita_history_parse(&r, &e->rules, text, err) != GOITA_OK) return false;
    e->round = r;
    e->full = true;
    goita_round_view(&r, goita_round_over(&r) ? GOITA_OBSERVER : r.turn, &e->view);
  } else {
    goita_view v;
    if (goita_history_parse_view(&v, &e->rules, text, GOITA_VIEWER_INFER, err) != GOITA_OK) return false;
    /* More than one hand may be known in full (a 5-pawn hand whose other pieces were all
     * shown); the string is then read as the seat to move sees it, when it can be. */
    goita_view mover;
    if (v.seat != v.turn && v.phase != GOITA_PHASE_OVER &&
        goita_history_parse_view(&mover, &e->rules, text, v.turn, NULL) == GOITA_OK)
      v = mover;
    e->view = v;
    e->full = false;
  }
  memcpy(e->view.score, e->score, sizeof e->score);
  snprintf(e->text, sizeof e->text, "%s", text);
  e->have_position = true;
  return true;
}

static void set_position(engine *e, const char *text) {
  goita_error err;
  e->have_position = false;
  if (!read_position(e, text, &err)) reply("error position: %s", err.message);
}

/* newround [seed S] [dealer D]: deals a round and takes it as the position. */
static void new_round(engine *e, char *args) {
  uint64_t seed = 0;
  long dealer = 1;
  for (char *word = strtok(args, " "); word; word = strtok(NULL, " ")) {
    char *value = strtok(NULL, " "), *end = NULL;
    if (!value || (strcmp(word, "seed") != 0 && strcmp(word, "dealer") != 0)) {
      reply("error newround: unknown argument \"%s\" (newround [seed S] [dealer D])", word);
      return;
    }
    const unsigned long long v = strtoull(value, &end, 10);
    if (*end || value[0] == '-' || (word[0] == 'd' && (v < 1 || v > (unsigned long long)e->rules.players))) {
      reply("error newround: %s \"%s\" is not %s", word, value,
            word[0] == 'd' ? "a seat of the rules' players" : "a whole number");
      return;
    }
    if (word[0] == 's') seed = v;
    else dealer = (long)v;
  }
  goita_round r;
  goita_round_deal(&r, &e->rules, (int)dealer - 1, seed);
  char text[512];
  goita_history_format(&r, text, sizeof text);
  goita_error err;
  if (!read_position(e, text, &err)) {
    reply("error newround: %s", err.message);
    return;
  }
  reply("position %s", text);
}

/* moves TOKEN...: plays moves on from the position. */
static void play_moves(engine *e, char *args) {
  if (!e->have_position) {
    reply("error moves: no position (send: position HISTORY or newround)");
    return;
  }
  char text[LINE_MAX_BYTES + 1];
  size_t len = (size_t)snprintf(text, sizeof text, "%s", e->text);
  for (char *word = strtok(args, " "); word; word = strtok(NULL, " "))
    len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, ",%s", word);
  goita_error err;
  if (len >= sizeof text) {
    reply("error moves: the position would be too long");
  } else if (!read_position(e, text, &err)) {
    reply("error moves: %s", err.message);
  }
}

static void list_legal(const engine *e) {
  if (!e->have_position) {
    reply("error legal: no position (send: position HISTORY or newround)");
    return;
  }
  goita_move moves[GOITA_MAX_LEGAL];
  int n;
  if (e->full) {
    n = goita_round_legal_moves(&e->round, moves);
  } else if (e->view.seat == e->view.turn) {
    n = goita_view_legal_moves(&e->view, moves);
  } else {
    reply("error legal: the position is seat %d's view, and seat %d is to move", e->view.seat + 1,
          e->view.turn + 1);
    return;
  }
  char line[LINE_MAX_BYTES] = "legal";
  size_t len = strlen(line);
  for (int i = 0; i < n; i++) {
    char token[8];
    goita_move_format(moves[i], token, sizeof token);
    len += (size_t)snprintf(line + len, sizeof line - len, " %s", token);
  }
  reply("%s", line);
}

/* Reads "go [seed S]" and answers with info lines and "bestmove TOKEN". */
/* Reads "name value" pairs of a command into the values of the names it knows; false after
 * an error reply. */
static bool read_numbers(const char *cmd, char *args, const char *const *names, uint64_t *values) {
  for (char *word = strtok(args, " "); word; word = strtok(NULL, " ")) {
    char *value = strtok(NULL, " "), *end = NULL;
    int k = 0;
    while (names[k] && strcmp(names[k], word) != 0) k++;
    if (!names[k] || !value) {
      reply("error %s: unknown argument \"%s\" (arguments: %s%s%s%s%s)", cmd, word, names[0], names[1] ? ", " : "",
            names[1] ? names[1] : "", names[2] ? ", " : "", names[2] ? names[2] : "");
      return false;
    }
    values[k] = strtoull(value, &end, 10);
    if (*end || value[0] == '-') {
      reply("error %s: %s \"%s\" is not a whole number", cmd, word, value);
      return false;
    }
  }
  return true;
}

/* go [seed S] [ms T]: the player's move for the seat to move, under a time budget if given. */
static void go(engine *e, char *args) {
  static const char *const names[] = {"seed", "ms", NULL};
  uint64_t values[2] = {0, 0};
  if (!read_numbers("go", args, names, values)) return;
  if (!e->have_position) {
    reply("error go: no position (send: position HISTORY or newround)");
    return;
  }
  if (e->view.phase == GOITA_PHASE_OVER) {
    reply("error go: the round is over");
    return;
  }
  if (e->view.seat != e->view.turn) {
    reply("error go: the position is seat %d's view, and seat %d is to move", e->view.seat + 1, e->view.turn + 1);
    return;
  }
  /* A time budget applies to the levels that search; the others answer at once anyway. */
  char before[32] = "", budget[32];
  const char *ms = strstr(goita_player_spec(e->player), "ms=");
  if (values[1] && ms) {
    snprintf(before, sizeof before, "%.*s", (int)strcspn(ms, ","), ms);
    snprintf(budget, sizeof budget, "ms=%llu", (unsigned long long)(values[1] > 600000 ? 600000 : values[1]));
    goita_player_set(e->player, budget, NULL);
  }
  goita_player_seed(e->player, values[0]);
  goita_move move;
  goita_player_info info;
  const int st = goita_player_choose(e->player, &e->view, &move, &info);
  if (before[0]) goita_player_set(e->player, before, NULL);
  if (st != GOITA_OK) {
    reply("error go: %s", goita_strerror(st));
    return;
  }
  char token[8];
  if (info.has_values)
    for (int i = 0; i < info.nmoves; i++) {
      goita_move_format(info.moves[i], token, sizeof token);
      if (info.deals[i])
        reply("info move %s value %.2f deals %d agree %d", token, info.value[i], info.deals[i], info.agree[i]);
      else
        reply("info move %s value %.2f", token, info.value[i]);
    }
  reply("info samples %d nodes %llu ms %.1f", info.samples, (unsigned long long)info.nodes, info.ms);
  goita_move_format(move, token, sizeof token);
  reply("bestmove %s", token);
}

static void reply_value(const char *what, goita_solve_bounds b) {
  if (b.lower == b.upper)
    reply("%s %d", what, b.lower);
  else
    reply("%s lower %d upper %d", what, b.lower, b.upper);
}

/* solve [ms T] [nodes N]: the exact value of a full position and of each legal move. */
static void solve(engine *e, char *args) {
  static const char *const names[] = {"ms", "nodes", NULL};
  uint64_t values[2] = {0, 0};
  if (!read_numbers("solve", args, names, values)) return;
  if (!e->have_position || !e->full) {
    reply("error solve: the solver needs a full position (every hand known; send: position HISTORY)");
    return;
  }
  if (!e->solver && goita_solver_new(&e->solver, (size_t)64 << 20) != GOITA_OK) {
    reply("error solve: no memory for the solver's table");
    return;
  }
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  o.max_ms = (double)values[0];
  o.max_nodes = values[1];
  goita_solve_result res;
  goita_solve(e->solver, &e->round, &o, &res);
  for (int i = 0; i < res.nmoves; i++) {
    char what[32];
    goita_move_format(res.moves[i], what + 10, sizeof what - 10);
    memcpy(what, "info move ", 10);
    char line[48];
    snprintf(line, sizeof line, "%s value", what);
    reply_value(line, res.move_value[i]);
  }
  reply("info nodes %llu ms %.1f complete %d", (unsigned long long)res.nodes, res.ms, res.complete);
  reply_value("value", res.value);
}

/* view [SEAT|observer]: the position as one seat (by default the one to move) sees it. */
static void view(engine *e, char *args) {
  if (!e->have_position) {
    reply("error view: no position (send: position HISTORY or newround)");
    return;
  }
  int seat = e->full ? e->view.turn : e->view.seat;
  if (strcmp(args, "observer") == 0) {
    seat = GOITA_OBSERVER;
  } else if (args[0]) {
    char *end = NULL;
    const long v = strtol(args, &end, 10);
    if (*end || v < 1 || v > e->rules.players) {
      reply("error view: \"%s\" is not a seat (1-%d) or observer", args, e->rules.players);
      return;
    }
    seat = (int)v - 1;
  }
  goita_view v;
  if (e->full) {
    goita_round_view(&e->round, seat, &v);
  } else if (seat == e->view.seat) {
    v = e->view;
  } else {
    reply("error view: the position is seat %d's view; other views need the full position", e->view.seat + 1);
    return;
  }
  char text[512];
  goita_history_format_view(&v, text, sizeof text);
  reply("view %s", text);
}

static void set_score(engine *e, char *args) {
  int16_t score[GOITA_MAX_SEATS] = {0};
  int n = 0;
  for (char *word = strtok(args, " "); word; word = strtok(NULL, " ")) {
    char *end = NULL;
    const long v = strtol(word, &end, 10);
    if (*end || v < -100000 || v > 100000 || n == GOITA_MAX_SEATS) {
      reply("error score: \"%s\" is not a side's score (score S1 S2 ...)", word);
      return;
    }
    score[n++] = (int16_t)v;
  }
  memcpy(e->score, score, sizeof score);
  memcpy(e->view.score, score, sizeof score);
}

/* Runs one command line; returns false on quit. */
static bool command(engine *e, char *line) {
  char *args = strchr(line, ' ');
  if (args) *args++ = '\0';
  else args = line + strlen(line);
  if (strcmp(line, "goita") == 0) {
    reply("id name goita %s (%s)", goita_version(), goita_player_spec(e->player));
    reply("id author the goita project");
    reply("goitaok %d", PROTOCOL_VERSION);
  } else if (strcmp(line, "isready") == 0) {
    reply("readyok");
  } else if (strcmp(line, "rules") == 0) {
    goita_rules rules;
    goita_error err;
    if (goita_rules_parse(&rules, args, &err) != GOITA_OK) {
      reply("error rules: %s", err.message);
    } else {
      e->rules = rules;
      e->have_position = false;
    }
  } else if (strcmp(line, "position") == 0) {
    set_position(e, args);
  } else if (strcmp(line, "score") == 0) {
    set_score(e, args);
  } else if (strcmp(line, "setoption") == 0) {
    goita_error err;
    if (goita_player_set(e->player, args, &err) != GOITA_OK) reply("error setoption: %s", err.message);
  } else if (strcmp(line, "newround") == 0) {
    new_round(e, args);
  } else if (strcmp(line, "moves") == 0) {
    play_moves(e, args);
  } else if (strcmp(line, "legal") == 0) {
    list_legal(e);
  } else if (strcmp(line, "go") == 0) {
    go(e, args);
  } else if (strcmp(line, "solve") == 0) {
    solve(e, args);
  } else if (strcmp(line, "view") == 0) {
    view(e, args);
  } else if (strcmp(line, "quit") == 0) {
    return false;
  } else if (line[0] != '\0') {
    reply("error unknown command \"%.40s\" (goita, isready, setoption, rules, score, position, newround, moves, "
          "legal, go, solve, view, quit)", line);
  }
  return true;
}

/* What read_line found. */
enum { LINE_OK, LINE_END, LINE_LONG, LINE_NUL };

/* Reads one line of standard input into line (size bytes: LINE_MAX_BYTES and its end), without
 * its LF and a CR before it. A line is read to its LF whatever it holds, so that a NUL byte or
 * an overlong line costs only that line, never the next command. Returns LINE_OK, LINE_LONG,
 * LINE_NUL, or LINE_END at the end of input with nothing read. */
static int read_line(char *line, size_t size) {
  size_t len = 0;
  bool nul = false, long_line = false;
  int ch;
  while ((ch = getchar()) != EOF && ch != '\n') {
    if (ch == '\0') nul = true;
    if (len + 1 < size)
      line[len++] = (char)ch;
    else
      long_line = true;
  }
  if (ch == EOF && len == 0 && !nul && !long_line) return LINE_END;
  if (len > 0 && line[len - 1] == '\r') len--;
  line[len] = '\0';
  return long_line ? LINE_LONG : nul ? LINE_NUL : LINE_OK;
}

int cmd_engine(int argc, char **argv) {
  const char *spec = "sampler";
  const cli_option options[] = {
      {.name = "--player", .kind = CLI_TEXT, .value = "SPEC", .target = &spec,
       .help = "the level that chooses the moves, with parameters (docs/PLAYERS.md); setoption changes them"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "engine",
      .about = "A computer player behind the line protocol of docs/PROTOCOL.md: commands on standard input,\n"
               "replies on standard output, for GUIs, match runners (goita match engine:COMMAND) and test\n"
               "harnesses. Every bad line is answered with an \"error\" line; quit or the end of input ends it.\n",
      .examples = "goita engine --player sampler:samples=64\n"
                  "printf 'goita\\nnewround seed 5\\ngo\\nquit\\n' | goita engine --player rules",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  engine e;
  memset(&e, 0, sizeof e);
  goita_rules_default(&e.rules);
  goita_error err;
  if (goita_player_new(&e.player, spec, &err) != GOITA_OK) {
    fprintf(stderr, "goita engine: --player \"%s\": %s\n", spec, err.message);
    return 2;
  }
  char line[LINE_MAX_BYTES + 1];
  for (;;) {
    const int got = read_line(line, sizeof line);
    if (got == LINE_END) break;
    if (got == LINE_LONG) {
      reply("error line longer than %d bytes", LINE_MAX_BYTES);
      continue;
    }
    if (got == LINE_NUL) {
      reply("error the line has a NUL byte");
      continue;
    }
    if (!command(&e, line)) break;
  }
  goita_player_free(e.player);
  goita_solver_free(e.solver);
  return 0;
}

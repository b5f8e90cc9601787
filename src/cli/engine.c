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
  bool have_position;
  goita_view view;     /* the position as the seat to move sees it */
  bool full;           /* the position was given with every piece in the open */
  goita_round round;   /* that full position */
  int16_t score[GOITA_MAX_SEATS];
} engine;

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

/* Reads a history string: in full (the view of the seat to move is taken), or as one seat
 * sees it (x for hidden pieces). */
static void set_position(engine *e, const char *text) {
  goita_error err;
  e->have_position = false;
  if (!strchr(text, 'x')) {
    goita_round r;
    if (goita_history_parse(&r, &e->rules, text, &err) != GOITA_OK) {
      reply("error position: %s", err.message);
      return;
    }
    e->round = r;
    e->full = true;
    goita_round_view(&r, goita_round_over(&r) ? GOITA_OBSERVER : r.turn, &e->view);
  } else {
    goita_view v;
    if (goita_history_parse_view(&v, &e->rules, text, GOITA_VIEWER_INFER, &err) != GOITA_OK) {
      reply("error position: %s", err.message);
      return;
    }
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
  e->have_position = true;
}

static void list_legal(const engine *e) {
  if (!e->have_position) {
    reply("error legal: no position (send: position HISTORY)");
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
static void go(engine *e, char *args) {
  if (!e->have_position) {
    reply("error go: no position (send: position HISTORY)");
    return;
  }
  uint64_t seed = 0;
  for (char *word = strtok(args, " "); word; word = strtok(NULL, " ")) {
    char *value = strtok(NULL, " ");
    char *end = NULL;
    if (strcmp(word, "seed") != 0 || !value) {
      reply("error go: unknown argument \"%s\" (go [seed S])", word);
      return;
    }
    seed = strtoull(value, &end, 10);
    if (*end) {
      reply("error go: seed \"%s\" is not a number", value);
      return;
    }
  }
  if (e->view.phase == GOITA_PHASE_OVER) {
    reply("error go: the round is over");
    return;
  }
  if (e->view.seat != e->view.turn) {
    reply("error go: the position is seat %d's view, and seat %d is to move", e->view.seat + 1, e->view.turn + 1);
    return;
  }
  goita_player_seed(e->player, seed);
  goita_move move;
  goita_player_info info;
  const int st = goita_player_choose(e->player, &e->view, &move, &info);
  if (st != GOITA_OK) {
    reply("error go: %s", goita_strerror(st));
    return;
  }
  char token[8];
  if (info.has_values)
    for (int i = 0; i < info.nmoves; i++) {
      goita_move_format(info.moves[i], token, sizeof token);
      reply("info move %s value %.2f", token, info.value[i]);
    }
  reply("info samples %d nodes %llu ms %.1f", info.samples, (unsigned long long)info.nodes, info.ms);
  goita_move_format(move, token, sizeof token);
  reply("bestmove %s", token);
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
  } else if (strcmp(line, "legal") == 0) {
    list_legal(e);
  } else if (strcmp(line, "go") == 0) {
    go(e, args);
  } else if (strcmp(line, "quit") == 0) {
    return false;
  } else if (line[0] != '\0') {
    reply("error unknown command \"%.40s\" (goita, isready, rules, position, score, legal, go, quit)", line);
  }
  return true;
}

int cmd_engine(int argc, char **argv) {
  const char *spec = "sampler";
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--player") == 0) {
      if (!(spec = cli_option_value(argc, argv, &i))) return 2;
    } else {
      fprintf(stderr, "goita engine: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  engine e;
  memset(&e, 0, sizeof e);
  goita_rules_default(&e.rules);
  goita_error err;
  if (goita_player_new(&e.player, spec, &err) != GOITA_OK) {
    fprintf(stderr, "goita engine: --player \"%s\": %s\n", spec, err.message);
    return 2;
  }
  char line[LINE_MAX_BYTES + 2];
  while (fgets(line, sizeof line, stdin)) {
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] != '\n' && !feof(stdin)) {
      /* an overlong line: skip the rest of it */
      int c;
      while ((c = getchar()) != EOF && c != '\n') continue;
      reply("error line longer than %d bytes", LINE_MAX_BYTES);
      continue;
    }
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    if (!command(&e, line)) break;
  }
  goita_player_free(e.player);
  return 0;
}

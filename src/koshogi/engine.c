/* koshogi engine: the USI protocol (docs/KOSHOGI.md, "The engine"). The main thread reads
 * commands; a search runs on a thread of its own, so that stop, ponderhit, isready and quit
 * are answered while it thinks. Every malformed command is answered with
 * "info string error: ..." and otherwise ignored. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "cli_board.h"
#include "engine.h"
#include "options.h"

#define DEFAULT_HASH_MIB 16
#define DEFAULT_MS 1000 /* a "go" that names no limit at all */
#define COMMAND_LINE_MAX 65535 /* the longest command line read (a game of about 8,000 moves) */

typedef struct engine {
  ks_game game;
  uint8_t burn; /* the rule option, set by "setoption name Burn value ..." */
  ks_searcher *searcher;
  /* the search thread; `running` and the job are the main thread's */
  thrd_t thread;
  bool running;
  atomic_bool finished; /* the thread has written its bestmove */
  mtx_t lock;
  cnd_t wake;
  bool hold;           /* under lock: go infinite or ponder, bestmove waits for stop or ponderhit */
  bool pondering;      /* main thread: a go ponder not yet hit */
  int ponder_soft, ponder_hard; /* the budget a ponderhit starts */
  ks_position pos;     /* the job: a copy of the position and of the game's keys */
  uint64_t *history;
  int nhistory;
  ks_limits limits;
  char *last_position; /* the words of the last position command that set the game, or NULL */
} engine;

/* Writes one reply at once (the two threads both write), whole however long it is: a reply cut
 * short would lose its newline and run into the next one. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  char small[1024];
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  const int len = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  char *line = len >= 0 && (size_t)len >= sizeof small ? malloc((size_t)len + 1) : NULL;
  if (line) vsnprintf(line, (size_t)len + 1, fmt, again);
  va_end(again);
  if (len >= 0 && (size_t)len >= sizeof small && !line) { /* out of memory: keep the line framing */
    fputs("info string error: out of memory writing a reply\n", stdout);
  } else if (len >= 0) {
    fwrite(line ? line : small, 1, (size_t)len, stdout);
  }
  free(line);
  fflush(stdout);
}

/* Appends the moves of a line, played from pos, to buf. */
static void append_line(const ks_position *pos, const ks_move *moves, int n, char *buf, size_t size) {
  ks_position at = *pos;
  size_t len = strlen(buf);
  for (int i = 0; i < n && len + 70 < size; i++) {
    char text[64];
    if (ks_move_format(&at, &moves[i], text, sizeof text) < 0) break;
    len += (size_t)snprintf(buf + len, size - len, " %s", text);
    ks_play(&at, &moves[i]);
  }
}

/* The info line of an iteration: depth, seldepth, score (cp or mate), nodes, nps, time, pv. */
static void print_info(void *ctx, const ks_search_info *info) {
  const engine *e = ctx;
  char line[4096];
  const long nps = info->ms > 0 ? info->nodes * 1000 / info->ms : info->nodes * 1000;
  int len = snprintf(line, sizeof line, "info depth %d seldepth %d score ", info->depth, info->seldepth);
  len += info->mate ? snprintf(line + len, sizeof line - (size_t)len, "mate %d", info->mate)
                    : snprintf(line + len, sizeof line - (size_t)len, "cp %d", info->score);
  snprintf(line + len, sizeof line - (size_t)len, " nodes %ld nps %ld time %d pv", info->nodes, nps, info->ms);
  append_line(&e->pos, info->pv, info->npv, line, sizeof line);
  say("%s\n", line);
}

/* The search thread: searches the job, waits while the search must not end (go infinite, or
 * ponder not yet hit), then answers bestmove, with the expected reply to ponder on. */
static int think(void *arg) {
  engine *e = arg;
  ks_move best;
  ks_search_info info;
  const int st = ks_searcher_run(e->searcher, &e->pos, e->history, e->nhistory, &e->limits, print_info, e, &best, &info);
  mtx_lock(&e->lock);
  while (e->hold) cnd_wait(&e->wake, &e->lock);
  mtx_unlock(&e->lock);
  /* finished before the bestmove is written: a GUI's next go, sent when it reads bestmove,
   * finds the thread done and joins it */
  atomic_store(&e->finished, true);
  if (st != 0) {
    say("bestmove resign\n");
  } else {
    print_info(e, &info);
    char move[64], ponder[80] = "";
    ks_move_format(&e->pos, &best, move, sizeof move);
    if (info.npv > 1) {
      ks_position next = e->pos;
      ks_play(&next, &best);
      char text[64];
      if (ks_move_format(&next, &info.pv[1], text, sizeof text) > 0) snprintf(ponder, sizeof ponder, " ponder %s", text);
    }
    say("bestmove %s%s\n", move, ponder);
  }
  return 0;
}

/* Ends the search, if one runs, and waits for its bestmove. */
static void stop_search(engine *e) {
  if (!e->running) return;
  mtx_lock(&e->lock);
  e->hold = false;
  cnd_signal(&e->wake);
  mtx_unlock(&e->lock);
  ks_searcher_set_stop(e->searcher, true);
  thrd_join(e->thread, NULL);
  e->running = false;
  e->pondering = false;
}

/* Joins a search thread that has already answered. */
static void reap(engine *e) {
  if (e->running && atomic_load(&e->finished)) stop_search(e);
}

/* Reads a whole number from lo to hi for "go NAME VALUE"; says what is wrong and returns false. */
static bool read_number(const char *name, const char *text, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  const long long v = text ? strtoll(text, &end, 10) : 0;
  if (!text || end == text || *end || errno || v < lo || v > hi) {
    say("info string error: go %s \"%s\": expected a whole number from %ld to %ld\n", name, text ? text : "", lo, hi);
    return false;
  }
  *out = (long)v;
  return true;
}

typedef struct go_request {
  engine_clock clock;
  ks_limits limits;
  bool infinite, ponder;
} go_request;

/* Reads the words after "go"; says what is wrong and returns false. */
static bool parse_go(char **save, go_request *go) {
  memset(go, 0, sizeof *go);
  go->clock = (engine_clock){{-1, -1}, {-1, -1}, -1, -1};
  static const char *const times[] = {"btime", "wtime", "binc", "winc", "byoyomi", "movetime"};
  long *const slots[] = {&go->clock.time[KS_BLACK], &go->clock.time[KS_WHITE], &go->clock.inc[KS_BLACK],
                         &go->clock.inc[KS_WHITE], &go->clock.byoyomi, &go->clock.movetime};
  char *word;
  while ((word = strtok_r(NULL, " \t", save))) {
    long v;
    bool known = false;
    for (size_t i = 0; i < sizeof times / sizeof times[0] && !known; i++)
      if (strcmp(word, times[i]) == 0) {
        if (!read_number(word, strtok_r(NULL, " \t", save), 0, 1000000000L, slots[i])) return false;
        known = true;
      }
    if (known) continue;
    if (strcmp(word, "infinite") == 0) go->infinite = true;
    else if (strcmp(word, "ponder") == 0) go->ponder = true;
    else if (strcmp(word, "depth") == 0) {
      if (!read_number(word, strtok_r(NULL, " \t", save), 1, 64, &v)) return false;
      go->limits.depth = (int)v;
    } else if (strcmp(word, "nodes") == 0) {
      if (!read_number(word, strtok_r(NULL, " \t", save), 1, 1000000000000L, &v)) return false;
      go->limits.nodes = v;
    } else {
      say("info string error: go: unknown word \"%s\" (known: btime wtime binc winc byoyomi movetime depth nodes "
          "infinite ponder)\n", word);
      return false;
    }
  }
  return true;
}

/* go ...: starts the search thread on the current position under the request's limits. */
static void cmd_go(engine *e, char **save) {
  go_request go;
  if (!parse_go(save, &go)) return;
  reap(e);
  if (e->running) {
    say("info string error: go: a search is running (send stop first)\n");
    return;
  }
  if (e->game.result != KS_ONGOING) {
    say("info string error: go: the game is over (%s)\n", result_name(&e->game));
    say("bestmove resign\n");
    return;
  }
  int soft = -1, hard = -1;
  const bool timed = engine_budget(&go.clock, e->game.pos.to_move, &soft, &hard);
  if (!timed && !go.limits.depth && !go.limits.nodes) soft = hard = DEFAULT_MS;
  e->pondering = go.ponder;
  e->ponder_soft = soft, e->ponder_hard = hard;
  if (go.infinite || go.ponder) soft = hard = -1;
  e->hold = go.infinite || go.ponder;
  e->pos = e->game.pos;
  free(e->history);
  e->nhistory = e->game.nplies + 1;
  e->history = malloc((size_t)e->nhistory * sizeof *e->history);
  if (!e->history) {
    say("info string error: go: out of memory\n");
    return;
  }
  memcpy(e->history, e->game.keys, (size_t)e->nhistory * sizeof *e->history);
  e->limits = go.limits;
  ks_searcher_set_stop(e->searcher, false);
  ks_searcher_set_deadline(e->searcher, soft, hard);
  atomic_store(&e->finished, false);
  if (thrd_create(&e->thread, think, e) != thrd_success) {
    say("info string error: go: cannot start the search thread\n");
    return;
  }
  e->running = true;
}

/* ponderhit: the move pondered on was played; the search goes on under the go's clock. */
static void cmd_ponderhit(engine *e) {
  if (!e->running || !e->pondering) {
    say("info string error: ponderhit: not pondering\n");
    return;
  }
  e->pondering = false;
  ks_searcher_set_deadline(e->searcher, e->ponder_soft, e->ponder_hard);
  mtx_lock(&e->lock);
  e->hold = false;
  cnd_signal(&e->wake);
  mtx_unlock(&e->lock);
}

/* Builds a game from a position in the text position format. That format is the board
 * command's (docs/KOSHOGI.md); this is where "position sfen" reads it. */
static int game_from_sfen(const char *text, ks_game *game, char *err, size_t size) {
  ks_position pos;
  int number = 1;
  char why[256];
  if (ks_position_parse(text, &pos, &number, why, sizeof why) != 0) {
    snprintf(err, size, "position sfen: %s", why);
    return -1;
  }
  ks_game_free(game);
  if (ks_game_init_at(game, &pos, number) != 0) {
    snprintf(err, size, "position sfen: out of memory");
    return -1;
  }
  return 0;
}

/* Plays "moves M1 M2 ..." (the words after save) on game; says which move is wrong and
 * returns false. */
static bool play_moves(ks_game *game, char **save) {
  char *m;
  for (int number = game->nplies + 1; (m = strtok_r(NULL, " \t", save)); number++) { /* plies from the position */
    ks_move move;
    char err[256];
    if (game->result != KS_ONGOING) {
      say("info string error: position: move %d \"%s\": the game is over\n", number, m);
      return false;
    }
    if (ks_move_parse(&game->pos, m, &move, err, sizeof err) != 0) {
      say("info string error: position: move %d %s\n", number, err);
      return false;
    }
    if (ks_game_play(game, &move) != 0) {
      say("info string error: position: out of memory\n");
      return false;
    }
  }
  return true;
}

/* A copy of a game, its arrays included. Returns 0, -1 when out of memory. */
static int game_copy(ks_game *dst, const ks_game *src) {
  *dst = *src;
  dst->moves = malloc((size_t)src->capacity * sizeof *dst->moves);
  dst->keys = malloc((size_t)(src->capacity + 1) * sizeof *dst->keys);
  dst->checking = malloc((size_t)src->capacity);
  if (!dst->moves || !dst->keys || !dst->checking) {
    ks_game_free(dst);
    return -1;
  }
  memcpy(dst->moves, src->moves, (size_t)src->capacity * sizeof *dst->moves);
  memcpy(dst->keys, src->keys, (size_t)(src->capacity + 1) * sizeof *dst->keys);
  memcpy(dst->checking, src->checking, (size_t)src->capacity);
  return 0;
}

/* Reads the position and its moves from the words after save into next (a new game). */
static bool read_position(const engine *e, char **save, ks_game *next) {
  if (ks_game_init(next) != 0) return false;
  next->pos.burn = e->burn;
  const char *what = strtok_r(NULL, " \t", save);
  char *word = NULL;
  if (what && strcmp(what, "startpos") == 0) {
    word = strtok_r(NULL, " \t", save);
  } else if (what && strcmp(what, "sfen") == 0) {
    char text[4096] = "";
    while ((word = strtok_r(NULL, " \t", save)) && strcmp(word, "moves") != 0)
      snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", text[0] ? " " : "", word);
    char err[320]; /* "position sfen: " and the parser's reason, whole */
    if (game_from_sfen(text, next, err, sizeof err) != 0) {
      say("info string error: %s\n", err);
      return false;
    }
  } else {
    say("info string error: position: expected startpos or sfen, got \"%s\"\n", what ? what : "");
    return false;
  }
  if (word && strcmp(word, "moves") != 0) {
    say("info string error: position: expected \"moves\" after the position, got \"%s\"\n", word);
    return false;
  }
  return !word || play_moves(next, save);
}

/* A GUI sends the whole game with every move: when the words extend the last position
 * command's, only the new moves are read (into next, a copy of the game). Returns false when
 * they do not extend it; *ok says whether the new moves were legal. */
static bool extend_position(const engine *e, const char *args, ks_game *next, bool *ok) {
  const char *last = e->last_position;
  const size_t len = last ? strlen(last) : 0;
  if (!last || strncmp(args, last, len) != 0 || args[len] != ' ') return false;
  char rest[COMMAND_LINE_MAX + 8];
  /* the new words, after a "moves" of their own when the last command had one */
  snprintf(rest, sizeof rest, "%s%s", strstr(last, " moves") ? "moves " : "", args + len + 1);
  char *save = NULL;
  const char *first = strtok_r(rest, " \t", &save);
  if (!first || strcmp(first, "moves") != 0) return false;
  if (game_copy(next, &e->game) != 0) return false;
  *ok = play_moves(next, &save);
  return true;
}

/* position startpos [moves ...] | position sfen TEXT [moves ...]: the position stays as it was
 * when any part is wrong. args is the line after "position", save its tokenizer. */
static void cmd_position(engine *e, const char *args, char **save) {
  ks_game next;
  bool ok = false;
  if (!extend_position(e, args, &next, &ok)) ok = read_position(e, save, &next);
  char *words = ok ? strdup(args) : NULL;
  if (!ok || !words) {
    ks_game_free(&next);
    free(words);
    return;
  }
  ks_game_free(&e->game);
  e->game = next;
  free(e->last_position);
  e->last_position = words;
}

/* setoption name NAME value VALUE: USI_Hash (MiB), USI_Ponder (accepted: pondering is the
 * GUI's choice), Burn (the rule option). */
static void cmd_setoption(engine *e, char **save) {
  char *name_kw = strtok_r(NULL, " \t", save), *name = strtok_r(NULL, " \t", save);
  char *value_kw = strtok_r(NULL, " \t", save), *value = strtok_r(NULL, " \t", save);
  if (!name_kw || strcmp(name_kw, "name") != 0 || !name || !value_kw || strcmp(value_kw, "value") != 0 || !value) {
    say("info string error: setoption: expected \"setoption name NAME value VALUE\"\n");
    return;
  }
  if (strcmp(name, "Burn") == 0) {
    if (strcmp(value, "both") != 0 && strcmp(value, "enemy") != 0) {
      say("info string error: setoption Burn \"%s\": expected both or enemy\n", value);
      return;
    }
    e->burn = strcmp(value, "enemy") == 0 ? KS_BURN_ENEMY : KS_BURN_BOTH;
    free(e->last_position); /* the next position command starts a game under the new rule */
    e->last_position = NULL;
    if (e->game.nplies == 0) e->game.pos.burn = e->burn; /* for a game not yet started */
  } else if (strcmp(name, "USI_Hash") == 0) {
    char *end;
    errno = 0;
    const long long mib = strtoll(value, &end, 10);
    if (end == value || *end || errno || mib < 1 || mib > KS_HASH_MAX_MIB) {
      say("info string error: setoption USI_Hash \"%s\": expected a whole number of MiB from 1 to %d\n", value,
          KS_HASH_MAX_MIB);
      return;
    }
    stop_search(e);
    if (ks_searcher_resize(e->searcher, (size_t)mib) != 0)
      say("info string error: setoption USI_Hash %lld: out of memory, the table keeps its size\n", mib);
  } else if (strcmp(name, "USI_Ponder") == 0) {
    if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
      say("info string error: setoption USI_Ponder \"%s\": expected true or false\n", value);
  } else {
    say("info string error: setoption: unknown option \"%s\" (known: USI_Hash, USI_Ponder, Burn)\n", name);
  }
}

/* moves: the legal moves of the position, on one line (not USI: for people and referees). */
static void cmd_moves(const engine *e) {
  ks_move *moves = NULL;
  char(*texts)[KS_MOVE_TEXT] = NULL;
  const int n = legal_moves_written(&e->game.pos, &moves, &texts);
  char *line = n < 0 ? NULL : malloc((size_t)n * (KS_MOVE_TEXT + 1) + 8);
  if (line) {
    strcpy(line, "moves");
    size_t len = 5;
    for (int i = 0; i < n; i++) {
      const size_t text = strlen(texts[i]);
      line[len++] = ' ';
      memcpy(line + len, texts[i], text);
      len += text;
    }
    line[len++] = '\n';
    fwrite(line, 1, len, stdout);
    fflush(stdout);
  } else {
    say("info string error: moves: out of memory\n");
  }
  free(moves);
  free(texts);
  free(line);
}

/* One command line. Returns false on quit. */
static bool command(engine *e, char *line) {
  char args[COMMAND_LINE_MAX + 1]; /* the words after the command, as written */
  const size_t skip = strspn(line, " \t");
  const char *after = line + skip + strcspn(line + skip, " \t");
  snprintf(args, sizeof args, "%s", after + strspn(after, " \t"));
  char *save = NULL;
  const char *word = strtok_r(line, " \t", &save);
  if (!word) return true;
  if (strcmp(word, "usi") == 0) {
    say("id name koshogi\nid author the goita project\n"
        "option name USI_Hash type spin default %d min 1 max %d\n"
        "option name USI_Ponder type check default true\n"
        "option name Burn type combo default both var both var enemy\nusiok\n",
        DEFAULT_HASH_MIB, KS_HASH_MAX_MIB);
  } else if (strcmp(word, "isready") == 0) {
    say("readyok\n");
  } else if (strcmp(word, "setoption") == 0) {
    cmd_setoption(e, &save);
  } else if (strcmp(word, "usinewgame") == 0) {
    stop_search(e);
    ks_game_free(&e->game);
    if (ks_game_init(&e->game) != 0) return false;
    e->game.pos.burn = e->burn;
    ks_searcher_clear(e->searcher);
    free(e->last_position);
    e->last_position = NULL;
  } else if (strcmp(word, "position") == 0) {
    cmd_position(e, args, &save);
  } else if (strcmp(word, "go") == 0) {
    cmd_go(e, &save);
  } else if (strcmp(word, "stop") == 0) {
    stop_search(e); /* with no search running there is nothing to answer */
  } else if (strcmp(word, "ponderhit") == 0) {
    cmd_ponderhit(e);
  } else if (strcmp(word, "gameover") == 0) {
    const char *how = strtok_r(NULL, " \t", &save);
    if (!how || (strcmp(how, "win") != 0 && strcmp(how, "lose") != 0 && strcmp(how, "draw") != 0))
      say("info string error: gameover \"%s\": expected win, lose or draw\n", how ? how : "");
    stop_search(e);
  } else if (strcmp(word, "moves") == 0) {
    cmd_moves(e);
  } else if (strcmp(word, "d") == 0) {
    print_board(&e->game.pos, true);
    if (e->game.result) say("result %s\n", result_name(&e->game));
    fflush(stdout);
  } else if (strcmp(word, "quit") == 0) {
    return false;
  } else {
    say("info string error: unknown command \"%s\"\n", word);
  }
  return true;
}

int cmd_engine(int argc, char **argv) {
  const cli_command c = {
      .program = "koshogi",
      .name = "engine",
      .about = "The USI protocol on standard input and output (docs/KOSHOGI.md, \"The engine\"): usi, isready,\n"
               "setoption (USI_Hash, USI_Ponder, Burn), usinewgame, position startpos|sfen [moves ...], go\n"
               "[btime wtime binc winc byoyomi movetime depth nodes infinite ponder], stop, ponderhit,\n"
               "gameover, quit; and moves (the legal moves) and d (the board) for people.\n",
      .examples = "printf 'usi\\nisready\\nposition startpos\\ngo byoyomi 1000\\n' | koshogi engine",
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  engine e;
  memset(&e, 0, sizeof e);
  e.searcher = ks_searcher_new(DEFAULT_HASH_MIB);
  if (!e.searcher || ks_game_init(&e.game) != 0 || mtx_init(&e.lock, mtx_plain) != thrd_success ||
      cnd_init(&e.wake) != thrd_success) {
    fprintf(stderr, "koshogi engine: out of memory\n");
    return 1;
  }
  atomic_init(&e.finished, false);
  /* a command line holds at most COMMAND_LINE_MAX bytes before its end of line; a longer one is
   * refused whole, and its tail is never read as a command of its own */
  char line[COMMAND_LINE_MAX + 3]; /* the bytes, "\r\n" and the terminating NUL */
  while (fgets(line, sizeof line, stdin)) {
    const size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
      int skipped;
      while ((skipped = getchar()) != EOF && skipped != '\n') {
      }
      say("info string error: a line longer than %d bytes was ignored (it begins \"%.40s\")\n",
          COMMAND_LINE_MAX, line);
      continue;
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (strlen(line) > COMMAND_LINE_MAX) {
      say("info string error: a line longer than %d bytes was ignored (it begins \"%.40s\")\n",
          COMMAND_LINE_MAX, line);
      continue;
    }
    if (!command(&e, line)) break;
  }
  stop_search(&e);
  ks_game_free(&e.game);
  ks_searcher_free(e.searcher);
  free(e.history);
  free(e.last_position);
  mtx_destroy(&e.lock);
  cnd_destroy(&e.wake);
  return 0;
}

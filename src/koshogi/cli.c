/* koshogi: the Ko shogi command (docs/KOSHOGI.md): perft, the board, legal moves, play in the
 * terminal, replaying records, matches between players, and the USI engine (engine.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_board.h"
#include "cli_piece.h"
#include "cli_tune.h"
#include "engine.h"
#include "files.h"
#include "koshogi/koshogi.h"
#include "options.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts a game from a position's text (docs/KOSHOGI.md, "Positions"); prints the error, naming
 * the command's option, and returns -1. */
static int load_position(ks_game *game, const char *command, const char *text) {
  ks_position pos;
  int number = 1;
  char err[256];
  if (ks_position_parse(text, &pos, &number, err, sizeof err) != 0) {
    fprintf(stderr, "koshogi %s: --position: %s\n", command, err);
    return -1;
  }
  return ks_game_init_at(game, &pos, number);
}

/* Loads a record (or starts a game when path is NULL); prints the error, naming the command
 * and the reason (files.h: a folder is not an empty record), and returns -1. */
static int load(const char *command, ks_game *game, const char *path, char *black, char *white) {
  if (!path) return ks_game_init(game);
  char err[256];
  char *text = cli_file_read(path, false, NULL, err, sizeof err);
  if (!text) {
    fprintf(stderr, "koshogi %s: cannot read %s: %s\n", command, path, err);
    return -1;
  }
  const int st = ks_record_read(game, text, black, white, err, sizeof err);
  free(text);
  if (st != 0) {
    fprintf(stderr, "koshogi %s: %s: %s\n", command, path, err);
    ks_game_free(game);
  }
  return st;
}

/* The game a command starts from: a set-up position (--position), the position after a record's
 * moves (--record), or the start; not both. Prints the error and returns the exit status (2 for a
 * usage error, 1 for a record that cannot be read), or 0. */
static int starting_game(const cli_command *c, ks_game *game, const char *position, const char *record) {
  if (position && record) return cli_usage_error(c, "give --position or --record, not both");
  if (position) return load_position(game, c->name, position) == 0 ? 0 : 2;
  return load(c->name, game, record, NULL, NULL) == 0 ? 0 : 1;
}

/* The option --position of the commands that read one. */
#define POSITION_OPTION(where)                                                                                    \
  {.name = "--position", .kind = CLI_TEXT, .value = "TEXT", .target = (where),                                    \
   .help = "start from this position (docs/KOSHOGI.md, Positions; koshogi board writes it)", .fallback = "the start"}

/* Reads --rules OPTS into pos; prints the error (naming the command) and returns -1. */
static int apply_rules(const char *command, const char *text, ks_position *pos) {
  char err[160];
  if (ks_rules_parse(text, pos, err, sizeof err) == 0) return 0;
  fprintf(stderr, "koshogi %s: --rules: %s\n", command, err);
  return -1;
}

const char *result_name(const ks_game *g) {
  static const char *const reasons[] = {"", "the loser's commanding pieces are gone",
                                        "the mover's own poison flame burned its commanding pieces",
                                        "fourth repetition", "perpetual check", "no legal move", "resignation",
                                        "loss on time", "draw agreed"};
  static char text[128];
  snprintf(text, sizeof text, "%s (%s)",
           g->result == KS_BLACK_WINS   ? "Black wins"
           : g->result == KS_WHITE_WINS ? "White wins"
           : g->result == KS_NO_CONTEST ? "No contest"
                                        : "Not over",
           reasons[g->reason]);
  return text;
}

/* ---- players for play and match ---- */

typedef enum player_kind { HUMAN, SEARCH, RANDOM, GREEDY } player_kind;

static int parse_player(const char *name, player_kind *kind) {
  if (strcmp(name, "human") == 0) *kind = HUMAN;
  else if (strcmp(name, "search") == 0 || strcmp(name, "computer") == 0) *kind = SEARCH;
  else if (strcmp(name, "random") == 0) *kind = RANDOM;
  else if (strcmp(name, "greedy") == 0) *kind = GREEDY;
  else return -1;
  return 0;
}

/* Reads a player's name for an option table (--black, --white). */
static bool read_player(const char *text, void *target, char *why, size_t size) {
  if (parse_player(text, target) == 0) return true;
  snprintf(why, size, "a player is human, computer (or search), random or greedy");
  return false;
}

/* The notes of the commands that take --rules. */
#define RULES_NOTE "R, the rule options: burn=both (the default) or burn=enemy (docs/KOSHOGI.md).\n"

static uint64_t rng_state = 1;
static uint64_t next_random(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A random or greedy player's move: a uniformly random legal move, or the best evaluation after
 * one ply. */
static int cheap_move(player_kind kind, const ks_position *pos, ks_move *out) {
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(pos, &moves);
  if (n <= 0) {
    free(moves);
    return -1;
  }
  int best = (int)(next_random() % (uint64_t)n);
  if (kind == GREEDY) {
    int best_score = 0;
    for (int i = 0; i < n; i++) {
      ks_position next = *pos;
      ks_play(&next, &moves[i]);
      const int score = -ks_evaluate(&next);
      if (i == 0 || score > best_score || (score == best_score && next_random() % 2)) {
        best_score = score;
        best = i;
      }
    }
  }
  *out = moves[best];
  free(moves);
  return 0;
}

/* A computer player's move: a search of about ms milliseconds, or a random or greedy move. */
static int computer_move(player_kind kind, const ks_game *game, int ms, ks_move *out, ks_search_info *info) {
  const ks_position *pos = &game->pos;
  if (kind == SEARCH) return ks_search(pos, game->keys, game->nplies + 1, ms, 0, out, info);
  return cheap_move(kind, pos, out);
}

/* A search under a node budget instead of a clock, with the searcher's table of this game: the
 * same moves however loaded the machine is. */
static int budget_move(ks_searcher *searcher, const ks_game *game, long nodes, ks_move *out) {
  const ks_limits limits = {0, nodes};
  ks_searcher_set_deadline(searcher, -1, -1);
  ks_search_info info;
  return ks_searcher_run(searcher, &game->pos, game->keys, game->nplies + 1, &limits, NULL, NULL, out, &info);
}

/* ---- commands ---- */

/* koshogi perft [--rules R] [--record FILE] DEPTH: from the start, or after a record's moves. */
static int cmd_perft(int argc, char **argv) {
  const char *rules = "", *record = NULL, *position = NULL;
  const cli_option options[] = {
      {.name = "--rules", .kind = CLI_TEXT, .value = "R", .target = &rules, .help = "rule options",
       .fallback = "burn=both"},
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "count from the position after the moves of this game record", .fallback = "the start"},
      POSITION_OPTION(&position),
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "perft",
      .operands = "DEPTH",
      .about = "Counts the move sequences of each length from 1 to DEPTH (1-8), with the time: the check of\n"
               "the move generator (docs/KOSHOGI.md gives the counts from the start).\n",
      .notes = RULES_NOTE,
      .examples = "koshogi perft 3\nkoshogi perft --record game.txt 2\nkoshogi perft --position \"$(koshogi board --text)\" 2",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n != 1) return cli_usage_error(&c, "name one DEPTH, from 1 to 8");
  uint64_t depth;
  if (!cli_read_uint(&c, "DEPTH", operands.arg[0], 1, 8, NULL, &depth)) return 2;
  ks_game game;
  const int loaded = starting_game(&c, &game, position, record);
  if (loaded != 0) return loaded;
  ks_position pos = game.pos;
  ks_game_free(&game);
  if (rules[0] && apply_rules("perft", rules, &pos) != 0) return 2;
  for (int d = 1; d <= (int)depth; d++) {
    const double start = now_seconds();
    const uint64_t n = ks_perft(&pos, d);
    const double seconds = now_seconds() - start;
    printf("perft %d %llu  %.3f s  %.0f moves/s\n", d, (unsigned long long)n, seconds,
           seconds > 0 ? (double)n / seconds : 0.0);
    fflush(stdout);
  }
  return 0;
}

/* koshogi moves [--record FILE] [POINT]: the legal moves, or those of the piece on POINT. */
static int cmd_moves(int argc, char **argv) {
  const char *record = NULL, *position = NULL;
  const cli_option options[] = {
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "the position after the moves of this game record", .fallback = "the start"},
      POSITION_OPTION(&position),
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "moves",
      .operands = "[POINT]",
      .about = "Prints the legal moves in the notation, ten a line, and their number; with POINT (1a to 19s),\n"
               "only those of the piece on it.\n",
      .examples = "koshogi moves\nkoshogi moves 9p\nkoshogi moves --record game.txt",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const char *point = NULL;
  const int parsed = cli_parse_one_operand(&c, argc, argv, "point", NULL, &point);
  if (parsed >= 0) return parsed;
  const int only = point ? parse_point(point) : -1;
  if (point && only < 0) return cli_usage_error(&c, "\"%s\" is not a point (1a to 19s)", point);
  ks_game game;
  const int loaded = starting_game(&c, &game, position, record);
  if (loaded != 0) return loaded;
  ks_move *moves = NULL;
  char(*texts)[KS_MOVE_TEXT] = NULL;
  const int n = legal_moves_written(&game.pos, &moves, &texts);
  if (n < 0) {
    ks_game_free(&game);
    fprintf(stderr, "koshogi moves: out of memory\n");
    return 1;
  }
  int shown = 0;
  for (int i = 0; i < n; i++) {
    if (only >= 0 && moves[i].from != only) continue;
    printf("%s%s", shown++ % 10 ? " " : "", texts[i]);
    if (shown % 10 == 0) printf("\n");
  }
  if (shown % 10) printf("\n");
  printf("%d legal move%s%s\n", shown, shown == 1 ? "" : "s", only >= 0 ? " of that piece" : "");
  free(moves);
  free(texts);
  ks_game_free(&game);
  return 0;
}

/* koshogi replay [--ascii] FILE: every move, the final board and the result. */
static int cmd_replay(int argc, char **argv) {
  bool ascii = false;
  const cli_option options[] = {
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii, .help = "the board in letters instead of kanji"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "replay",
      .operands = "FILE",
      .about = "Replays a game record (koshogi play --record, koshogi match --records): every move, the final\n"
               "board and the result; a move that is not legal is reported with its number.\n",
      .examples = "koshogi replay game.txt\nkoshogi replay --ascii games/game-001.txt",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n != 1) return cli_usage_error(&c, "name one record FILE");
  const char *path = operands.arg[0];
  char black[64], white[64];
  ks_game game;
  if (load("replay", &game, path, black, white) != 0) return 1;
  char rules[64];
  ks_rules_format(&game.pos, rules, sizeof rules);
  printf("Black: %s   White: %s%s%s\n", black[0] ? black : "?", white[0] ? white : "?", rules[0] ? "   Rules: " : "",
         rules);
  ks_position pos = game.start;
  for (int i = 0; i < game.nplies; i++) {
    char text[64];
    ks_move_format(&pos, &game.moves[i], text, sizeof text);
    const int by_white = ks_game_ply_side(&game, i);
    printf("%d.%s %s%s", ks_game_ply_number(&game, i), by_white ? ".." : "", text, by_white ? "\n" : "  ");
    ks_play(&pos, &game.moves[i]);
  }
  if (game.nplies && ks_game_ply_side(&game, game.nplies - 1) == KS_BLACK) printf("\n");
  warn_if_narrow(ascii);
  print_board(&game.pos, ascii);
  printf("%d plies. %s\n", game.nplies, result_name(&game));
  ks_game_free(&game);
  return 0;
}

/* Writes a game's record to a new file: an existing file is never overwritten ("wx"). */
static int save_record(const ks_game *game, const char *path, const char *black, const char *white) {
  char *text = ks_record_write(game, black, white);
  FILE *f = text ? fopen(path, "wx") : NULL;
  bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) ok = false;
  free(text);
  return ok ? 0 : -1;
}

/* The help of koshogi play's prompt. */
static const char play_help[] =
    "Type a move in the notation (docs/KOSHOGI-RULES.md 7): the piece's ID (legend\n"
    "lists them), its origin when two pieces could make the move, then -POINT to\n"
    "move, xPOINT to capture, *POINT to shoot, !POINT to capture without moving\n"
    "(igui), and + to promote or = to decline. A point is a file 1-19 and a rank\n"
    "a-s: VG-10h, CM9p-7o, CUx19f+, LB-6h*6e.\n"
    "Commands:\n"
    "  moves         every legal move          moves 9p    those of the piece on 9p\n"
    "  board         the board again           legend      IDs, kanji and names\n"
    "  help PIECE    what a piece does (help CH, help +SM)\n"
    "  position      the position as text (koshogi play --position reads it)\n"
    "  resign        give up the game          quit        stop without a result\n";

/* Prints the legal moves, or those of the piece on the point named after "moves". */
static void list_moves(const ks_position *pos, const char *args) {
  args += strspn(args, " ");
  const int only = parse_point(args);
  if (args[0] && only < 0) {
    printf("\"%s\" is not a point (1a to 19s)\n", args);
    return;
  }
  ks_move *moves = NULL;
  char(*texts)[KS_MOVE_TEXT] = NULL;
  const int n = legal_moves_written(pos, &moves, &texts);
  if (n < 0) printf("out of memory\n");
  int shown = 0;
  for (int i = 0; i < n; i++) {
    if (only >= 0 && moves[i].from != only) continue;
    printf("%s%s", shown % 8 ? " " : "", texts[i]);
    if (++shown % 8 == 0) printf("\n");
  }
  printf("%s%d legal move%s%s\n", shown % 8 ? "\n" : "", shown, shown == 1 ? "" : "s", only >= 0 ? " of that piece" : "");
  free(moves);
  free(texts);
}

typedef enum human_says { SAID_NOTHING, SAID_MOVE, SAID_RESIGN, SAID_QUIT } human_says;

/* Reads one line from the human to move and does what it asks: a move (in *move), a command, or
 * the end of the input (quit). */
static human_says human_turn(const ks_game *game, bool ascii, ks_move *move) {
  char line[256];
  printf("%s> ", game->pos.to_move ? "White" : "Black");
  fflush(stdout);
  if (!fgets(line, sizeof line, stdin)) return SAID_QUIT;
  line[strcspn(line, "\r\n")] = '\0';
  const char *word = line + strspn(line, " ");
  if (!word[0]) return SAID_NOTHING;
  if (strcmp(word, "quit") == 0) return SAID_QUIT;
  if (strcmp(word, "resign") == 0) return SAID_RESIGN;
  if (strcmp(word, "board") == 0) {
    print_board(&game->pos, ascii);
  } else if (strcmp(word, "position") == 0) {
    char text[KS_POSITION_TEXT];
    ks_position_write(&game->pos, ks_game_ply_number(game, game->nplies), text, sizeof text);
    printf("%s\n", text);
  } else if (strcmp(word, "legend") == 0) {
    print_piece_legend(stdout, true);
  } else if (strcmp(word, "help") == 0 || strcmp(word, "?") == 0) {
    printf("%s", play_help);
  } else if (strncmp(word, "help ", 5) == 0) {
    char id[16];
    snprintf(id, sizeof id, "%s", word + 5 + strspn(word + 5, " "));
    char *args[] = {id, NULL};
    cmd_piece(1, args);
  } else if (strncmp(word, "moves", 5) == 0) {
    list_moves(&game->pos, word + 5);
  } else {
    char err[256];
    if (ks_move_parse(&game->pos, word, move, err, sizeof err) == 0) return SAID_MOVE;
    printf("Not a legal move: %s\n(help: how to write moves; moves: the legal ones)\n", err);
  }
  return SAID_NOTHING;
}

/* Chooses the board for play: letters when asked, or when the kanji board is wider than the
 * terminal (with a word saying so); kanji otherwise. */
static bool choose_ascii(bool ascii, bool kanji) {
  if (ascii || kanji) return ascii;
  const int columns = terminal_columns();
  if (columns > 0 && columns < BOARD_KANJI_COLUMNS) {
    printf("The kanji board takes %d columns, this terminal %d: the board is in letters\n"
           "(Black upper case, White lower case; legend shows the kanji; --kanji insists).\n",
           BOARD_KANJI_COLUMNS, columns);
    return true;
  }
  return false;
}

/* A computer's move for play, printed with its search's numbers; -1 when it has none. */
static int computer_turn(player_kind kind, const ks_game *game, int ms, ks_move *move) {
  ks_search_info info = {0};
  if (computer_move(kind, game, ms, move, &info) != 0) return -1;
  char text[64];
  ks_move_format(&game->pos, move, text, sizeof text);
  printf("%d.%s %s", ks_game_ply_number(game, game->nplies), game->pos.to_move ? ".." : "", text);
  if (kind == SEARCH) printf("   (depth %d, score %d, %ld nodes, %d ms)", info.depth, info.score, info.nodes, info.ms);
  printf("\n");
  return 0;
}

/* Plays the game to its end, the ply limit, a resignation or a quit. The board is shown once
 * before each human move, with the last move marked, and once at the end when a human plays. */
static void play_game(ks_game *game, const player_kind kinds[2], int ms, int limit, bool ascii) {
  const bool someone = kinds[0] == HUMAN || kinds[1] == HUMAN;
  ks_position before = game->pos;
  char played[80] = "";
  int shown = -1;
  while (game->result == KS_ONGOING && game->nplies < limit) {
    const int side = game->pos.to_move;
    const ks_move *last = game->nplies ? &game->moves[game->nplies - 1] : NULL;
    if (kinds[side] == HUMAN && shown != game->nplies) {
      print_board_last(&game->pos, ascii, &before, last, played);
      shown = game->nplies;
    }
    ks_move move;
    if (kinds[side] != HUMAN) {
      if (computer_turn(kinds[side], game, ms, &move) != 0) break;
    } else {
      const human_says said = human_turn(game, ascii, &move);
      if (said == SAID_QUIT) break;
      if (said == SAID_RESIGN) ks_game_resign(game);
      if (said != SAID_MOVE) continue;
    }
    char text[64];
    ks_move_format(&game->pos, &move, text, sizeof text);
    snprintf(played, sizeof played, "%d.%s %s", ks_game_ply_number(game, game->nplies), side ? ".." : "", text);
    before = game->pos;
    if (ks_game_play(game, &move) != 0) break;
  }
  if (someone && game->nplies && shown != game->nplies)
    print_board_last(&game->pos, ascii, &before, &game->moves[game->nplies - 1], played);
}

/* koshogi play [--position TEXT] [--black P] [--white P] [--ms N] [--ascii | --kanji] [--record FILE]
 * [--limit PLIES] [--rules R]: P is human, computer (search), random or greedy. */
static int cmd_play(int argc, char **argv) {
  player_kind kinds[2] = {HUMAN, SEARCH};
  uint64_t ms = 1000, limit = 1000;
  bool ascii = false, kanji = false;
  const char *record = NULL, *rules = "", *position = NULL;
  const cli_option options[] = {
      POSITION_OPTION(&position),
      {"--black", CLI_READ, "P", &kinds[KS_BLACK], "who plays Black", .fallback = "human", .read = read_player},
      {"--white", CLI_READ, "P", &kinds[KS_WHITE], "who plays White", .fallback = "computer", .read = read_player},
      {"--ms", CLI_UINT, "N", &ms, "the computer's time for a move", .lo = 1, .hi = 3600000, .unit = "ms"},
      {"--limit", CLI_UINT, "PLIES", &limit, "stop the game after this many plies", .lo = 1, .hi = 100000},
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "save the game in a new file that koshogi replay reads (an existing one is refused)",
       .fallback = "not saved"},
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii,
       .help = "the board in letters (79 columns; also when the terminal is too narrow for kanji)"},
      {.name = "--kanji", .kind = CLI_FLAG, .target = &kanji, .help = "the board in kanji (117 columns) whatever the width"},
      {.name = "--rules", .kind = CLI_TEXT, .value = "R", .target = &rules, .help = "rule options",
       .fallback = "burn=both"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "play",
      .about = "A game of Ko shogi in the terminal. Type moves in the notation (docs/KOSHOGI.md); at the prompt,\n"
               "help explains it and lists the commands: moves, moves 9p, board, legend, help PIECE, resign, quit.\n",
      .notes = "P, a player: human, computer (the search; also called search), random or greedy (the best\n"
               "evaluation after one ply).\n" RULES_NOTE,
      .examples = "koshogi play\n"
                  "koshogi play --black computer --white human --ms 3000 --record game.txt\n"
                  "koshogi play --black random --white greedy --limit 200 --ascii",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (ascii && kanji) return cli_usage_error(&c, "--ascii or --kanji, not both");
  /* Checked before the game, so that nobody plays a long game for a record that cannot be
   * saved (the file is made again, with "wx", at the end). */
  struct stat st;
  if (record && stat(record, &st) == 0 && !S_ISDIR(st.st_mode))
    return cli_usage_error(&c, "--record %s: the file exists, and a record never overwrites one", record);
  char why[256];
  if (record && !cli_file_check_new(record, why, sizeof why))
    return cli_usage_error(&c, "--record %s: cannot write it: %s", record, why);
  ks_game game;
  if (position ? load_position(&game, "play", position) != 0 : ks_game_init(&game) != 0) return position ? 2 : 1;
  if (apply_rules("play", rules, &game.pos) != 0) {
    ks_game_free(&game);
    return 2;
  }
  rng_state = (uint64_t)time(NULL) | 1;
  if (kinds[0] == HUMAN || kinds[1] == HUMAN)
    printf("Ko shogi. Type help for the notation and the commands, legend for the pieces.\n");
  ascii = choose_ascii(ascii, kanji);
  if (kinds[0] != HUMAN && kinds[1] != HUMAN) print_board(&game.pos, ascii);
  play_game(&game, kinds, (int)ms, (int)limit, ascii);
  printf("%s after %d plies\n", game.result ? result_name(&game) : "Stopped", game.nplies);
  int status = 0;
  if (record && save_record(&game, record, kinds[0] == HUMAN ? "human" : "koshogi", kinds[1] == HUMAN ? "human" : "koshogi") != 0) {
    fprintf(stderr, "koshogi play: could not write %s (it may have appeared during the game); the record:\n", record);
    char *text = ks_record_write(&game, NULL, NULL);
    if (text) fputs(text, stdout);
    free(text);
    status = 1;
  } else if (record) {
    printf("Record saved to %s\n", record);
  }
  ks_game_free(&game);
  return status;
}

/* koshogi match [--games N] [--ms M] [--limit PLIES] [--seed S] [--records DIR] A B (records:
 * every game saved as DIR/game-NNN.txt): A plays Black in the odd
 * games and White in the even ones; a game not decided within the limit is not won. */
static int save_record(const ks_game *game, const char *path, const char *black, const char *white);

static int cmd_match(int argc, char **argv) {
  uint64_t games = 100, ms = 50, limit = 400, seed = 1, nodes = 0;
  const char *records = NULL, *rules = "";
  const cli_option options[] = {
      {"--games", CLI_UINT, "N", &games, "games to play; A plays Black in the odd ones", .lo = 1, .hi = 1000000},
      {"--ms", CLI_UINT, "M", &ms, "the search's time for a move", .lo = 1, .hi = 3600000, .unit = "ms"},
      {"--nodes", CLI_UINT, "N", &nodes,
       "the search's nodes for a move instead of a time: the same games on any machine, under any load",
       .hi = 1000000000, .fallback = "0: by time"},
      {"--limit", CLI_UINT, "PLIES", &limit, "a game not decided within this many plies is not won", .lo = 1,
       .hi = 100000},
      {"--seed", CLI_UINT, "S", &seed, "the seed of the random and greedy players' choices", .hi = UINT64_MAX},
      {.name = "--records", .kind = CLI_TEXT, .value = "DIR", .target = &records,
       .help = "save every game as DIR/game-NNN.txt", .fallback = "not saved"},
      {.name = "--rules", .kind = CLI_TEXT, .value = "R", .target = &rules, .help = "rule options",
       .fallback = "burn=both"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "match",
      .operands = "A B",
      .about = "Player A against player B, colours alternating. Progress goes to standard error; the result is\n"
               "one JSON line: wins of each, undecided games, the mean length and the time.\n",
      .notes = "A and B: search, random or greedy (computer is another name for search).\n" RULES_NOTE,
      .examples = "koshogi match --games 20 --ms 100 search greedy\n"
                  "koshogi match --games 20 --nodes 5000 search greedy\n"
                  "koshogi match --games 10 --records games --rules burn=enemy search random",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n != 2) return cli_usage_error(&c, "name two players, A and B");
  player_kind kinds[2];
  for (int i = 0; i < 2; i++)
    if (parse_player(operands.arg[i], &kinds[i]) != 0 || kinds[i] == HUMAN)
      return cli_usage_error(&c, "\"%s\" is not a computer player (search, random, greedy)", operands.arg[i]);
  const char *a_name = operands.arg[0], *b_name = operands.arg[1];
  ks_position probe;
  ks_start(&probe);
  if (apply_rules("match", rules, &probe) != 0) return 2;
  char why[256];
  if (records && !cli_file_check_folder(records, why, sizeof why))
    return cli_usage_error(&c, "--records %s: cannot write in it: %s", records, why);
  int unsaved = 0;
  rng_state = seed * 2654435761u | 1;
  int wins = 0, losses = 0, undecided = 0;
  long plies = 0;
  ks_searcher *searchers[2] = {NULL, NULL}; /* a node budget: each search player's table for a game */
  for (int i = 0; i < 2 && nodes; i++)
    if (kinds[i] == SEARCH && !(searchers[i] = ks_searcher_new(16))) {
      fprintf(stderr, "koshogi match: out of memory\n");
      ks_searcher_free(searchers[0]);
      return 1;
    }
  const double start = now_seconds();
  for (int g = 0; g < (int)games; g++) {
    const int a_color = g % 2; /* A is Black in even-numbered games (counting from 0) */
    ks_game game;
    if (ks_game_init(&game) != 0) return 1;
    game.pos.burn = probe.burn;
    for (int i = 0; i < 2; i++)
      if (searchers[i]) ks_searcher_clear(searchers[i]);
    while (game.result == KS_ONGOING && game.nplies < (int)limit) {
      const int player = game.pos.to_move == a_color ? 0 : 1;
      ks_move move;
      const int st = searchers[player] ? budget_move(searchers[player], &game, (long)nodes, &move)
                                       : computer_move(kinds[player], &game, (int)ms, &move, NULL);
      if (st != 0) break;
      ks_game_play(&game, &move);
    }
    const int winner = game.result == KS_BLACK_WINS ? KS_BLACK : game.result == KS_WHITE_WINS ? KS_WHITE : -1;
    if (winner == a_color) wins++;
    else if (winner >= 0) losses++;
    else {
      undecided++;
      fprintf(stderr, "\ngame %d undecided after %d plies: %s\n", g + 1, game.nplies,
              game.result ? result_name(&game) : "the move limit");
    }
    plies += game.nplies;
    if (records) {
      char path[4096];
      snprintf(path, sizeof path, "%s/game-%03d.txt", records, g + 1);
      if (save_record(&game, path, a_color == KS_BLACK ? a_name : b_name, a_color == KS_BLACK ? b_name : a_name) != 0)
      {
        fprintf(stderr, "\nkoshogi match: could not write %s\n", path);
        unsaved++;
      }
    }
    ks_game_free(&game);
    fprintf(stderr, "\rgame %d of %d: A %d, B %d, undecided %d", g + 1, (int)games, wins, losses, undecided);
  }
  fprintf(stderr, "\n");
  for (int i = 0; i < 2; i++) ks_searcher_free(searchers[i]);
  printf("{\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"a_wins\":%d,\"b_wins\":%d,\"undecided\":%d,\"ms\":%d,"
         "\"nodes\":%llu,\"limit\":%d,\"mean_plies\":%.1f,\"seconds\":%.1f}\n",
         a_name, b_name, (int)games, wins, losses, undecided, nodes ? 0 : (int)ms, (unsigned long long)nodes,
         (int)limit, (double)plies / (double)games, now_seconds() - start);
  if (unsaved) fprintf(stderr, "koshogi match: %d of %d records were not saved\n", unsaved, (int)games);
  return unsaved ? 1 : 0;
}

/* koshogi bench: perft 3 from the start (move generation and making moves) and fixed-depth
 * searches from positions of a seeded game (the search), with a signature of the node counts. */
static int cmd_bench(int argc, char **argv) {
  const cli_command c = {
      .program = "koshogi",
      .name = "bench",
      .about = "Perft 3 from the start (move generation and making moves), then fixed-depth searches from\n"
               "positions of a seeded game; ends with a signature of the node counts, which changes only when\n"
               "the search does.\n",
      .examples = "koshogi bench",
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  ks_position pos;
  ks_start(&pos);
  double start = now_seconds();
  const uint64_t leaves = ks_perft(&pos, 3);
  const double perft_s = now_seconds() - start;
  printf("perft 3: %llu in %.2f s, %.1f million moves/s\n", (unsigned long long)leaves, perft_s,
         (double)leaves / perft_s / 1e6);
  ks_game game;
  if (ks_game_init(&game) != 0) return 1;
  rng_state = 2026;
  long nodes = 0;
  uint64_t signature = leaves;
  start = now_seconds();
  for (int ply = 0; ply < 40 && game.result == KS_ONGOING; ply++) {
    ks_move move;
    ks_search_info info;
    if (ply % 4 == 0) { /* a search of depth 3 every fourth ply; random moves between */
      if (ks_search(&game.pos, NULL, 0, 1000000, 3, &move, &info) != 0) break;
      nodes += info.nodes;
      signature = signature * 31 + (uint64_t)info.nodes;
    }
    if (computer_move(RANDOM, &game, 1, &move, NULL) != 0) break;
    ks_game_play(&game, &move);
  }
  const double search_s = now_seconds() - start;
  printf("search: 10 positions to depth 3, %ld nodes in %.2f s, %.0f nodes/s\n", nodes, search_s,
         (double)nodes / search_s);
  printf("signature koshogi %016llx\n", (unsigned long long)signature);
  ks_game_free(&game);
  return 0;
}

/* koshogi board [--ascii] [--text] [--position TEXT | --record FILE]: a position, drawn and as text. */
static int cmd_board(int argc, char **argv) {
  bool ascii = false, text_only = false;
  const char *position = NULL, *record = NULL;
  const cli_option options[] = {
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii,
       .help = "letters instead of kanji: Black upper case, White lower case"},
      {.name = "--text", .kind = CLI_FLAG, .target = &text_only, .help = "only the position's text, for scripts"},
      POSITION_OPTION(&position),
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "the position after the moves of this game record", .fallback = "the start"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "board",
      .about = "Prints a position (the start unless --position or --record): 19 by 19, files 19 to 1 from the\n"
               "left, ranks a to s from the top (in kanji, v marks White's pieces), then its text, which\n"
               "--position of moves, perft, play and board reads back (docs/KOSHOGI.md, Positions).\n",
      .examples = "koshogi board\nkoshogi board --ascii --record game.txt\nkoshogi board --text",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  ks_game game;
  const int loaded = starting_game(&c, &game, position, record);
  if (loaded != 0) return loaded;
  char text[KS_POSITION_TEXT];
  ks_position_write(&game.pos, ks_game_ply_number(&game, game.nplies), text, sizeof text);
  if (!text_only) {
    warn_if_narrow(ascii);
    print_board(&game.pos, ascii);
  }
  printf("%s%s\n", text_only ? "" : "position ", text);
  ks_game_free(&game);
  return 0;
}

static const cli_entry commands[] = {
    {"play", cmd_play, "play a game in the terminal: human, computer, random or greedy on each side"},
    {"board", cmd_board, "print a position (the start, or after a record) and its text"},
    {"moves", cmd_moves, "the legal moves (of the piece on a point), from the start or after a record"},
    {"perft", cmd_perft, "count move sequences to a depth: the check of the move generator"},
    {"replay", cmd_replay, "replay a game record: every move, the final board and the result"},
    {"match", cmd_match, "computer players against each other; one JSON line"},
    {"engine", cmd_engine, "the USI engine protocol on standard input and output"},
    {"bench", cmd_bench, "move generation and search speed, with a signature line"},
    {"selfplay", cmd_selfplay, "the search against itself, writing quiet positions and results (for fitting)"},
    {"features", cmd_features, "the evaluation's features of selfplay's positions (for fitting)"},
    {"piece", cmd_piece, "what a piece does, drawn on an empty board (also: koshogi help PIECE)"},
};

int main(int argc, char **argv) {
  const cli_program program = {"koshogi", "koshogi - Ko shogi (広将棋), the large shogi variant of docs/KOSHOGI.md\n",
                               RULES_NOTE "help PIECE (CH, +SM, ...) tells what a piece does: koshogi piece PIECE.\n",
                               commands, sizeof commands / sizeof commands[0]};
  /* "help PIECE" for a piece ID that names no command: the piece's help, its options before or
   * after the ID ("help --white CV" as "help CV --white"); "help help" and "help --help" are the
   * program's help, which cli_dispatch gives */
  const char *topic = NULL;
  for (int i = 2; i < argc && !topic; i++) {
    if (strcmp(argv[i], "--at") == 0) i++; /* the piece command's option with a value */
    else if (argv[i][0] != '-' || !argv[i][1]) topic = argv[i];
  }
  const bool about_help = argc >= 3 && (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 ||
                                        strcmp(argv[2], "-h") == 0);
  if (argc >= 3 && strcmp(argv[1], "help") == 0 && !about_help && topic) {
    bool command = false;
    for (size_t i = 0; i < program.ncommands; i++) command |= strcmp(commands[i].name, topic) == 0;
    if (!command && ks_face_by_id(topic) != KS_EMPTY) return cmd_piece(argc - 2, argv + 2);
    if (!command) {
      fprintf(stderr, "koshogi help: unknown command \"%s\", and no piece has that ID (try: koshogi help, koshogi piece)\n",
              topic);
      return 2;
    }
  }
  return cli_dispatch(&program, argc, argv);
}

/* koshogi: the Ko shogi command (docs/KOSHOGI.md): perft, the board, legal moves, play in the
 * terminal, replaying records, matches between players, and the USI engine (engine.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "koshogi/koshogi.h"
#include "options.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A face as two kanji (full width) for the board: the first two characters of its name, and
 * a + before faces that move as a starting type (+CH shows 車総 like a chariot unit). */
static void kanji_cell(ks_piece p, char *out, size_t size) {
  const ks_face f = ks_face_of(p);
  const char *k = ks_face_kanji(f);
  int bytes = 0, chars = 0;
  while (k[bytes] && chars < 2) {
    bytes++;
    while (k[bytes] && ((unsigned char)k[bytes] & 0xc0) == 0x80) bytes++;
    chars++;
  }
  const bool reused = f >= KS_PAC;
  snprintf(out, size, "%s%s%.*s%s", ks_color_of(p) == KS_WHITE ? "v" : " ", reused ? "+" : " ", bytes, k,
           chars < 2 ? "　" : "");
}

void print_board(const ks_position *pos, bool ascii) {
  printf("   ");
  for (int file = KS_SIZE; file >= 1; file--) printf(ascii ? "%4d" : "%6d", file);
  printf("\n");
  for (int row = 0; row < KS_SIZE; row++) {
    printf("  %c ", 'a' + row);
    for (int col = 0; col < KS_SIZE; col++) {
      const ks_piece p = pos->board[row * KS_SIZE + col];
      if (!ascii) {
        char cell[32] = "    ・";
        if (p) kanji_cell(p, cell, sizeof cell);
        printf("%s", cell);
        continue;
      }
      char text[8] = ".";
      if (p) snprintf(text, sizeof text, "%s", ks_face_id(ks_face_of(p)));
      if (p && ks_color_of(p) == KS_WHITE)
        for (char *c = text; *c; c++)
          if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
      printf("%4s", text);
    }
    printf("\n");
  }
  printf("%s to move%s\n", pos->to_move == KS_BLACK ? "Black" : "White",
         ascii ? " (Black upper case, White lower case)" : " (v: White)");
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0, n;
  char *text = malloc(cap);
  while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *grown = realloc(text, cap *= 2);
      if (!grown) free(text);
      text = grown;
    }
  }
  fclose(f);
  if (text) text[len] = '\0';
  return text;
}

/* Loads a record (or starts a game when path is NULL); prints the error and returns -1. */
static int load(ks_game *game, const char *path, char *black, char *white) {
  if (!path) return ks_game_init(game);
  char *text = read_file(path);
  if (!text) {
    fprintf(stderr, "koshogi: cannot read %s\n", path);
    return -1;
  }
  char err[256];
  const int st = ks_record_read(game, text, black, white, err, sizeof err);
  free(text);
  if (st != 0) {
    fprintf(stderr, "koshogi: %s: %s\n", path, err);
    ks_game_free(game);
  }
  return st;
}

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
                                        "fourth repetition", "perpetual check", "no legal move", "resignation"};
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

/* A computer player's move: search, a uniformly random legal move, or the best evaluation
 * after one ply. */
static int computer_move(player_kind kind, const ks_game *game, int ms, ks_move *out, ks_search_info *info) {
  const ks_position *pos = &game->pos;
  if (kind == SEARCH) return ks_search(pos, game->keys, game->nplies + 1, ms, 0, out, info);
  ks_move *moves = malloc(KS_MAX_MOVES * sizeof *moves);
  if (!moves) return -1;
  const int n = ks_legal_moves(pos, moves);
  if (n == 0) {
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

/* ---- commands ---- */

/* koshogi perft [--rules R] [--record FILE] DEPTH: from the start, or after a record's moves. */
static int cmd_perft(int argc, char **argv) {
  const char *rules = "", *record = NULL;
  const cli_option options[] = {
      {.name = "--rules", .kind = CLI_TEXT, .value = "R", .target = &rules, .help = "rule options",
       .fallback = "burn=both"},
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "count from the position after the moves of this game record", .fallback = "the start"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "perft",
      .operands = "DEPTH",
      .about = "Counts the move sequences of each length from 1 to DEPTH (1-8), with the time: the check of\n"
               "the move generator (docs/KOSHOGI.md gives the counts from the start).\n",
      .notes = RULES_NOTE,
      .examples = "koshogi perft 3\nkoshogi perft --record game.txt 2",
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
  if (load(&game, record, NULL, NULL) != 0) return 1;
  ks_position pos = game.pos;
  ks_game_free(&game);
  if (apply_rules("perft", rules, &pos) != 0) return 2;
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
  const char *record = NULL;
  const cli_option options[] = {
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "the position after the moves of this game record", .fallback = "the start"},
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
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n > 1) return cli_usage_error(&c, "one point, please (got a second: \"%s\")", operands.arg[1]);
  const char *point = operands.n ? operands.arg[0] : NULL;
  ks_game game;
  if (load(&game, record, NULL, NULL) != 0) return 1;
  int only = -1;
  if (point) {
    int file = 0;
    char rank = 0;
    if (sscanf(point, "%d%c", &file, &rank) != 2 || file < 1 || file > KS_SIZE || rank < 'a' || rank > 's') {
      ks_game_free(&game);
      return cli_usage_error(&c, "\"%s\" is not a point (1a to 19s)", point);
    }
    only = ks_point(file, rank - 'a');
  }
  ks_move *moves = malloc(KS_MAX_MOVES * sizeof *moves);
  if (!moves) return 1;
  const int n = ks_legal_moves(&game.pos, moves);
  int shown = 0;
  for (int i = 0; i < n; i++) {
    if (only >= 0 && moves[i].from != only) continue;
    char text[64];
    ks_move_format(&game.pos, &moves[i], text, sizeof text);
    printf("%s%s", shown++ % 10 ? " " : "", text);
    if (shown % 10 == 0) printf("\n");
  }
  if (shown % 10) printf("\n");
  printf("%d legal move%s%s\n", shown, shown == 1 ? "" : "s", only >= 0 ? " of that piece" : "");
  free(moves);
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
  if (load(&game, path, black, white) != 0) return 1;
  char rules[64];
  ks_rules_format(&game.pos, rules, sizeof rules);
  printf("Black: %s   White: %s%s%s\n", black[0] ? black : "?", white[0] ? white : "?", rules[0] ? "   Rules: " : "",
         rules);
  ks_position pos;
  ks_start(&pos);
  pos.burn = game.pos.burn;
  for (int i = 0; i < game.nplies; i++) {
    char text[64];
    ks_move_format(&pos, &game.moves[i], text, sizeof text);
    printf("%s%d.%s %s%s", i % 2 == 0 ? "" : "", i / 2 + 1, i % 2 ? ".." : "", text, i % 2 ? "\n" : "  ");
    ks_play(&pos, &game.moves[i]);
  }
  if (game.nplies % 2) printf("\n");
  print_board(&game.pos, ascii);
  printf("%d plies. %s\n", game.nplies, result_name(&game));
  ks_game_free(&game);
  return 0;
}

static int save_record(const ks_game *game, const char *path, const char *black, const char *white) {
  char *text = ks_record_write(game, black, white);
  FILE *f = text ? fopen(path, "w") : NULL;
  const bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) return -1;
  free(text);
  return ok ? 0 : -1;
}

/* koshogi play [--black P] [--white P] [--ms N] [--ascii] [--record FILE] [--limit PLIES] [--rules R]:
 * P is human, computer (search), random or greedy. Moves are typed in the notation; "moves"
 * lists them, "moves 9p" those of one piece, "board", "resign", "quit". */
static int cmd_play(int argc, char **argv) {
  player_kind kinds[2] = {HUMAN, SEARCH};
  uint64_t ms = 1000, limit = 1000;
  bool ascii = false;
  const char *record = NULL, *rules = "";
  const cli_option options[] = {
      {"--black", CLI_READ, "P", &kinds[KS_BLACK], "who plays Black", .fallback = "human", .read = read_player},
      {"--white", CLI_READ, "P", &kinds[KS_WHITE], "who plays White", .fallback = "computer", .read = read_player},
      {"--ms", CLI_UINT, "N", &ms, "the computer's time for a move", .lo = 1, .hi = 3600000, .unit = "ms"},
      {"--limit", CLI_UINT, "PLIES", &limit, "stop the game after this many plies", .lo = 1, .hi = 100000},
      {.name = "--record", .kind = CLI_TEXT, .value = "FILE", .target = &record,
       .help = "save the game as a record that koshogi replay reads", .fallback = "not saved"},
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii, .help = "the board in letters instead of kanji"},
      {.name = "--rules", .kind = CLI_TEXT, .value = "R", .target = &rules, .help = "rule options",
       .fallback = "burn=both"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "play",
      .about = "A game of Ko shogi in the terminal. Type moves in the notation (docs/KOSHOGI.md); moves lists\n"
               "the legal ones, moves 9p those of one piece; board, resign and quit do what they say.\n",
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
  ks_game game;
  if (ks_game_init(&game) != 0) return 1;
  if (apply_rules("play", rules, &game.pos) != 0) {
    ks_game_free(&game);
    return 2;
  }
  rng_state = (uint64_t)time(NULL) | 1;
  print_board(&game.pos, ascii);
  char line[256];
  while (game.result == KS_ONGOING && game.nplies < (int)limit) {
    const int side = game.pos.to_move;
    ks_move move;
    if (kinds[side] != HUMAN) {
      ks_search_info info = {0};
      if (computer_move(kinds[side], &game, (int)ms, &move, &info) != 0) break;
      char text[64];
      ks_move_format(&game.pos, &move, text, sizeof text);
      printf("%d.%s %s", game.nplies / 2 + 1, side ? ".." : "", text);
      if (kinds[side] == SEARCH) printf("   (depth %d, score %d, %ld nodes, %d ms)", info.depth, info.score, info.nodes, info.ms);
      printf("\n");
    } else {
      printf("%s> ", side ? "White" : "Black");
      fflush(stdout);
      if (!fgets(line, sizeof line, stdin)) break;
      line[strcspn(line, "\r\n")] = '\0';
      if (!line[0]) continue;
      if (strcmp(line, "quit") == 0) break;
      if (strcmp(line, "board") == 0) {
        print_board(&game.pos, ascii);
        continue;
      }
      if (strcmp(line, "resign") == 0) {
        ks_game_resign(&game);
        break;
      }
      if (strncmp(line, "moves", 5) == 0) {
        ks_move *moves = malloc(KS_MAX_MOVES * sizeof *moves);
        if (!moves) break;
        int file = 0;
        char rank = 0;
        const int only = sscanf(line + 5, "%d%c", &file, &rank) == 2 && file >= 1 && file <= KS_SIZE && rank >= 'a' &&
                                 rank <= 's'
                             ? ks_point(file, rank - 'a')
                             : -1;
        const int n = ks_legal_moves(&game.pos, moves);
        for (int i = 0, shown = 0; i < n; i++) {
          if (only >= 0 && moves[i].from != only) continue;
          char text[64];
          ks_move_format(&game.pos, &moves[i], text, sizeof text);
          printf("%s%s", text, ++shown % 10 ? " " : "\n");
        }
        printf("\n");
        free(moves);
        continue;
      }
      char err[256];
      if (ks_move_parse(&game.pos, line, &move, err, sizeof err) != 0) {
        printf("Not a legal move: %s (type moves to list them)\n", err);
        continue;
      }
    }
    ks_game_play(&game, &move);
    if (kinds[game.pos.to_move] == HUMAN || kinds[side] == HUMAN) print_board(&game.pos, ascii);
  }
  printf("%s after %d plies\n", game.result ? result_name(&game) : "Stopped", game.nplies);
  int status = 0;
  if (record && save_record(&game, record, kinds[0] == HUMAN ? "human" : "koshogi", kinds[1] == HUMAN ? "human" : "koshogi") != 0) {
    fprintf(stderr, "koshogi play: could not write %s\n", record);
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
  uint64_t games = 100, ms = 50, limit = 400, seed = 1;
  const char *records = NULL, *rules = "";
  const cli_option options[] = {
      {"--games", CLI_UINT, "N", &games, "games to play; A plays Black in the odd ones", .lo = 1, .hi = 1000000},
      {"--ms", CLI_UINT, "M", &ms, "the search's time for a move", .lo = 1, .hi = 3600000, .unit = "ms"},
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
  rng_state = seed * 2654435761u | 1;
  int wins = 0, losses = 0, undecided = 0;
  long plies = 0;
  const double start = now_seconds();
  for (int g = 0; g < (int)games; g++) {
    const int a_color = g % 2; /* A is Black in even-numbered games (counting from 0) */
    ks_game game;
    if (ks_game_init(&game) != 0) return 1;
    game.pos.burn = probe.burn;
    while (game.result == KS_ONGOING && game.nplies < (int)limit) {
      const int side = game.pos.to_move;
      ks_move move;
      if (computer_move(kinds[side == a_color ? 0 : 1], &game, (int)ms, &move, NULL) != 0) break;
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
        fprintf(stderr, "\nkoshogi match: could not write %s\n", path);
    }
    ks_game_free(&game);
    fprintf(stderr, "\rgame %d of %d: A %d, B %d, undecided %d", g + 1, (int)games, wins, losses, undecided);
  }
  fprintf(stderr, "\n");
  printf("{\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"a_wins\":%d,\"b_wins\":%d,\"undecided\":%d,\"ms\":%d,"
         "\"limit\":%d,\"mean_plies\":%.1f,\"seconds\":%.1f}\n",
         a_name, b_name, (int)games, wins, losses, undecided, (int)ms, (int)limit, (double)plies / (double)games,
         now_seconds() - start);
  return 0;
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

/* koshogi board [--ascii]: the starting position. */
static int cmd_board(int argc, char **argv) {
  bool ascii = false;
  const cli_option options[] = {
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii,
       .help = "letters instead of kanji: Black upper case, White lower case"},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "board",
      .about = "Prints the starting position: 19 by 19, files 19 to 1 from the left, ranks a to s from the\n"
               "top; in kanji, v marks White's pieces.\n",
      .examples = "koshogi board\nkoshogi board --ascii",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  ks_position pos;
  ks_start(&pos);
  print_board(&pos, ascii);
  return 0;
}

static const cli_entry commands[] = {
    {"play", cmd_play, "play a game in the terminal: human, computer, random or greedy on each side"},
    {"board", cmd_board, "print the starting position"},
    {"moves", cmd_moves, "the legal moves (of the piece on a point), from the start or after a record"},
    {"perft", cmd_perft, "count move sequences to a depth: the check of the move generator"},
    {"replay", cmd_replay, "replay a game record: every move, the final board and the result"},
    {"match", cmd_match, "computer players against each other; one JSON line"},
    {"engine", cmd_engine, "the USI engine protocol on standard input and output"},
    {"bench", cmd_bench, "move generation and search speed, with a signature line"},
};

int main(int argc, char **argv) {
  const cli_program program = {"koshogi", "koshogi - Ko shogi (広将棋), the large shogi variant of docs/KOSHOGI.md\n",
                               RULES_NOTE, commands, sizeof commands / sizeof commands[0]};
  return cli_dispatch(&program, argc, argv);
}

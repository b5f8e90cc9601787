/* koshogi: the Ko shogi command (docs/KOSHOGI.md): perft, the board, legal moves, play in the
 * terminal, replaying records, matches between players, and a USI-style engine mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "koshogi/koshogi.h"

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

static void print_board(const ks_position *pos, bool ascii) {
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

static const char *result_name(const ks_game *g) {
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
  while (argc >= 2 && (strcmp(argv[0], "--rules") == 0 || strcmp(argv[0], "--record") == 0)) {
    if (strcmp(argv[0], "--rules") == 0) rules = argv[1];
    else record = argv[1];
    argc -= 2;
    argv += 2;
  }
  char *end = NULL;
  const long depth = argc == 1 ? strtol(argv[0], &end, 10) : -1;
  if (argc != 1 || !end || *end || depth < 1 || depth > 8) {
    fprintf(stderr, "koshogi perft: DEPTH must be a number from 1 to 8\n");
    return 2;
  }
  ks_game game;
  if (load(&game, record, NULL, NULL) != 0) return 1;
  ks_position pos = game.pos;
  ks_game_free(&game);
  if (apply_rules("perft", rules, &pos) != 0) return 2;
  for (int d = 1; d <= depth; d++) {
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
  const char *record = NULL, *point = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--record") == 0 && i + 1 < argc) record = argv[++i];
    else if (!point && argv[i][0] != '-') point = argv[i];
    else {
      fprintf(stderr, "koshogi moves: unexpected \"%s\"\n", argv[i]);
      return 2;
    }
  }
  ks_game game;
  if (load(&game, record, NULL, NULL) != 0) return 1;
  int only = -1;
  if (point) {
    int file = 0;
    char rank = 0;
    if (sscanf(point, "%d%c", &file, &rank) != 2 || file < 1 || file > KS_SIZE || rank < 'a' || rank > 's') {
      fprintf(stderr, "koshogi moves: \"%s\" is not a point (1a to 19s)\n", point);
      ks_game_free(&game);
      return 2;
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
  const char *path = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--ascii") == 0) ascii = true;
    else path = argv[i];
  }
  if (!path) {
    fprintf(stderr, "usage: koshogi replay [--ascii] FILE\n");
    return 2;
  }
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
  int ms = 1000, limit = 1000;
  bool ascii = false;
  const char *record = NULL, *rules = "";
  for (int i = 0; i < argc; i++) {
    const bool more = i + 1 < argc;
    if (strcmp(argv[i], "--rules") == 0 && more) {
      rules = argv[++i];
    } else if ((strcmp(argv[i], "--black") == 0 || strcmp(argv[i], "--white") == 0) && more) {
      if (parse_player(argv[i + 1], &kinds[argv[i][2] == 'w']) != 0) {
        fprintf(stderr, "koshogi play: %s: human, computer, random or greedy\n", argv[i]);
        return 2;
      }
      i++;
    } else if (strcmp(argv[i], "--ms") == 0 && more) {
      ms = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--limit") == 0 && more) {
      limit = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--record") == 0 && more) {
      record = argv[++i];
    } else if (strcmp(argv[i], "--ascii") == 0) {
      ascii = true;
    } else {
      fprintf(stderr, "koshogi play: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  if (ms < 1 || limit < 1) {
    fprintf(stderr, "koshogi play: --ms and --limit must be positive\n");
    return 2;
  }
  ks_game game;
  if (ks_game_init(&game) != 0) return 1;
  if (apply_rules("play", rules, &game.pos) != 0) {
    ks_game_free(&game);
    return 2;
  }
  rng_state = (uint64_t)time(NULL) | 1;
  print_board(&game.pos, ascii);
  char line[256];
  while (game.result == KS_ONGOING && game.nplies < limit) {
    const int side = game.pos.to_move;
    ks_move move;
    if (kinds[side] != HUMAN) {
      ks_search_info info = {0};
      if (computer_move(kinds[side], &game, ms, &move, &info) != 0) break;
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
  int games = 100, ms = 50, limit = 400;
  uint64_t seed = 1;
  const char *records = NULL, *rules = "";
  player_kind kinds[2];
  int named = 0;
  for (int i = 0; i < argc; i++) {
    const bool more = i + 1 < argc;
    if (strcmp(argv[i], "--games") == 0 && more) games = atoi(argv[++i]);
    else if (strcmp(argv[i], "--ms") == 0 && more) ms = atoi(argv[++i]);
    else if (strcmp(argv[i], "--limit") == 0 && more) limit = atoi(argv[++i]);
    else if (strcmp(argv[i], "--seed") == 0 && more) seed = strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--records") == 0 && more) records = argv[++i];
    else if (strcmp(argv[i], "--rules") == 0 && more) rules = argv[++i];
    else if (named < 2 && parse_player(argv[i], &kinds[named]) == 0 && kinds[named] != HUMAN) named++;
    else {
      fprintf(stderr, "koshogi match: unexpected \"%s\" (players: search, random, greedy)\n", argv[i]);
      return 2;
    }
  }
  if (named != 2 || games < 1 || ms < 1 || limit < 1) {
    fprintf(stderr, "usage: koshogi match [--games N] [--ms M] [--limit PLIES] [--seed S] [--rules R] A B\n");
    return 2;
  }
  ks_position probe;
  ks_start(&probe);
  if (apply_rules("match", rules, &probe) != 0) return 2;
  rng_state = seed * 2654435761u | 1;
  int wins = 0, losses = 0, undecided = 0;
  long plies = 0;
  const double start = now_seconds();
  for (int g = 0; g < games; g++) {
    const int a_color = g % 2; /* A is Black in even-numbered games (counting from 0) */
    ks_game game;
    if (ks_game_init(&game) != 0) return 1;
    game.pos.burn = probe.burn;
    while (game.result == KS_ONGOING && game.nplies < limit) {
      const int side = game.pos.to_move;
      ks_move move;
      if (computer_move(kinds[side == a_color ? 0 : 1], &game, ms, &move, NULL) != 0) break;
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
      if (save_record(&game, path, a_color == KS_BLACK ? argv[argc - 2] : argv[argc - 1],
                      a_color == KS_BLACK ? argv[argc - 1] : argv[argc - 2]) != 0)
        fprintf(stderr, "\nkoshogi match: could not write %s\n", path);
    }
    ks_game_free(&game);
    fprintf(stderr, "\rgame %d of %d: A %d, B %d, undecided %d", g + 1, games, wins, losses, undecided);
  }
  fprintf(stderr, "\n");
  printf("{\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"a_wins\":%d,\"b_wins\":%d,\"undecided\":%d,\"ms\":%d,"
         "\"limit\":%d,\"mean_plies\":%.1f,\"seconds\":%.1f}\n",
         argv[argc - 2], argv[argc - 1], games, wins, losses, undecided, ms, limit, (double)plies / games,
         now_seconds() - start);
  return 0;
}

/* koshogi engine: a line protocol in the style of USI (docs/KOSHOGI.md). */
static int cmd_engine(void) {
  ks_game game;
  if (ks_game_init(&game) != 0) return 1;
  uint8_t burn = KS_BURN_BOTH; /* the rule option, set by "setoption name Burn value ..." */
  char line[8192];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *word = strtok(line, " ");
    if (!word) continue;
    if (strcmp(word, "usi") == 0) {
      printf("id name koshogi\nid author the goita project\n"
             "option name Burn type combo default both var both var enemy\nusiok\n");
    } else if (strcmp(word, "setoption") == 0) {
      char *name_kw = strtok(NULL, " "), *name = strtok(NULL, " "), *value_kw = strtok(NULL, " ");
      char *value = strtok(NULL, " ");
      if (!name_kw || strcmp(name_kw, "name") != 0 || !name || strcmp(name, "Burn") != 0 || !value_kw ||
          strcmp(value_kw, "value") != 0 || !value || (strcmp(value, "both") != 0 && strcmp(value, "enemy") != 0)) {
        printf("info string error: the one option is \"setoption name Burn value both|enemy\"\n");
        continue;
      }
      burn = strcmp(value, "enemy") == 0 ? KS_BURN_ENEMY : KS_BURN_BOTH;
      game.pos.burn = burn; /* for a game not yet started with usinewgame or position */
    } else if (strcmp(word, "isready") == 0) {
      printf("readyok\n");
    } else if (strcmp(word, "usinewgame") == 0) {
      ks_game_free(&game);
      ks_game_init(&game);
      game.pos.burn = burn;
    } else if (strcmp(word, "position") == 0) {
      char *what = strtok(NULL, " ");
      if (!what || strcmp(what, "startpos") != 0) {
        printf("info string error: only \"position startpos [moves ...]\" is understood\n");
        continue;
      }
      ks_game next;
      ks_game_init(&next);
      next.pos.burn = burn;
      char *m = strtok(NULL, " ");
      bool ok = true;
      if (m && strcmp(m, "moves") == 0) {
        int number = 1;
        while (ok && (m = strtok(NULL, " "))) {
          ks_move move;
          char err[256];
          if (next.result != KS_ONGOING) {
            printf("info string error: move %d \"%s\": the game is over\n", number, m);
            ok = false;
          } else if (ks_move_parse(&next.pos, m, &move, err, sizeof err) != 0) {
            printf("info string error: move %d %s\n", number, err);
            ok = false;
          } else {
            ks_game_play(&next, &move);
          }
          number++;
        }
      } else if (m) {
        printf("info string error: expected \"moves\" after startpos\n");
        ok = false;
      }
      if (ok) {
        ks_game_free(&game);
        game = next;
      } else {
        ks_game_free(&next);
      }
    } else if (strcmp(word, "go") == 0) {
      int ms = 1000, depth = 0;
      char *opt;
      while ((opt = strtok(NULL, " "))) {
        char *v = strtok(NULL, " ");
        if (v && strcmp(opt, "movetime") == 0) ms = atoi(v);
        else if (v && strcmp(opt, "depth") == 0) depth = atoi(v);
      }
      ks_move best;
      ks_search_info info;
      if (game.result != KS_ONGOING || ks_search(&game.pos, game.keys, game.nplies + 1, ms > 0 ? ms : 1, depth, &best, &info) != 0) {
        printf("bestmove resign\n");
        continue;
      }
      char text[64];
      ks_move_format(&game.pos, &best, text, sizeof text);
      printf("info depth %d score cp %d nodes %ld time %d\nbestmove %s\n", info.depth, info.score, info.nodes, info.ms,
             text);
    } else if (strcmp(word, "moves") == 0) {
      ks_move *moves = malloc(KS_MAX_MOVES * sizeof *moves);
      if (!moves) continue;
      const int n = ks_legal_moves(&game.pos, moves);
      printf("moves");
      for (int i = 0; i < n; i++) {
        char text[64];
        ks_move_format(&game.pos, &moves[i], text, sizeof text);
        printf(" %s", text);
      }
      printf("\n");
      free(moves);
    } else if (strcmp(word, "d") == 0) {
      print_board(&game.pos, true);
      if (game.result) printf("result %s\n", result_name(&game));
    } else if (strcmp(word, "quit") == 0) {
      break;
    } else {
      printf("info string error: unknown command \"%s\"\n", word);
    }
  }
  ks_game_free(&game);
  return 0;
}

/* koshogi bench: perft 3 from the start (move generation and making moves) and fixed-depth
 * searches from positions of a seeded game (the search), with a signature of the node counts. */
static int cmd_bench(void) {
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

static int usage(void) {
  fprintf(stderr, "usage: koshogi perft [--rules R] [--record F] DEPTH   count move sequences (after F's moves)\n"
                  "       koshogi board [--ascii]       the starting position\n"
                  "       koshogi moves [--record F] [POINT]   legal moves (of the piece on POINT)\n"
                  "       koshogi play [--black P] [--white P] [--ms N] [--ascii] [--record F] [--rules R]\n"
                  "                                     P: human, computer, random, greedy\n"
                  "       koshogi replay [--ascii] FILE  replay a game record\n"
                  "       koshogi match [--games N] [--ms M] [--limit PLIES] [--records DIR] [--rules R] A B\n"
                  "       koshogi engine                the USI-style line protocol\n"
                  "       koshogi bench                 move generation and search speed\n"
                  "R, the rule options: burn=both (the default) or burn=enemy\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const char *cmd = argv[1];
  if (strcmp(cmd, "perft") == 0) return cmd_perft(argc - 2, argv + 2);
  if (strcmp(cmd, "moves") == 0) return cmd_moves(argc - 2, argv + 2);
  if (strcmp(cmd, "play") == 0) return cmd_play(argc - 2, argv + 2);
  if (strcmp(cmd, "replay") == 0) return cmd_replay(argc - 2, argv + 2);
  if (strcmp(cmd, "match") == 0) return cmd_match(argc - 2, argv + 2);
  if (strcmp(cmd, "engine") == 0) return cmd_engine();
  if (strcmp(cmd, "bench") == 0) return cmd_bench();
  if (strcmp(cmd, "board") == 0) {
    ks_position pos;
    ks_start(&pos);
    print_board(&pos, argc > 2 && strcmp(argv[2], "--ascii") == 0);
    return 0;
  }
  return usage();
}

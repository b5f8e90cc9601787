/* koshogi selfplay and koshogi features: see cli_tune.h. */
#include "cli_tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "options.h"
#include "selfplay.h"

/* One game's quiet positions as text, written once its result is known. */
typedef struct game_lines {
  char (*text)[KS_POSITION_TEXT];
  int *to_move;
  int n, capacity;
  bool failed;
} game_lines;

static void keep_quiet(void *ctx, const ks_position *pos, int ply) {
  game_lines *lines = ctx;
  if (lines->failed) return;
  if (lines->n == lines->capacity) {
    const int capacity = lines->capacity ? 2 * lines->capacity : 256;
    void *text = realloc(lines->text, (size_t)capacity * sizeof *lines->text);
    if (text) lines->text = text;
    void *to_move = realloc(lines->to_move, (size_t)capacity * sizeof *lines->to_move);
    if (to_move) lines->to_move = to_move;
    if (!text || !to_move) {
      lines->failed = true;
      return;
    }
    lines->capacity = capacity;
  }
  ks_position_write(pos, ply / 2 + 1, lines->text[lines->n], KS_POSITION_TEXT);
  lines->to_move[lines->n++] = pos->to_move;
}

int cmd_selfplay(int argc, char **argv) {
  uint64_t games = 10, first = 0, nodes = 1000, seed = 1, limit = 600, opening = 8, skip = 20, adjudicate = 4000;
  const cli_option options[] = {
      {"--games", CLI_UINT, "N", &games, "games to play", .lo = 1, .hi = 1000000},
      {"--first", CLI_UINT, "G", &first, "the number of the first game (to continue a run)", .hi = 1000000000},
      {"--nodes", CLI_UINT, "N", &nodes, "the search's nodes for a move", .lo = 1, .hi = 1000000000},
      {"--seed", CLI_UINT, "S", &seed, "the seed of the openings: game G's opening comes from S and G",
       .hi = UINT64_MAX},
      {"--limit", CLI_UINT, "PLIES", &limit, "a game still open after this many plies is drawn", .lo = 1,
       .hi = 100000},
      {"--opening", CLI_UINT, "PLIES", &opening, "random pawn steps before the search plays", .hi = 1000},
      {"--skip", CLI_UINT, "PLIES", &skip, "no position is written before this ply", .hi = 100000},
      {"--adjudicate", CLI_UINT, "SCORE", &adjudicate,
       "both sides' searches scoring at least this for the same side, four plies running, win the game for it "
       "(0: never)",
       .hi = 900000},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "selfplay",
      .about = "The search against itself at a node budget a move, from openings of random pawn steps, for\n"
               "fitting the evaluation (tools/koshogi_fit.py). Writes one line per quiet position (its\n"
               "chosen move neither captures nor shoots): the game's result for the side to move (1, 0.5\n"
               "or 0) and the position's text. The same seed and options write the same lines.\n",
      .examples = "koshogi selfplay --games 200 --nodes 1000 --seed 1 > games.txt\n"
                  "koshogi selfplay --games 100 --first 200 --seed 1 >> games.txt",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  const ks__selfplay_options opt = {(long)nodes, (int)limit, (int)opening, (int)skip, (int)adjudicate, 16};
  game_lines lines = {0};
  int decided = 0;
  for (uint64_t g = first; g < first + games; g++) {
    lines.n = 0;
    int plies;
    const int result = ks__selfplay(&opt, seed * 1000003u + g, keep_quiet, &lines, &plies);
    if (result < 0 || lines.failed) {
      fprintf(stderr, "koshogi selfplay: out of memory\n");
      free(lines.text);
      free(lines.to_move);
      return 1;
    }
    decided += result != KS_NO_CONTEST;
    for (int i = 0; i < lines.n; i++) {
      const int winner = result == KS_BLACK_WINS ? KS_BLACK : result == KS_WHITE_WINS ? KS_WHITE : -1;
      printf("%s %s\n", winner < 0 ? "0.5" : winner == lines.to_move[i] ? "1" : "0", lines.text[i]);
    }
    fflush(stdout);
    fprintf(stderr, "game %llu: %d plies, %s, %d positions; %d of %llu decided\n", (unsigned long long)g, plies,
            result == KS_BLACK_WINS ? "Black wins" : result == KS_WHITE_WINS ? "White wins" : "drawn", lines.n,
            decided, (unsigned long long)(g - first + 1));
  }
  free(lines.text);
  free(lines.to_move);
  return 0;
}

/* Reads one line of standard input into a growing buffer; false at the end. */
static bool read_line(char **buf, size_t *size) {
  size_t len = 0;
  for (;;) {
    if (len + 2 > *size) {
      const size_t grown = *size ? 2 * *size : 4096;
      char *b = realloc(*buf, grown);
      if (!b) return false;
      *buf = b;
      *size = grown;
    }
    if (!fgets(*buf + len, (int)(*size - len), stdin)) return len > 0;
    len += strlen(*buf + len);
    if (len && (*buf)[len - 1] == '\n') {
      (*buf)[--len] = '\0';
      return true;
    }
  }
}

int cmd_features(int argc, char **argv) {
  const cli_command c = {
      .program = "koshogi",
      .name = "features",
      .about = "Reads koshogi selfplay's lines (a result, then a position's text) on standard input and writes,\n"
               "tab-separated: a header of the columns, a line of today's weights, then for each position\n"
               "the result, its move number (a game's positions come in order: a smaller number starts\n"
               "the next game), ks_evaluate's score and the evaluation's features, whose dot product with\n"
               "the weights is that score. Positions a side has lost on the board are left out.\n",
      .examples = "koshogi features < games.txt > features.tsv",
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  printf("result\tmove\teval");
  for (int f = 0; f < KS_EVAL_FEATURES; f++) {
    char name[32];
    ks__eval_feature_name(f, name, sizeof name);
    printf("\t%s", name);
  }
  printf("\nweights\t\t");
  for (int f = 0; f < KS_EVAL_FEATURES; f++) printf("\t%d", ks__eval_weights[f]);
  printf("\n");
  char *line = NULL;
  size_t size = 0;
  int status = 0;
  for (long number = 1; read_line(&line, &size); number++) {
    char *space = strchr(line, ' ');
    ks_position pos;
    int move_number;
    char err[256];
    if (!space || !(strncmp(line, "1 ", 2) == 0 || strncmp(line, "0 ", 2) == 0 || strncmp(line, "0.5 ", 4) == 0)) {
      fprintf(stderr, "koshogi features: line %ld: not a result (1, 0.5 or 0) and a position\n", number);
      status = 1;
      break;
    }
    if (ks_position_parse(space + 1, &pos, &move_number, err, sizeof err) != 0) {
      fprintf(stderr, "koshogi features: line %ld: %s\n", number, err);
      status = 1;
      break;
    }
    int features[KS_EVAL_FEATURES];
    if (ks__eval_features(&pos, features) != 0) continue;
    *space = '\0';
    printf("%s\t%d\t%d", line, move_number, ks_evaluate(&pos));
    for (int f = 0; f < KS_EVAL_FEATURES; f++) printf("\t%d", features[f]);
    printf("\n");
  }
  free(line);
  return status;
}

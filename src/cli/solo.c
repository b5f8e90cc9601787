/* goita solo: the memory game "Gardes" of RULES.md 9 in the terminal, in line mode. The grid
 * shows the guards and the pieces turned this turn; the rest is face-down, and remembering
 * it is the game. Cells are named by row and column: a1 ... d8. */
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static void show(const goita_solo *g, bool ascii) {
  uint8_t grid[GOITA_SOLO_CELLS];
  goita_solo_view(g, grid);
  const uint32_t occupied = goita_solo_occupied(g);
  printf("\n    1  2  3  4  5  6  7  8\n");
  for (int row = 0; row < GOITA_SOLO_ROWS; row++) {
    printf(" %c ", 'a' + row);
    for (int col = 0; col < GOITA_SOLO_COLS; col++) {
      const int c = row * GOITA_SOLO_COLS + col;
      if (!(occupied >> c & 1u))
        printf(ascii ? " . " : " ・");
      else if (!grid[c])
        printf(ascii ? " # " : " ＃");
      else
        printf(ascii ? " %s " : " %s", cli_mark(grid[c], ascii));
    }
    printf("\n");
  }
  printf("Score %d (of %d), turn %d. Discard:", g->score, GOITA_SOLO_MAX_SCORE, g->turns);
  bool any = false;
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--)
    for (int c = 0; c < g->discard[k]; c++, any = true) printf(" %s", cli_mark(k, ascii));
  printf("%s\n", any ? "" : " none");
}

/* Reads a cell name ("b5"); -1 when it is not one. */
static int read_cell(const char *text) {
  if (strlen(text) != 2) return -1;
  const int row = text[0] - 'a', col = text[1] - '1';
  if (row < 0 || row >= GOITA_SOLO_ROWS || col < 0 || col >= GOITA_SOLO_COLS) return -1;
  return row * GOITA_SOLO_COLS + col;
}

static char *read_line(const char *prompt) {
  printf("%s", prompt);
  fflush(stdout);
  size_t cap = 0;
  char *line = NULL;
  if (getline(&line, &cap, stdin) < 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\r\n")] = '\0';
  if (!isatty(0)) printf("%s\n", line);
  return line;
}

int cmd_solo(int argc, char **argv) {
  uint64_t seed = 0;
  bool seeded = false, ascii = false;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--seed") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--seed", v, &seed)) return 2;
      seeded = true;
    } else if (strcmp(argv[i], "--ascii") == 0) {
      ascii = true;
    } else {
      fprintf(stderr, "goita solo: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  setlocale(LC_ALL, "");
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) ascii = true;
  if (!seeded) seed = goita_seed_mix((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
  goita_solo g;
  goita_solo_start(&g, seed);
  printf("goita solo (Gardes), seed %llu. Each turn, turn two face-down pieces (e.g. b2 c7). Pairs\n"
         "of one kind among the visible pieces and the guards in the corners are taken and scored\n"
         "(king 5, rook and bishop 4, gold and silver 3, knight and lance 2, pawn 1); with no pair,\n"
         "remove one piece to the discard. The pieces turned go face-down again: remember them.\n",
         (unsigned long long)seed);
  bool redraw = true;
  while (g.phase != GOITA_SOLO_OVER) {
    if (redraw) show(&g, ascii);
    redraw = true;
    const char *prompt = g.phase == GOITA_SOLO_TURN     ? "turn two> "
                         : g.phase == GOITA_SOLO_CHOOSE ? "three of a kind: take which two> "
                                                        : "no pair: remove which piece> ";
    char *line = read_line(prompt);
    if (!line) {
      printf("\nLeft the game with %d points.\n", g.score);
      return 0;
    }
    char first[16] = "", second[16] = "";
    const int words = sscanf(line, "%15s %15s", first, second);
    free(line);
    if (words >= 1 && (strcmp(first, "quit") == 0 || strcmp(first, "q") == 0)) {
      printf("Left the game with %d points.\n", g.score);
      return 0;
    }
    const int a = words >= 1 ? read_cell(first) : -1, b = words >= 2 ? read_cell(second) : -1;
    goita_error err;
    int st;
    if (g.phase == GOITA_SOLO_REMOVE) {
      st = a >= 0 && words == 1 ? goita_solo_remove(&g, a, &err)
                                : goita_error_set(&err, GOITA_EPARSE, -1, "name one cell, e.g. b5");
    } else if (g.phase == GOITA_SOLO_TURN && goita_solo_face_down(&g) == 1 && a >= 0 && words == 1) {
      /* the last face-down piece is turned alone */
      const int m = g.cell[a], before = g.score;
      st = goita_solo_turn(&g, a, a, &err);
      if (st == GOITA_OK) printf("Turned: %s at %s.%s\n", cli_mark(m, ascii), first, g.score > before ? " A pair." : "");
    } else if (a < 0 || b < 0 || words != 2) {
      st = goita_error_set(&err, GOITA_EPARSE, -1,
                           goita_solo_face_down(&g) == 1 && g.phase == GOITA_SOLO_TURN
                               ? "one face-down piece is left: name its cell"
                               : "name two cells, e.g. b2 c7 (rows a-d, columns 1-8)");
    } else {
      const int second_cell = b;
      const bool turning = g.phase == GOITA_SOLO_TURN;
      const int ma = g.cell[a], mb = g.cell[second_cell], before = g.score;
      st = turning ? goita_solo_turn(&g, a, second_cell, &err) : goita_solo_choose(&g, a, second_cell, &err);
      if (st == GOITA_OK && turning) /* what was turned, before it goes face-down again */
        printf("Turned: %s at %s, %s at %s.", cli_mark(ma, ascii), first, cli_mark(mb, ascii), second);
      if (st == GOITA_OK && g.score > before) printf(" A pair: +%d.", g.score - before);
      if (st == GOITA_OK) printf("\n");
    }
    if (st != GOITA_OK) {
      redraw = false;
      /* cells in messages are numbered 0-31; name them as the player does */
      char *number = strstr(err.message, "cell ");
      if (number && err.position >= 0)
        printf("Not here: cell %c%d: %s\n", 'a' + err.position / GOITA_SOLO_COLS, err.position % GOITA_SOLO_COLS + 1,
               strchr(number + 5, ' ') ? strchr(number + 5, ' ') + 1 : err.message);
      else
        printf("Not here: %s\n", err.message);
    }
  }
  show(&g, ascii);
  printf("Game over after %d turns: %d points of %d.\n", g.turns, g.score, GOITA_SOLO_MAX_SCORE);
  return 0;
}

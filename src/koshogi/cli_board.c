/* The Ko shogi board in the terminal: 19 by 19, files 19 to 1 from the left, ranks a to s from the
 * top, in kanji (117 columns) or in letters (79 columns), with the last move marked. */
#define _DEFAULT_SOURCE /* TIOCGWINSZ */
#include "cli_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* A face as two kanji (full width) for the board: the first two characters of its name, and
 * a + before faces that move as a starting type (+CH shows 車総 like a chariot unit); `mark`
 * ('*' for the piece that just moved) takes the place of that +. */
static void kanji_cell(ks_piece p, char mark, char *out, size_t size) {
  const ks_face f = ks_face_of(p);
  const char *k = ks_face_kanji(f);
  int bytes = 0, chars = 0;
  while (k[bytes] && chars < 2) {
    bytes++;
    while (k[bytes] && ((unsigned char)k[bytes] & 0xc0) == 0x80) bytes++;
    chars++;
  }
  const bool reused = f >= KS_PAC;
  snprintf(out, size, "%s%c%.*s%s", ks_color_of(p) == KS_WHITE ? "v" : " ", mark ? mark : reused ? '+' : ' ', bytes,
           k, chars < 2 ? "　" : "");
}

/* A face's ID for the letter board, White's in lower case, after the mark ('*' or ' '), right
 * aligned in 4 columns. */
static void ascii_cell(ks_piece p, char mark, char *out, size_t size) {
  char id[8];
  snprintf(id, sizeof id, "%s", ks_face_id(ks_face_of(p)));
  if (ks_color_of(p) == KS_WHITE)
    for (char *c = id; *c; c++)
      if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  char text[sizeof id + 1];
  snprintf(text, sizeof text, "%c%s", mark ? mark : ' ', id);
  snprintf(out, size, "%4s", text);
}

/* What the last move did to each point: '*' where it ended, 'o' the point it left, 'x' a point
 * it emptied (a capture, a shot or a burn). */
static void last_marks(const ks_position *pos, const ks_position *before, const ks_move *last, char *marks) {
  memset(marks, 0, KS_POINTS);
  if (!last || !before) return;
  for (int p = 0; p < KS_POINTS; p++)
    if (before->board[p] && !pos->board[p]) marks[p] = 'x';
  if (!pos->board[last->from]) marks[last->from] = 'o';
  marks[last->to] = '*';
}

/* The board, its marks and the lines under it (cli_board.h). */
void print_board_last(const ks_position *pos, bool ascii, const ks_position *before, const ks_move *last,
                      const char *played) {
  char marks[KS_POINTS];
  last_marks(pos, before, last, marks);
  printf("   ");
  for (int file = KS_SIZE; file >= 1; file--) printf(ascii ? "%4d" : "%6d", file);
  printf("\n");
  for (int row = 0; row < KS_SIZE; row++) {
    printf(" %c ", 'a' + row);
    for (int col = 0; col < KS_SIZE; col++) {
      const int point = row * KS_SIZE + col;
      const ks_piece p = pos->board[point];
      const char mark = marks[point];
      char cell[32];
      if (p && ascii) ascii_cell(p, mark, cell, sizeof cell);
      else if (p) kanji_cell(p, mark, cell, sizeof cell);
      else if (ascii) snprintf(cell, sizeof cell, "   %c", mark ? mark : '.');
      else snprintf(cell, sizeof cell, "    %s", mark == 'o' ? "○" : mark == 'x' ? "×" : "・");
      printf("%s", cell);
    }
    printf("\n");
  }
  if (last && played)
    printf("Last move: %s   (* where it ended, %s where it began, %s what it took)\n", played, ascii ? "o" : "○",
           ascii ? "x" : "×");
  printf("%s to move%s\n", pos->to_move == KS_BLACK ? "Black" : "White",
         ascii ? " (Black upper case, White lower case)" : " (v: White)");
}

/* The board without marks. */
void print_board(const ks_position *pos, bool ascii) { print_board_last(pos, ascii, NULL, NULL, NULL); }

/* The terminal's width from the kernel (TIOCGWINSZ), 0 when standard output is no terminal. */
int terminal_columns(void) {
  struct winsize size;
  if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

/* A point as KOSHOGI-RULES.md 7.1 writes it, with nothing after it. */
int parse_point(const char *text) {
  int file = 0, used = 0;
  char rank = 0;
  if (sscanf(text, "%d%c%n", &file, &rank, &used) != 2 || text[used] || file < 1 || file > KS_SIZE || rank < 'a' ||
      rank > 's')
    return -1;
  return ks_point(file, rank - 'a');
}

/* The warning before a kanji board too wide for the terminal. */
void warn_if_narrow(bool ascii) {
  const int columns = terminal_columns();
  if (!ascii && columns > 0 && columns < BOARD_KANJI_COLUMNS)
    printf("(The kanji board is %d columns wide, this terminal %d: --ascii draws it in %d.)\n", BOARD_KANJI_COLUMNS,
           columns, BOARD_ASCII_COLUMNS);
}

/* Every legal move with its text (cli_board.h). */
int legal_moves_written(const ks_position *pos, ks_move **moves, char (**texts)[KS_MOVE_TEXT]) {
  const int n = ks_legal_moves_alloc(pos, moves);
  *texts = n < 0 ? NULL : malloc((size_t)(n ? n : 1) * sizeof **texts);
  if (*texts && ks_moves_format(pos, *moves, n, *texts) == 0) return n;
  free(*moves);
  free(*texts);
  *moves = NULL;
  *texts = NULL;
  return -1;
}

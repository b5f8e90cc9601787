/* The board in the terminal for the koshogi command: kanji or letters, the last move marked. */
#ifndef KOSHOGI_CLI_BOARD_H
#define KOSHOGI_CLI_BOARD_H

#include <stdbool.h>

#include "koshogi/koshogi.h"

/* The columns the two boards take. */
#define BOARD_ASCII_COLUMNS 79
#define BOARD_KANJI_COLUMNS 117

/* Prints a position: in kanji (v marks White's pieces) or in letters (ascii: Black upper case). */
void print_board(const ks_position *pos, bool ascii);

/* print_board with the last move marked (last may be NULL): * before the piece that moved, o on
 * the point it left, x on the points it emptied by capturing, shooting or burning; then a line
 * naming the move (its text in `played`, e.g. "12... CH-7h"). */
void print_board_last(const ks_position *pos, bool ascii, const ks_position *before, const ks_move *last,
                      const char *played);

/* Every legal move of pos (*moves) with its text (*texts), written in one pass (ks_moves_format);
 * free both. Returns their number, or -1 when out of memory (both NULL). */
int legal_moves_written(const ks_position *pos, ks_move **moves, char (**texts)[KS_MOVE_TEXT]);

/* Reads a point ("9p", "10j": a file 1-19 and a rank a-s, nothing after); -1 when text is none. */
int parse_point(const char *text);

/* Before a kanji board on a terminal narrower than it: a line saying so, and how to get letters. */
void warn_if_narrow(bool ascii);

/* The width of the terminal on standard output, or 0 when it is not a terminal. */
int terminal_columns(void);

#endif

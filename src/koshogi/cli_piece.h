/* koshogi piece: help for every piece, drawn from the library's data (src/koshogi/about.c). */
#ifndef KOSHOGI_CLI_PIECE_H
#define KOSHOGI_CLI_PIECE_H

#include <stdbool.h>
#include <stdio.h>

/* koshogi piece [--white] [--at POINT] [PIECE]: the piece alone on an empty board with its
 * destinations, its promotion and its powers; without PIECE, the legend of every piece. */
int cmd_piece(int argc, char **argv);

/* Prints the legend within 80 columns: every face's ID and kanji, six to a line, or with its name
 * too (names), two to a line. */
void print_piece_legend(FILE *out, bool names);

#endif

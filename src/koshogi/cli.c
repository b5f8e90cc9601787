/* koshogi: the Ko shogi command (docs/KOSHOGI.md). So far: perft from the starting position and
 * the board; play, records and the engine mode follow the rules library. */
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

/* The board in ASCII: Black's pieces upper case, White's lower case, promoted faces with +. */
static void print_board(const ks_position *pos) {
  printf("   ");
  for (int file = KS_SIZE; file >= 1; file--) printf("%4d", file);
  printf("\n");
  for (int row = 0; row < KS_SIZE; row++) {
    printf("  %c", 'a' + row);
    for (int col = 0; col < KS_SIZE; col++) {
      const ks_piece p = pos->board[row * KS_SIZE + col];
      char text[8] = ".";
      if (p) snprintf(text, sizeof text, "%s", ks_face_id(ks_face_of(p)));
      if (p && ks_color_of(p) == KS_WHITE)
        for (char *c = text; *c; c++)
          if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
      printf("%4s", text);
    }
    printf("\n");
  }
  printf("%s to move\n", pos->to_move == KS_BLACK ? "Black" : "White");
}

static int usage(void) {
  fprintf(stderr, "usage: koshogi perft DEPTH      count move sequences from the starting position\n"
                  "       koshogi board            show the starting position\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  ks_position pos;
  ks_start(&pos);
  if (strcmp(argv[1], "perft") == 0) {
    char *end = NULL;
    const long depth = argc == 3 ? strtol(argv[2], &end, 10) : -1;
    if (argc != 3 || !end || *end || depth < 1 || depth > 8) {
      fprintf(stderr, "koshogi perft: DEPTH must be a number from 1 to 8\n");
      return 2;
    }
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
  if (strcmp(argv[1], "board") == 0) {
    print_board(&pos);
    return 0;
  }
  return usage();
}

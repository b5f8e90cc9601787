/* koshogi piece (also "koshogi help PIECE"): a piece alone on an empty board with the points it
 * reaches, its promotion and its powers, each with the section of KOSHOGI-RULES.md that gives it.
 * Everything shown comes from the library (ks_face_describe, ks_face_reach): nothing about a
 * piece is written here a second time. */
#include "cli_piece.h"

#include "cli_board.h"

#include <stdbool.h>
#include <string.h>

#include "koshogi/koshogi.h"
#include "options.h"

/* Draws the board with the piece on `at` (its ID, lower case for White) and its reach: * a point
 * it can move to, + one where it may also promote. 60 columns. */
static void draw_reach(const ks_face_about *a, int color, int at, const uint8_t *reach) {
  printf("   ");
  for (int file = KS_SIZE; file >= 1; file--) printf("%3d", file);
  printf("\n");
  for (int row = 0; row < KS_SIZE; row++) {
    printf(" %c ", 'a' + row);
    for (int col = 0; col < KS_SIZE; col++) {
      const int p = row * KS_SIZE + col;
      const char *mark = reach[p] & KS_REACH_PROMOTES ? "+" : reach[p] ? "*" : ".";
      if (p == at) {
        char id[8];
        snprintf(id, sizeof id, "%s", a->id);
        if (color == KS_WHITE)
          for (char *c = id; *c; c++) *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        printf("%3s", id);
      } else {
        printf("%3s", mark);
      }
    }
    printf("\n");
  }
}

/* The promotion line: what it becomes, and how. */
static void print_promotion(const ks_face_about *a) {
  if (a->promotes == KS_EMPTY) {
    printf("Promotion: none (KOSHOGI-RULES.md 5.1)%s\n", a->id[0] == '+' ? ": it is promoted already" : "");
    return;
  }
  ks_face_about to;
  ks_face_describe(a->promotes, &to);
  printf("Promotion: to %s %s, %s\n"
         "  (koshogi piece %s). Optional on a move that starts or lands in the promotion\n"
         "  zone (5.2); compulsory on the captures below (5.3).\n",
         to.id, to.kanji, to.name, to.id);
}

/* Prints "- TEXT (SECTION)" wrapped at 78 columns, the lines after the first indented. */
static void print_item(const char *text, const char *section) {
  char item[400];
  snprintf(item, sizeof item, "- %s (%s)", text, section);
  const char *p = item;
  int width = 78;
  while ((int)strlen(p) > width) {
    int cut = width;
    while (cut > 0 && p[cut] != ' ') cut--;
    if (cut == 0) break;
    printf("%.*s\n  ", cut, p);
    p += cut + 1;
    width = 76;
  }
  printf("%s\n", p);
}

/* Prints everything about one face; `at` is the point it stands on, `color` its side. */
static int describe(ks_face face, int color, int at) {
  ks_face_about a;
  uint8_t reach[KS_POINTS];
  if (ks_face_describe(face, &a) != 0) return 1;
  const int points = ks_face_reach(face, color, at, reach);
  if (points < 0) return 1;
  char where[8];
  ks_point_format(at, where);
  const char *paren = strstr(a.entry, " (");
  printf("%s %s  %s\nRule: docs/KOSHOGI-RULES.md %s, %.*s\n", a.id, a.kanji, a.name, a.section,
         paren ? (int)(paren - a.entry) : (int)strlen(a.entry), a.entry);
  if (a.moves_as != face) {
    ks_face_about like;
    ks_face_describe(a.moves_as, &like);
    printf("Moves as: %s %s, %s, and counts as that type for the rules (D37)\n", like.id, like.kanji,
           like.name);
  }
  printf("Betza: %s (a reminder: the words of 3.4 decide)\n", a.betza);
  printf("%s on %s, alone on an empty board (%s's forward is %s): %d point%s\n", color ? "White" : "Black", where,
         color ? "White" : "Black", color ? "down" : "up", points, points == 1 ? "" : "s");
  draw_reach(&a, color, at, reach);
  printf("  * a point it moves to   + there it may also promote (the zone: 5.2)\n");
  if (reach[at] & KS_REACH_PASS) printf("It may pass: a move of several legs may end on its own point (4.5)\n");
  print_promotion(&a);
  if (a.reverts) printf("Reverts to: %s when the rules say (5.5)\n", ks_face_id(a.reverts));
  if (a.shots) printf("Shots: %d a move, up to %d point%s away\n", a.shots, a.shot_range, a.shot_range == 1 ? "" : "s");
  for (unsigned power = 1; power <= a.powers; power <<= 1) {
    const char *text, *text_ja, *section;
    if ((a.powers & power) && ks_power_describe(power, &text, &text_ja, &section) == 0) print_item(text, section);
  }
  ks_face_note notes[KS_MAX_FACE_NOTES];
  const int nnotes = ks_face_notes(face, notes);
  for (int i = 0; i < nnotes; i++) print_item(notes[i].text, notes[i].section);
  return 0;
}

/* The columns a UTF-8 text takes in a terminal: kanji take two. */
static int columns(const char *text) {
  int n = 0;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++)
    if ((*c & 0xc0) != 0x80) n += *c >= 0xe0 ? 2 : 1;
  return n;
}

/* The legend, in columns measured as the terminal shows them (cli_piece.h). */
void print_piece_legend(FILE *out, bool names) {
  const int width = names ? 39 : 13, per_line = names ? 2 : 6;
  for (int f = KS_EMPTY + 1, k = 0; f < KS_FACES; f++, k++) {
    ks_face_about a;
    ks_face_describe((ks_face)f, &a);
    const char *paren = strstr(a.name, " (");
    char cell[96];
    snprintf(cell, sizeof cell, "%-3s %s%s%.*s", a.id, a.kanji, names ? " " : "",
             names ? (paren ? (int)(paren - a.name) : (int)strlen(a.name)) : 0, a.name);
    const bool last = k % per_line == per_line - 1 || f == KS_FACES - 1;
    const int pad = last ? 0 : width - columns(cell);
    fprintf(out, "%s%*s%s", cell, last ? 0 : pad > 1 ? pad : 1, "", last ? "\n" : "");
  }
}

/* Reads --at POINT for the option table. */
static bool read_point(const char *text, void *target, char *why, size_t size) {
  *(int *)target = parse_point(text);
  if (*(int *)target >= 0) return true;
  snprintf(why, size, "a point is a file and a rank, 1a to 19s");
  return false;
}

/* koshogi piece: one face's help, or the legend without a PIECE (cli_piece.h). */
int cmd_piece(int argc, char **argv) {
  bool white = false;
  int at = ks_point(10, 9);
  const cli_option options[] = {
      {.name = "--white", .kind = CLI_FLAG, .target = &white, .help = "show it as White's (forward is down)"},
      {.name = "--at", .kind = CLI_READ, .value = "POINT", .target = &at, .help = "the point it stands on",
       .fallback = "10j", .read = read_point},
  };
  const cli_command c = {
      .program = "koshogi",
      .name = "piece",
      .operands = "[PIECE]",
      .about = "What a piece does: alone on an empty board with every point it reaches in one move, its\n"
               "promotion and its powers, each with its section of docs/KOSHOGI-RULES.md. PIECE is an ID\n"
               "as the notation writes it (CH, +CH, sm); without it, every piece's ID, kanji and name.\n"
               "koshogi help PIECE is the same.\n",
      .examples = "koshogi piece CH\nkoshogi help +SM\nkoshogi piece --white --at 3c LB\nkoshogi piece",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const char *id = NULL;
  const int parsed = cli_parse_one_operand(&c, argc, argv, "piece", NULL, &id);
  if (parsed >= 0) return parsed;
  if (!id) {
    print_piece_legend(stdout, true);
    return 0;
  }
  const ks_face face = ks_face_by_id(id);
  if (face == KS_EMPTY) return cli_usage_error(&c, "\"%s\" is no piece ID (koshogi piece lists them)", id);
  return describe(face, white ? KS_WHITE : KS_BLACK, at);
}

/* The table of goita play, drawn with curses: the four territories around the table (each a
 * row of face-down and defending pieces over a row of attacks, as RULES.md 2 lays them out),
 * the person's hand at the bottom, whose turn it is and the attack to answer in the middle,
 * the scores and the messages of play.c on the right, and the line being typed. Only the
 * person's view is drawn: others' face-down pieces are blank tiles. */
#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "play.h"

/* The smallest terminal the table is drawn on: the table's 44 columns and 18 rows, a side
 * panel of 27 columns with room for 13 rows of messages or more, the keys and the prompt. */
#define MIN_COLS 72
#define MIN_ROWS 22
#define TABLE_COLS 44 /* the left part: the table; the rest: scores and messages */
#define HAND_X 11     /* where the hand starts after its label "Your hand:" */

/* Where a page of the side panel starts: message[message], from its row'th wrapped row. */
typedef struct panel_top {
  int message, row;
} panel_top;

bool tui_start(session *s) {
  (void)s;
  if (!initscr()) return false;
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  timeout(250); /* getch wakes up now and then, so Ctrl-C is seen without a key */
  return true;
}

void tui_stop(session *s) {
  (void)s;
  endwin();
}

static const char *piece(const session *s, int mark) {
  return mark ? cli_mark(mark, s->o->ascii) : (s->o->ascii ? "#" : "＃");
}

/* One territory: its label, then the block row over the attack row, at (y, x). */
static void territory(const session *s, const goita_view *v, int seat, int y, int x) {
  const bool turn = v->phase != GOITA_PHASE_OVER && v->turn == seat;
  if (turn) attron(A_BOLD);
  const bool partner = v->players == 4 && seat == (s->o->seat + 2) % 4;
  if (seat == s->o->seat)
    mvprintw(y, x, "%syou: %d in hand", turn ? "> " : "", v->size[seat]);
  else
    mvprintw(y, x, "%sseat %d (%s) %d", turn ? "> " : "", seat + 1, partner ? "partner" : "opp", v->size[seat]);
  if (turn) attroff(A_BOLD);
  const int slots = goita_rules_hand_size(&v->rules) / 2;
  for (int i = 0; i < slots; i++) {
    const int cx = x + 3 * i;
    if (i >= v->plays[seat]) {
      mvprintw(y + 1, cx, s->o->ascii ? " ." : "・");
      mvprintw(y + 2, cx, s->o->ascii ? " ." : "・");
      continue;
    }
    /* a face-down piece: a tile for others, the piece underlined for the person */
    const bool down = v->face_down[seat] >> i & 1;
    if (down && v->block_row[seat][i]) attron(A_UNDERLINE);
    mvprintw(y + 1, cx, "%s%s", s->o->ascii ? " " : "", piece(s, v->block_row[seat][i]));
    if (down && v->block_row[seat][i]) attroff(A_UNDERLINE);
    mvprintw(y + 2, cx, "%s%s", s->o->ascii ? " " : "", piece(s, v->attack_row[seat][i]));
  }
}

/* The columns one character takes on the terminal, and its length in *bytes; a byte that does
 * not start a character of the locale counts as one column, so nothing stops the drawing. */
static int char_width(const char *c, int *bytes) {
  mbstate_t state;
  memset(&state, 0, sizeof state);
  wchar_t wc;
  const size_t n = mbrtowc(&wc, c, MB_CUR_MAX, &state);
  if (n == 0 || n == (size_t)-1 || n == (size_t)-2) {
    *bytes = 1;
    return 1;
  }
  *bytes = (int)n;
  const int w = wcwidth(wc);
  return w < 0 ? 1 : w;
}

/* The first row of text that fits in width columns: it ends before a run of spaces or after a
 * comma or slash (round records and paths have no spaces), and inside a word only when the word
 * alone is wider than the row. Sets *end past the row's last character; returns where the next
 * row starts (the end of the text when it all fits). */
static const char *fit_row(const char *text, int width, const char **end) {
  const char *c = text, *cut = NULL;
  int used = 0;
  while (*c) {
    if (*c == ' ' && c > text && c[-1] != ' ') cut = c;
    int bytes;
    const int w = char_width(c, &bytes);
    if (used + w > width) {
      if (*c == ' ') cut = c;
      if (!cut) cut = c > text ? c : c + bytes; /* at least one character a row, so rows advance */
      break;
    }
    used += w;
    c += bytes;
    if (c[-1] == ',' || c[-1] == '/') cut = c;
  }
  if (!*c) cut = c;
  *end = cut;
  while (*end > text && (*end)[-1] == ' ') (*end)--;
  return cut + strspn(cut, " ");
}

/* Word-wraps text to width columns, the rows after the first indented two more than the text
 * itself (so a wrapped line reads as one), and draws rows first to first + n - 1 of it from
 * row y at column x. Returns how many rows the whole text takes, so the panel can be laid out
 * by calling it with n = 0. */
static int wrap(const char *text, int width, int y, int x, int first, int n) {
  const int lead = (int)strspn(text, " ");
  const int hang = lead + 2 < width / 2 ? lead + 2 : width / 2;
  int row = 0;
  const char *c = text;
  do {
    const int indent = row ? hang : 0;
    const char *end;
    const char *next = fit_row(c, width - indent, &end);
    if (row >= first && row < first + n) mvaddnstr(y + row - first, x + indent, c, (int)(end - c));
    row++;
    c = next;
  } while (*c);
  return row;
}

/* Formats a line and wraps it at (y, x) in width columns; returns the rows it took. */
static int wrap_line(int y, int x, int width, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int wrap_line(int y, int x, int width, const char *fmt, ...) {
  char text[PLAY_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return wrap(text, width, y, x, 0, INT_MAX);
}

/* The messages in the side panel, room rows from row y in width columns, each one whole (only
 * a message longer than the room is shown a room at a time). Without a page, the latest ones.
 * With one, the messages from *page when they do not all fit: as many as fit, with *next set to
 * where the next page starts; returns whether it drew such a page. */
static bool draw_messages(const session *s, int y, int room, int width, const panel_top *page, panel_top *next) {
  int start[PLAY_MESSAGES + 1]; /* the panel row where each message starts, all wrapped */
  start[0] = 0;
  for (int i = 0; i < s->nmessages; i++) start[i + 1] = start[i] + wrap(s->message[i], width, 0, 0, 0, 0);
  const int total = start[s->nmessages];
  int top = total > room ? total - room : 0, bottom = total;
  for (int i = 0; i < s->nmessages; i++)
    if (start[i] >= top) { /* none: the last message alone is longer than the room */
      top = start[i];
      break;
    }
  bool paged = false;
  if (page && page->message < s->nmessages) {
    const int rows = start[page->message + 1] - start[page->message];
    const int from = start[page->message] + (page->row < rows ? page->row : rows - 1);
    if (total - from > room) {
      paged = true;
      top = from;
      /* the first message that does not end within the room (the last one does not: the
       * messages from the page on are longer than the room) */
      int j = page->message;
      while (start[j + 1] <= top + room) j++;
      if (j > page->message) {
        bottom = start[j];
        *next = (panel_top){j, 0};
      } else {
        bottom = top + room;
        *next = (panel_top){j, from - start[j] + room};
      }
    }
  }
  for (int i = 0; i < s->nmessages; i++) {
    const int a = start[i] > top ? start[i] : top, b = start[i + 1] < bottom ? start[i + 1] : bottom;
    if (a < b) wrap(s->message[i], width, y + a - top, TABLE_COLS, a - start[i], b - a);
  }
  return paged;
}

/* Draws the table, the side panel (the page from *page when given, see draw_messages) and the
 * prompt with what is typed; returns whether a page with more after it is on the screen. */
static bool draw(session *s, const char *prompt, const char *input, const panel_top *page, panel_top *next) {
  erase();
  int rows, cols;
  getmaxyx(stdscr, rows, cols);
  if (rows < MIN_ROWS || cols < MIN_COLS) {
    const int y = wrap_line(0, 0, cols - 1, "The terminal is too small for the table: %dx%d, it needs %dx%d.", cols,
                            rows, MIN_COLS, MIN_ROWS);
    wrap_line(y + 1, 0, cols - 1, "Make the window larger, or play in line mode: goita play --plain");
    refresh();
    return page != NULL; /* the pages wait for a larger terminal */
  }
  goita_view v;
  goita_game_view(&s->game, s->o->seat, &v);
  const int me = s->o->seat, n = v.players;
  /* The person at the bottom; the others around the table in turn order. */
  territory(s, &v, me, 12, 14);
  if (n == 4) {
    territory(s, &v, (me + 1) % 4, 6, 28);
    territory(s, &v, (me + 2) % 4, 1, 14);
    territory(s, &v, (me + 3) % 4, 6, 0);
  } else if (n == 3) {
    territory(s, &v, (me + 1) % 3, 4, 28);
    territory(s, &v, (me + 2) % 3, 4, 0);
  } else {
    territory(s, &v, (me + 1) % 2, 1, 14);
  }
  /* The middle: the attack to answer. */
  if (v.phase == GOITA_PHASE_PLAY && v.attack != GOITA_NONE)
    mvprintw(9, 12, "attack: %s %s", cli_mark(v.attack, s->o->ascii), goita_mark_english(v.attack));
  else if (v.phase == GOITA_PHASE_PLAY)
    mvprintw(9, 12, "%s to lead", play_who(s, v.turn));
  else if (v.phase == GOITA_PHASE_DECIDE)
    mvprintw(9, 12, "5 pawns shown: %s %s", play_who(s, v.turn), v.turn == s->o->seat ? "decide" : "decides");
  /* The hand, 3 columns a piece: after its label when the whole hand fits there beside the
   * panel (8 and 10 pieces), else under it from the left edge (12 pieces with 2 players). */
  mvprintw(16, 0, "Your hand:");
  const bool under = HAND_X + 3 * goita_rules_hand_size(&v.rules) > TABLE_COLS;
  const int hy = under ? 17 : 16;
  int x = under ? 0 : HAND_X;
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--) {
    const int count = k == GOITA_KING ? 0 : v.hand[k];
    if (k == GOITA_KING)
      for (int b = 0; b < 2; b++)
        if (v.kings >> b & 1) {
          mvprintw(hy, x, s->o->ascii ? " %s" : "%s", cli_mark(GOITA_MARK_OU + b, s->o->ascii));
          mvprintw(hy + 1, x, " 8");
          x += 3;
        }
    for (int c = 0; c < count; c++) {
      mvprintw(hy, x, s->o->ascii ? " %s" : "%s", cli_mark(k, s->o->ascii));
      mvprintw(hy + 1, x, " %d", k);
      x += 3;
    }
  }
  /* Scores and messages on the right, wrapped to the panel's width. */
  const goita_game *g = &s->game;
  const int width = cols - TABLE_COLS - 1;
  /* the seed when it fits on the round's line (a seed of 20 digits does not at 72 columns; the
   * first message and the record keep it) */
  char round[64];
  const int len = snprintf(round, sizeof round, "Round %d   seed %llu", g->round_index, (unsigned long long)s->o->seed);
  if (len > width) snprintf(round, sizeof round, "Round %d", g->round_index);
  int y = wrap_line(0, TABLE_COLS, width, "%s", round);
  for (int side = 0; side < goita_rules_sides(&g->rules); side++) {
    const bool mine = side == goita_rules_side_of(&g->rules, me);
    /* the short names of the territories, so that a side's line fits the narrowest panel */
    char name[24];
    if (g->rules.players == 4)
      snprintf(name, sizeof name, "%s", mine ? "your team" : "their team");
    else if (mine)
      snprintf(name, sizeof name, "you");
    else
      snprintf(name, sizeof name, "seat %d (opp)", side + 1);
    y += wrap_line(y, TABLE_COLS, width, "%-14s %4d / %d", name,
                   goita_rules_shown_points(&g->rules, g->score[side]),
                   goita_rules_shown_points(&g->rules, g->rules.target));
  }
  const bool more = draw_messages(s, y + 1, rows - 4 - y, width, page, next);
  /* The keys, as many as fit on their line: the shortest form fits the narrowest table. */
  static const char *const keys[] = {
      "Keys: two digits (defence or face-down, then attack), p pass, hint, moves, help, quit",
      "Keys: two digits (defence or face-down, then attack), p pass, hint, help, quit",
      "Keys: 2 digits (defence/face-down, attack), p pass, hint, help, quit",
  };
  int k = 0;
  while (k + 1 < (int)(sizeof keys / sizeof keys[0]) && (int)strlen(keys[k]) >= cols) k++;
  mvaddstr(rows - 2, 0, keys[k]);
  /* The input line, its end in view when it is longer than the terminal is wide. */
  if (more) {
    mvaddstr(rows - 1, 0, "-- more: Enter --");
  } else {
    const int plen = prompt ? (int)strlen(prompt) : 0, ilen = input ? (int)strlen(input) : 0;
    const int skip = plen + ilen > cols - 1 ? plen + ilen - (cols - 1) : 0; /* prompts are short */
    mvprintw(rows - 1, 0, "%s%s", prompt ? prompt : "", input ? input + skip : "");
  }
  refresh();
  return more;
}

void tui_draw(session *s, const char *prompt, const char *input) {
  draw(s, prompt, input, NULL, NULL);
}

char *tui_read_line(session *s, const char *prompt) {
  char input[64] = "";
  size_t len = 0;
  /* What was said since the last prompt is shown from its start, a page at a time when it
   * does not fit: Enter turns a page, any other key leaves the pages for typing. */
  panel_top page = {s->nmessages - s->fresh, 0}, next = page;
  bool paging = true;
  s->fresh = 0;
  for (;;) {
    paging = draw(s, prompt, input, paging ? &page : NULL, &next);
    const int key = getch();
    if (play_interrupted) return NULL;
    if (key == ERR || key == KEY_RESIZE) continue; /* a quiet moment, or a new size: draw again */
    if (paging && (key == '\n' || key == '\r' || key == KEY_ENTER || key == ' ')) {
      page = next;
      continue;
    }
    paging = false;
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
      /* what was typed joins the messages, so the panel reads like a session */
      say(s, "%s%s\n", prompt, input);
      return strdup(input);
    }
    if ((key == KEY_BACKSPACE || key == 127 || key == '\b') && len > 0) {
      input[--len] = '\0';
    } else if (key >= ' ' && key < 127 && len + 1 < sizeof input) {
      input[len++] = (char)key;
      input[len] = '\0';
    }
  }
}

/* The table of goita play, drawn with curses: the four territories around the table (each a
 * row of face-down and defending pieces over a row of attacks, as RULES.md 2 lays them out),
 * the person's hand at the bottom, whose turn it is and the attack to answer in the middle,
 * the scores and the messages of play.c on the right, and the line being typed. Only the
 * person's view is drawn: others' face-down pieces are blank tiles. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"

#define MIN_COLS 72
#define MIN_ROWS 22
#define TABLE_COLS 44 /* the left part: the table; the rest: scores and messages */

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

void tui_draw(session *s, const char *prompt, const char *input) {
  erase();
  int rows, cols;
  getmaxyx(stdscr, rows, cols);
  if (rows < MIN_ROWS || cols < MIN_COLS) {
    mvprintw(0, 0, "The terminal is too small for the table: %dx%d, it needs %dx%d.", cols, rows, MIN_COLS,
             MIN_ROWS);
    mvprintw(2, 0, "Make the window larger, or play in line mode: goita play --plain");
    refresh();
    return;
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
  /* The hand. */
  mvprintw(16, 0, "Your hand:");
  int x = 11;
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--) {
    const int count = k == GOITA_KING ? 0 : v.hand[k];
    if (k == GOITA_KING)
      for (int b = 0; b < 2; b++)
        if (v.kings >> b & 1) {
          mvprintw(16, x, s->o->ascii ? " %s" : "%s", cli_mark(GOITA_MARK_OU + b, s->o->ascii));
          mvprintw(17, x, " 8");
          x += 3;
        }
    for (int c = 0; c < count; c++) {
      mvprintw(16, x, s->o->ascii ? " %s" : "%s", cli_mark(k, s->o->ascii));
      mvprintw(17, x, " %d", k);
      x += 3;
    }
  }
  /* Scores and messages on the right. */
  const goita_game *g = &s->game;
  int y = 0;
  mvprintw(y++, TABLE_COLS, "Round %d   seed %llu", g->round_index, (unsigned long long)s->o->seed);
  for (int side = 0; side < goita_rules_sides(&g->rules); side++) {
    const bool mine = side == goita_rules_side_of(&g->rules, me);
    mvprintw(y++, TABLE_COLS, "%-14s %4d / %d", g->rules.players == 4 ? (mine ? "your team" : "their team")
                                                                       : (mine ? "you" : play_who(s, side)),
             g->score[side], g->rules.target);
  }
  y++;
  const int room = rows - 3 - y;
  const int width = cols - TABLE_COLS - 1;
  for (int i = s->nmessages > room ? s->nmessages - room : 0; i < s->nmessages; i++)
    mvprintw(y++, TABLE_COLS, "%.*s", width, s->message[i]);
  /* The input line. */
  mvprintw(rows - 2, 0, "Keys: two digits (defence or face-down, then attack), p pass, hint, moves, help, quit");
  mvprintw(rows - 1, 0, "%s%s", prompt ? prompt : "", input ? input : "");
  refresh();
}

char *tui_read_line(session *s, const char *prompt) {
  char input[64] = "";
  size_t len = 0;
  for (;;) {
    tui_draw(s, prompt, input);
    const int key = getch();
    if (play_interrupted) return NULL;
    if (key == ERR || key == KEY_RESIZE) continue; /* a quiet moment, or a new size: draw again */
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

/* goita play: the game loop (play.c) and its two faces, line mode and the table drawn with
 * curses (tui.c). Everything the loop tells the person goes through say(); the table shows
 * it in its message panel, line mode prints it. */
#ifndef GOITA_CLI_PLAY_H
#define GOITA_CLI_PLAY_H

#include <signal.h>

#include "cli.h"

typedef struct play_opts {
  const char *player;      /* the computer players' level */
  const char *hint_player; /* the level that evaluates moves for a hint */
  uint64_t seed;
  bool seeded;
  goita_rules rules;
  int seat;                /* the person's seat, 0-based */
  bool ascii;
  bool plain;              /* line mode even on a terminal */
  int delay_ms;            /* the table's pause after each computer move */
  const char *records_dir; /* where records go (cmd_play fills in the default folder) */
} play_opts;

#define PLAY_MESSAGES 64
#define PLAY_MESSAGE_SIZE 1024 /* as long as anything say() formats: a round record is never cut */

typedef struct session {
  const play_opts *o;
  bool tty;
  bool curses;             /* the table is on screen */
  goita_game game;
  goita_record record;
  goita_player *computer;
  goita_player *hinter;
  char last_round[512];    /* the last finished round's full history string */
  /* The table's message panel: the last lines said, oldest first. */
  char message[PLAY_MESSAGES][PLAY_MESSAGE_SIZE];
  int nmessages;
  int fresh;               /* the last messages not yet shown at a prompt, which the table pages through */
  char pending[PLAY_MESSAGE_SIZE]; /* the line being said */
} session;

/* Set by Ctrl-C; the input functions return NULL and the loop asks whether to leave. */
extern volatile sig_atomic_t play_interrupted;

/* Tells the person something (printf-style; lines end with \n). */
void say(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Returns "you", "seat 2 (opponent)" or "seat 3 (partner)". */
const char *play_who(const session *s, int seat);

/* The table (tui.c). tui_start returns false when curses cannot start (then line mode). */
bool tui_start(session *s);
void tui_stop(session *s);
/* Draws the table from the person's view, the messages and the input line. */
void tui_draw(session *s, const char *prompt, const char *input);
/* Reads a line typed at the table (NULL on Ctrl-C, with play_interrupted set). */
char *tui_read_line(session *s, const char *prompt);

#endif

/* goita play: a whole game for one person against computer players, at the table drawn by
 * tui.c on a terminal, or in line mode (every event a line of text, moves typed), which suits
 * screen readers and scripts. The person sees only what their seat may see; the partner is a
 * computer player. Every game, finished or left, is saved as a full-game record. */
#include <errno.h>
#include <stdarg.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>

#include "play.h"

volatile sig_atomic_t play_interrupted;

static void on_interrupt(int sig) {
  (void)sig;
  play_interrupted = 1;
}

void say(session *s, const char *fmt, ...) {
  char text[PLAY_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (!s->curses) {
    fputs(text, stdout);
    return;
  }
  /* the table keeps whole lines for its message panel */
  for (const char *c = text; *c; c++) {
    const size_t len = strlen(s->pending);
    if (*c != '\n') {
      if (len + 1 < sizeof s->pending) {
        s->pending[len] = *c;
        s->pending[len + 1] = '\0';
      }
      continue;
    }
    if (len == 0) continue;
    if (s->nmessages == PLAY_MESSAGES) {
      memmove(s->message[0], s->message[1], sizeof s->message[0] * (PLAY_MESSAGES - 1));
      s->nmessages--;
    }
    snprintf(s->message[s->nmessages++], PLAY_MESSAGE_SIZE, "%s", s->pending);
    if (s->fresh < s->nmessages) s->fresh++;
    s->pending[0] = '\0';
  }
}

/* Reads one line of input (NULL at the end of input or on Ctrl-C); free it. */
static char *read_input(session *s, const char *prompt) {
  if (s->curses) return tui_read_line(s, prompt);
  if (s->tty) {
    char *line = readline(prompt);
    if (line && *line) add_history(line);
    return line;
  }
  printf("%s", prompt);
  fflush(stdout);
  size_t cap = 0;
  char *line = NULL;
  const ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\r\n")] = '\0';
  printf("%s\n", line); /* echoed, so a transcript reads like a session */
  return line;
}

static void print_marks(session *s, const uint8_t *hand, uint8_t kings) {
  const bool ascii = s->o->ascii;
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--) {
    if (k == GOITA_KING) {
      if (kings & 1) say(s, " %s", cli_mark(GOITA_MARK_OU, ascii));
      if (kings & 2) say(s, " %s", cli_mark(GOITA_MARK_GYOKU, ascii));
      continue;
    }
    for (int c = 0; c < hand[k]; c++) say(s, " %s", cli_mark(k, ascii));
  }
}

const char *play_who(const session *s, int seat) {
  static char text[4][40];
  if (seat == s->o->seat) return "you";
  const bool partner = s->game.rules.players == 4 && seat == (s->o->seat + 2) % 4;
  snprintf(text[seat], sizeof text[seat], "seat %d (%s)", seat + 1, partner ? "partner" : "opponent");
  return text[seat];
}

/* Announces log entries [from, view->nlog) as the person's seat sees them. */
static void announce(session *s, const goita_view *v, int from) {
  const bool ascii = s->o->ascii;
  int passes = v->players - 1;
  for (int i = 0; i < v->nlog; i++) {
    const goita_move m = v->log[i];
    const bool lead = m.type == GOITA_MOVE_PLAY && passes >= v->players - 1;
    if (m.type == GOITA_MOVE_PASS) passes++;
    if (m.type == GOITA_MOVE_PLAY) passes = 0;
    if (i < from) continue;
    say(s, "  %s ", play_who(s, m.seat));
    switch (m.type) {
      case GOITA_MOVE_PASS: say(s, "pass%s\n", m.seat == s->o->seat ? "" : "es"); continue;
      case GOITA_MOVE_REDEAL: /* the partner agreeing to the holder's request (RULES.md 3.3) */
        say(s, i > 0 && v->log[i - 1].type == GOITA_MOVE_REDEAL && !(v->goshi >> m.seat & 1) &&
                       v->log[i - 1].seat == (m.seat + 2) % 4
                   ? "agreed to a redeal\n"
                   : "asked for a redeal\n");
        continue;
      case GOITA_MOVE_GO: say(s, "chose to play\n"); continue;
    }
    if (lead && m.block == 0)
      say(s, "led a piece face-down");
    else if (lead && m.seat != s->o->seat) /* a finishing lead is turned face-up */
      say(s, "went out, leading %s %s (turned face-up)", cli_mark(m.block, ascii), goita_mark_english(m.block));
    else if (lead)
      say(s, "led %s %s face-down", cli_mark(m.block, ascii), goita_mark_english(m.block));
    else
      say(s, "defended with %s %s", cli_mark(m.block, ascii), goita_mark_english(m.block));
    say(s, " and attacked with %s %s\n", cli_mark(m.attack, ascii), goita_mark_english(m.attack));
  }
}

static void print_scores(session *s) {
  const goita_game *g = &s->game;
  say(s, "Scores:");
  for (int side = 0; side < goita_rules_sides(&g->rules); side++) {
    const bool mine = side == goita_rules_side_of(&g->rules, s->o->seat);
    if (g->rules.players == 4)
      say(s, "%s %s %d", side ? "," : "", mine ? "your team" : "their team",
          goita_rules_shown_points(&g->rules, g->score[side]));
    else
      say(s, "%s %s %d", side ? "," : "", mine ? "you" : play_who(s, side),
          goita_rules_shown_points(&g->rules, g->score[side]));
  }
  say(s, " (target %d)\n", goita_rules_shown_points(&g->rules, g->rules.target));
}

/* The move the person typed: "p", "r", "g", two pieces "51" (block 5, attack 1; kings 8), or a
 * full token with the seat ("151"); false when the text is no move at all. */
static bool parse_typed(const goita_view *v, const char *text, goita_move *m) {
  char token[8];
  if (strcmp(text, "pass") == 0) text = "p";
  if (strcmp(text, "redeal") == 0) text = "r";
  if (strcmp(text, "play") == 0) text = "g";
  const size_t len = strlen(text);
  if (len == 0 || len > 3) return false;
  if (len == 3 || (len == 2 && (text[1] == 'p' || text[1] == 'r' || text[1] == 'g')))
    snprintf(token, sizeof token, "%s", text);
  else
    snprintf(token, sizeof token, "%d%s", v->seat + 1, text);
  return goita_move_parse(token, strlen(token), m) == GOITA_OK;
}

/* The legal move the person typed (parse_typed); false when it is not one. */
static bool read_move(const goita_view *v, const char *text, const goita_move *moves, int n, goita_move *out) {
  goita_move m;
  if (!parse_typed(v, text, &m)) return false;
  for (int i = 0; i < n; i++)
    if (goita_move_equal(moves[i], m)) {
      *out = moves[i];
      out->block = m.block ? m.block : out->block;
      out->attack = m.attack ? m.attack : out->attack;
      return true;
    }
  return false;
}

/* The mark of a piece the view's hand plays: a legal move names the king by its kind, and the
 * person should see the physical king they hold (王 or 玉; with both, the second one played
 * is 玉). */
static int held_mark(const goita_view *v, int piece, bool second_king) {
  if (piece != GOITA_KING) return piece;
  return second_king || !(v->kings & 1) ? GOITA_MARK_GYOKU : GOITA_MARK_OU;
}

static void describe_move(session *s, const goita_view *v, goita_move m) {
  const bool ascii = s->o->ascii;
  switch (m.type) {
    case GOITA_MOVE_PASS: say(s, "pass"); return;
    case GOITA_MOVE_REDEAL: say(s, "redeal"); return;
    case GOITA_MOVE_GO: say(s, "play the round"); return;
  }
  const int block = held_mark(v, m.block, false), attack = held_mark(v, m.attack, m.block == GOITA_KING);
  say(s, "%s %s %s, attack %s %s", v->attack == GOITA_NONE ? "face-down" : "defend with", cli_mark(block, ascii),
         goita_mark_english(block), cli_mark(attack, ascii), goita_mark_english(attack));
}

static void list_moves(session *s, const goita_view *v, const goita_move *moves, int n) {
  for (int i = 0; i < n; i++) {
    char token[8];
    goita_move_format(moves[i], token, sizeof token);
    say(s, "  %-3s ", token + 1);
    describe_move(s, v, moves[i]);
    say(s, "\n");
  }
}

/* Says one reason of a hint (hint.h) as an English clause. */
static void say_reason(session *s, const goita_hint_reason *r) {
  const char *piece = r->piece ? cli_mark(r->piece, s->o->ascii) : "";
  const int pct = (int)(r->chance * 100 + 0.5);
  switch ((goita_reason_kind)r->kind) {
    case GOITA_REASON_FINISH: say(s, "goes out: %d points", r->count); break;
    case GOITA_REASON_PAIR_LEFT: say(s, "keeps a pair of %s for a doubled finish (%d points)", piece, r->count); break;
    case GOITA_REASON_SAFE_ATTACK: say(s, "the opponents likely cannot answer %s (%d%%)", piece, pct); break;
    case GOITA_REASON_TAKES_LEAD: say(s, "takes the lead from seat %d, who has %d pieces left", r->seat + 1, r->count); break;
    case GOITA_REASON_PARTNER_ATTACK: say(s, "lets your partner's %s attack stand", piece); break;
    case GOITA_REASON_PARTNER_ANSWERS: say(s, "your partner likely can answer %s (%d%%)", piece, pct); break;
    case GOITA_REASON_KEEPS: say(s, "keeps your %s for later", piece); break;
  }
}

/* The reasons behind the hinting level's best moves, from the same view. */
static void say_reasons(session *s, const goita_view *v, uint64_t seed) {
  static goita_hint h;
  if (goita_hint_make(v, goita_player_spec(s->hinter), seed, &h, NULL) != GOITA_OK) return;
  for (int i = 0; i < h.nmoves; i++) {
    if (!h.moves[i].nreasons) continue;
    char token[8];
    goita_move_format(h.moves[i].move, token, sizeof token);
    say(s, "  why %s: ", token + 1);
    for (int j = 0; j < h.moves[i].nreasons; j++) {
      if (j) say(s, "; ");
      say_reason(s, &h.moves[i].reasons[j]);
    }
    say(s, "\n");
  }
}

/* The hint: the evaluating player's value of each legal move, best first, and why. */
static void hint(session *s, const goita_view *v) {
  goita_player_info info;
  goita_move best;
  goita_player_seed(s->hinter, goita_seed_mix(s->o->seed ^ 0x68696e74ULL));
  if (goita_player_choose(s->hinter, v, &best, &info) != GOITA_OK || !info.has_values) {
    say(s, "No hint here.\n");
    return;
  }
  int order[GOITA_MAX_LEGAL];
  for (int i = 0; i < info.nmoves; i++) order[i] = i;
  for (int i = 1; i < info.nmoves; i++)
    for (int j = i; j > 0 && info.value[order[j]] > info.value[order[j - 1]]; j--) {
      const int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  /* The level's name only: its full spec (--hint, the welcome line) would fill the table's
   * narrow panel before the first value. */
  const char *spec = goita_player_spec(s->hinter);
  const int name = (int)strcspn(spec, ":");
  if (info.samples > 0)
    say(s, "Hint (%.*s, %d deals): your side's points\n", name, spec, info.samples);
  else
    say(s, "Hint (%.*s): your side's points\n", name, spec);
  for (int k = 0; k < info.nmoves; k++) {
    const int i = order[k];
    char token[8];
    goita_move_format(info.moves[i], token, sizeof token);
    /* values are in tens like every score; the ones scale shows them divided by ten */
    const double shown = v->rules.scale == GOITA_SCALE_ONES ? info.value[i] / 10 : info.value[i];
    say(s, "  %-3s %+7.*f  ", token + 1, v->rules.scale == GOITA_SCALE_ONES ? 2 : 1, shown);
    describe_move(s, v, info.moves[i]);
    say(s, "\n");
  }
  say_reasons(s, v, goita_seed_mix(s->o->seed ^ 0x68696e74ULL));
}

/* The help, a whole sentence a line, so the table's narrow panel wraps each as one. */
static void help(session *s) {
  say(s, "Type a move: two digits, the face-down (or defending) piece then the attack, e.g. 51.\n"
         "The digits: 1 pawn, 2 lance, 3 knight, 4 silver, 5 gold, 6 bishop, 7 rook, 8 king.\n"
         "p passes; after a 5-pawn hand, r asks for (or agrees to) a redeal and g plays the round.\n"
         "Commands: moves (the legal moves), hand, hint (the computer's value of each move),\n"
         "  record (the last round in full), scores, help, quit (saves the game so far).\n");
}

/* Asks whether to leave; true to leave. */
static bool ask_quit(session *s) {
  play_interrupted = 0;
  char *answer = read_input(s, "Quit and save the game so far? [y/N] ");
  const bool yes = !answer || answer[0] == 'y' || answer[0] == 'Y';
  free(answer);
  return yes;
}

/* Asks the person for a 5-pawn decision, saying whose 5 pawns and who spoke before
 * (RULES.md 3.3): the holder proposes or decides, the partner decides or agrees. */
static void decision_prompt(session *s, const goita_view *v) {
  const int me = s->o->seat;
  if (v->goshi >> me & 1) {
    say(s, v->players == 4 ? "Ask for a redeal, if your partner agrees (r), or play the round (g)?\n"
                           : "Redeal (r) or play the round (g)?\n");
    return;
  }
  const int holder = (me + 2) % 4;
  const bool asked = v->nlog > 0 && v->log[v->nlog - 1].seat == holder && v->log[v->nlog - 1].type == GOITA_MOVE_REDEAL;
  say(s, asked ? "Your partner showed 5 pawns and asks for a redeal. Agree (r) or play the round (g)?\n"
               : "Your partner showed 5 pawns. Redeal (r) or play the round (g)?\n");
}

/* The person's move; false when they leave. */
static bool person_moves(session *s, goita_move *out) {
  goita_view v;
  goita_game_view(&s->game, s->o->seat, &v);
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_view_legal_moves(&v, moves);
  if (v.phase == GOITA_PHASE_DECIDE) {
    decision_prompt(s, &v);
  } else if (v.attack == GOITA_NONE) {
    say(s, "Your lead.");
  } else {
    say(s, "%s attacks with %s %s: defend or pass.", play_who(s, v.attacker), cli_mark(v.attack, s->o->ascii),
           goita_mark_english(v.attack));
  }
  if (v.phase == GOITA_PHASE_PLAY) {
    say(s, " Your hand:");
    print_marks(s, v.hand, v.kings);
    say(s, "\n");
  }
  for (;;) {
    char *line = read_input(s, "move> ");
    if (!line) {
      if (play_interrupted && !ask_quit(s)) continue;
      return false;
    }
    char *text = line + strspn(line, " \t");
    text[strcspn(text, " \t")] = '\0';
    bool done = false;
    if (strcmp(text, "quit") == 0 || strcmp(text, "q") == 0) {
      free(line);
      if (ask_quit(s)) return false;
      continue;
    } else if (strcmp(text, "help") == 0 || strcmp(text, "?") == 0) {
      help(s);
    } else if (strcmp(text, "moves") == 0) {
      list_moves(s, &v, moves, n);
    } else if (strcmp(text, "hand") == 0) {
      say(s, "Your hand:");
      print_marks(s, v.hand, v.kings);
      say(s, "\n");
    } else if (strcmp(text, "hint") == 0) {
      hint(s, &v);
    } else if (strcmp(text, "record") == 0) {
      say(s, "%s\n", s->last_round[0] ? s->last_round : "No round has finished yet.");
    } else if (strcmp(text, "scores") == 0) {
      print_scores(s);
    } else if (text[0] && read_move(&v, text, moves, n, out)) {
      done = true;
    } else if (text[0]) {
      /* a move that reads but is not legal: the rules say why (a king's attack, a piece not held) */
      goita_move m;
      goita_error err;
      if (parse_typed(&v, text, &m) && goita_round_check(&s->game.round, m, &err) != GOITA_OK)
        say(s, "\"%s\" is not a legal move here: %s. Type moves for the list, help for help.\n", text, err.message);
      else
        say(s, "\"%s\" is not a legal move here; type moves for the list, help for help.\n", text);
    }
    free(line);
    if (done) return true;
  }
}

static void default_records_dir(char *dir, size_t size) {
  const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  if (data && data[0])
    snprintf(dir, size, "%s/goita/games", data);
  else
    snprintf(dir, size, "%s/.local/share/goita/games", home && home[0] ? home : ".");
}

/* Makes dir and its parents. */
static bool make_dirs(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s", dir);
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(path, 0755) != 0 && errno != EEXIST) return false;
    *p = '/';
  }
  return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* Makes the records folder and checks that a record can be written there, before the game, so
 * that no game is played for a record that cannot be saved. */
static bool records_dir_ready(const char *dir) {
  if (!make_dirs(dir)) {
    fprintf(stderr, "goita play: cannot make the folder %s: %s\n", dir, strerror(errno));
    return false;
  }
  char probe[1200];
  snprintf(probe, sizeof probe, "%s/game-check.json", dir);
  return cli_check_writable("play", probe);
}

/* Saves the record (the game so far, or whole); prints where. */
static bool save(session *s) {
  char path[1200], now[GOITA_RECORD_TIME_SIZE];
  const char *dir = s->o->records_dir;
  if (!make_dirs(dir)) {
    fprintf(stderr, "goita play: cannot make the folder %s: %s\n", dir, strerror(errno));
    return false;
  }
  cli_utc_now(now, sizeof now);
  goita_error err;
  if (!goita_round_over(&s->game.round) && goita_record_add_round(&s->record, &s->game, NULL, NULL, &err) != GOITA_OK) {
    fprintf(stderr, "goita play: %s\n", err.message);
    return false;
  }
  strcpy(s->record.finished, now);
  char stamp[32];
  snprintf(stamp, sizeof stamp, "%.4s%.2s%.2s-%.2s%.2s%.2s", now, now + 5, now + 8, now + 11, now + 14, now + 17);
  snprintf(path, sizeof path, "%s/game-%s-%llu.json", dir, stamp, (unsigned long long)s->o->seed);
  /* never over another game saved in the same second */
  for (int n = 2; access(path, F_OK) == 0 && n < 1000; n++)
    snprintf(path, sizeof path, "%s/game-%s-%llu-%d.json", dir, stamp, (unsigned long long)s->o->seed, n);
  char *json = NULL;
  bool ok = goita_record_write_json(&s->record, &json, &err) == GOITA_OK && cli_write_file(path, json);
  free(json);
  if (ok) say(s, "Game saved to %s (goita replay %s)\n", path, path);
  return ok;
}

static void say_result(session *s, const goita_round *r) {
  const goita_round_result *res = &r->result;
  switch (res->end) {
    case GOITA_END_FINISH: say(s, "%s went out", play_who(s, res->winner)); break;
    case GOITA_END_TEYAKU:
      say(s, "Teyaku: %s %s %d pawns", play_who(s, res->winner), res->winner == s->o->seat ? "hold" : "holds",
          r->hand[res->winner][GOITA_PAWN]);
      break;
    case GOITA_END_DOUBLE_GOSHI: say(s, "5 pawns in both partners' hands (%s and partner)", play_who(s, res->winner)); break;
    case GOITA_END_REDEAL: say(s, "Redeal: nothing scored.\n"); return;
    default: return;
  }
  const bool ours = goita_rules_side_of(&r->rules, res->winner) == goita_rules_side_of(&r->rules, s->o->seat);
  const char *side = r->rules.players == 4 ? (ours ? "your team" : "their team") : (ours ? "you" : play_who(s, res->winner));
  if (res->wins_game)
    say(s, ": %s wins the game at once.\n", side);
  else
    say(s, ": %s scores %d%s.\n", side, goita_rules_shown_points(&r->rules, res->points),
        res->doubled ? " (doubled)" : "");
}

/* Plays rounds until the game ends or the person leaves; returns the exit status. */
static int play(session *s) {
  goita_game *g = &s->game;
  goita_error err;
  const play_opts *o = s->o;
  for (;;) {
    goita_round *r = &g->round;
    char started[GOITA_RECORD_TIME_SIZE];
    cli_utc_now(started, sizeof started);
    say(s, "\nRound %d. Dealer: %s.\n", g->round_index, play_who(s, r->dealer));
    print_scores(s);
    goita_view v;
    goita_game_view(g, o->seat, &v);
    say(s, "Your hand:");
    print_marks(s, v.hand, v.kings);
    say(s, "\n");
    for (int seat = 0; seat < r->players; seat++)
      if (v.goshi >> seat & 1)
        say(s, seat == o->seat ? "You hold 5 pawns: you show them.\n" : "%s shows 5 pawns.\n", play_who(s, seat));
    int shown = 0;
    while (!goita_round_over(r)) {
      goita_game_view(g, o->seat, &v);
      announce(s, &v, shown);
      shown = v.nlog;
      goita_move move;
      if (r->turn == o->seat) {
        if (!person_moves(s, &move)) {
          say(s, "You left the game.\n");
          return save(s) ? 0 : 1;
        }
      } else {
        goita_view theirs;
        goita_game_view(g, r->turn, &theirs);
        goita_player_seed(s->computer, goita_seed_mix(o->seed ^ (uint64_t)g->round_index << 32 ^ r->nlog));
        if (goita_player_choose(s->computer, &theirs, &move, NULL) != GOITA_OK) {
          fprintf(stderr, "goita play: the computer player found no move\n");
          return 1;
        }
      }
      const bool computer = r->turn != o->seat;
      if (goita_game_apply(g, move, &err) != GOITA_OK) {
        fprintf(stderr, "goita play: %s\n", err.message);
        return 1;
      }
      if (s->curses) { /* each move appears on the table, the computer's with a pause to follow it */
        goita_game_view(g, o->seat, &v);
        announce(s, &v, shown);
        shown = v.nlog;
        tui_draw(s, NULL, NULL);
        if (computer && o->delay_ms > 0) {
          const struct timespec pause = {o->delay_ms / 1000, (long)(o->delay_ms % 1000) * 1000000L};
          nanosleep(&pause, NULL);
        }
      }
    }
    goita_game_view(g, o->seat, &v);
    announce(s, &v, shown);
    say_result(s, r);
    char now[GOITA_RECORD_TIME_SIZE];
    cli_utc_now(now, sizeof now);
    if (goita_record_add_round(&s->record, g, started, now, &err) != GOITA_OK) {
      fprintf(stderr, "goita play: %s\n", err.message);
      return 1;
    }
    goita_history_format(r, s->last_round, sizeof s->last_round);
    say(s, "Round record (every hand): %s\n", s->last_round);
    if (s->curses && !g->over) { /* the table waits for the person before the next deal */
      char *line = read_input(s, "Enter: next round> ");
      if (!line && play_interrupted && ask_quit(s)) {
        say(s, "You left the game.\n");
        return save(s) ? 0 : 1;
      }
      free(line);
    }
    if (g->over) break;
    if (goita_game_next_round(g, &err) != GOITA_OK) {
      fprintf(stderr, "goita play: %s\n", err.message);
      return 1;
    }
  }
  say(s, "\nGame over after %d round%s: ", g->round_index, g->round_index == 1 ? "" : "s");
  const bool won = g->winner_side == goita_rules_side_of(&g->rules, o->seat);
  say(s, "%s. ", won ? "you win" : "you lose");
  print_scores(s);
  const bool saved = save(s);
  if (s->curses) free(read_input(s, "Enter: leave> "));
  return saved ? 0 : 1;
}

int cmd_play(int argc, char **argv) {
  play_opts o = {"expert", "expert:samples=64,rollouts=4", 0, false, {0}, 0, false, false, 600, NULL};
  goita_rules_default(&o.rules);
  uint64_t seat_number = 1, delay_ms = (uint64_t)o.delay_ms;
  const cli_option options[] = {
      {.name = "--plain", .kind = CLI_FLAG, .target = &o.plain,
       .help = "line mode even on a terminal: every event a line, moves typed (for screen readers, scripts)"},
      {"--seat", CLI_UINT, "N", &seat_number, "your seat; your partner sits opposite", .lo = 1, .hi = 4},
      {.name = "--player", .kind = CLI_TEXT, .value = "SPEC", .target = &o.player,
       .help = "the computer players' level, with parameters (docs/PLAYERS.md)"},
      {.name = "--hint", .kind = CLI_TEXT, .value = "SPEC", .target = &o.hint_player,
       .help = "the level that values each move when you type hint"},
      {"--seed", CLI_UINT, "S", &o.seed, "the seed of the deals and of the computer players' choices",
       .hi = UINT64_MAX, .fallback = "a new one for each game, shown at the start", .given = &o.seeded},
      cli_rules_option(&o.rules),
      {.name = "--ascii", .kind = CLI_FLAG, .target = &o.ascii,
       .help = "letters instead of kanji (also in a locale without UTF-8)"},
      {"--delay", CLI_UINT, "MS", &delay_ms, "the table's pause after each computer move", .hi = 10000,
       .unit = "ms"},
      {.name = "--records", .kind = CLI_TEXT, .value = "DIR", .target = &o.records_dir,
       .help = "the folder where the game is saved as a record (made, and checked writable, before the game)",
       .fallback = "$XDG_DATA_HOME/goita/games, or ~/.local/share/goita/games"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "play",
      .about = "A game to the target score against computer players (your partner is one), at a table drawn\n"
               "in the terminal, or line by line with --plain or when not on a terminal. Type help during\n"
               "the game for the moves and commands (moves, hand, hint, record, scores, quit). The game,\n"
               "finished or left, is saved as a record that goita replay shows.\n",
      .examples = "goita play\n"
                  "goita play --plain --seat 2 --player sampler --seed 42\n"
                  "goita play --ascii --delay 0 --records ~/goita-games",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  o.seat = (int)seat_number - 1;
  o.delay_ms = (int)delay_ms;
  if (o.seat >= o.rules.players) {
    fprintf(stderr, "goita play: --seat %d is not a seat of %d players\n", o.seat + 1, o.rules.players);
    return 2;
  }
  char default_dir[1024];
  if (!o.records_dir) {
    default_records_dir(default_dir, sizeof default_dir);
    o.records_dir = default_dir;
  }
  if (!records_dir_ready(o.records_dir)) return 2;
  /* Kanji need a UTF-8 terminal; other locales get the ASCII letters. */
  setlocale(LC_ALL, "");
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) o.ascii = true;
  if (!o.seeded) o.seed = goita_seed_mix((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
  session s;
  memset(&s, 0, sizeof s);
  s.o = &o;
  s.tty = isatty(0) && isatty(1);
  goita_error err;
  if (goita_player_new(&s.computer, o.player, &err) != GOITA_OK) {
    fprintf(stderr, "goita play: --player \"%s\": %s\n", o.player, err.message);
    return 2;
  }
  if (goita_player_new(&s.hinter, o.hint_player, &err) != GOITA_OK) {
    fprintf(stderr, "goita play: --hint \"%s\": %s\n", o.hint_player, err.message);
    goita_player_free(s.computer);
    return 2;
  }
  if (goita_game_start(&s.game, &o.rules, o.seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita play: %s\n", err.message);
    goita_player_free(s.computer);
    goita_player_free(s.hinter);
    return 2;
  }
  goita_record_init(&s.record, &s.game);
  cli_utc_now(s.record.started, sizeof s.record.started);
  for (int seat = 0; seat < o.rules.players; seat++)
    if (seat == o.seat)
      snprintf(s.record.name[seat], sizeof s.record.name[seat], "you");
    else
      snprintf(s.record.engine[seat], sizeof s.record.engine[seat], "goita %s", goita_player_spec(s.computer));
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt; /* no SA_RESTART: Ctrl-C ends the wait for input */
  sigaction(SIGINT, &sa, NULL);
  s.curses = !o.plain && s.tty && tui_start(&s);
  say(&s, "goita %s: you are seat %d", goita_version(), o.seat + 1);
  if (o.rules.players == 4) say(&s, ", your partner seat %d", (o.seat + 2) % 4 + 1);
  say(&s, "; computer players: %s. Seed %llu. Type help for help.\n", goita_player_spec(s.computer),
      (unsigned long long)o.seed);
  const int status = play(&s);
  if (s.curses) {
    tui_stop(&s);
    /* the last words stay on the terminal */
    for (int i = s.nmessages > 3 ? s.nmessages - 3 : 0; i < s.nmessages; i++) printf("%s\n", s.message[i]);
  }
  goita_record_free(&s.record);
  goita_player_free(s.computer);
  goita_player_free(s.hinter);
  return status;
}

/* goita legal, goita result, goita replay: the command-line contract over history strings
 * and full-game records (docs/RECORDS.md). Output formats here are relied on by other tools. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A position read from a history string: a full round, or (with x in it) one seat's view. */
typedef struct position {
  bool hidden;
  goita_round round;
  goita_view view;
} position;

static bool read_position(const char *cmd, const goita_rules *rules, const char *text, int seat, position *p) {
  goita_error err;
  p->hidden = strchr(text, 'x') != NULL;
  const int st = p->hidden ? goita_history_parse_view(&p->view, rules, text, seat, &err)
                           : goita_history_parse(&p->round, rules, text, &err);
  if (st != GOITA_OK) {
    fprintf(stderr, "goita %s: %s\n", cmd, err.message);
    return false;
  }
  return true;
}

/* The arguments and position of legal and result (--rules OPTS, --seat N, the history
 * string); returns -1 with the position read, else the exit status: of --help (0), a usage
 * error (2) or a string that does not read (1). */
static int load_position(const char *cmd, const char *about, const char *example, int argc, char **argv,
                         position *p) {
  goita_rules rules;
  goita_rules_default(&rules);
  uint64_t seat = 0;
  const cli_option options[] = {
      cli_rules_option(&rules),
      {"--seat", CLI_UINT, "N", &seat,
       "read a string with hidden pieces (x) as this seat's view; by default the seat whose hand is known",
       .lo = 1, .hi = 4, .fallback = "inferred"},
  };
  const cli_command c = {
      .program = "goita",
      .name = cmd,
      .operands = "HISTORY",
      .about = about,
      .notes = "HISTORY is a history string (docs/RECORDS.md): the four hands, s and the dealer's seat, then\n"
               "the moves, e.g. 12345678,12345679,11112345,11112345,s1,113,2p. One written for a seat, with x\n"
               "for hidden pieces, reads as that seat's view.\n",
      .examples = example,
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const char *history = NULL;
  const int parsed = cli_parse_one_operand(&c, argc, argv, "history string", "name a history string", &history);
  if (parsed >= 0) return parsed;
  return read_position(cmd, &rules, history, seat ? (int)seat - 1 : GOITA_VIEWER_INFER, p) ? -1 : 1;
}

int cmd_legal(int argc, char **argv) {
  position p;
  const int status = load_position("legal",
                                   "Prints every legal move at the end of HISTORY, one token a line (\"2p\", \"213\"); nothing\n"
                                   "when the round is over.\n",
                                   "goita legal 12345678,12345679,11112345,11112345,s1,113,2p,3p\n"
                                   "goita legal 3xxxxxxx,12345679,xxxxxxxx,123xxxxx,s1,1x3",
                                   argc, argv, &p);
  if (status >= 0) return status;
  goita_move moves[GOITA_MAX_LEGAL];
  int n;
  if (!p.hidden) {
    n = goita_round_legal_moves(&p.round, moves);
  } else if (p.view.phase == GOITA_PHASE_OVER) {
    n = 0;
  } else if (p.view.turn != p.view.seat) {
    fprintf(stderr, "goita legal: seat %d is to move, and this string hides its hand\n", p.view.turn + 1);
    return 1;
  } else {
    n = goita_view_legal_moves(&p.view, moves);
  }
  for (int i = 0; i < n; i++) {
    char tok[8];
    goita_move_format(moves[i], tok, sizeof tok);
    printf("%s\n", tok);
  }
  return 0;
}

int cmd_result(int argc, char **argv) {
  position p;
  const int status =
      load_position("result",
                    "Prints the result of HISTORY as one JSON line: {\"over\":..,\"winner\":SEAT|null,\"points\":N|null,\n"
                    "\"end\":\"finish\"|\"teyaku\"|\"double_goshi\"|\"redeal\"|null,\"game_over\":..} (game_over: the\n"
                    "round won the whole game at the deal; points are always in tens).\n",
                    "goita result 11111123,12345678,12345679,11234455,s2", argc, argv, &p);
  if (status >= 0) return status;
  const bool over = (p.hidden ? p.view.phase : p.round.phase) == GOITA_PHASE_OVER;
  const goita_round_result *res = p.hidden ? &p.view.result : &p.round.result;
  /* game_over: the round decided the whole game (double 5 pawns under double_goshi=win). */
  static const char *const ends[] = {"null", "\"finish\"", "\"teyaku\"", "\"double_goshi\"", "\"redeal\""};
  const char *end = over && (unsigned)res->end < sizeof ends / sizeof *ends ? ends[res->end] : "null";
  const char *game_over = over && res->wins_game ? "true" : "false";
  if (!over)
    printf("{\"over\":false,\"winner\":null,\"points\":null,\"end\":null,\"game_over\":false}\n");
  else if (res->winner < 0)
    printf("{\"over\":true,\"winner\":null,\"points\":0,\"end\":%s,\"game_over\":false}\n", end);
  else
    printf("{\"over\":true,\"winner\":%d,\"points\":%d,\"end\":%s,\"game_over\":%s}\n", res->winner + 1,
           res->points, end, game_over);
  return 0;
}

/* ---- replay ---- */

static void print_record(const goita_record *rec, bool ascii) {
  char rules[GOITA_RULES_TEXT_SIZE];
  goita_rules_format(&rec->rules, rules, sizeof rules);
  printf("Game record\nrules %s\n", rules);
  if (rec->seeded)
    printf("seed %llu (deal generator %d)\n", (unsigned long long)rec->seed, rec->generator);
  else
    printf("deals as recorded (no seed)\n");
  for (int s = 0; s < rec->rules.players; s++) {
    printf("seat %d: %s", s + 1, rec->name[s][0] ? rec->name[s] : "(no name)");
    if (rec->engine[s][0]) printf(" [%s]", rec->engine[s]);
    printf("\n");
  }
  if (rec->started[0]) printf("started %s\n", rec->started);
  for (int i = 0; i < rec->nrounds; i++) {
    const goita_record_round *rr = &rec->rounds[i];
    printf("\nRound %d, dealer seat %d, score before:", i + 1, rr->round.dealer + 1);
    cli_print_scores(&rec->rules, rr->score_before);
    cli_print_round(&rr->round, ascii);
    char history[512];
    goita_history_format(&rr->round, history, sizeof history);
    printf("  record: %s\n  score:", history);
    cli_print_scores(&rec->rules, rr->score_after);
  }
  printf("\n");
  if (rec->over) {
    printf("Game over after %d round%s: ", rec->nrounds, rec->nrounds == 1 ? "" : "s");
    cli_print_side(&rec->rules, rec->winner_side);
    printf(" wins with %d (target %d)\n", goita_rules_shown_points(&rec->rules, rec->score[rec->winner_side]),
           goita_rules_shown_points(&rec->rules, rec->rules.target));
  } else {
    printf("The game was not finished: after %d round%s,", rec->nrounds, rec->nrounds == 1 ? "" : "s");
    cli_print_scores(&rec->rules, rec->score);
  }
  if (rec->finished[0]) printf("finished %s\n", rec->finished);
}

int cmd_replay(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  bool check = false, ascii = false;
  const cli_option options[] = {
      {.name = "--check", .kind = CLI_FLAG, .target = &check,
       .help = "only validate: print one line (\"ok: ...\") or the error, with exit status 1"},
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii, .help = "letters instead of kanji"},
      cli_rules_option(&rules),
  };
  const cli_command c = {
      .program = "goita",
      .name = "replay",
      .operands = "FILE|-",
      .about = "Shows a full-game record (JSON, docs/RECORDS.md) or a history string, read from FILE or from\n"
               "standard input (-), move by move. A record carries its rules; --rules applies to a history\n"
               "string.\n",
      .examples = "goita replay game.json\n"
                  "goita replay --check ~/.local/share/goita/games/game-20261121-093000-42.json\n"
                  "echo 12345678,12345679,11112345,11112345,s1,113 | goita replay -",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const char *path = NULL;
  const int parsed = cli_parse_one_operand(&c, argc, argv, "file", "name a file, or - for standard input", &path);
  if (parsed >= 0) return parsed;
  size_t len;
  char *text = cli_read_file("replay", path, &len);
  if (!text) return 1;
  const char *start = text;
  while (isspace((unsigned char)*start)) start++;
  goita_error err;
  int status = 0;
  if (*start == '{') {
    goita_record rec;
    if (goita_record_read_json(&rec, text, len, &err) != GOITA_OK) {
      fprintf(stderr, "goita replay: %s: %s\n", path, err.message);
      status = 1;
    } else if (check) {
      printf("ok: a game record of %d round%s, %s, score", rec.nrounds, rec.nrounds == 1 ? "" : "s",
             rec.over ? "finished" : "not finished");
      cli_print_scores(&rec.rules, rec.score);
    } else {
      print_record(&rec, ascii);
    }
    goita_record_free(&rec);
  } else {
    /* A history string: one line, surrounding white space ignored. */
    char *end = text + len;
    while (end > start && isspace((unsigned char)end[-1])) *--end = '\0';
    goita_round r;
    if (strchr(start, '\n')) {
      fprintf(stderr, "goita replay: %s: expected one history string or a JSON record\n", path);
      status = 1;
    } else if (goita_history_parse(&r, &rules, start, &err) != GOITA_OK) {
      fprintf(stderr, "goita replay: %s: %s\n", path, err.message);
      status = 1;
    } else if (check) {
      printf("ok: a round of %d moves, %s\n", r.nlog, goita_round_over(&r) ? "finished" : "not finished");
    } else {
      printf("Round, dealer seat %d\n", r.dealer + 1);
      cli_print_round(&r, ascii);
    }
  }
  free(text);
  return status;
}

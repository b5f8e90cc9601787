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

/* Options shared by legal and result: --rules OPTS, --seat N, and the history string. */
static bool parse_args(const char *cmd, int argc, char **argv, goita_rules *rules, int *seat, const char **history) {
  goita_rules_default(rules);
  *seat = GOITA_VIEWER_INFER;
  *history = NULL;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, rules)) return false;
    } else if (strcmp(argv[i], "--seat") == 0) {
      uint64_t s;
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_range(cmd, "--seat", v, 1, 4, NULL, &s)) return false;
      *seat = (int)s - 1;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      fprintf(stderr, "goita %s: unknown option \"%s\"\n", cmd, argv[i]);
      return false;
    } else if (*history) {
      fprintf(stderr, "goita %s: one history string, please (got a second: \"%s\")\n", cmd, argv[i]);
      return false;
    } else {
      *history = argv[i];
    }
  }
  if (!*history) {
    fprintf(stderr, "usage: goita %s [--rules OPTS] [--seat N] HISTORY\n", cmd);
    return false;
  }
  return true;
}

/* The arguments and position of legal and result; returns 0, or the exit status of a usage
 * error (2) or of a string that does not read (1). */
static int load_position(const char *cmd, int argc, char **argv, position *p) {
  goita_rules rules;
  int seat;
  const char *history;
  if (!parse_args(cmd, argc, argv, &rules, &seat, &history)) return 2;
  return read_position(cmd, &rules, history, seat, p) ? 0 : 1;
}

int cmd_legal(int argc, char **argv) {
  position p;
  const int status = load_position("legal", argc, argv, &p);
  if (status) return status;
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
  const int status = load_position("result", argc, argv, &p);
  if (status) return status;
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
    printf("Game over after %d rounds: ", rec->nrounds);
    cli_print_side(&rec->rules, rec->winner_side);
    printf(" wins with %d (target %d)\n", rec->score[rec->winner_side], rec->rules.target);
  } else {
    printf("The game was not finished: after %d rounds,", rec->nrounds);
    cli_print_scores(&rec->rules, rec->score);
  }
  if (rec->finished[0]) printf("finished %s\n", rec->finished);
}

int cmd_replay(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  bool check = false, ascii = false;
  const char *path = NULL;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--check") == 0) {
      check = true;
    } else if (strcmp(argv[i], "--ascii") == 0) {
      ascii = true;
    } else if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, &rules)) return 2;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "goita replay: unknown option \"%s\"\n", argv[i]);
      return 2;
    } else if (!path) {
      path = argv[i];
    } else {
      fprintf(stderr, "goita replay: one file, please\n");
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "usage: goita replay [--check] [--ascii] [--rules OPTS] FILE|-\n");
    return 2;
  }
  size_t len;
  char *text = cli_read_file(path, &len);
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
      printf("ok: a game record of %d rounds, %s, score", rec.nrounds, rec.over ? "finished" : "not finished");
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

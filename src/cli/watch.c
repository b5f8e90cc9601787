/* goita watch: a seeded game between computer players, printed move by move (with a pause
 * after each move on a terminal, so that it can be followed). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

typedef struct watch_opts {
  const char *player; /* the level of all four seats */
  uint64_t seed;
  goita_rules rules;
  bool ascii;
  const char *record_path; /* --record FILE: save the game as a JSON record */
  uint64_t delay_ms;       /* the pause after each move, so that the game can be followed */
} watch_opts;

/* Shows what was printed and pauses for the reader. */
static void pause_after_move(const watch_opts *o) {
  fflush(stdout);
  if (!o->delay_ms) return;
  const struct timespec pause = {(time_t)(o->delay_ms / 1000), (long)(o->delay_ms % 1000) * 1000000L};
  nanosleep(&pause, NULL);
}

static void print_draw(const goita_draw_result *d, bool ascii) {
  static const char *const names[] = {"random", "A1", "A2", "B", "C"};
  printf("Draw (%s):", names[d->method]);
  for (int round = 0; round < d->rounds && round < GOITA_DRAW_MAX_ROUNDS; round++) {
    printf(round ? "; again:" : "");
    for (int p = 0; p < d->players; p++)
      if (d->drawn[round][p]) printf(" player %d %s", p + 1, cli_mark(d->drawn[round][p], ascii));
  }
  printf(" -> seat %d deals first", d->dealer + 1);
  if (d->method == GOITA_DRAW_B || d->method == GOITA_DRAW_C) {
    printf("; seats:");
    for (int p = 0; p < d->players; p++) printf(" player %d at %d", p + 1, d->seat_of[p] + 1);
  }
  printf("\n");
}

static int watch(const watch_opts *o, goita_player *player) {
  goita_game g;
  goita_error err;
  if (goita_game_start(&g, &o->rules, o->seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita: %s\n", err.message);
    return 1;
  }
  const char *spec = goita_player_spec(player);
  char rules_text[GOITA_RULES_TEXT_SIZE];
  goita_rules_format(&g.rules, rules_text, sizeof rules_text);
  printf("goita %s: a game between computer players (%s)\nseed %llu\nrules %s\n", goita_version(), spec,
         (unsigned long long)o->seed, rules_text);
  print_draw(&g.draw, o->ascii);
  goita_record rec;
  goita_record_init(&rec, &g);
  for (int s = 0; s < g.rules.players; s++) snprintf(rec.engine[s], sizeof rec.engine[s], "goita %s", spec);
  char started[GOITA_RECORD_TIME_SIZE], now[GOITA_RECORD_TIME_SIZE];
  cli_utc_now(started, sizeof started);
  strcpy(rec.started, started);
  int status = 0;
  for (;;) {
    goita_round *r = &g.round;
    printf("\nRound %d, dealer seat %d\n", g.round_index, r->dealer + 1);
    for (int s = 0; s < r->players; s++) cli_print_hand(r, s, o->ascii);
    int number = 0;
    while (!goita_round_over(r)) {
      goita_view view;
      goita_game_view(&g, r->turn, &view);
      goita_player_seed(player, goita_seed_mix(o->seed ^ (uint64_t)g.round_index << 32 ^ r->nlog));
      goita_move m;
      if (goita_player_choose(player, &view, &m, NULL) != GOITA_OK || goita_game_apply(&g, m, &err) != GOITA_OK) {
        fprintf(stderr, "goita: internal error: %s\n", err.message);
        goita_record_free(&rec);
        return 1;
      }
      cli_print_move(r, r->nlog - 1, ++number, o->ascii);
      pause_after_move(o);
    }
    cli_print_result(r);
    cli_utc_now(now, sizeof now);
    if (goita_record_add_round(&rec, &g, started, now, &err) != GOITA_OK) {
      fprintf(stderr, "goita: %s\n", err.message);
      goita_record_free(&rec);
      return 1;
    }
    strcpy(started, now);
    char history[512];
    goita_history_format(r, history, sizeof history);
    printf("  record: %s\n  score:", history);
    cli_print_scores(&g.rules, g.score);
    if (g.over) break;
    if (goita_game_next_round(&g, &err) != GOITA_OK) {
      fprintf(stderr, "goita: internal error: %s\n", err.message);
      goita_record_free(&rec);
      return 1;
    }
  }
  strcpy(rec.finished, now);
  printf("\nGame over after %d round%s: ", g.round_index, g.round_index == 1 ? "" : "s");
  cli_print_side(&g.rules, g.winner_side);
  printf(" wins with %d (target %d)\n", goita_rules_shown_points(&g.rules, g.score[g.winner_side]),
         goita_rules_shown_points(&g.rules, g.rules.target));
  if (o->record_path) {
    char *json = NULL;
    if (goita_record_write_json(&rec, &json, &err) != GOITA_OK) {
      fprintf(stderr, "goita: %s\n", err.message);
      status = 1;
    } else if (!cli_write_file(o->record_path, json)) {
      status = 1;
    } else {
      printf("Record saved to %s (goita replay %s)\n", o->record_path, o->record_path);
    }
    free(json);
  }
  goita_record_free(&rec);
  return status;
}

int cmd_watch(int argc, char **argv) {
  watch_opts o = {"sampler", 1, {0}, false, NULL, isatty(1) ? 250 : 0};
  goita_rules_default(&o.rules);
  const cli_option options[] = {
      {"--seed", CLI_UINT, "S", &o.seed, "the seed of the deals and of the players' choices", .hi = UINT64_MAX},
      cli_rules_option(&o.rules),
      {.name = "--player", .kind = CLI_TEXT, .value = "SPEC", .target = &o.player,
       .help = "the player of every seat: a level, with parameters"},
      {.name = "--ascii", .kind = CLI_FLAG, .target = &o.ascii, .help = "letters instead of kanji"},
      {"--record", CLI_TEXT, "FILE", &o.record_path,
       "save the game as a JSON record (checked to be writable before the game)", .fallback = "none"},
      {"--delay", CLI_UINT, "MS", &o.delay_ms, "the pause after each move", .hi = 10000, .unit = "ms",
       .fallback = "250 when standard output is a terminal, else 0"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "watch",
      .about = "A seeded game between computer players (sampler by default), printed move by move: the draw\n"
               "for the first dealer, each round's hands, every move, the result and the scores.\n",
      .notes = "SPEC: random, rules, fast, sampler, expert, master, or a level with parameters such as\n"
               "sampler:samples=64,infer=on (docs/PLAYERS.md).\n",
      .examples = "goita watch --seed 7\n"
                  "goita watch --seed 7 --rules next_dealer=rotate,target=100 --record game.json\n"
                  "goita watch --player expert --delay 0 | less",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (o.record_path && !cli_check_writable("watch", o.record_path)) return 2;
  goita_player *player;
  goita_error err;
  if (goita_player_new(&player, o.player, &err) != GOITA_OK) {
    fprintf(stderr, "goita watch: --player \"%s\": %s\n", o.player, err.message);
    return 2;
  }
  const int status = watch(&o, player);
  goita_player_free(player);
  return status;
}

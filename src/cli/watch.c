/* goita watch: a seeded game between random players, printed move by move. */
#include <string.h>

#include "cli.h"

typedef struct watch_opts {
  uint64_t seed;
  goita_rules rules;
  bool ascii;
} watch_opts;

static void print_side(const goita_rules *rules, int side) {
  if (rules->players == 4)
    printf("team %d-%d", side + 1, side + 3);
  else
    printf("seat %d", side + 1);
}

static void print_hand(const goita_round *r, int seat, bool ascii) {
  const int h = goita_rules_hand_size(&r->rules);
  printf("  seat %d: ", seat + 1);
  for (int i = 0; i < h; i++) printf("%s", cli_mark(r->deal[seat][i], ascii));
  printf("  (");
  for (int i = 0; i < h; i++) printf("%d", r->deal[seat][i]);
  printf(")%s\n", (r->goshi >> seat) & 1 ? "  five pawns, shown" : "");
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

/* Prints one applied move: the round's log entry i. */
static void print_move(const goita_round *r, int i, int number, bool lead, bool ascii) {
  const goita_move m = r->log[i];
  char tok[8];
  goita_move_format(m, tok, sizeof tok);
  printf("  %3d. %-4s seat %d ", number, tok, m.seat + 1);
  switch (m.type) {
    case GOITA_MOVE_PASS: printf("passes\n"); return;
    case GOITA_MOVE_REDEAL: printf("(partner of a 5-pawn hand) asks for a redeal\n"); return;
    case GOITA_MOVE_GO: printf("(partner of a 5-pawn hand) chooses to play\n"); return;
  }
  if (lead)
    printf("leads %s face-down, attacks %s\n", cli_mark(m.block, ascii), cli_mark(m.attack, ascii));
  else
    printf("defends with %s, attacks %s\n", cli_mark(m.block, ascii), cli_mark(m.attack, ascii));
}

static void print_result(const goita_game *g) {
  const goita_round *r = &g->round;
  const goita_round_result *res = &r->result;
  printf("  -> ");
  switch (res->end) {
    case GOITA_END_FINISH:
      printf("seat %d goes out; ", res->winner + 1);
      break;
    case GOITA_END_TEYAKU:
      printf("teyaku: seat %d holds %d pawns; ", res->winner + 1, r->hand[res->winner][GOITA_PAWN]);
      break;
    case GOITA_END_DOUBLE_GOSHI:
      printf("5 pawns in both partners' hands (seat %d and partner); ", res->winner + 1);
      break;
    case GOITA_END_REDEAL:
      printf("redeal: nothing scored, seat %d deals again\n", r->dealer + 1);
      return;
    default:
      break;
  }
  print_side(&g->rules, goita_rules_side_of(&g->rules, res->winner));
  if (res->wins_game)
    printf(" wins the game at once\n");
  else
    printf(" scores %d%s\n", res->points, res->doubled ? " (doubled)" : "");
}

static int watch(const watch_opts *o) {
  goita_game g;
  goita_error err;
  if (goita_game_start(&g, &o->rules, o->seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita: %s\n", err.message);
    return 1;
  }
  char rules_text[256];
  goita_rules_format(&g.rules, rules_text, sizeof rules_text);
  printf("goita %s: a game between random players\nseed %llu\nrules %s\n", goita_version(),
         (unsigned long long)o->seed, rules_text);
  print_draw(&g.draw, o->ascii);
  goita_rng players_rng;
  goita_rng_seed(&players_rng, goita_seed_mix(o->seed ^ 0x706c61796572ULL));
  for (;;) {
    goita_round *r = &g.round;
    printf("\nRound %d, dealer seat %d\n", g.round_index, r->dealer + 1);
    for (int s = 0; s < r->players; s++) print_hand(r, s, o->ascii);
    int number = 0;
    while (!goita_round_over(r)) {
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(r, moves);
      const bool lead = goita_round_leading(r);
      const goita_move m = moves[goita_rng_below(&players_rng, (uint32_t)n)];
      if (goita_game_apply(&g, m, &err) != GOITA_OK) {
        fprintf(stderr, "goita: internal error: %s\n", err.message);
        return 1;
      }
      print_move(r, r->nlog - 1, ++number, lead, o->ascii);
    }
    print_result(&g);
    char history[512];
    goita_history_format(r, history, sizeof history);
    printf("  record: %s\n  score:", history);
    for (int side = 0; side < goita_rules_sides(&g.rules); side++) {
      printf(side ? ", " : " ");
      print_side(&g.rules, side);
      printf(" %d", g.score[side]);
    }
    printf("\n");
    if (g.over) break;
    if (goita_game_next_round(&g, &err) != GOITA_OK) {
      fprintf(stderr, "goita: internal error: %s\n", err.message);
      return 1;
    }
  }
  printf("\nGame over after %d rounds: ", g.round_index);
  print_side(&g.rules, g.winner_side);
  printf(" wins with %d (target %d)\n", g.score[g.winner_side], g.rules.target);
  return 0;
}

int cmd_watch(int argc, char **argv) {
  watch_opts o = {1, {0}, false};
  goita_rules_default(&o.rules);
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--seed") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--seed", v, &o.seed)) return 2;
    } else if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, &o.rules)) return 2;
    } else if (strcmp(argv[i], "--ascii") == 0) {
      o.ascii = true;
    } else {
      fprintf(stderr, "goita watch: unknown option \"%s\"\n", argv[i]);
      return 2;
    }
  }
  return watch(&o);
}

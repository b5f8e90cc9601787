/* goita-read: how well a level reads the hands it cannot see, the measure that a better model
 * of the others' play (or a learned belief) has to improve. A player plays seeded games in
 * every seat; at each of its choices in the first part of a round (more than --left pieces in
 * hands, where docs/STRENGTH.md finds knowing the partner's hand worth most), every reader
 * (a budgeted level: master or fast, with parameters) is given the chooser's view and says,
 * from the deals it draws, how likely each other seat is to hold each kind. Its beliefs are
 * scored against the true hands by cross-entropy, in nats per seat and kind, apart for the
 * partner and for the opponents: lower is a better reading, and `master:infer=0` (every deal
 * as likely) is the reading of nothing.
 *
 * usage: goita-read [--games N] [--seed S] [--player SPEC] [--deals D] [--left L] READER... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"
#include "player_internal.h"

#define MAX_READERS 8

typedef struct score {
  double nats[2]; /* summed cross-entropy: [0] the partner's kinds, [1] the opponents' */
  long count[2];
} score;

/* Cross-entropy of the belief p that a kind is held, when it is (held) or not. */
static double nats(double p, bool held) {
  p = fmin(fmax(p, 1e-3), 1 - 1e-3);
  return -log(held ? p : 1 - p);
}

/* Scores every reader's belief from seat's view against the true round r. */
static int read_view(goita_player **readers, int nreaders, int deals, const goita_view *v, const goita_round *r,
                     uint64_t seed, score *scores) {
  for (int i = 0; i < nreaders; i++) {
    double held[GOITA_MAX_SEATS][GOITA_KIND_SLOTS];
    goita_player_seed(readers[i], seed);
    const int st = goita__budgeted_beliefs(readers[i], v, deals, held);
    if (st != GOITA_OK) return st;
    for (int s = 0; s < r->players; s++) {
      if (s == v->seat) continue;
      const int side = goita_rules_side_of(&r->rules, s) == goita_rules_side_of(&r->rules, v->seat) ? 0 : 1;
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
        scores[i].nats[side] += nats(held[s][k], r->hand[s][k] > 0);
        scores[i].count[side]++;
      }
    }
  }
  return GOITA_OK;
}

static void usage(FILE *to) {
  fprintf(to, "usage: goita-read [--games N] [--seed S] [--player SPEC] [--deals D] [--left L] READER...\n"
              "  READER: master or fast, with parameters, e.g. master master:infer=0\n");
}

int main(int argc, char **argv) {
  long games = 20, deals = 128, left = 20;
  uint64_t seed = 1;
  const char *player_spec = "master:ms=30";
  const char *reader_specs[MAX_READERS];
  int nreaders = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strncmp(argv[i], "--", 2) != 0) {
      if (nreaders == MAX_READERS) {
        fprintf(stderr, "goita-read: at most %d readers\n", MAX_READERS);
        return 2;
      }
      reader_specs[nreaders++] = argv[i];
      continue;
    }
    const char *v = i + 1 < argc ? argv[++i] : NULL;
    if (!v) {
      fprintf(stderr, "goita-read: %s needs a value\n", argv[i]);
      return 2;
    }
    if (strcmp(argv[i - 1], "--player") == 0) {
      player_spec = v;
      continue;
    }
    char *end = NULL;
    const long long number = strtoll(v, &end, 10);
    if (*end != '\0' || number < 0) {
      fprintf(stderr, "goita-read: %s: \"%s\" is not a whole number\n", argv[i - 1], v);
      return 2;
    }
    if (strcmp(argv[i - 1], "--games") == 0) games = (long)number;
    else if (strcmp(argv[i - 1], "--deals") == 0) deals = (long)number;
    else if (strcmp(argv[i - 1], "--left") == 0) left = (long)number;
    else if (strcmp(argv[i - 1], "--seed") == 0) seed = (uint64_t)number;
    else {
      usage(stderr);
      return 2;
    }
  }
  if (!nreaders || games < 1 || deals < 1 || deals > 8192) {
    fprintf(stderr, "goita-read: give a reader, and --games and --deals (at most 8192) above 0\n");
    return 2;
  }
  goita_error err;
  goita_player *player, *readers[MAX_READERS];
  if (goita_player_new(&player, player_spec, &err) != GOITA_OK) {
    fprintf(stderr, "goita-read: --player: %s\n", err.message);
    return 2;
  }
  for (int i = 0; i < nreaders; i++) {
    if (goita_player_new(&readers[i], reader_specs[i], &err) != GOITA_OK) {
      fprintf(stderr, "goita-read: reader \"%s\": %s\n", reader_specs[i], err.message);
      return 2;
    }
    const char *level = goita_player_spec(readers[i]);
    if (strncmp(level, "master:", 7) != 0 && strncmp(level, "fast:", 5) != 0) {
      fprintf(stderr, "goita-read: reader \"%s\" is not a budgeted level (master or fast)\n", reader_specs[i]);
      return 2;
    }
  }
  score scores[MAX_READERS] = {{{0}, {0}}};
  long choices = 0;
  for (long g = 0; g < games; g++) {
    goita_rules rules;
    goita_rules_default(&rules);
    goita_game game;
    const uint64_t game_seed = goita_seed_mix(seed + (uint64_t)g);
    if (goita_game_start(&game, &rules, game_seed, &err) != GOITA_OK) return 1;
    for (;;) {
      while (!goita_round_over(&game.round)) {
        goita_round *r = &game.round;
        goita_view v;
        goita_game_view(&game, r->turn, &v);
        const uint64_t move_seed = goita_seed_mix(game_seed ^ (uint64_t)r->nlog << 40 ^ (uint64_t)game.round_index);
        int pieces = 0;
        for (int s = 0; s < r->players; s++) pieces += r->size[s];
        if (r->phase == GOITA_PHASE_PLAY && r->players == 4 && pieces > left) {
          if (read_view(readers, nreaders, (int)deals, &v, r, move_seed ^ 0x5eed, scores) != GOITA_OK) {
            fprintf(stderr, "goita-read: game %ld: no deal agrees with a view\n", g + 1);
            return 1;
          }
          choices++;
        }
        goita_move move;
        goita_player_seed(player, move_seed);
        if (goita_player_choose(player, &v, &move, NULL) != GOITA_OK || goita_game_apply(&game, move, &err) != GOITA_OK)
          return 1;
      }
      if (game.over) break;
      if (goita_game_next_round(&game, &err) != GOITA_OK) return 1;
    }
  }
  printf("%ld choices with more than %ld pieces left, %ld games of %s, %ld deals a belief\n", choices, left, games,
         player_spec, deals);
  for (int i = 0; i < nreaders; i++) {
    printf("%s: partner %.4f, opponents %.4f nats per seat and kind\n", reader_specs[i],
           scores[i].nats[0] / (double)(scores[i].count[0] ? scores[i].count[0] : 1),
           scores[i].nats[1] / (double)(scores[i].count[1] ? scores[i].count[1] : 1));
    goita_player_free(readers[i]);
  }
  goita_player_free(player);
  return 0;
}

/* goita match: one player's team against another's on paired deals. Games come in pairs
 * with the same seed, so the same deals, and the teams' seats swapped; the luck of the deal
 * cancels out of the difference. Games run on worker threads; every choice depends only on
 * the game's seed and the seat's view, so results do not depend on the number of threads. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct match_opts {
  const char *spec[2]; /* A, B as given */
  char full_spec[2][160]; /* as the players write themselves, every parameter */
  uint64_t games;
  uint64_t seed;
  goita_rules rules;
  int jobs;
  bool quiet;
} match_opts;

/* What one finished game says. */
typedef struct game_result {
  int rounds;        /* rounds scored (redeals are not counted) */
  long diff;         /* A's points minus B's over those rounds */
  bool a_won;
  double ms[2];      /* thinking time of A and B */
  long moves[2];     /* moves chosen by A and B (forced single moves included) */
  int status;        /* 0, or 1 after an error (printed) */
} game_result;

typedef struct match {
  const match_opts *o;
  game_result *results;
  uint64_t next_game; /* the next game a worker takes */
  uint64_t finished;
  long diff;
  long rounds;
  pthread_mutex_t lock;
} match;

/* Seats of A's side in game g: 0 and 2 (or 0) in even games, 1 and 3 (or 1) in odd ones. */
static int side_a(uint64_t game) { return (int)(game & 1); }

static uint64_t pair_seed(const match_opts *o, uint64_t game) { return goita_seed_mix(o->seed + game / 2); }

static void play_game(match *m, goita_player *const players[2], uint64_t g, game_result *out) {
  const match_opts *o = m->o;
  memset(out, 0, sizeof *out);
  const uint64_t seed = pair_seed(o, g);
  goita_game game;
  goita_error err;
  if (goita_game_start(&game, &o->rules, seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita match: %s\n", err.message);
    out->status = 1;
    return;
  }
  const int a_side = side_a(g);
  for (;;) {
    goita_round *r = &game.round;
    while (!goita_round_over(r)) {
      const int seat = r->turn;
      const int who = goita_rules_side_of(&o->rules, seat) == a_side ? 0 : 1;
      goita_view view;
      goita_game_view(&game, seat, &view);
      goita_player_seed(players[who], goita_seed_mix(seed ^ (uint64_t)(seat + 1) << 56));
      goita_move move;
      goita_player_info info;
      int st = goita_player_choose(players[who], &view, &move, &info);
      if (st == GOITA_OK) st = goita_game_apply(&game, move, &err);
      if (st != GOITA_OK) {
        fprintf(stderr, "goita match: game %llu: %s chose no legal move: %s\n", (unsigned long long)g + 1,
                goita_player_spec(players[who]), goita_strerror(st));
        out->status = 1;
        return;
      }
      out->ms[who] += info.ms;
      out->moves[who]++;
    }
    if (r->result.end != GOITA_END_REDEAL) {
      out->rounds++;
      const int a_gain = game.score[a_side] - game.score_before[a_side];
      const int b_gain = game.score[1 - a_side] - game.score_before[1 - a_side];
      out->diff += a_gain - b_gain;
    }
    if (game.over) break;
    if (goita_game_next_round(&game, &err) != GOITA_OK) {
      fprintf(stderr, "goita match: game %llu: %s\n", (unsigned long long)g + 1, err.message);
      out->status = 1;
      return;
    }
  }
  out->a_won = game.winner_side == a_side;
}

static void *worker(void *arg) {
  match *m = arg;
  goita_player *players[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) goita_player_new(&players[i], m->o->spec[i], NULL); /* checked in cmd_match */
  for (;;) {
    pthread_mutex_lock(&m->lock);
    const uint64_t g = m->next_game++;
    pthread_mutex_unlock(&m->lock);
    if (g >= m->o->games) break;
    game_result *res = &m->results[g];
    if (players[0] && players[1])
      play_game(m, players, g, res);
    else
      res->status = 1;
    pthread_mutex_lock(&m->lock);
    m->finished++;
    m->diff += res->diff;
    m->rounds += res->rounds;
    if (!m->o->quiet)
      fprintf(stderr, "\rgame %llu/%llu  rounds %ld  A-B %+.2f points per round ", (unsigned long long)m->finished,
              (unsigned long long)m->o->games, m->rounds, m->rounds ? (double)m->diff / (double)m->rounds : 0.0);
    pthread_mutex_unlock(&m->lock);
  }
  for (int i = 0; i < 2; i++) goita_player_free(players[i]);
  return NULL;
}

/* Prints the summary line. Pairs of games are the independent units: X is A's points minus
 * B's per round, and its standard error is that of a ratio estimate over pairs. */
static int report(const match_opts *o, const game_result *res) {
  const uint64_t pairs = (o->games + 1) / 2;
  long rounds = 0, diff = 0, wins = 0, moves[2] = {0, 0};
  double ms[2] = {0, 0};
  for (uint64_t g = 0; g < o->games; g++) {
    if (res[g].status) return 1;
    rounds += res[g].rounds;
    diff += res[g].diff;
    wins += res[g].a_won;
    for (int i = 0; i < 2; i++) {
      ms[i] += res[g].ms[i];
      moves[i] += res[g].moves[i];
    }
  }
  const double x = rounds ? (double)diff / (double)rounds : 0;
  double ss = 0;
  for (uint64_t p = 0; p < pairs; p++) {
    double d = 0, r = 0;
    for (uint64_t g = 2 * p; g < 2 * p + 2 && g < o->games; g++) {
      d += (double)res[g].diff;
      r += res[g].rounds;
    }
    ss += (d - x * r) * (d - x * r);
  }
  const double mean_rounds = (double)rounds / (double)pairs;
  const double se = pairs > 1 && mean_rounds > 0 ? sqrt(ss / (double)(pairs * (pairs - 1))) / mean_rounds : 0;
  if (!o->quiet) fprintf(stderr, "\n");
  printf("{\"a\":\"%s\",\"b\":\"%s\",\"rounds\":%ld,\"points_per_round\":%.3f,\"stderr\":%.3f,\"games\":%llu,"
         "\"a_game_wins\":%ld,\"a_ms_per_move\":%.3f,\"b_ms_per_move\":%.3f}\n",
         o->full_spec[0], o->full_spec[1], rounds, x, se, (unsigned long long)o->games, wins,
         moves[0] ? ms[0] / (double)moves[0] : 0, moves[1] ? ms[1] / (double)moves[1] : 0);
  return 0;
}

static int run_match(match_opts *o) {
  match m = {0};
  m.o = o;
  m.results = calloc(o->games, sizeof *m.results);
  if (!m.results) {
    fprintf(stderr, "goita match: out of memory\n");
    return 1;
  }
  pthread_mutex_init(&m.lock, NULL);
  const int jobs = (uint64_t)o->jobs > o->games ? (int)o->games : o->jobs;
  pthread_t threads[64];
  for (int i = 0; i < jobs; i++) pthread_create(&threads[i], NULL, worker, &m);
  for (int i = 0; i < jobs; i++) pthread_join(threads[i], NULL);
  pthread_mutex_destroy(&m.lock);
  const int st = report(o, m.results);
  free(m.results);
  return st;
}

int cmd_match(int argc, char **argv) {
  match_opts o = {{NULL, NULL}, {"", ""}, 100, 1, {0}, 2, false};
  goita_rules_default(&o.rules);
  int nspec = 0;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--games") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--games", v, &o.games)) return 2;
      if (o.games < 1 || o.games > 10000000) {
        fprintf(stderr, "goita match: --games is 1-10000000\n");
        return 2;
      }
    } else if (strcmp(argv[i], "--seed") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--seed", v, &o.seed)) return 2;
    } else if (strcmp(argv[i], "--rules") == 0) {
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_rules(v, &o.rules)) return 2;
    } else if (strcmp(argv[i], "--jobs") == 0) {
      uint64_t jobs;
      if (!(v = cli_option_value(argc, argv, &i)) || !cli_parse_u64("--jobs", v, &jobs)) return 2;
      if (jobs < 1 || jobs > 64) {
        fprintf(stderr, "goita match: --jobs is 1-64\n");
        return 2;
      }
      o.jobs = (int)jobs;
    } else if (strcmp(argv[i], "--quiet") == 0) {
      o.quiet = true;
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      fprintf(stderr, "goita match: unknown option \"%s\"\n", argv[i]);
      return 2;
    } else if (nspec < 2) {
      o.spec[nspec++] = argv[i];
    } else {
      fprintf(stderr, "goita match: one player for each side (A B), not \"%s\" as well\n", argv[i]);
      return 2;
    }
  }
  if (nspec != 2) {
    fprintf(stderr, "goita match: name two players, A and B (levels: ");
    for (const char *const *l = goita_player_levels(); *l; l++) fprintf(stderr, "%s%s", *l, l[1] ? ", " : ")\n");
    return 2;
  }
  if (o.rules.players == 3) {
    fprintf(stderr, "goita match: a match is between two sides: 4 players (teams) or 2 players\n");
    return 2;
  }
  /* Check the specs here, so the workers only create what is known to work. */
  for (int i = 0; i < 2; i++) {
    goita_player *p;
    goita_error err;
    if (goita_player_new(&p, o.spec[i], &err) != GOITA_OK) {
      fprintf(stderr, "goita match: player %c \"%s\": %s\n", 'A' + i, o.spec[i], err.message);
      return 2;
    }
    snprintf(o.full_spec[i], sizeof o.full_spec[i], "%s", goita_player_spec(p));
    goita_player_free(p);
  }
  return run_match(&o);
}

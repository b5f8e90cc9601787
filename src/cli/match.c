/* goita match: one player's team against another's on paired deals. Games come in pairs
 * with the same seed, so the same deals, and the teams' seats swapped; the luck of the deal
 * cancels out of the difference. Games run on worker threads; every choice depends only on
 * the game's seed and the seat's view, so results do not depend on the number of threads. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

typedef struct match_opts {
  const char *spec[2]; /* A, B as given */
  char full_spec[2][1024]; /* as the players write themselves, every parameter */
  uint64_t games;
  uint64_t seed;
  goita_rules rules;
  int jobs;
  double engine_timeout_ms; /* how long an external program may think about one move */
  bool quiet;
} match_opts;

/* What one finished game says. */
typedef struct game_result {
  int rounds;        /* rounds scored (redeals are not counted) */
  long diff;         /* A's points minus B's over those rounds */
  bool a_won;
  double ms[2];      /* thinking time of A and B */
  long moves[2];     /* moves chosen by A and B (forced single moves included) */
} game_result;

typedef struct match {
  const match_opts *o;
  game_result *results;
  uint64_t next_game; /* the next game a worker takes */
  uint64_t finished;
  long diff;
  long rounds;
  bool failed;        /* a game could not be played: stop */
  pthread_mutex_t lock;
} match;

/* Seats of A's side in game g: 0 and 2 (or 0) in even games, 1 and 3 (or 1) in odd ones. */
static int side_a(uint64_t game) { return (int)(game & 1); }

static uint64_t pair_seed(const match_opts *o, uint64_t game) { return goita_seed_mix(o->seed + game / 2); }

/* One side's player: a library level, or a program speaking the protocol ("engine:COMMAND"). */
typedef struct side_player {
  goita_player *level;
  cli_engine program;
  bool external;
} side_player;

#define ENGINE_PREFIX "engine:"

static bool is_external(const char *spec) { return strncmp(spec, ENGINE_PREFIX, strlen(ENGINE_PREFIX)) == 0; }

/* Creates the player of a spec; false after printing why. */
static bool side_start(side_player *p, const char *spec, const match_opts *o, char who) {
  memset(p, 0, sizeof *p);
  p->external = is_external(spec);
  const goita_rules *rules = &o->rules;
  if (p->external) {
    if (cli_engine_start(&p->program, spec + strlen(ENGINE_PREFIX), rules, o->engine_timeout_ms)) return true;
    fprintf(stderr, "goita match: player %c \"%s\": %s\n", who, spec, p->program.why);
    cli_engine_stop(&p->program);
    return false;
  }
  goita_error err;
  if (goita_player_new(&p->level, spec, &err) == GOITA_OK) return true;
  fprintf(stderr, "goita match: player %c \"%s\": %s\n", who, spec, err.message);
  return false;
}

static void side_stop(side_player *p) {
  if (p->external)
    cli_engine_stop(&p->program);
  else
    goita_player_free(p->level);
}

/* Returns a clock in milliseconds: the calling thread's CPU time for a library player, so that
 * other work on the machine does not inflate its thinking time; wall time for a program, whose
 * thinking happens in another process. */
static double now_ms(bool external) {
  struct timespec t;
  clock_gettime(external ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Plays one game; false after printing what went wrong. */
static bool play_game(match *m, side_player *players, uint64_t g, game_result *out) {
  const match_opts *o = m->o;
  memset(out, 0, sizeof *out);
  const uint64_t seed = pair_seed(o, g);
  goita_game game;
  goita_error err;
  if (goita_game_start(&game, &o->rules, seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita match: %s\n", err.message);
    return false;
  }
  const int a_side = side_a(g);
  for (;;) {
    goita_round *r = &game.round;
    while (!goita_round_over(r)) {
      const int seat = r->turn;
      const int who = goita_rules_side_of(&o->rules, seat) == a_side ? 0 : 1;
      side_player *p = &players[who];
      goita_view view;
      goita_game_view(&game, seat, &view);
      const uint64_t move_seed = goita_seed_mix(seed ^ (uint64_t)(seat + 1) << 56 ^ (uint64_t)r->nlog << 48 ^
                                                (uint64_t)game.round_index << 32);
      goita_move move;
      const double start = now_ms(p->external);
      if (p->external) {
        if (!cli_engine_move(&p->program, &view, move_seed, &move)) {
          char history[512];
          goita_history_format_view(&view, history, sizeof history);
          fprintf(stderr, "goita match: game %llu: player %c, to move after %s: %s\n", (unsigned long long)g + 1,
                  'A' + who, history, p->program.why);
          return false;
        }
      } else {
        goita_player_seed(p->level, move_seed);
        const int st = goita_player_choose(p->level, &view, &move, NULL);
        if (st != GOITA_OK) {
          fprintf(stderr, "goita match: game %llu: player %c chose no move: %s\n", (unsigned long long)g + 1,
                  'A' + who, goita_strerror(st));
          return false;
        }
      }
      out->ms[who] += now_ms(p->external) - start;
      out->moves[who]++;
      if (goita_game_apply(&game, move, &err) != GOITA_OK) {
        char token[8], history[512];
        goita_move_format(move, token, sizeof token);
        goita_history_format_view(&view, history, sizeof history);
        fprintf(stderr, "goita match: game %llu: player %c played %s after %s: %s\n", (unsigned long long)g + 1,
                'A' + who, token, history, err.message);
        return false;
      }
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
      return false;
    }
  }
  out->a_won = game.winner_side == a_side;
  return true;
}

static void *worker(void *arg) {
  match *m = arg;
  side_player players[2];
  bool ok = side_start(&players[0], m->o->spec[0], m->o, 'A');
  if (ok && !side_start(&players[1], m->o->spec[1], m->o, 'B')) {
    side_stop(&players[0]);
    ok = false;
  }
  for (;;) {
    pthread_mutex_lock(&m->lock);
    const uint64_t g = m->failed ? m->o->games : m->next_game++;
    if (!ok) m->failed = true;
    pthread_mutex_unlock(&m->lock);
    if (!ok || g >= m->o->games) break;
    game_result *res = &m->results[g];
    const bool played = play_game(m, players, g, res);
    pthread_mutex_lock(&m->lock);
    if (!played) m->failed = true;
    m->finished++;
    m->diff += res->diff;
    m->rounds += res->rounds;
    if (!m->o->quiet && played)
      fprintf(stderr, "\rgame %llu/%llu  rounds %ld  A-B %+.2f points per round ", (unsigned long long)m->finished,
              (unsigned long long)m->o->games, m->rounds, m->rounds ? (double)m->diff / (double)m->rounds : 0.0);
    pthread_mutex_unlock(&m->lock);
  }
  if (ok) {
    side_stop(&players[0]);
    side_stop(&players[1]);
  }
  return NULL;
}

/* Prints the summary line. Pairs of games are the independent units: X is A's points minus
 * B's per round, and its standard error is that of a ratio estimate over pairs. */
static int report(const match_opts *o, const game_result *res) {
  const uint64_t pairs = (o->games + 1) / 2;
  long rounds = 0, diff = 0, wins = 0, moves[2] = {0, 0};
  double ms[2] = {0, 0};
  for (uint64_t g = 0; g < o->games; g++) {
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
  printf("{\"a\":\"");
  cli_json_string(stdout, o->full_spec[0]);
  printf("\",\"b\":\"");
  cli_json_string(stdout, o->full_spec[1]);
  printf("\",\"rounds\":%ld,\"points_per_round\":%.3f,\"stderr\":%.3f,\"games\":%llu,\"a_game_wins\":%ld,"
         "\"a_ms_per_move\":%.3f,\"b_ms_per_move\":%.3f}\n",
         rounds, x, se, (unsigned long long)o->games, wins, moves[0] ? ms[0] / (double)moves[0] : 0,
         moves[1] ? ms[1] / (double)moves[1] : 0);
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
  const int st = m.failed ? 1 : report(o, m.results);
  free(m.results);
  return st;
}

int cmd_match(int argc, char **argv) {
  match_opts o = {{NULL, NULL}, {"", ""}, 100, 1, {0}, 2, 0, false};
  goita_rules_default(&o.rules);
  uint64_t jobs = 2, timeout_s = 120;
  const cli_option options[] = {
      {"--games", CLI_UINT, "N", &o.games, "games to play, in pairs on the same deals with the seats swapped",
       .lo = 1, .hi = 10000000},
      {"--seed", CLI_UINT, "S", &o.seed, "the seed of the deals and of the players' choices", .hi = UINT64_MAX},
      cli_rules_option(&o.rules),
      {"--jobs", CLI_UINT, "J", &jobs, "worker threads; the results do not depend on them", .lo = 1, .hi = 64},
      {"--engine-timeout", CLI_UINT, "SEC", &timeout_s,
       "the longest an engine:COMMAND player may think about one move before the match stops with an error",
       .lo = 1, .hi = 86400, .unit = "seconds"},
      {.name = "--quiet", .kind = CLI_FLAG, .target = &o.quiet, .help = "no progress line on standard error"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "match",
      .operands = "A B",
      .about = "Player A's team against player B's on paired deals: each deal is played twice with the teams'\n"
               "seats swapped, so the luck of the deal cancels out. Ends with one JSON line: A's points minus\n"
               "B's per round, its standard error, A's game wins and both players' time per move.\n",
      .notes = "A and B are players: random, rules, fast, sampler, expert, master, or a level with parameters such as\n"
               "sampler:samples=64,infer=on (docs/PLAYERS.md); or engine:COMMAND, a program that speaks the\n"
               "protocol of docs/PROTOCOL.md, started with sh -c COMMAND.\n",
      .examples = "goita match --games 100 sampler rules\n"
                  "goita match --games 20 --jobs 2 expert \"engine:goita engine --player sampler\"\n"
                  "goita match --engine-timeout 10 sampler \"engine:./my-engine --level 3\"",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  cli_operands operands;
  const int parsed = cli_parse(&c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  if (operands.n > 2)
    return cli_usage_error(&c, "one player for each side (A B), not \"%s\" as well", operands.arg[2]);
  if (operands.n != 2) {
    fprintf(stderr, "goita match: name two players, A and B (levels: ");
    for (const char *const *l = goita_player_levels(); *l; l++) fprintf(stderr, "%s%s", *l, l[1] ? ", " : ")\n");
    return 2;
  }
  o.spec[0] = operands.arg[0];
  o.spec[1] = operands.arg[1];
  o.jobs = (int)jobs;
  o.engine_timeout_ms = (double)timeout_s * 1000.0;
  if (o.rules.players == 3) {
    fprintf(stderr, "goita match: a match is between two sides: 4 players (teams) or 2 players\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN); /* a program that dies is reported, not fatal */
  /* Check the players here (a program is started and stopped), so that a bad spec is reported
   * once, before any game. */
  for (int i = 0; i < 2; i++) {
    side_player p;
    if (!side_start(&p, o.spec[i], &o, (char)('A' + i))) return 2;
    snprintf(o.full_spec[i], sizeof o.full_spec[i], "%s", p.external ? o.spec[i] : goita_player_spec(p.level));
    side_stop(&p);
  }
  return run_match(&o);
}

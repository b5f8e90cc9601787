/* goita solo: the memory game "Gardes" of RULES.md 9 in the terminal, in line mode. The grid
 * shows the guards and the pieces turned this turn; the rest is face-down, and remembering
 * it is the game. Cells are named by row and column: a1 ... d8. */
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static void show(const goita_solo *g, bool ascii) {
  uint8_t grid[GOITA_SOLO_CELLS];
  goita_solo_view(g, grid);
  const uint32_t occupied = goita_solo_occupied(g);
  printf("\n    1  2  3  4  5  6  7  8\n");
  for (int row = 0; row < GOITA_SOLO_ROWS; row++) {
    printf(" %c ", 'a' + row);
    for (int col = 0; col < GOITA_SOLO_COLS; col++) {
      const int c = row * GOITA_SOLO_COLS + col;
      if (!(occupied >> c & 1u))
        printf(ascii ? " . " : " ・");
      else if (!grid[c])
        printf(ascii ? " # " : " ＃");
      else
        printf(ascii ? " %s " : " %s", cli_mark(grid[c], ascii));
    }
    printf("\n");
  }
  printf("Score %d (of %d), turn %d. Discard:", g->score, GOITA_SOLO_MAX_SCORE, g->turns);
  bool any = false;
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--)
    for (int c = 0; c < g->discard[k]; c++, any = true) printf(" %s", cli_mark(k, ascii));
  printf("%s\n", any ? "" : " none");
}

/* Reads a cell name ("b5"); -1 when it is not one. */
static int read_cell(const char *text) {
  if (strlen(text) != 2) return -1;
  const int row = text[0] - 'a', col = text[1] - '1';
  if (row < 0 || row >= GOITA_SOLO_ROWS || col < 0 || col >= GOITA_SOLO_COLS) return -1;
  return row * GOITA_SOLO_COLS + col;
}

static char *read_line(const char *prompt) {
  printf("%s", prompt);
  fflush(stdout);
  size_t cap = 0;
  char *line = NULL;
  if (getline(&line, &cap, stdin) < 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\r\n")] = '\0';
  if (!isatty(0)) printf("%s\n", line);
  return line;
}

/* ---- goita solo --solve: the expected score of perfect memory, by sampling ---- */

typedef struct solve_job {
  uint64_t seed;
  int games, rollouts;
  int next, done;
  bool progress; /* to a terminal only */
  int *scores;
  pthread_mutex_t lock;
} solve_job;

static void *solve_worker(void *arg) {
  solve_job *job = arg;
  for (;;) {
    pthread_mutex_lock(&job->lock);
    const int i = job->next < job->games ? job->next++ : -1;
    pthread_mutex_unlock(&job->lock);
    if (i < 0) return NULL;
    /* game i depends only on (seed, i): the same result on any number of threads */
    goita_solo g;
    goita_solo_start(&g, goita_seed_mix(job->seed + (uint64_t)i));
    const int score = goita_solo_play_best(&g, goita_seed_mix(~job->seed + (uint64_t)i), job->rollouts);
    pthread_mutex_lock(&job->lock);
    job->scores[i] = score;
    job->done++;
    if (job->progress && (job->done % 500 == 0 || job->done == job->games)) fprintf(stderr, "\r%d of %d deals", job->done, job->games);
    pthread_mutex_unlock(&job->lock);
  }
}

static int solve(uint64_t seed, int games, int rollouts, int jobs) {
  solve_job job = {.seed = seed, .games = games, .rollouts = rollouts, .progress = isatty(2)};
  job.scores = calloc((size_t)games, sizeof *job.scores);
  if (!job.scores) {
    fprintf(stderr, "goita solo: out of memory\n");
    return 1;
  }
  pthread_mutex_init(&job.lock, NULL);
  pthread_t threads[64];
  for (int i = 0; i < jobs; i++) pthread_create(&threads[i], NULL, solve_worker, &job);
  for (int i = 0; i < jobs; i++) pthread_join(threads[i], NULL);
  pthread_mutex_destroy(&job.lock);
  if (job.progress) fprintf(stderr, "\n");
  double sum = 0, squares = 0;
  int lowest = GOITA_SOLO_MAX_SCORE, perfect = 0;
  for (int i = 0; i < games; i++) {
    sum += job.scores[i];
    squares += (double)job.scores[i] * job.scores[i];
    if (job.scores[i] < lowest) lowest = job.scores[i];
    perfect += job.scores[i] == GOITA_SOLO_MAX_SCORE;
  }
  free(job.scores);
  const double mean = sum / games;
  const double se = games > 1 ? sqrt((squares - sum * mean) / (games - 1) / games) : 0;
  /* the sentences for people fit 80 columns with any seed; the JSON line is for programs */
  printf("Expected score with perfect memory: %.2f ± %.2f of %d\n(lowest %d; %d in %d of %d deals).\n", mean, se,
         GOITA_SOLO_MAX_SCORE, lowest, GOITA_SOLO_MAX_SCORE, perfect, games);
  printf("By sampling: %d deals from seed %llu,\n"
         "each played by the rollout strategy (%d continuations per step). That is a\n"
         "lower bound on the best strategy; where the exact best is computed (reduced\n"
         "piece sets, docs/SOLO.md) this strategy is within 0.12 points of it.\n",
         games, (unsigned long long)seed, rollouts);
  printf("{\"games\":%d,\"seed\":%llu,\"rollouts\":%d,\"mean\":%.3f,\"stderr\":%.3f,\"method\":\"sampling\"}\n", games,
         (unsigned long long)seed, rollouts, mean, se);
  return 0;
}

/* How to play, at the start and for help at the prompt; lines fit 80 columns. */
static const char solo_help[] =
    "Each turn, turn two face-down pieces (e.g. b2 c7). Pairs of one kind among the\n"
    "visible pieces and the guards in the corners are taken and scored (king 5, rook\n"
    "and bishop 4, gold and silver 3, knight and lance 2, pawn 1); with no pair,\n"
    "remove one piece to the discard. The pieces turned go face-down again: remember\n"
    "them. Type hint for what a perfect memory would do, help for this, quit to stop.\n";

static void print_cell(int cell) { printf("%c%d", 'a' + cell / GOITA_SOLO_COLS, cell % GOITA_SOLO_COLS + 1); }

/* The hint: what a player who remembers everything seen so far would do. */
static void hint(const goita_solo *g, const goita_solo_memory *memory, uint64_t seed) {
  goita_solo_action action;
  goita_error err;
  if (goita_solo_advise(g, memory, seed, 256, &action, &err) != GOITA_OK) {
    printf("No hint: %s\n", err.message);
    return;
  }
  printf("Hint (perfect memory): %s ", action.phase == GOITA_SOLO_TURN     ? "turn"
                                        : action.phase == GOITA_SOLO_CHOOSE ? "take"
                                                                            : "remove");
  print_cell(action.a);
  if (action.phase != GOITA_SOLO_REMOVE && action.b != action.a) {
    printf(" ");
    print_cell(action.b);
  }
  printf(": about %.1f more points to come.\n", action.value);
}

int cmd_solo(int argc, char **argv) {
  uint64_t seed = 0, games = 4000, rollouts = 64, jobs = 2;
  bool seeded = false, ascii = false, solving = false;
  const cli_option options[] = {
      {"--seed", CLI_UINT, "S", &seed, "the seed of the deal (with --solve, of the sampled deals)", .hi = UINT64_MAX,
       .fallback = "a new one for each game; 1 with --solve", .given = &seeded},
      {.name = "--ascii", .kind = CLI_FLAG, .target = &ascii,
       .help = "letters instead of kanji (also in a locale without UTF-8)"},
      {.name = "--solve", .kind = CLI_FLAG, .target = &solving,
       .help = "instead of a game, the expected score of a perfect memory, by sampling deals (docs/SOLO.md)"},
      {"--games", CLI_UINT, "N", &games, "--solve: the deals to sample", .lo = 1, .hi = 100000000},
      {"--rollouts", CLI_UINT, "R", &rollouts, "--solve: the continuations tried at each step", .lo = 2, .hi = 4096},
      {"--jobs", CLI_UINT, "J", &jobs, "--solve: worker threads; the result does not depend on them", .lo = 1,
       .hi = 64},
  };
  const cli_command c = {
      .program = "goita",
      .name = "solo",
      .about = "The solo memory game \"Gardes\" (RULES.md 9) in line mode: turn two face-down pieces each\n"
               "turn, take pairs, remember what you saw. Type hint for what a perfect memory would do, quit\n"
               "to stop.\n",
      .examples = "goita solo\n"
                  "goita solo --seed 9 --ascii\n"
                  "goita solo --solve --games 4000 --jobs 2",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (solving) return solve(seeded ? seed : 1, (int)games, (int)rollouts, (int)jobs);
  setlocale(LC_ALL, "");
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) ascii = true;
  if (!seeded) seed = goita_seed_mix((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
  goita_solo g;
  goita_solo_start(&g, seed);
  goita_solo_memory memory; /* what a perfect memory holds: for hints only */
  memset(&memory, 0, sizeof memory);
  goita_solo_remember(&memory, &g);
  printf("goita solo (Gardes), seed %llu.\n%s", (unsigned long long)seed, solo_help);
  bool redraw = true;
  while (g.phase != GOITA_SOLO_OVER) {
    if (redraw) show(&g, ascii);
    redraw = true;
    const char *prompt = g.phase == GOITA_SOLO_TURN     ? "turn two> "
                         : g.phase == GOITA_SOLO_CHOOSE ? "three of a kind: take which two> "
                                                        : "no pair: remove which piece> ";
    char *line = read_line(prompt);
    if (!line) {
      printf("\nLeft the game with %d points.\n", g.score);
      return 0;
    }
    char first[16] = "", second[16] = "";
    const int words = sscanf(line, "%15s %15s", first, second);
    free(line);
    if (words >= 1 && (strcmp(first, "quit") == 0 || strcmp(first, "q") == 0)) {
      printf("Left the game with %d points.\n", g.score);
      return 0;
    }
    if (words == 1 && (strcmp(first, "help") == 0 || strcmp(first, "?") == 0)) {
      printf("%s", solo_help);
      redraw = false;
      continue;
    }
    if (words == 1 && (strcmp(first, "hint") == 0 || strcmp(first, "h") == 0)) {
      hint(&g, &memory, goita_seed_mix(seed + g.turns));
      redraw = false;
      continue;
    }
    const int a = words >= 1 ? read_cell(first) : -1, b = words >= 2 ? read_cell(second) : -1;
    goita_error err;
    int st;
    if (g.phase == GOITA_SOLO_REMOVE) {
      st = a >= 0 && words == 1 ? goita_solo_remove(&g, a, &err)
                                : goita_error_set(&err, GOITA_EPARSE, -1, "name one cell, e.g. b5");
    } else if (g.phase == GOITA_SOLO_TURN && goita_solo_face_down(&g) == 1 && a >= 0 && words == 1) {
      /* the last face-down piece is turned alone */
      const int m = g.cell[a], before = g.score;
      st = goita_solo_turn(&g, a, a, &err);
      if (st == GOITA_OK) printf("Turned: %s at %s.%s\n", cli_mark(m, ascii), first, g.score > before ? " A pair." : "");
    } else if (a < 0 || b < 0 || words != 2) {
      st = goita_error_set(&err, GOITA_EPARSE, -1,
                           goita_solo_face_down(&g) == 1 && g.phase == GOITA_SOLO_TURN
                               ? "one face-down piece is left: name its cell"
                               : "name two cells, e.g. b2 c7 (rows a-d, columns 1-8)");
    } else {
      const int second_cell = b;
      const bool turning = g.phase == GOITA_SOLO_TURN;
      const int ma = g.cell[a], mb = g.cell[second_cell], before = g.score;
      st = turning ? goita_solo_turn(&g, a, second_cell, &err) : goita_solo_choose(&g, a, second_cell, &err);
      if (st == GOITA_OK && turning) /* what was turned, before it goes face-down again */
        printf("Turned: %s at %s, %s at %s.", cli_mark(ma, ascii), first, cli_mark(mb, ascii), second);
      if (st == GOITA_OK && g.score > before) printf(" A pair: +%d.", g.score - before);
      if (st == GOITA_OK) printf("\n");
    }
    if (st == GOITA_OK) goita_solo_remember(&memory, &g);
    if (st != GOITA_OK) {
      redraw = false;
      /* cells in messages are numbered 0-31; name them as the player does */
      char *number = strstr(err.message, "cell ");
      if (number && err.position >= 0)
        printf("Not here: cell %c%d: %s\n", 'a' + err.position / GOITA_SOLO_COLS, err.position % GOITA_SOLO_COLS + 1,
               strchr(number + 5, ' ') ? strchr(number + 5, ' ') + 1 : err.message);
      else
        printf("Not here: %s\n", err.message);
    }
  }
  show(&g, ascii);
  printf("Game over after %d turns: %d points of %d.\n", g.turns, g.score, GOITA_SOLO_MAX_SCORE);
  return 0;
}

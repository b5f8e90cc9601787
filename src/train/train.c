/* goita-train: learns policies, softmaxes over weighted features of the moves (policy.c), by
 * self-play. Two models:
 *  - playout (expert iteration): a sampling player (the teacher) plays whole games against
 *    itself and values each legal move by search at every choice; the policy is fitted to the
 *    teacher's values (cross-entropy to a softmax of them), and the next iteration's teacher
 *    plays out with the fitted policy. Written as C source for src/policy_learned.c.
 *  - inference: any level plays against itself and the policy is fitted to the moves it chose
 *    (maximum likelihood), a model of how a strong player moves with a given hand; then fitted
 *    again to tell the true hands from others the chooser's view allows (the true deal's share
 *    of the moves' likelihoods, as the master weighs deals by). Written for
 *    src/policy_inference.c.
 *
 *  - value: the value network (value.h) fitted to playouts from positions of self-play
 *    (train_value.c). Written for src/value_net.c.
 *
 * usage: goita-train [--model playout|inference|value] [--games N] [--iterations K] [--seed S]
 *                    [--teacher SPEC] [--jobs J] [--hands-steps H] [--rounds R] [--epochs E]
 *                    [--labeller SPEC] [--data FILE] [--out FILE] */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"
#include "player_internal.h"
#include "train_value.h"

#define F GOITA__FEATURES
/* The teacher's values (points) become target probabilities with this temperature. */
#define TARGET_TEMPERATURE 4.0
#define HOLDOUT_EVERY 10 /* every 10th choice is kept out of the fit, to measure it */

/* One choice of the teacher: features and values of each legal move. */
typedef struct choice {
  int n;
  float f[GOITA_MAX_LEGAL][F];
  float value[GOITA_MAX_LEGAL];
} choice;

typedef struct dataset {
  choice *items;
  size_t n, cap;
} dataset;

/* The inference model's second fit, to tell hands apart: at a position of self-play, the true
 * deal and DECOYS other deals the chooser's view allows, each as the moves the others made in
 * it (features of every legal move, and which was played). The fit raises the true deal's share
 * of the deals' likelihoods: the posterior the master weighs deals by, at power 1. */
#define DECOYS 31
#define HANDS_MIN_LEFT 12 /* positions with fewer pieces left in hands are not kept */

typedef struct observed {
  uint32_t row; /* the first of its n legal moves' rows of features */
  uint8_t n, played;
} observed;

_Static_assert(F <= 65536, "a feature's index is kept in 16 bits");

/* Features are kept sparse (most of a move's are 0): row r's are entries [row_end[r - 1],
 * row_end[r]) of index and value. */
typedef struct contrast {
  uint16_t *index;
  float *value;
  size_t nentries, capindex, capvalue;
  uint32_t *row_end;
  size_t nrows, caprows;
  observed *moves;
  size_t nmoves, capmoves;
  uint32_t *deal_end;   /* per deal: the end of its moves */
  size_t ndeals, capdeals;
  uint32_t *position_end; /* per position: the end of its deals, the true deal first */
  size_t npositions, cappositions;
} contrast;

/* The first entry of row's features. */
static uint32_t row_start(const contrast *c, uint32_t row) { return row ? c->row_end[row - 1] : 0; }

#define GROW(ptr, n, cap)                                                  \
  do {                                                                     \
    if ((n) == (cap)) {                                                    \
      const size_t grown = (cap) ? 2 * (cap) : 256;                        \
      void *bigger = realloc((ptr), grown * sizeof *(ptr));                \
      if (!bigger) return -1;                                              \
      (ptr) = bigger;                                                      \
      (cap) = grown;                                                       \
    }                                                                      \
  } while (0)

/* Appends the moves the seats other than viewer made in deal (its hands and its log). */
static int add_deal(contrast *c, const goita_round *deal, int viewer) {
  goita_round r;
  if (goita_round_setup(&r, &deal->rules, deal->dealer, (const uint8_t(*)[GOITA_MAX_HAND])deal->deal, NULL) !=
      GOITA_OK)
    return -1;
  goita_move moves[GOITA_MAX_LEGAL];
  double f[GOITA_MAX_LEGAL][F];
  for (int i = 0; i < deal->nlog && !goita_round_over(&r); i++) {
    const goita_move m = deal->log[i];
    const int n = m.seat != viewer ? goita_round_legal_moves(&r, moves) : 0;
    if (n > 1) {
      goita_view v;
      goita_round_view(&r, m.seat, &v);
      goita__policy_features(&v, moves, n, f);
      GROW(c->moves, c->nmoves, c->capmoves);
      observed *o = &c->moves[c->nmoves++];
      o->row = (uint32_t)c->nrows;
      o->n = (uint8_t)n;
      o->played = 0;
      for (int j = 0; j < n; j++) {
        if (goita_move_equal(moves[j], m)) o->played = (uint8_t)j;
        for (int k = 0; k < F; k++) {
          if (f[j][k] == 0) continue;
          GROW(c->index, c->nentries, c->capindex);
          GROW(c->value, c->nentries, c->capvalue);
          c->index[c->nentries] = (uint16_t)k;
          c->value[c->nentries++] = (float)f[j][k];
        }
        GROW(c->row_end, c->nrows, c->caprows);
        c->row_end[c->nrows++] = (uint32_t)c->nentries;
      }
    }
    goita_round_apply_unchecked(&r, m);
  }
  GROW(c->deal_end, c->ndeals, c->capdeals);
  c->deal_end[c->ndeals++] = (uint32_t)c->nmoves;
  return 0;
}

/* Keeps the position the view of the true round shows: the true deal and DECOYS drawn. */
static int add_position(contrast *c, const goita_round *truth, const goita_view *v, goita_rng *rng) {
  if (add_deal(c, truth, v->seat) != 0) return -1;
  for (int d = 0; d < DECOYS; d++) {
    goita_round decoy;
    if (goita_view_sample(v, rng, &decoy, NULL) != GOITA_OK || add_deal(c, &decoy, v->seat) != 0) return -1;
  }
  GROW(c->position_end, c->npositions, c->cappositions);
  c->position_end[c->npositions++] = (uint32_t)c->ndeals;
  return 0;
}

typedef struct job {
  bool imitate; /* the inference model: targets are the moves chosen, not the values */
  const char *teacher;
  const goita__policy *policy;
  uint64_t seed;
  long games;
  long next;            /* the next game to play */
  dataset *per_game;    /* each game's choices, joined in game order afterwards */
  contrast *hands;      /* with imitate: each game's positions for the second fit */
  pthread_mutex_t lock;
  int failed;
} job;

static int push(dataset *d, const choice *c) {
  if (d->n == d->cap) {
    const size_t cap = d->cap ? 2 * d->cap : 64;
    choice *items = realloc(d->items, cap * sizeof *items);
    if (!items) return -1;
    d->items = items;
    d->cap = cap;
  }
  d->items[d->n++] = *c;
  return 0;
}

static int pieces_left(const goita_round *r) {
  int left = 0;
  for (int s = 0; s < r->players; s++) left += r->size[s];
  return left;
}

/* Plays game g with the teacher in every seat and records its choices. */
static int self_play(job *j, goita_player *teacher, long g, dataset *out) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game game;
  goita_error err;
  const uint64_t seed = goita_seed_mix(j->seed + (uint64_t)g);
  if (goita_game_start(&game, &rules, seed, &err) != GOITA_OK) return -1;
  choice *c = malloc(sizeof *c);
  if (!c) return -1;
  int st = 0;
  while (st == 0) {
    while (!goita_round_over(&game.round) && st == 0) {
      goita_view v;
      goita_game_view(&game, game.round.turn, &v);
      goita_player_seed(teacher, goita_seed_mix(seed ^ (uint64_t)game.round.nlog << 40 ^ (uint64_t)game.round_index));
      goita_move move;
      goita_player_info info;
      if (goita_player_choose(teacher, &v, &move, &info) != GOITA_OK) st = -1;
      if (st == 0 && j->imitate && pieces_left(&game.round) >= HANDS_MIN_LEFT) {
        goita_rng rng;
        goita_rng_seed(&rng, goita_seed_mix(seed ^ 0x5eedULL ^ (uint64_t)game.round.nlog << 40 ^
                                            (uint64_t)game.round_index << 48));
        st = add_position(&j->hands[g], &game.round, &v, &rng);
      }
      if (st == 0 && info.nmoves >= 2 && (info.has_values || j->imitate)) {
        double f[GOITA_MAX_LEGAL][F];
        goita__policy_features(&v, info.moves, info.nmoves, f);
        c->n = info.nmoves;
        for (int i = 0; i < c->n; i++) {
          for (int k = 0; k < F; k++) c->f[i][k] = (float)f[i][k];
          /* imitation: the chosen move is worth 1 and the target is that move alone */
          c->value[i] = j->imitate ? (float)goita_move_equal(info.moves[i], move) : (float)info.value[i];
        }
        st = push(out, c);
      }
      if (st == 0 && goita_game_apply(&game, move, &err) != GOITA_OK) st = -1;
    }
    if (st != 0 || game.over) break;
    if (goita_game_next_round(&game, &err) != GOITA_OK) st = -1;
  }
  free(c);
  return st;
}

static void *worker(void *arg) {
  job *j = arg;
  goita_player *teacher;
  if (goita_player_new(&teacher, j->teacher, NULL) != GOITA_OK) {
    j->failed = 1;
    return NULL;
  }
  goita__sampler_use_policy(teacher, j->policy);
  for (;;) {
    pthread_mutex_lock(&j->lock);
    const long g = j->next++;
    pthread_mutex_unlock(&j->lock);
    if (g >= j->games) break;
    if (self_play(j, teacher, g, &j->per_game[g]) != 0) j->failed = 1;
  }
  goita_player_free(teacher);
  return NULL;
}

/* Cross-entropy of the policy w against the teacher's targets over the chosen items, its
 * gradient (when grad is not NULL), and how often the policy's best move is the teacher's. */
static double loss(const dataset *d, const double *w, double temperature, bool imitate, bool holdout, double *grad,
                   double *agree) {
  double total = 0;
  long count = 0, same = 0;
  if (grad) memset(grad, 0, F * sizeof *grad);
  for (size_t i = 0; i < d->n; i++) {
    if ((i % HOLDOUT_EVERY == 0) != holdout) continue;
    const choice *c = &d->items[i];
    double s[GOITA_MAX_LEGAL], p[GOITA_MAX_LEGAL], t[GOITA_MAX_LEGAL], v[GOITA_MAX_LEGAL];
    int best_s = 0, best_v = 0;
    for (int m = 0; m < c->n; m++) {
      s[m] = 0;
      for (int k = 0; k < F; k++) s[m] += w[k] * c->f[m][k];
      v[m] = c->value[m] / TARGET_TEMPERATURE * temperature; /* so both go through one softmax */
      if (s[m] > s[best_s]) best_s = m;
      if (c->value[m] > c->value[best_v]) best_v = m;
    }
    goita__policy_probabilities(s, c->n, temperature, p);
    if (imitate)
      for (int m = 0; m < c->n; m++) t[m] = c->value[m];
    else
      goita__policy_probabilities(v, c->n, temperature, t);
    for (int m = 0; m < c->n; m++) {
      total -= t[m] * log(p[m] + 1e-12);
      if (grad)
        for (int k = 0; k < F; k++) grad[k] += (p[m] - t[m]) * c->f[m][k] / temperature;
    }
    same += c->value[best_s] >= c->value[best_v] - 1e-6;
    count++;
  }
  if (grad)
    for (int k = 0; k < F; k++) grad[k] /= (double)(count ? count : 1);
  if (agree) *agree = count ? (double)same / (double)count : 0;
  return count ? total / (double)count : 0;
}

/* Fits the weights with Adam from their current values. */
static void fit(const dataset *d, goita__policy *policy, bool imitate) {
  double m[F] = {0}, v[F] = {0}, g[F];
  const double rate = 0.05, b1 = 0.9, b2 = 0.999;
  for (int step = 1; step <= 400; step++) {
    loss(d, policy->weight, policy->temperature, imitate, false, g, NULL);
    /* the playout policy leaves the inference model's own features at 0 */
    for (int k = 0; k < (imitate ? F : F_INFERENCE_FIRST); k++) {
      g[k] += 1e-4 * policy->weight[k]; /* a little weight decay */
      m[k] = b1 * m[k] + (1 - b1) * g[k];
      v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k];
      const double mh = m[k] / (1 - pow(b1, step)), vh = v[k] / (1 - pow(b2, step));
      policy->weight[k] -= rate * mh / (sqrt(vh) + 1e-8);
    }
  }
}

/* The log-likelihood of the moves of one deal (those in [first, end)) under weights w at
 * temperature 1 with the master's mistake floor (player_sampler.c); its gradient is written to
 * grad when grad is not NULL. */
static double deal_loglik(const contrast *c, uint32_t first, uint32_t end, const double *w, double *grad) {
  double ll = 0;
  if (grad) memset(grad, 0, F * sizeof *grad);
  for (uint32_t i = first; i < end; i++) {
    const observed *o = &c->moves[i];
    double s[GOITA_MAX_LEGAL], p[GOITA_MAX_LEGAL];
    for (int m = 0; m < o->n; m++) {
      const uint32_t row = o->row + (uint32_t)m, e_end = c->row_end[row];
      s[m] = 0;
      for (uint32_t e = row_start(c, row); e < e_end; e++) s[m] += w[c->index[e]] * c->value[e];
    }
    goita__policy_probabilities(s, o->n, 1.0, p);
    const double q = GOITA__INFER_NOISE / o->n + (1 - GOITA__INFER_NOISE) * p[o->played];
    ll += log(q);
    if (grad) {
      /* d log q = (1 - noise) p_played (f_played - E_p f) / q */
      const double a = (1 - GOITA__INFER_NOISE) * p[o->played] / q;
      for (int m = 0; m < o->n; m++) {
        const double coef = a * ((m == o->played) - p[m]);
        const uint32_t row = o->row + (uint32_t)m, e_end = c->row_end[row];
        if (coef != 0)
          for (uint32_t e = row_start(c, row); e < e_end; e++) grad[c->index[e]] += coef * c->value[e];
      }
    }
  }
  return ll;
}

/* The hands fit's loss is summed in this many parts of the games, in order, so that the sum
 * does not depend on how many threads did it. */
#define HAND_PARTS 8

typedef struct hands_part {
  const contrast *games;
  long from, to; /* games */
  const double *w;
  double beta;
  bool holdout, want_grad;
  double total, grad[F];
  long count;
} hands_part;

static void *hands_part_loss(void *arg) {
  hands_part *h = arg;
  double ll[DECOYS + 1], gd[DECOYS + 1][F];
  h->total = 0;
  h->count = 0;
  memset(h->grad, 0, sizeof h->grad);
  for (long g = h->from; g < h->to; g++) {
    const contrast *c = &h->games[g];
    uint32_t deal = 0;
    for (size_t pos = 0; pos < c->npositions; pos++) {
      const uint32_t deals_end = c->position_end[pos], first_deal = deal;
      deal = deals_end;
      if ((((size_t)g + pos) % HOLDOUT_EVERY == 0) != h->holdout) continue;
      double top = -INFINITY, sum = 0;
      for (uint32_t d = first_deal; d < deals_end; d++) {
        const uint32_t i = d - first_deal;
        ll[i] = h->beta * deal_loglik(c, d ? c->deal_end[d - 1] : 0, c->deal_end[d], h->w, h->want_grad ? gd[i] : NULL);
        top = fmax(top, ll[i]);
      }
      for (uint32_t i = 0; i < deals_end - first_deal; i++) sum += exp(ll[i] - top);
      h->total -= ll[0] - top - log(sum); /* the true deal is the first */
      h->count++;
      if (h->want_grad)
        for (uint32_t i = 0; i < deals_end - first_deal; i++) {
          const double scale = h->beta * (exp(ll[i] - top) / sum - (i == 0));
          for (int k = 0; k < F; k++) h->grad[k] += scale * gd[i][k];
        }
    }
  }
  return NULL;
}

/* The mean cross-entropy of the true deal's share of the likelihoods to the power beta, over
 * the held-out or the fitted positions of every game, and its gradient (when grad is not
 * NULL), on `jobs` threads. */
static double hands_loss(const contrast *games, long ngames, const double *w, double beta, bool holdout,
                         double *grad, long jobs) {
  hands_part parts[HAND_PARTS];
  for (long i = 0; i < HAND_PARTS; i++)
    parts[i] = (hands_part){games, ngames * i / HAND_PARTS, ngames * (i + 1) / HAND_PARTS, w, beta, holdout,
                            grad != NULL, 0, {0}, 0};
  for (long first = 0; first < HAND_PARTS; first += jobs) {
    pthread_t threads[HAND_PARTS];
    const long last = first + jobs < HAND_PARTS ? first + jobs : HAND_PARTS;
    for (long i = first; i < last; i++) pthread_create(&threads[i], NULL, hands_part_loss, &parts[i]);
    for (long i = first; i < last; i++) pthread_join(threads[i], NULL);
  }
  double total = 0;
  long count = 0;
  if (grad) memset(grad, 0, F * sizeof *grad);
  for (long i = 0; i < HAND_PARTS; i++) {
    total += parts[i].total;
    count += parts[i].count;
    if (grad)
      for (int k = 0; k < F; k++) grad[k] += parts[i].grad[k];
  }
  if (grad)
    for (int k = 0; k < F; k++) grad[k] /= (double)(count ? count : 1);
  return count ? total / (double)count : 0;
}

/* Fits the inference model's weights to the hands with Adam, from the imitation fit. */
static void fit_hands(const contrast *games, long ngames, goita__policy *policy, long steps, long jobs) {
  double m[F] = {0}, v[F] = {0}, g[F];
  const double rate = 0.02, b1 = 0.9, b2 = 0.999;
  for (int step = 1; step <= steps; step++) {
    hands_loss(games, ngames, policy->weight, 1.0, false, g, jobs);
    for (int k = 0; k < F; k++) {
      g[k] += 1e-4 * policy->weight[k];
      m[k] = b1 * m[k] + (1 - b1) * g[k];
      v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k];
      const double mh = m[k] / (1 - pow(b1, step)), vh = v[k] / (1 - pow(b2, step));
      policy->weight[k] -= rate * mh / (sqrt(vh) + 1e-8);
    }
  }
}

/* A fingerprint of a model's weights as its file writes them (each "%.4f;"). */
static unsigned long long weights_fingerprint(const double *weight, int n) {
  unsigned long long h = GOITA_TRAIN_FINGERPRINT_START;
  for (int k = 0; k < n; k++) {
    char text[32];
    h = goita__fingerprint_add(h, text, snprintf(text, sizeof text, "%.4f;", weight[k]));
  }
  return h;
}

static int write_weights(const char *path, const goita__policy *policy, bool imitate, const char *command) {
  FILE *out = fopen(path, "w");
  if (!out) {
    perror(path);
    return -1;
  }
  fprintf(out,
          "/* The %s policy's weights, written by goita-train (src/train/train.c): self-play of a\n"
          " * %s, the policy fitted to %s. Made by:\n"
          " *   %s\n",
          imitate ? "inference" : "learned", imitate ? "strong level" : "sampling player",
          imitate ? "the moves it chose and then to the hands" : "its move values", command);
  if (imitate)
    fprintf(out,
            " * in a build whose inference model (the teacher's, when it reads or signals) had the\n"
            " * fingerprint %016llx; these weights' fingerprint is %016llx.\n",
            weights_fingerprint(goita__inference_policy.weight, F), weights_fingerprint(policy->weight, F));
  fprintf(out,
          " * Do not edit by hand; run it again. */\n"
          "#include \"policy.h\"\n\n"
          "const goita__policy goita__%s_policy = {\n    %.1f,\n    {\n",
          imitate ? "inference" : "learned", policy->temperature);
  for (int k = 0; k < (imitate ? F : F_INFERENCE_FIRST); k++) {
    char name[64];
    goita__feature_name(k, name, sizeof name);
    fprintf(out, "        [%s] = %.4f,\n", name, policy->weight[k]);
  }
  fprintf(out, "    },\n};\n");
  return fclose(out) == 0 ? 0 : -1;
}

static void usage(FILE *to) {
  fprintf(to, "usage: goita-train [--model playout|inference|value] [--games N] [--iterations K]\n"
              "                   [--seed S] [--teacher SPEC] [--jobs J] [--hands-steps H]\n"
              "                   [--rounds R] [--epochs E] [--labeller SPEC] [--data FILE] [--out FILE]\n"
              "--hands-steps: steps of the inference model's fit to the hands (default 300)\n"
              "--rounds, --epochs: the value model's rounds of self-play (default 20000) and passes\n"
              "                    of the fit over them (default 8)\n"
              "--labeller: the value model's positions labelled by one playout of this level each\n"
              "            (default: 8 playouts of the learned policy)\n"
              "--data: the value model's positions are kept in FILE, and read from it when it\n"
              "        holds those of the same rounds, seed, teacher and labeller\n");
}

int main(int argc, char **argv) {
  long games = 200, iterations = 2, jobs = 2, hands_steps = 300, rounds = 20000, epochs = 8;
  uint64_t seed = 1;
  const char *teacher = NULL, *out = NULL, *model = "playout", *data = NULL, *labeller = NULL;
  for (int i = 1; i < argc; i += 2) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      fprintf(stderr, "goita-train: %s needs a value\n", argv[i]);
      return 2;
    }
    char *end = NULL;
    if (strcmp(argv[i], "--teacher") == 0) {
      teacher = v;
      continue;
    }
    if (strcmp(argv[i], "--out") == 0) {
      out = v;
      continue;
    }
    if (strcmp(argv[i], "--data") == 0) {
      data = v;
      continue;
    }
    if (strcmp(argv[i], "--labeller") == 0) {
      labeller = v;
      continue;
    }
    if (strcmp(argv[i], "--model") == 0) {
      if (strcmp(v, "playout") && strcmp(v, "inference") && strcmp(v, "value")) {
        fprintf(stderr, "goita-train: --model: \"%s\" is not playout, inference or value\n", v);
        return 2;
      }
      model = v;
      continue;
    }
    if (strcmp(argv[i], "--games") && strcmp(argv[i], "--iterations") && strcmp(argv[i], "--jobs") &&
        strcmp(argv[i], "--hands-steps") && strcmp(argv[i], "--rounds") && strcmp(argv[i], "--epochs") &&
        strcmp(argv[i], "--seed")) {
      usage(stderr);
      return 2;
    }
    const long long number = strtoll(v, &end, 10);
    if (*end != '\0' || number < 0) {
      fprintf(stderr, "goita-train: %s: \"%s\" is not a whole number\n", argv[i], v);
      return 2;
    }
    if (strcmp(argv[i], "--games") == 0) games = (long)number;
    else if (strcmp(argv[i], "--iterations") == 0) iterations = (long)number;
    else if (strcmp(argv[i], "--hands-steps") == 0) hands_steps = (long)number;
    else if (strcmp(argv[i], "--jobs") == 0) jobs = (long)number;
    else if (strcmp(argv[i], "--rounds") == 0) rounds = (long)number;
    else if (strcmp(argv[i], "--epochs") == 0) epochs = (long)number;
    else seed = (uint64_t)number;
  }
  if (games < 1 || iterations < 1 || jobs < 1 || jobs > 64) {
    fprintf(stderr, "goita-train: --games, --iterations and --jobs must be positive (jobs at most 64)\n");
    return 2;
  }
  if (strcmp(model, "value") == 0) {
    if (rounds < 1 || epochs < 1) {
      fprintf(stderr, "goita-train: --rounds and --epochs must be positive\n");
      return 2;
    }
    for (int k = 0; k < 2; k++) {
      const char *spec = k ? labeller : teacher ? teacher : "fast";
      goita_player *p = NULL;
      goita_error err;
      if (spec && goita_player_new(&p, spec, &err) != GOITA_OK) {
        fprintf(stderr, "goita-train: --%s: %s\n", k ? "labeller" : "teacher", err.message);
        return 2;
      }
      goita_player_free(p);
    }
    char command[1024], labelled_by[300] = "";
    if (labeller) snprintf(labelled_by, sizeof labelled_by, " --labeller %s", labeller);
    snprintf(command, sizeof command, "goita-train --model value --rounds %ld --epochs %ld --seed %llu --teacher %s%s",
             rounds, epochs, (unsigned long long)seed, teacher ? teacher : "fast", labelled_by);
    const goita__train_value_options o = {teacher ? teacher : "fast", labeller, seed, rounds, jobs, epochs, 0.003,
                                          out ? out : "src/value_net.c", data, command};
    return goita__train_value(&o);
  }
  if (labeller) {
    fprintf(stderr, "goita-train: --labeller is for --model value\n");
    return 2;
  }
  const bool imitate = strcmp(model, "inference") == 0;
  if (!teacher) teacher = imitate ? "master" : "sampler";
  if (!out) out = imitate ? "src/policy_inference.c" : "src/policy_learned.c";
  char command[512];
  char steps[48] = "";
  if (imitate && hands_steps != 300) snprintf(steps, sizeof steps, " --hands-steps %ld", hands_steps);
  snprintf(command, sizeof command, "goita-train %s--games %ld --iterations %ld --seed %llu --teacher %s%s",
           imitate ? "--model inference " : "", games, iterations, (unsigned long long)seed, teacher, steps);
  /* the inference model starts from the learned policy at its temperature, refitted at 1 */
  goita__policy policy = imitate ? goita__learned_policy : goita__rules_policy;
  if (imitate) {
    for (int k = 0; k < F; k++) policy.weight[k] /= policy.temperature;
    policy.temperature = 1.0;
  }
  for (long it = 1; it <= iterations; it++) {
    job j = {imitate, teacher, &policy, seed + (uint64_t)it * 1000003ULL, games, 0, calloc((size_t)games, sizeof(dataset)),
             imitate ? calloc((size_t)games, sizeof(contrast)) : NULL, PTHREAD_MUTEX_INITIALIZER, 0};
    goita__policy teacher_policy = policy; /* the teacher plays with a copy while we fit */
    j.policy = &teacher_policy;
    pthread_t threads[64];
    for (long t = 0; t < jobs; t++) pthread_create(&threads[t], NULL, worker, &j);
    for (long t = 0; t < jobs; t++) pthread_join(threads[t], NULL);
    if (j.failed) {
      fprintf(stderr, "goita-train: self-play failed (teacher \"%s\")\n", teacher);
      return 1;
    }
    dataset all = {0};
    for (long g = 0; g < games; g++) {
      for (size_t i = 0; i < j.per_game[g].n; i++)
        if (push(&all, &j.per_game[g].items[i]) != 0) return 1;
      free(j.per_game[g].items);
    }
    free(j.per_game);
    double agree_before, agree_after, agree_train;
    const double before = loss(&all, policy.weight, policy.temperature, imitate, true, NULL, &agree_before);
    fit(&all, &policy, imitate);
    const double train = loss(&all, policy.weight, policy.temperature, imitate, false, NULL, &agree_train);
    const double after = loss(&all, policy.weight, policy.temperature, imitate, true, NULL, &agree_after);
    printf("iteration %ld: %zu choices; held-out cross-entropy %.4f -> %.4f, teacher's best move %.1f%% -> %.1f%% "
           "(fitted part %.4f, %.1f%%)\n",
           it, all.n, before, after, 100 * agree_before, 100 * agree_after, train, 100 * agree_train);
    fflush(stdout);
    free(all.items);
    if (imitate) {
      /* the second fit: the hands the moves were made with, against the others the view allows */
      size_t positions = 0;
      for (long g = 0; g < games; g++) positions += j.hands[g].npositions;
      const double hands_before = hands_loss(j.hands, games, policy.weight, 1.0, true, NULL, jobs);
      /* the model in use, at the master's default power (infer=5) */
      const double hands_current = hands_loss(j.hands, games, goita__inference_policy.weight, 0.5, true, NULL, jobs);
      fit_hands(j.hands, games, &policy, hands_steps, jobs);
      const double hands_after = hands_loss(j.hands, games, policy.weight, 1.0, true, NULL, jobs);
      printf("iteration %ld: %zu positions; held-out cross-entropy of the true deal among %d: %.4f -> %.4f "
             "(reading nothing %.4f, the model in use at power 0.5 %.4f)\n",
             it, positions, DECOYS + 1, hands_before, hands_after, log(DECOYS + 1.0), hands_current);
      fflush(stdout);
      for (long g = 0; g < games; g++) {
        free(j.hands[g].index);
        free(j.hands[g].value);
        free(j.hands[g].row_end);
        free(j.hands[g].moves);
        free(j.hands[g].deal_end);
        free(j.hands[g].position_end);
      }
      free(j.hands);
    }
  }
  if (write_weights(out, &policy, imitate, command) != 0) return 1;
  printf("weights written to %s\n", out);
  return 0;
}

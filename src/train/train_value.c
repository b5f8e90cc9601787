/* goita-train --model value: fits the value network (src/value.h) to playouts.
 *
 * Data: rounds of self-play by a teacher level (fast by default). At each of its choices in the
 * play phase with more than STOP_PIECES + 1 pieces left, a few legal moves drawn at random are
 * played in the true deal, and each position after them is labelled with the points, for the
 * mover's side, of playouts from it to STOP_PIECES pieces left, then the solver's exact value.
 * The playouts are either PLAYOUTS of the learned policy (every seat from its own view, at
 * temperature 1), averaged: what the budgeted levels' playouts estimate, without their noise;
 * or one played by a labeller level (every seat choosing from its own view as that level
 * does): what the position is worth when strong players go on from it. Rounds are generated
 * in parallel but kept in order, so the data and the fit depend only on the seed.
 *
 * Fit: mean squared error in tens of points, Adam on minibatches, one thread (reproducible);
 * every 20th round is held out to measure it. The fitted network is written in fixed point
 * (value.h) as C source for src/value_net.c, with the command that made it. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"
#include "player_internal.h"
#include "train_value.h"
#include "value.h"

#define IN GOITA__VALUE_INPUTS
#define H1 GOITA__VALUE_H1
#define H2 GOITA__VALUE_H2
#define STOP_PIECES GOITA__VALUE_STOP_PIECES /* the playouts end here in the solver's value */
#define PLAYOUTS 8       /* playouts averaged into one label */
#define MOVES_PER_CHOICE 6 /* legal moves labelled at each choice, drawn at random */
#define MOVES_PER_CHOICE_LABELLER 2 /* the same with a labeller, whose labels cost more */
#define HOLDOUT_EVERY 20 /* every 20th round is kept out of the fit */
#define BATCH 256

typedef struct sample {
  int16_t x[IN];
  float label; /* tens of points for the side of the seat the inputs are seen from */
} sample;

typedef struct samples {
  sample *items;
  size_t n, cap;
} samples;

static int push(samples *s, const sample *item) {
  if (s->n == s->cap) {
    const size_t grown = s->cap ? 2 * s->cap : 256;
    sample *bigger = realloc(s->items, grown * sizeof *bigger);
    if (!bigger) return -1;
    s->items = bigger;
    s->cap = grown;
  }
  s->items[s->n++] = *item;
  return 0;
}

typedef struct gen_job {
  const char *teacher, *labeller; /* labeller: NULL for the policy's playouts */
  uint64_t seed;
  long rounds, next;
  samples *per_round;
  pthread_mutex_t lock;
  int failed;
} gen_job;

static int pieces_left(const goita_round *r) {
  int left = 0;
  for (int s = 0; s < r->players; s++) left += r->size[s];
  return left;
}

/* The label of a position with a labeller: the points for seat's side of one playout of it to
 * STOP_PIECES, every seat choosing from its own view, ended by the solver. */
static int labelled_by(goita_player *labeller, goita_solver *solver, const goita_round *r, int seat, goita_rng *rng,
                       double *out) {
  goita_round p = *r;
  while (!goita_round_over(&p) && pieces_left(&p) > STOP_PIECES) {
    goita_view v;
    goita_round_view(&p, p.turn, &v);
    goita_player_seed(labeller, goita_rng_next(rng));
    goita_move m;
    if (goita_player_choose(labeller, &v, &m, NULL) != GOITA_OK) return -1;
    goita_round_apply_unchecked(&p, m);
  }
  uint64_t nodes = 0;
  *out = goita_round_over(&p) ? goita__result_for(&p, seat) : goita__exact_for(solver, &p, seat, &nodes);
  return 0;
}

/* The label of a position: the mean points for seat's side of PLAYOUTS playouts to STOP_PIECES,
 * each ended by the solver. */
static double label(goita_solver *solver, const goita_round *r, int seat, goita_rng *rng) {
  goita__policy playout = goita__learned_policy;
  playout.temperature = 1.0;
  uint64_t work = 0, nodes = 0;
  int sum = 0;
  for (int t = 0; t < PLAYOUTS; t++) {
    goita_round p = *r;
    const int points = goita__playout(&playout, &playout, &p, seat, rng, &work, STOP_PIECES);
    sum += goita_round_over(&p) ? points : goita__exact_for(solver, &p, seat, &nodes);
  }
  return (double)sum / PLAYOUTS;
}

static int generate_round(gen_job *j, goita_player *teacher, goita_player *labeller, goita_solver *solver, long index,
                          samples *out) {
  goita_rules rules;
  goita_rules_default(&rules);
  const uint64_t seed = goita_seed_mix(j->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)index);
  goita_round r;
  if (goita_round_deal(&r, &rules, (int)(index % 4), seed) != GOITA_OK) return -1;
  goita_rng rng;
  goita_rng_seed(&rng, goita_seed_mix(seed ^ 0x7a1eULL));
  while (!goita_round_over(&r)) {
    goita_view v;
    goita_round_view(&r, r.turn, &v);
    goita_player_seed(teacher, goita_seed_mix(seed ^ (uint64_t)r.nlog << 40));
    goita_move move;
    if (goita_player_choose(teacher, &v, &move, NULL) != GOITA_OK) return -1;
    if (r.phase == GOITA_PHASE_PLAY && pieces_left(&r) > STOP_PIECES + 1) {
      goita_move moves[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&r, moves);
      uint8_t order[GOITA_MAX_LEGAL];
      for (int i = 0; i < n; i++) order[i] = (uint8_t)i;
      goita_rng_shuffle(&rng, order, n);
      const int labelled = labeller ? MOVES_PER_CHOICE_LABELLER : MOVES_PER_CHOICE;
      for (int i = 0; i < n && i < labelled; i++) {
        goita_round after = r;
        goita_round_apply_unchecked(&after, moves[order[i]]);
        if (goita_round_over(&after) || pieces_left(&after) <= STOP_PIECES) continue;
        sample s;
        goita__value_inputs(&after, r.turn, s.x);
        double points = 0;
        if (!labeller)
          points = label(solver, &after, r.turn, &rng);
        else if (labelled_by(labeller, solver, &after, r.turn, &rng, &points) != 0)
          return -1;
        s.label = (float)(points / 10.0);
        if (push(out, &s) != 0) return -1;
      }
    }
    goita_round_apply_unchecked(&r, move);
  }
  return 0;
}

static void *gen_worker(void *arg) {
  gen_job *j = arg;
  goita_player *teacher = NULL, *labeller = NULL;
  goita_solver *solver = NULL;
  if (goita_player_new(&teacher, j->teacher, NULL) != GOITA_OK ||
      (j->labeller && goita_player_new(&labeller, j->labeller, NULL) != GOITA_OK) ||
      goita_solver_new(&solver, 8u << 20) != GOITA_OK) {
    j->failed = 1;
    goita_player_free(teacher);
    goita_player_free(labeller);
    return NULL;
  }
  for (;;) {
    pthread_mutex_lock(&j->lock);
    const long i = j->next++;
    pthread_mutex_unlock(&j->lock);
    if (i >= j->rounds || j->failed) break;
    if (generate_round(j, teacher, labeller, solver, i, &j->per_round[i]) != 0) j->failed = 1;
  }
  goita_solver_free(solver);
  goita_player_free(teacher);
  goita_player_free(labeller);
  return NULL;
}

/* The network in floating point, as it is fitted. The weights are kept input-major (w1[k][i]
 * weighs input k in unit i) so that the loops over units, inner, vectorize without changing the
 * order of any sum; inputs and activations that are 0 are skipped. */
typedef struct net {
  float w1[IN][H1], b1[H1], w2[H1][H2], b2[H2], w3[H2], b3;
} net;

#define NET_PARAMS (sizeof(net) / sizeof(float))

static float clipped(float a) { return a <= 0 ? 0 : a >= (float)GOITA__VALUE_ACT_CLIP ? (float)GOITA__VALUE_ACT_CLIP : a; }

static float forward(const net *w, const int16_t *x, float *h1, float *h2) {
  float a1[H1], a2[H2];
  memcpy(a1, w->b1, sizeof a1);
  for (int k = 0; k < IN; k++) {
    if (!x[k]) continue;
    const float xk = x[k];
    for (int i = 0; i < H1; i++) a1[i] += w->w1[k][i] * xk;
  }
  for (int i = 0; i < H1; i++) h1[i] = clipped(a1[i]);
  memcpy(a2, w->b2, sizeof a2);
  for (int k = 0; k < H1; k++) {
    if (h1[k] == 0) continue;
    for (int i = 0; i < H2; i++) a2[i] += w->w2[k][i] * h1[k];
  }
  for (int i = 0; i < H2; i++) h2[i] = clipped(a2[i]);
  float out = w->b3;
  for (int k = 0; k < H2; k++) out += w->w3[k] * h2[k];
  return out;
}

/* Adds the gradient of (out - label)^2 / 2 to g. */
static void backward(const net *w, const int16_t *x, const float *h1, const float *h2, float err, net *g) {
  float d2[H2], d1[H1];
  g->b3 += err;
  for (int k = 0; k < H2; k++) {
    g->w3[k] += err * h2[k];
    d2[k] = h2[k] > 0 && h2[k] < (float)GOITA__VALUE_ACT_CLIP ? err * w->w3[k] : 0;
  }
  for (int i = 0; i < H2; i++) g->b2[i] += d2[i];
  for (int k = 0; k < H1; k++) {
    float d = 0;
    if (h1[k] > 0) {
      for (int i = 0; i < H2; i++) g->w2[k][i] += d2[i] * h1[k];
      if (h1[k] < (float)GOITA__VALUE_ACT_CLIP)
        for (int i = 0; i < H2; i++) d += d2[i] * w->w2[k][i];
    }
    d1[k] = d;
  }
  for (int i = 0; i < H1; i++) g->b1[i] += d1[i];
  for (int k = 0; k < IN; k++) {
    if (!x[k]) continue;
    const float xk = x[k];
    for (int i = 0; i < H1; i++) g->w1[k][i] += d1[i] * xk;
  }
}

static double mse(const net *w, const sample *items, const size_t *index, size_t n) {
  float h1[H1], h2[H2];
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    const sample *s = &items[index[i]];
    const double d = forward(w, s->x, h1, h2) - s->label;
    total += d * d;
  }
  return n ? total / (double)n : 0;
}

static int16_t quantize(float w) {
  const float limit = (float)GOITA__VALUE_WEIGHT_MAX;
  const float c = w > limit ? limit : w < -limit ? -limit : w;
  return (int16_t)lrintf(c * (1 << GOITA__VALUE_WEIGHT_SHIFT));
}

static void to_fixed(const net *w, goita__value_net *q) {
  const float act = (float)(1 << GOITA__VALUE_ACT_SHIFT), wt = (float)(1 << GOITA__VALUE_WEIGHT_SHIFT);
  for (int i = 0; i < H1; i++) {
    for (int k = 0; k < IN; k++) q->w1[k][i] = quantize(w->w1[k][i]);
    q->b1[i] = (int32_t)lrintf(w->b1[i] * wt);
  }
  for (int i = 0; i < H2; i++) {
    for (int k = 0; k < H1; k++) q->w2[k][i] = quantize(w->w2[k][i]);
    q->b2[i] = (int32_t)lrintf(w->b2[i] * wt * act);
  }
  for (int k = 0; k < H2; k++) q->w3[k] = quantize(w->w3[k]);
  q->b3 = (int32_t)lrintf(w->b3 * wt * act);
}

static double fixed_mse(const goita__value_net *q, const sample *items, const size_t *index, size_t n) {
  const double scale = 1.0 / (1 << (GOITA__VALUE_WEIGHT_SHIFT + GOITA__VALUE_ACT_SHIFT));
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    const sample *s = &items[index[i]];
    const double d = goita__value_eval(q, s->x) * scale - s->label;
    total += d * d;
  }
  return n ? total / (double)n : 0;
}

/* A fingerprint of a network's weights in the order and form its file writes them (each "%d;"):
 * a network whose teacher or labeller valued deals with an earlier one (the budgeted levels'
 * value=net) names that one. */
static unsigned long long net_fingerprint(const goita__value_net *q) {
  unsigned long long h = GOITA_TRAIN_FINGERPRINT_START;
  const int counts[6] = {IN * H1, H1, H1 * H2, H2, H2, 1};
  const void *arrays[6] = {q->w1, q->b1, q->w2, q->b2, q->w3, &q->b3};
  for (int a = 0; a < 6; a++)
    for (int k = 0; k < counts[a]; k++) {
      const long x = a == 0 || a == 2 || a == 4 ? ((const int16_t *)arrays[a])[k] : ((const int32_t *)arrays[a])[k];
      char text[24];
      h = goita__fingerprint_add(h, text, snprintf(text, sizeof text, "%ld;", x));
    }
  return h;
}

static int write_net(const char *path, const goita__value_net *q, const char *command) {
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "goita-train: cannot write %s\n", path);
    return -1;
  }
  fprintf(out,
          "/* The value network's weights in fixed point (value.h), written by goita-train: positions of\n"
          " * self-play labelled by playouts ended by the solver, the network fitted to them. Made by:\n"
          " *   %s\n"
          " * in a build whose network (the teacher's and labeller's, when they value deals by it) had the\n"
          " * fingerprint %016llx; these weights' fingerprint is %016llx.\n"
          " * Do not edit by hand; run it again. */\n"
          "#include \"value.h\"\n\n"
          "const goita__value_net goita__value_net_trained = {\n",
          command, net_fingerprint(&goita__value_net_trained), net_fingerprint(q));
  fprintf(out, "    .w1 = {\n");
  for (int k = 0; k < IN; k++) {
    fprintf(out, "        {");
    for (int i = 0; i < H1; i++) fprintf(out, "%s%d", i ? ", " : "", q->w1[k][i]);
    fprintf(out, "},\n");
  }
  fprintf(out, "    },\n    .b1 = {");
  for (int i = 0; i < H1; i++) fprintf(out, "%s%d", i ? ", " : "", q->b1[i]);
  fprintf(out, "},\n    .w2 = {\n");
  for (int k = 0; k < H1; k++) {
    fprintf(out, "        {");
    for (int i = 0; i < H2; i++) fprintf(out, "%s%d", i ? ", " : "", q->w2[k][i]);
    fprintf(out, "},\n");
  }
  fprintf(out, "    },\n    .b2 = {");
  for (int i = 0; i < H2; i++) fprintf(out, "%s%d", i ? ", " : "", q->b2[i]);
  fprintf(out, "},\n    .w3 = {");
  for (int k = 0; k < H2; k++) fprintf(out, "%s%d", k ? ", " : "", q->w3[k]);
  fprintf(out, "},\n    .b3 = %d,\n};\n", q->b3);
  return fclose(out) == 0 ? 0 : -1;
}

static double unit(goita_rng *rng) { return (double)(goita_rng_next(rng) >> 11) * 0x1.0p-53; }

/* The data file: a header naming what made it, then each round's count and samples. */
typedef struct data_header {
  char magic[8];
  char teacher[256], labeller[256];
  uint64_t seed;
  int64_t rounds;
  int32_t inputs, stop_pieces, playouts, moves_per_choice;
} data_header;

static data_header header_of(const goita__train_value_options *o) {
  data_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, "GVALUE2", 8);
  snprintf(h.teacher, sizeof h.teacher, "%s", o->teacher);
  snprintf(h.labeller, sizeof h.labeller, "%s", o->labeller ? o->labeller : "");
  h.seed = o->seed;
  h.rounds = o->rounds;
  h.inputs = IN;
  h.stop_pieces = STOP_PIECES;
  h.playouts = o->labeller ? 1 : PLAYOUTS;
  h.moves_per_choice = o->labeller ? MOVES_PER_CHOICE_LABELLER : MOVES_PER_CHOICE;
  return h;
}

/* Reads the samples of the same options from path, as many rounds as it holds up to
 * o->rounds (a file of fewer rounds is extended: round i's positions depend only on the seed
 * and i). Returns the rounds read: 0 when the file is absent or was made otherwise, -1 on an
 * error. */
static long load_data(const char *path, const goita__train_value_options *o, samples *per_round) {
  FILE *in = fopen(path, "rb");
  if (!in) return 0;
  data_header want = header_of(o), got;
  if (fread(&got, sizeof got, 1, in) != 1) {
    fclose(in);
    return 0;
  }
  const long held = got.rounds < o->rounds ? (long)got.rounds : o->rounds;
  got.rounds = want.rounds;
  if (memcmp(&want, &got, sizeof got) != 0) {
    fclose(in);
    return 0;
  }
  for (long i = 0; i < held; i++) {
    uint64_t n;
    if (fread(&n, sizeof n, 1, in) != 1 || n > (1u << 20)) goto bad;
    per_round[i].items = malloc((size_t)(n ? n : 1) * sizeof(sample));
    if (!per_round[i].items || fread(per_round[i].items, sizeof(sample), (size_t)n, in) != n) goto bad;
    per_round[i].n = per_round[i].cap = (size_t)n;
  }
  fclose(in);
  return held;
bad:
  fclose(in);
  fprintf(stderr, "goita-train: %s is cut short or damaged\n", path);
  return -1;
}

static int save_data(const char *path, const goita__train_value_options *o, const samples *per_round) {
  FILE *out = fopen(path, "wb");
  if (!out) return -1;
  const data_header h = header_of(o);
  int ok = fwrite(&h, sizeof h, 1, out) == 1;
  for (long i = 0; ok && i < o->rounds; i++) {
    const uint64_t n = per_round[i].n;
    ok = fwrite(&n, sizeof n, 1, out) == 1 && (!n || fwrite(per_round[i].items, sizeof(sample), (size_t)n, out) == n);
  }
  return fclose(out) == 0 && ok ? 0 : -1;
}

static void free_rounds(samples *per_round, long rounds) {
  for (long i = 0; i < rounds; i++) free(per_round[i].items);
  free(per_round);
}

/* Fills per_round with the positions of every round: those the data file holds, the others
 * played (and then all written to the file). Returns 0, or -1 having said why. */
static int gather(const goita__train_value_options *o, samples *per_round) {
  gen_job j = {o->teacher, o->labeller, o->seed, o->rounds, 0, per_round, PTHREAD_MUTEX_INITIALIZER, 0};
  const long loaded = o->data ? load_data(o->data, o, per_round) : 0;
  if (loaded < 0) return -1;
  if (loaded) printf("value: the positions of %ld rounds from %s\n", loaded, o->data);
  if (loaded == o->rounds) return 0;
  j.next = loaded;
  pthread_t threads[64];
  for (long t = 0; t < o->jobs; t++) pthread_create(&threads[t], NULL, gen_worker, &j);
  for (long t = 0; t < o->jobs; t++) pthread_join(threads[t], NULL);
  if (j.failed) {
    fprintf(stderr, "goita-train: self-play failed (teacher \"%s\")\n", o->teacher);
    return -1;
  }
  if (o->data && save_data(o->data, o, per_round) != 0) {
    fprintf(stderr, "goita-train: cannot write %s\n", o->data);
    return -1;
  }
  return 0;
}

/* Fits the network to the positions and writes it. Returns 0, or -1 having said why. */
static int fit(const goita__train_value_options *o, const samples *per_round) {
  int st = -1;
  samples all = {0};
  size_t *train = NULL, *hold = NULL;
  net *w = NULL, *g = NULL, *m = NULL, *v = NULL;
  goita__value_net *q = NULL;
  /* all samples in round order; the held-out rounds' apart */
  size_t ntrain = 0, nhold = 0;
  for (long i = 0; i < o->rounds; i++) {
    for (size_t k = 0; k < per_round[i].n; k++)
      if (push(&all, &per_round[i].items[k]) != 0) goto done;
    if (i % HOLDOUT_EVERY == 0) nhold += per_round[i].n;
    else ntrain += per_round[i].n;
  }
  train = malloc((ntrain + 1) * sizeof *train);
  hold = malloc((nhold + 1) * sizeof *hold);
  if (!train || !hold) goto done;
  size_t at = 0, ti = 0, hi = 0;
  double mean = 0;
  for (long i = 0; i < o->rounds; i++) {
    for (size_t k = 0; k < per_round[i].n; k++, at++) {
      if (i % HOLDOUT_EVERY == 0) hold[hi++] = at;
      else train[ti++] = at, mean += all.items[at].label;
    }
  }
  mean /= (double)(ntrain ? ntrain : 1);
  double base = 0;
  for (size_t i = 0; i < nhold; i++) base += (all.items[hold[i]].label - mean) * (all.items[hold[i]].label - mean);
  base /= (double)(nhold ? nhold : 1);
  printf("value: %ld rounds, %zu positions to fit, %zu held out; held-out squared error of their mean %.4f "
         "(tens of points)\n",
         o->rounds, ntrain, nhold, base);
  fflush(stdout);

  /* He initialisation from the seed */
  goita_rng rng;
  goita_rng_seed(&rng, goita_seed_mix(o->seed ^ 0x4e7ULL));
  w = calloc(1, sizeof *w);
  g = calloc(1, sizeof *g);
  m = calloc(1, sizeof *m);
  v = calloc(1, sizeof *v);
  if (!w || !g || !m || !v) goto done;
  const float r1 = sqrtf(6.0f / IN), r2 = sqrtf(6.0f / H1), r3 = sqrtf(6.0f / H2);
  for (int i = 0; i < H1; i++)
    for (int k = 0; k < IN; k++) w->w1[k][i] = (float)((2 * unit(&rng) - 1) * r1 * 0.5);
  for (int i = 0; i < H1; i++) w->b1[i] = 0.5f;
  for (int i = 0; i < H2; i++)
    for (int k = 0; k < H1; k++) w->w2[k][i] = (float)((2 * unit(&rng) - 1) * r2 * 0.5);
  for (int i = 0; i < H2; i++) w->b2[i] = 0.5f;
  for (int k = 0; k < H2; k++) w->w3[k] = (float)((2 * unit(&rng) - 1) * r3 * 0.5);
  w->b3 = (float)mean;

  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  const size_t steps_per_epoch = (ntrain + BATCH - 1) / BATCH;
  const double total_steps = (double)steps_per_epoch * (double)o->epochs;
  long step = 0;
  float h1[H1], h2[H2];
  float *wp = (float *)w, *gp = (float *)g, *mp = (float *)m, *vp = (float *)v;
  for (long epoch = 1; epoch <= o->epochs; epoch++) {
    for (size_t i = ntrain; i > 1; i--) { /* Fisher-Yates from the seed */
      const size_t k = (size_t)(unit(&rng) * (double)i);
      const size_t t = train[i - 1];
      train[i - 1] = train[k];
      train[k] = t;
    }
    for (size_t b = 0; b < ntrain; b += BATCH) {
      const size_t end = b + BATCH < ntrain ? b + BATCH : ntrain;
      memset(g, 0, sizeof *g);
      for (size_t i = b; i < end; i++) {
        const sample *s = &all.items[train[i]];
        const float out = forward(w, s->x, h1, h2);
        backward(w, s->x, h1, h2, out - s->label, g);
      }
      step++;
      /* the rate falls along a cosine to a tenth of its start */
      const double rate = o->rate * (0.1 + 0.9 * 0.5 * (1 + cos(3.14159265358979323846 * (double)step / total_steps)));
      const double c1 = 1 - pow(beta1, (double)step), c2 = 1 - pow(beta2, (double)step);
      const float scale = 1.0f / (float)(end - b);
      for (size_t k = 0; k < NET_PARAMS; k++) {
        const double gk = gp[k] * scale;
        mp[k] = (float)(beta1 * mp[k] + (1 - beta1) * gk);
        vp[k] = (float)(beta2 * vp[k] + (1 - beta2) * gk * gk);
        wp[k] -= (float)(rate * (mp[k] / c1) / (sqrt(vp[k] / c2) + eps));
      }
    }
    printf("epoch %ld: squared error, fitted part %.4f, held out %.4f\n", epoch, mse(w, all.items, train, ntrain),
           mse(w, all.items, hold, nhold));
    fflush(stdout);
  }
  q = calloc(1, sizeof *q);
  if (!q) goto done;
  to_fixed(w, q);
  printf("in fixed point: held-out squared error %.4f (of the mean %.4f)\n", fixed_mse(q, all.items, hold, nhold), base);
  st = write_net(o->out, q, o->command);
  if (st == 0) printf("weights written to %s\n", o->out);
done:
  if (st != 0 && !q) fprintf(stderr, "goita-train: out of memory for the fit\n");
  free(q);
  free(w);
  free(g);
  free(m);
  free(v);
  free(train);
  free(hold);
  free(all.items);
  return st;
}

int goita__train_value(const goita__train_value_options *o) {
  samples *per_round = calloc((size_t)o->rounds, sizeof *per_round);
  if (!per_round) {
    fprintf(stderr, "goita-train: out of memory for %ld rounds\n", o->rounds);
    return 1;
  }
  const int st = gather(o, per_round) == 0 && fit(o, per_round) == 0 ? 0 : 1;
  free_rounds(per_round, o->rounds);
  return st;
}

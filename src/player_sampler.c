/* The sampling player: deal the unseen pieces many times consistently with the view, value
 * every legal move in each deal (solved exactly late in the round, played out by the policy
 * earlier), and choose the move with the best average. With inference on, each deal counts in
 * proportion to how likely the moves everyone else made were, had they held those hands. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "player_internal.h"

enum { P_SAMPLES, P_INFER, P_SOLVE, P_ROLLOUTS, P_POLICY, P_TEMP, P_TT_MB, P_MS };

static const char *const policy_names[] = {"rules", "learned", NULL};

/* The parameters of both sampling levels, with each level's defaults. */
#define SAMPLER_PARAMS(samples, infer, solve, rollouts, policy, temp)                                    \
  {                                                                                                      \
    {"samples", 1, 4096, samples, "deals sampled per move", NULL},                                       \
    {"infer", 0, 1, infer, "weight each deal by how likely the observed moves were", goita__on_off},     \
    {"solve", 0, 32, solve, "solve exactly once at most this many pieces are left in hands", NULL},      \
    {"rollouts", 1, 256, rollouts, "playouts per move and deal before that", NULL},                      \
    {"policy", 0, 1, policy, "the policy of playouts and inference", policy_names},                      \
    {"temp", 0, 100, temp, "playout temperature in tenths (0: the policy's own)", NULL},                 \
    {"tt_mb", 1, 4096, 8, "solver table in MiB", NULL},                                                  \
    {"ms", 0, 600000, 0, "stop sampling after this many milliseconds (0: never; not reproducible)", NULL}, \
    {NULL, 0, 0, 0, NULL, NULL},                                                                         \
  }

static const goita__param sampler_params[] = SAMPLER_PARAMS(48, 0, 24, 4, 0, 0);
/* expert: the learned policy, played out at temperature 1 (sharper than its model of others),
 * and more deals and playouts (docs/STRENGTH.md measures each choice). */
static const goita__param expert_params[] = SAMPLER_PARAMS(128, 0, 24, 8, 1, 10);

typedef struct sampler {
  const goita__policy *model; /* how the others play, for inference */
  goita__policy playout;      /* the model at the playout temperature */
  goita_solver *solver;
  double *values;  /* samples x GOITA_MAX_LEGAL */
  double *loglik;  /* per sample */
} sampler;

static void use_policy(goita_player *p, const goita__policy *policy) {
  sampler *s = p->state;
  s->model = policy;
  s->playout = *policy;
  if (p->param[P_TEMP]) s->playout.temperature = p->param[P_TEMP] / 10.0;
}

static int sampler_init(goita_player *p, goita_error *err) {
  sampler *s = calloc(1, sizeof *s);
  const size_t samples = (size_t)p->param[P_SAMPLES];
  if (s) {
    s->values = malloc(samples * GOITA_MAX_LEGAL * sizeof *s->values);
    s->loglik = malloc(samples * sizeof *s->loglik);
  }
  const int st = !s || !s->values || !s->loglik ? GOITA_ENOMEM
                 : goita_solver_new(&s->solver, (size_t)p->param[P_TT_MB] << 20);
  if (st != GOITA_OK) {
    if (s) {
      free(s->values);
      free(s->loglik);
    }
    free(s);
    return goita_error_set(err, st, -1, "out of memory for the sampling player (a %d MiB solver table)",
                           p->param[P_TT_MB]);
  }
  p->state = s;
  use_policy(p, p->param[P_POLICY] ? &goita__learned_policy : &goita__rules_policy);
  return GOITA_OK;
}

static void sampler_release(goita_player *p) {
  sampler *s = p->state;
  goita_solver_free(s->solver);
  free(s->values);
  free(s->loglik);
  free(s);
}

/* The log-probability, under the policy with its mistake floor, that the seat to move in r
 * makes move m (0 when it has no choice); adds the legal moves weighed to *work. */
static double move_log_probability(const goita__policy *policy, const goita_round *r, goita_move m, uint64_t *work) {
  goita_move moves[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(r, moves);
  if (n <= 1) return 0;
  goita_view v;
  double scores[GOITA_MAX_LEGAL], p[GOITA_MAX_LEGAL];
  goita_round_view(r, m.seat, &v);
  goita__policy_scores(policy, &v, moves, n, scores);
  goita__policy_probabilities(scores, n, policy->temperature, p);
  double q = GOITA__INFER_NOISE / n;
  for (int j = 0; j < n; j++)
    if (goita_move_equal(moves[j], m)) q += (1 - GOITA__INFER_NOISE) * p[j];
  *work += (uint64_t)n;
  return log(q);
}

/* The log-probability, under the policy, of every move the others made in the sampled deal;
 * adds the legal moves weighed to *work (the budgeted levels count it). When partner is not
 * NULL, *partner is the part of it that is the viewer's partner's moves. */
double goita__log_likelihood(const goita__policy *policy, const goita_round *sample, int viewer, uint64_t *work,
                             double *partner) {
  goita_round r;
  if (goita_round_setup(&r, &sample->rules, sample->dealer, (const uint8_t(*)[GOITA_MAX_HAND])sample->deal,
                        NULL) != GOITA_OK)
    return 0;
  double ll = 0, partner_ll = 0;
  for (int i = 0; i < sample->nlog && !goita_round_over(&r); i++) {
    const goita_move m = sample->log[i];
    if (m.seat != viewer) {
      const double lq = move_log_probability(policy, &r, m, work);
      ll += lq;
      if (goita_rules_side_of(&r.rules, m.seat) == goita_rules_side_of(&r.rules, viewer)) partner_ll += lq;
    }
    goita_round_apply_unchecked(&r, m);
  }
  if (partner) *partner = partner_ll;
  return ll;
}

void goita__log_likelihood_seats(const goita__policy *policy, const goita_round *sample, unsigned seats,
                                 uint64_t *work, double ll[GOITA_MAX_SEATS]) {
  for (int s = 0; s < GOITA_MAX_SEATS; s++) ll[s] = 0;
  goita_round r;
  if (goita_round_setup(&r, &sample->rules, sample->dealer, (const uint8_t(*)[GOITA_MAX_HAND])sample->deal,
                        NULL) != GOITA_OK)
    return;
  for (int i = 0; i < sample->nlog && !goita_round_over(&r); i++) {
    const goita_move m = sample->log[i];
    if (seats >> m.seat & 1) ll[m.seat] += move_log_probability(policy, &r, m, work);
    goita_round_apply_unchecked(&r, m);
  }
}

void goita__sampler_use_policy(goita_player *p, const goita__policy *policy) {
  if (p->level->init == sampler_init) use_policy(p, policy);
}

/* Values every move in one sampled deal exactly with the solver (the middle of each move's
 * proven bounds); adds the solver's nodes to *nodes. */
void goita__value_exact(goita_solver *solver, const goita_round *deal, const goita_move *moves, int n, double *out,
                        uint64_t *nodes) {
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  goita_solve_result res;
  goita_solve(solver, deal, &o, &res);
  *nodes += res.nodes;
  for (int i = 0; i < n; i++) {
    out[i] = 0;
    for (int j = 0; j < res.nmoves; j++)
      if (goita_move_equal(res.moves[j], moves[i])) out[i] = (res.move_value[j].lower + res.move_value[j].upper) / 2.0;
  }
}

int goita__exact_for(goita_solver *solver, const goita_round *r, int seat, uint64_t *nodes) {
  goita_solve_result res;
  goita_solve(solver, r, NULL, &res);
  *nodes += res.nodes;
  const bool ours = goita_rules_side_of(&r->rules, r->turn) == goita_rules_side_of(&r->rules, seat);
  return ours ? res.value.lower : -res.value.lower;
}

/* Returns the mean points, for the mover's side, of `rollouts` playouts of the policy after
 * move in deal. */
static double value_playouts(const goita__policy *policy, const goita_round *deal, goita_move move, int rollouts,
                             goita_rng *rng) {
  uint64_t work = 0;
  int sum = 0;
  for (int t = 0; t < rollouts; t++) {
    goita_round r = *deal;
    goita_round_apply_unchecked(&r, move);
    sum += goita__playout(policy, policy, &r, deal->turn, rng, &work, 0);
  }
  return (double)sum / rollouts;
}

/* Values every move in one sampled deal: exactly by the solver, or by playouts. */
static void value_moves(goita_player *p, const goita_round *deal, const goita_move *moves, int n, bool exact,
                        goita_rng *rng, double *out, goita_player_info *info) {
  sampler *s = p->state;
  uint64_t nodes = 0;
  if (exact)
    goita__value_exact(s->solver, deal, moves, n, out, &nodes);
  else
    for (int i = 0; i < n; i++) out[i] = value_playouts(&s->playout, deal, moves[i], p->param[P_ROLLOUTS], rng);
  if (info) info->nodes += nodes;
}

static int sampler_choose(goita_player *p, const goita_view *v, const goita_move *moves, int n, goita_rng *rng,
                          goita_move *move, goita_player_info *info) {
  sampler *s = p->state;
  const double start = goita__now_ms();
  int left = 0;
  for (int seat = 0; seat < v->players; seat++) left += v->size[seat];
  const bool exact = v->phase == GOITA_PHASE_PLAY && left <= p->param[P_SOLVE];
  int done = 0;
  for (; done < p->param[P_SAMPLES]; done++) {
    if (p->param[P_MS] && done > 0 && goita__now_ms() - start > p->param[P_MS]) break;
    goita_round deal;
    if (goita_view_sample(v, rng, &deal, NULL) != GOITA_OK) break;
    uint64_t work = 0;
    s->loglik[done] = p->param[P_INFER] ? goita__log_likelihood(s->model, &deal, v->seat, &work, NULL) : 0;
    value_moves(p, &deal, moves, n, exact, rng, s->values + (size_t)done * (size_t)GOITA_MAX_LEGAL, info);
  }
  double heuristic[GOITA_MAX_LEGAL];
  goita__policy_scores(s->model, v, moves, n, heuristic);
  double mean[GOITA_MAX_LEGAL] = {0};
  if (done > 0) {
    double top = -INFINITY, total = 0;
    for (int i = 0; i < done; i++) top = fmax(top, s->loglik[i]);
    for (int i = 0; i < done; i++) {
      const double w = exp(s->loglik[i] - top);
      total += w;
      for (int j = 0; j < n; j++) mean[j] += w * s->values[i * GOITA_MAX_LEGAL + j];
    }
    for (int j = 0; j < n; j++) mean[j] /= total;
  }
  /* The best average; the heuristic settles near-ties (values are in points). */
  int best = 0;
  for (int j = 1; j < n; j++) {
    const double d = mean[j] - mean[best];
    if (d > 1e-6 || (d > -1e-6 && heuristic[j] > heuristic[best])) best = j;
  }
  *move = moves[best];
  if (info) {
    for (int j = 0; j < n; j++) info->value[j] = done > 0 ? mean[j] : heuristic[j];
    info->has_values = 1;
    info->samples = done;
  }
  return GOITA_OK;
}

const goita__level goita__sampler_level = {
    "sampler",
    "deals the unseen pieces consistently with everything seen, values each move in every deal (exact "
    "solver late, policy playouts early) and plays the best average",
    sampler_params, sampler_init, sampler_release, sampler_choose};

const goita__level goita__expert_level = {
    "expert",
    "the sampling player with a policy learned by self-play (goita train) for its playouts and inference",
    expert_params, sampler_init, sampler_release, sampler_choose};

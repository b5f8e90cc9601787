/* The master level: determinized sampling that spends a budget of work per move where the
 * decision is still open. Deals are sampled one after another until the budget is spent; every 8
 * deals, a move whose paired difference to the best move is clearly negative (by more than
 * `prune` tenths of a standard error) is dropped, so later deals value only the candidates.
 * Values come from the solver once few pieces are left; before, from the mean of two values:
 * playouts of the learned policy, every candidate's playouts in a deal drawing the same random
 * numbers, and one evaluation of the value network, which learned what a deal is worth when
 * `fast` plays it on (value=mix; value=playouts and value=net take one of them). Deals are
 * weighed by what the others' moves say of them (inference): the master draws 4 deals for each
 * one it values, keeps one in proportion to the inference model's likelihood of the others' moves
 * (the opponents' raised to the power 0.5, the partner's to the power 1: the partner plays to be
 * read), and weighs it by their mean. Among the moves within `signal` tenths of a point of the
 * best, it plays the one the inference model finds likeliest from its hand: the partner reads its
 * hand with that model, and reads it better when it plays as the model expects. The budget counts
 * work (playout moves, likelihoods, network evaluations, deals drawn and solver nodes), not time,
 * so a choice depends only on the view and the seed, whatever the machine's load. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "player_internal.h"
#include "value.h"

enum {
  P_MS, P_SOLVE, P_ROLLOUTS, P_LEAF, P_PRUNE, P_TEMP, P_OWN_TEMP, P_TT_MB, P_MAX_SAMPLES, P_INFER, P_PROPOSALS,
  P_MODEL, P_PLAYOUT, P_CRN, P_SIGNAL, P_PARTNER_INFER, P_VALUE
};

/* The models of the others' play that inference can weigh deals by (policy.h). */
static const char *const model_names[] = {"learned", "inference", NULL};

/* How a deal is valued before the exact phase: by playouts, by the value network (value.h),
 * which learned from playouts of fast, a stronger player than the policy, or by the mean of
 * the two (their errors differ: the playouts' is luck and a weak policy, the network's a bias). */
enum { VALUE_PLAYOUTS, VALUE_NET, VALUE_MIX };
static const char *const value_names[] = {"playouts", "net", "mix", NULL};

/* The parameters of the budgeted levels, with each level's defaults. */
#define BUDGET_PARAMS(ms, solve, rollouts, leaf, prune, tt_mb, max_samples, infer, proposals, model, playout, crn, \
                      signal, partner_infer, value)                                                    \
  {                                                                                                    \
    {"ms", 1, 60000, ms, "the budget per move, in milliseconds of this machine's one core", NULL},     \
    {"solve", 0, 32, solve, "solve exactly once at most this many pieces are left in hands", NULL},    \
    {"rollouts", 1, 256, rollouts, "playouts per candidate move and deal before that", NULL},          \
    {"leaf", 0, 32, leaf, "a playout ends in the solver's value once this many pieces are left", NULL}, \
    {"prune", 0, 100, prune, "drop a move this many tenths of a standard error behind (0: never)", NULL}, \
    {"temp", 0, 100, 10, "playout temperature in tenths (0: the policy's own)", NULL},                 \
    {"own_temp", 0, 100, 0, "the playouts' temperature for the mover's own side (0: temp)", NULL},      \
    {"tt_mb", 1, 4096, tt_mb, "solver table in MiB", NULL},                                            \
    {"max_samples", 1, 65536, max_samples, "deals sampled at most per move", NULL},                    \
    {"infer", 0, 20, infer, "weight deals by the others' moves' likelihood to this power, in tenths (0: off)", \
     NULL},                                                                                            \
    {"proposals", 1, 64, proposals, "with infer: deals drawn for each one valued, picked by likelihood", NULL}, \
    {"model", 0, 1, model, "with infer: the model of the others' play (learned: the playouts' policy)", model_names}, \
    {"playout", 0, 1, playout, "the policy that plays the playouts out", model_names},                \
    {"crn", 0, 1, crn, "every candidate's playouts in a deal draw the same random numbers", goita__on_off}, \
    {"signal", 0, 100, signal, "within this many tenths of a point of the best, the move the partner expects", \
     NULL},                                                                                            \
    {"partner_infer", 0, 20, partner_infer, "with infer: the same for the partner's moves", NULL},     \
    {"value", 0, 2, value, "before the exact phase, a deal valued by playouts, the value network or both " \
     "(4 players, default king rules; playouts otherwise)", value_names},                              \
    {NULL, 0, 0, 0, NULL, NULL},                                                                       \
  }

/* master: deals valued by the mean of the playouts and the network (by playouts where the
 * network was not trained); the opponents' moves believed as fully as the partner's (infer=10),
 * since a master opponent plays to be read by its partner as this seat's partner does. */
static const goita__param master_params[] = BUDGET_PARAMS(100, 20, 2, 0, 30, 8, 8192, 10, 4, 1, 0, 1, 10, 10, VALUE_MIX);
/* master_2026_11: the same search as it was, deals valued by playouts alone. */
static const goita__param master_2026_11_params[] = BUDGET_PARAMS(100, 20, 2, 0, 30, 8, 8192, 5, 4, 1, 0, 1, 10, 10,
                                                                  VALUE_PLAYOUTS);
/* fast: master's search on 1 ms, deals valued by the value network. */
static const goita__param fast_params[] = BUDGET_PARAMS(1, 20, 2, 0, 30, 1, 128, 5, 4, 1, 0, 1, 10, 10, VALUE_NET);
/* fast's defaults under rules the value network was not trained for: deals valued by one
 * playout each and no reading, the fast level of before (with playouts, reading on 1 ms costs
 * more deals than it is worth: docs/STRENGTH.md). Parameters given in the spec still hold. */
static const goita__param fast_playout_params[] = BUDGET_PARAMS(1, 16, 1, 0, 20, 1, 32, 0, 1, 1, 0, 0, 0, 0,
                                                                VALUE_PLAYOUTS);

/* Work units per millisecond of one core of the reference machine: a playout costs a unit per
 * move played and per legal move weighed, about 56 ns there. */
#define WORK_PER_MS 18000.0

/* What the other kinds of work cost, in those units. */
typedef struct work_costs {
  double likelihood; /* per legal move weighed in the likelihood of the others' moves */
  double net;        /* an evaluation of the value network */
  double node;       /* a solver node */
  double deal;       /* a deal drawn (proposals included) */
  double exact_deal; /* a deal valued by the solver from the root: its set-up */
} work_costs;

/* Measured on the reference machine by fitting the CPU time of `goita bench player`'s
 * choices of master, master:ms=10, master:value=net and fast to the work they did
 * (docs/STRENGTH.md, "Work units measured again"): the choices' time is then within 8% of
 * their units at 18 to the microsecond, for playouts and for the network alike. */
static const work_costs measured_costs = {1.5, 12.5, 1.25, 19, 125};
/* The costs master_2026_11 keeps: set on master's mix of work, they charged a deal drawn 13
 * times what it costs, so that a level spending its budget mostly on deals (fast) took a
 * quarter of its milliseconds. */
static const work_costs costs_2026_11 = {1, 12, 1.5, 250, 0};

/* Deals between two pruning passes, and the fewest deals before a move may be dropped. */
#define PRUNE_EVERY 8

/* Each other seat's log-likelihood, by the hand it was dealt and the pieces it placed face-down
 * (memo_key), over the deals of one choice: many of them (most, late in a round) give a seat the
 * same, and the likelihood of its moves depends only on those and the public moves
 * (goita__log_likelihood_seats). Open addressing; a slot of an earlier choice is empty. */
#define MEMO_SLOTS 4096
#define MEMO_PROBES 16
#define MEMO_KEY (GOITA_MAX_HAND + GOITA_MAX_PLAYS)
typedef struct memo_slot {
  uint32_t choice; /* the choice that wrote it (0: never) */
  int8_t seat;
  uint8_t key[MEMO_KEY]; /* memo_key */
  double ll;
} memo_slot;

typedef struct likelihood_memo {
  uint32_t choice; /* this choice's number, from 1 */
  memo_slot slot[MEMO_SLOTS];
} likelihood_memo;

typedef struct budgeted {
  goita__policy playout, own; /* the others' playout policy, and the mover's side's */
  likelihood_memo *memo;      /* NULL for master_2026_11, which weighed every deal's moves again */
  const goita__policy *reader; /* the inference model; master_2026_11 keeps the one of its day */
  goita_solver *solver;
  double *values; /* max_samples x GOITA_MAX_LEGAL; NAN where a move was not valued */
  double *logweight; /* per deal valued: the log of its importance weight (0 without inference) */
  double *weight;    /* per deal valued: its weight, the largest 1 */
  const work_costs *costs;
} budgeted;

static void budgeted_release_state(budgeted *b) {
  goita_solver_free(b->solver);
  free(b->values);
  free(b->logweight);
  free(b->weight);
  free(b->memo);
  free(b);
}

static int budgeted_init(goita_player *p, goita_error *err) {
  budgeted *b = calloc(1, sizeof *b);
  if (!b) return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory for the %s player", p->level->name);
  b->values = malloc((size_t)p->param[P_MAX_SAMPLES] * GOITA_MAX_LEGAL * sizeof *b->values);
  b->logweight = malloc((size_t)p->param[P_MAX_SAMPLES] * sizeof *b->logweight);
  b->weight = malloc((size_t)p->param[P_MAX_SAMPLES] * sizeof *b->weight);
  const bool memo = p->level != &goita__master_2026_11_level;
  if (memo) b->memo = calloc(1, sizeof *b->memo);
  const int st = !b->values || !b->logweight || !b->weight || (memo && !b->memo)
                     ? GOITA_ENOMEM
                     : goita_solver_new(&b->solver, (size_t)p->param[P_TT_MB] << 20);
  if (st != GOITA_OK) {
    budgeted_release_state(b);
    return goita_error_set(err, st, -1, "out of memory for the %s player (a %d MiB solver table)", p->level->name,
                           p->param[P_TT_MB]);
  }
  b->reader = p->level == &goita__master_2026_11_level ? &goita__inference_policy_2026_11 : &goita__inference_policy;
  b->playout = p->param[P_PLAYOUT] ? *b->reader : goita__learned_policy;
  if (p->param[P_TEMP]) b->playout.temperature = p->param[P_TEMP] / 10.0;
  b->own = b->playout;
  if (p->param[P_OWN_TEMP]) b->own.temperature = p->param[P_OWN_TEMP] / 10.0;
  b->costs = p->level == &goita__master_2026_11_level ? &costs_2026_11 : &measured_costs;
  p->state = b;
  return GOITA_OK;
}

static void budgeted_release(goita_player *p) { budgeted_release_state(p->state); }

/* Returns the mean points, for the mover's side, of the rollouts after move in deal: the policy
 * plays every seat from its own view until `leaf` pieces are left, then the solver gives the
 * exact value of the rest (not with 3 players, whose solver values are one seat's against two). */
static double value_rollouts(goita_player *p, const goita_round *deal, goita_move move, goita_rng *rng, uint64_t *work,
                             uint64_t *nodes) {
  budgeted *b = p->state;
  const int seat = deal->turn, leaf = deal->players == 3 ? 0 : p->param[P_LEAF];
  int sum = 0;
  for (int t = 0; t < p->param[P_ROLLOUTS]; t++) {
    goita_round r = *deal;
    goita_round_apply_unchecked(&r, move);
    const int points = goita__playout(&b->playout, &b->own, &r, seat, rng, work, leaf);
    sum += goita_round_over(&r) ? points : goita__exact_for(b->solver, &r, seat, nodes);
  }
  return (double)sum / p->param[P_ROLLOUTS];
}

/* The value network's estimate of what value_rollouts would give with many playouts: move is
 * played in deal, and the position after it valued for the mover's side. Where the network was
 * not trained (at most `solve` or GOITA__VALUE_STOP_PIECES pieces left) the solver's exact value
 * is taken instead. Counts the evaluations in *evals and the solver's nodes in *nodes. */
static double value_net(goita_player *p, const goita_round *deal, goita_move move, uint64_t *evals, uint64_t *nodes) {
  budgeted *b = p->state;
  const int seat = deal->turn;
  goita_round r = *deal;
  goita_round_apply_unchecked(&r, move);
  if (goita_round_over(&r)) return goita__result_for(&r, seat);
  int left = 0;
  for (int s = 0; s < r.players; s++) left += r.size[s];
  if (r.phase == GOITA_PHASE_PLAY && left > p->param[P_SOLVE] && left > GOITA__VALUE_STOP_PIECES) {
    ++*evals;
    return goita__value_points(&goita__value_net_trained, &r, seat);
  }
  return goita__exact_for(b->solver, &r, seat, nodes);
}

/* Sets each of the first `done` deals' weight from its log-weight, scaled so that the heaviest
 * weighs 1. */
static void set_weights(budgeted *b, int done) {
  double top = -INFINITY;
  for (int i = 0; i < done; i++) top = fmax(top, b->logweight[i]);
  for (int i = 0; i < done; i++) b->weight[i] = exp(b->logweight[i] - top);
}

/* The powers to which a deal's likelihood is raised: of the opponents' moves, of the partner's. */
typedef struct powers {
  double opponents, partner;
} powers;

/* The powers of a level's inference: none when `infer` is 0, whatever `partner_infer` is. */
static powers inference_powers(const goita_player *p) {
  const powers none = {0, 0}, beta = {p->param[P_INFER] / 10.0, p->param[P_PARTNER_INFER] / 10.0};
  return p->param[P_INFER] ? beta : none;
}

/* Begins a choice's use of the memo: every slot of earlier choices is empty from now on. */
static void memo_begin(likelihood_memo *memo) {
  if (!memo || ++memo->choice) return;
  memset(memo->slot, 0, sizeof memo->slot); /* (the numbers wrapped) */
  memo->choice = 1;
}

/* What a seat's moves in a sampled deal depend on besides the public moves: the hand dealt to it
 * and the pieces it placed face-down (which the sample chose among those of that hand). */
static void memo_key(const goita_round *deal, int seat, uint8_t key[MEMO_KEY]) {
  memset(key, 0, MEMO_KEY);
  memcpy(key, deal->deal[seat], GOITA_MAX_HAND);
  memcpy(key + GOITA_MAX_HAND, deal->block_row[seat], deal->plays[seat]);
}

/* The slot of seat's key in this choice, or the empty slot where it goes, or NULL when every
 * slot it may take holds another key. */
static memo_slot *memo_find(likelihood_memo *memo, int seat, const uint8_t key[MEMO_KEY]) {
  uint32_t h = 2166136261u ^ (uint32_t)seat; /* FNV-1a */
  for (int i = 0; i < MEMO_KEY; i++) h = (h ^ key[i]) * 16777619u;
  for (int k = 0; k < MEMO_PROBES; k++) {
    memo_slot *slot = &memo->slot[(h + (uint32_t)k) % MEMO_SLOTS];
    if (slot->choice != memo->choice) return slot;
    if (slot->seat == seat && memcmp(slot->key, key, MEMO_KEY) == 0) return slot;
  }
  return NULL;
}

/* The log-likelihood of the others' moves in deal, and (*partner) the part of it that is the
 * viewer's partner's moves. With a memo, each other seat's part is weighed once per hand dealt
 * to it in a choice; only the moves weighed are added to *work. */
static double deal_log_likelihood(likelihood_memo *memo, const goita__policy *model, const goita_round *deal,
                                  int viewer, uint64_t *work, double *partner) {
  if (!memo) return goita__log_likelihood(model, deal, viewer, work, partner);
  const int players = deal->players < GOITA_MAX_SEATS ? deal->players : GOITA_MAX_SEATS;
  memo_slot *at[GOITA_MAX_SEATS] = {NULL};
  uint8_t key[GOITA_MAX_SEATS][MEMO_KEY];
  double ll[GOITA_MAX_SEATS] = {0};
  unsigned missing = 0;
  for (int s = 0; s < players; s++) {
    if (s == viewer) continue;
    memo_key(deal, s, key[s]);
    at[s] = memo_find(memo, s, key[s]);
    if (at[s] && at[s]->choice == memo->choice)
      ll[s] = at[s]->ll;
    else
      missing |= 1u << s;
  }
  if (missing) {
    double fresh[GOITA_MAX_SEATS];
    goita__log_likelihood_seats(model, deal, missing, work, fresh);
    for (int s = 0; s < players; s++) {
      if (!(missing >> s & 1)) continue;
      ll[s] = fresh[s];
      if (!at[s]) continue;
      at[s]->choice = memo->choice;
      at[s]->seat = (int8_t)s;
      memcpy(at[s]->key, key[s], MEMO_KEY);
      at[s]->ll = fresh[s];
    }
  }
  double all = 0;
  *partner = 0;
  const int side = goita_rules_side_of(&deal->rules, viewer);
  for (int s = 0; s < players; s++) {
    if (s == viewer) continue;
    all += ll[s];
    if (goita_rules_side_of(&deal->rules, s) == side) *partner += ll[s];
  }
  return all;
}

/* Samples the deal to value next. Without inference (both powers 0), one deal consistent with
 * the view, weighing 1. With it, `proposals` such deals, of which one is kept with probability
 * in proportion to its likelihood (the opponents' moves' and the partner's, each to its power),
 * and weighs their mean likelihood (importance resampling: the valuing, the costly part, goes to
 * the likely deals). Adds the deals drawn to *drawn and the likelihoods' work to *work. */
static int draw_deal(likelihood_memo *memo, const goita_view *v, const goita__policy *model, powers beta,
                     int proposals, goita_rng *rng, goita_round *deal, double *logweight, uint64_t *work, int *drawn) {
  const bool infer = beta.opponents > 0 || beta.partner > 0;
  if (!infer) proposals = 1;
  double total = -INFINITY; /* log of the proposals' summed weights */
  for (int k = 0; k < proposals; k++) {
    goita_round candidate;
    if (goita_view_sample(v, rng, &candidate, NULL) != GOITA_OK) return k > 0 ? GOITA_OK : GOITA_EINVAL;
    ++*drawn;
    double lw = 0;
    if (infer) {
      double partner;
      const double all = deal_log_likelihood(memo, model, &candidate, v->seat, work, &partner);
      lw = beta.opponents * (all - partner) + beta.partner * partner;
    }
    const double hi = fmax(total, lw);
    total = hi + log(exp(total - hi) + exp(lw - hi));
    /* a one-item weighted reservoir: the k-th replaces the kept one with its share of the total */
    if (k == 0 || (double)(goita_rng_next(rng) >> 11) * 0x1p-53 < exp(lw - total)) *deal = candidate;
    *logweight = total - log(k + 1.0);
  }
  return GOITA_OK;
}

/* Drops the candidates whose weighted mean paired difference to the best candidate, over the
 * first `done` deals, is below zero by more than z standard errors. Returns the candidates left. */
static int prune(const double *values, const double *weight, int done, int *cand, int ncand, double z) {
  double mean[GOITA_MAX_LEGAL] = {0}, total = 0;
  int best = 0;
  for (int i = 0; i < done; i++) total += weight[i];
  for (int c = 0; c < ncand; c++) {
    for (int i = 0; i < done; i++) mean[c] += weight[i] * values[(size_t)i * GOITA_MAX_LEGAL + (size_t)cand[c]];
    if (mean[c] > mean[best]) best = c;
  }
  int kept = 0;
  const int bi = cand[best];
  for (int c = 0; c < ncand; c++) {
    double sum = 0, sq = 0, w2 = 0;
    for (int i = 0; i < done; i++) {
      const double d = values[(size_t)i * GOITA_MAX_LEGAL + (size_t)cand[c]] - values[(size_t)i * GOITA_MAX_LEGAL + (size_t)bi];
      sum += weight[i] * d;
      sq += weight[i] * d * d;
      w2 += weight[i] * weight[i];
    }
    /* the weighted mean's standard error, through the deals' effective number total^2 / w2 */
    const double m = sum / total, n_eff = total * total / w2;
    const double var = n_eff > 1 ? fmax(sq / total - m * m, 0) / (n_eff - 1) : INFINITY;
    /* a move tied in every deal (var 0, m 0) stays; one behind in every deal goes */
    if (c == best || m + z * sqrt(var) >= 0) cand[kept++] = cand[c];
  }
  return kept;
}

/* Playing to be read: among the candidates within `signal` tenths of a point of the best, the
 * move the inference model (the partner's model of this seat's play) finds likeliest from this
 * hand. The partner weighs its deals by that model, so a move it expects from the true hand
 * more than from others moves its belief toward the true hand. */
static int signal_move(const goita_player *p, const goita_view *v, const goita_move *moves, int n, const double *mean,
                       const int *cand, int ncand, int best) {
  const budgeted *b = p->state;
  double likely[GOITA_MAX_LEGAL];
  goita__policy_scores(b->reader, v, moves, n, likely);
  const double least = mean[best] - p->param[P_SIGNAL] / 10.0;
  int pick = best;
  for (int c = 0; c < ncand; c++)
    if (mean[cand[c]] >= least && likely[cand[c]] > likely[pick] + 1e-9) pick = cand[c];
  return pick;
}

static int search(goita_player *p, const goita_view *v, const goita_move *moves, int n, goita_rng *rng,
                  goita_move *move, goita_player_info *info) {
  budgeted *b = p->state;
  /* The budget counts solver nodes, and a table warm from an earlier choice (of the same deal)
   * would save some: a choice starts as if the table were empty, so that it depends only on the
   * view and the seed. */
  goita__solver_forget_deal(b->solver);
  memo_begin(b->memo);
  int left = 0;
  for (int seat = 0; seat < v->players; seat++) left += v->size[seat];
  const bool exact = v->phase == GOITA_PHASE_PLAY && left <= p->param[P_SOLVE];
  const bool net_applies = v->phase == GOITA_PHASE_PLAY && goita__value_applies(&v->rules);
  const bool by_net = p->param[P_VALUE] == VALUE_NET && net_applies, mixed = p->param[P_VALUE] == VALUE_MIX && net_applies;
  const double budget = p->param[P_MS] * WORK_PER_MS, z = p->param[P_PRUNE] / 10.0;
  const powers beta = inference_powers(p);
  const goita__policy *model = p->param[P_MODEL] ? b->reader : &goita__learned_policy;
  int cand[GOITA_MAX_LEGAL] = {0}, ncand = n, done = 0, drawn = 0;
  for (int j = 0; j < n; j++) cand[j] = j;
  /* the work: the playouts' (moves played and weighed), the likelihoods' (moves weighed),
   * network evaluations, solver nodes */
  uint64_t steps = 0, likelihood = 0, evals = 0, nodes = 0;
  const work_costs *cost = b->costs;
  /* a deal is begun only when the last one's cost still fits in the budget */
  double spent = 0, last = 0;
  while (done < p->param[P_MAX_SAMPLES] && ncand > 1 && (done == 0 || spent + last <= budget)) {
    goita_round deal;
    if (draw_deal(b->memo, v, model, beta, p->param[P_PROPOSALS], rng, &deal, &b->logweight[done], &likelihood, &drawn) !=
        GOITA_OK)
      break;
    double *row = b->values + (size_t)done * GOITA_MAX_LEGAL;
    if (exact) {
      goita__value_exact(b->solver, &deal, moves, n, row, &nodes);
    } else {
      for (int j = 0; j < n; j++) row[j] = NAN;
      /* common random numbers: every candidate's playouts draw from the same stream, so the
       * paired differences between candidates carry less of the playouts' luck */
      goita_rng stream = {{0}};
      if (p->param[P_CRN]) goita_rng_seed(&stream, goita_rng_next(rng));
      for (int c = 0; c < ncand; c++) {
        goita_rng same = stream;
        row[cand[c]] = by_net ? value_net(p, &deal, moves[cand[c]], &evals, &nodes)
                              : value_rollouts(p, &deal, moves[cand[c]], p->param[P_CRN] ? &same : rng, &steps, &nodes);
        if (mixed) row[cand[c]] = (row[cand[c]] + value_net(p, &deal, moves[cand[c]], &evals, &nodes)) / 2;
      }
    }
    done++;
    const double now = (double)steps + (double)likelihood * cost->likelihood + (double)evals * cost->net +
                       (double)nodes * cost->node + drawn * cost->deal + (exact ? done * cost->exact_deal : 0);
    last = now - spent;
    spent = now;
    if (z > 0 && done % PRUNE_EVERY == 0) {
      set_weights(b, done);
      ncand = prune(b->values, b->weight, done, cand, ncand, z);
    }
  }
  set_weights(b, done);
  /* each move's weighted mean over the deals that valued it; the best surviving candidate is played */
  double mean[GOITA_MAX_LEGAL], heuristic[GOITA_MAX_LEGAL];
  int valued[GOITA_MAX_LEGAL], agree[GOITA_MAX_LEGAL] = {0};
  goita__policy_scores(&goita__learned_policy, v, moves, n, heuristic);
  for (int j = 0; j < n; j++) {
    double sum = 0, total = 0;
    valued[j] = 0;
    for (int i = 0; i < done; i++) {
      const double x = b->values[(size_t)i * GOITA_MAX_LEGAL + (size_t)j];
      if (!isnan(x)) sum += b->weight[i] * x, total += b->weight[i], valued[j]++;
    }
    mean[j] = valued[j] ? sum / total : heuristic[j];
  }
  for (int i = 0; i < done; i++) {
    const double *row = b->values + (size_t)i * GOITA_MAX_LEGAL;
    double top = -INFINITY;
    for (int j = 0; j < n; j++)
      if (!isnan(row[j])) top = fmax(top, row[j]);
    for (int j = 0; j < n; j++) agree[j] += !isnan(row[j]) && row[j] >= top - 1e-9;
  }
  int best = cand[0];
  for (int c = 1; c < ncand; c++) {
    const int j = cand[c];
    const double d = mean[j] - mean[best];
    if (d > 1e-6 || (d > -1e-6 && heuristic[j] > heuristic[best])) best = j;
  }
  if (p->param[P_SIGNAL]) best = signal_move(p, v, moves, n, mean, cand, ncand, best);
  *move = moves[best];
  if (info) {
    for (int j = 0; j < n; j++) {
      info->value[j] = mean[j];
      info->deals[j] = valued[j];
      info->agree[j] = agree[j];
    }
    info->has_values = 1;
    info->samples = done;
    info->nodes += nodes;
  }
  return GOITA_OK;
}

/* Chooses with the level's parameters, or, for fast under rules the value network does not
 * cover, with its playout defaults in place of every parameter the spec did not give (the
 * memory made for the level's own, tt_mb and max_samples, is kept: the playout defaults need
 * no more). */
static int budgeted_choose(goita_player *p, const goita_view *v, const goita_move *moves, int n, goita_rng *rng,
                           goita_move *move, goita_player_info *info) {
  if (p->level != &goita__fast_level || goita__value_applies(&v->rules)) return search(p, v, moves, n, rng, move, info);
  int saved[GOITA__MAX_PARAMS];
  memcpy(saved, p->param, sizeof saved);
  for (int i = 0; fast_playout_params[i].name; i++)
    if (!(p->given >> i & 1) && i != P_TT_MB) p->param[i] = fast_playout_params[i].fallback;
  if (p->param[P_MAX_SAMPLES] > saved[P_MAX_SAMPLES]) p->param[P_MAX_SAMPLES] = saved[P_MAX_SAMPLES];
  const int st = search(p, v, moves, n, rng, move, info);
  memcpy(p->param, saved, sizeof saved);
  return st;
}

int goita__budgeted_beliefs(goita_player *p, const goita_view *v, int deals,
                            double held[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]) {
  memset(held, 0, sizeof(double) * GOITA_MAX_SEATS * GOITA_KIND_SLOTS);
  if (p->level != &goita__master_level && p->level != &goita__master_2026_11_level && p->level != &goita__fast_level)
    return GOITA_EINVAL;
  budgeted *b = p->state;
  goita_rng rng;
  goita_rng_seed(&rng, p->seed);
  const goita__policy *model = p->param[P_MODEL] ? b->reader : &goita__learned_policy;
  const powers beta = inference_powers(p);
  if (deals > p->param[P_MAX_SAMPLES]) deals = p->param[P_MAX_SAMPLES];
  memo_begin(b->memo);
  /* the deals are kept as the hands' kinds present, a bit per seat and kind, in b->values */
  uint64_t work = 0;
  int drawn = 0, done = 0;
  for (; done < deals; done++) {
    goita_round deal;
    if (draw_deal(b->memo, v, model, beta, p->param[P_PROPOSALS], &rng, &deal, &b->logweight[done], &work, &drawn) !=
        GOITA_OK)
      break;
    for (int s = 0; s < v->players; s++)
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
        b->values[(size_t)done * GOITA_MAX_LEGAL + (size_t)(s * GOITA_KIND_SLOTS + k)] = deal.hand[s][k] > 0;
  }
  if (!done) return GOITA_ESTATE;
  set_weights(b, done);
  double total = 0;
  for (int i = 0; i < done; i++) total += b->weight[i];
  /* the weights of the deals in which a seat holds a kind, summed in the order of the total
   * and divided once: a share of unequal weights added share by share can pass 1 by a rounding */
  for (int i = 0; i < done; i++)
    for (int s = 0; s < v->players; s++)
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
        held[s][k] += b->weight[i] * b->values[(size_t)i * GOITA_MAX_LEGAL + (size_t)(s * GOITA_KIND_SLOTS + k)];
  for (int s = 0; s < v->players; s++)
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) held[s][k] = fmin(held[s][k] / total, 1.0);
  return GOITA_OK;
}

const goita__level goita__master_level = {
    "master",
    "samples deals until a budget of work per move is spent (ms, about 100 ms of one core), values "
    "them by playouts and a network, drops moves clearly behind so later deals value the close ones, solves late",
    master_params, budgeted_init, budgeted_release, budgeted_choose};

const goita__level goita__master_2026_11_level = {
    "master_2026_11",
    "master as it was on 2026-11-28, kept to measure later levels against: the same search, its work "
    "counted as then (a deal drawn charged 13 times its cost, so its 100 ms take about 55)",
    master_2026_11_params, budgeted_init, budgeted_release, budgeted_choose};

const goita__level goita__fast_level = {
    "fast",
    "the quick level for phones and busy servers: the master's search on a budget of about 1 ms a move, "
    "deals valued by a network (under rules it was not trained for: by playouts, reading nothing)",
    fast_params, budgeted_init, budgeted_release, budgeted_choose};

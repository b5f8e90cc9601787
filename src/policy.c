/* Policies: how a player weighs each move, from the seat's view only, as a weighted sum of
 * features of the move. The rule-based player's weights are set by hand: it keeps kings for
 * defence and strong pieces for the last attack, keeps pairs for a doubled finish, attacks
 * with kinds the others cannot (or did not) answer, takes the initiative from opponents and
 * leaves it with the partner unless taking it helps. Learned weights (policy_learned.c) use
 * the same features. Scores are in tenths of a round's points (a king's value is 5). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "policy.h"

/* What the seat knows beyond its hand: pieces it has not seen, and the kinds each seat
 * declined to answer when an opponent attacked with them (a hint that it holds none). */
typedef struct knowledge {
  int me, partner;           /* partner -1 without teams */
  int unseen[GOITA_KIND_SLOTS];
  unsigned passed[GOITA_MAX_SEATS];
  bool inference;            /* the inference model's own features are wanted too */
  int *blocks;               /* when not NULL, the hand blocks the move weighs, -1 ended,
                                instead of their 8 features each (scoring adds them itself) */
} knowledge;

static int side_of(const goita_view *v, int seat) { return goita_rules_side_of(&v->rules, seat); }

static void learn(const goita_view *v, knowledge *k) {
  memset(k, 0, sizeof *k);
  k->me = v->seat;
  k->partner = v->players == 4 ? (v->seat + 2) % 4 : -1;
  for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++)
    k->unseen[kind] = goita_rules_kind_total(&v->rules, kind) - v->hand[kind];
  for (int s = 0; s < v->players; s++)
    for (int i = 0; i < v->plays[s] && i < GOITA_MAX_PLAYS; i++) {
      if (v->block_row[s][i]) k->unseen[MARK_KIND(v->block_row[s][i])]--;
      k->unseen[MARK_KIND(v->attack_row[s][i])]--;
    }
  /* Replay the log for who passed on what. */
  int attack = GOITA_NONE, attacker = -1, passes = 0;
  for (int i = 0; i < v->nlog; i++) {
    const goita_move m = v->log[i];
    if (m.type == GOITA_MOVE_PLAY) {
      attack = MARK_KIND(m.attack);
      attacker = m.seat;
      passes = 0;
    } else if (m.type == GOITA_MOVE_PASS && attack != GOITA_NONE && m.seat < GOITA_MAX_SEATS) {
      if (side_of(v, m.seat) != side_of(v, attacker)) k->passed[m.seat] |= 1u << attack;
      if (++passes == v->players - 1) attack = GOITA_NONE;
    }
  }
}

static double value10(int kind) { return goita_kind_value(kind) / 10.0; }

/* How many unseen pieces could answer an attack of this kind. */
static int answers(const knowledge *k, int kind) {
  const bool king_blocks = kind >= GOITA_KNIGHT && kind <= GOITA_ROOK;
  return k->unseen[kind] + (king_blocks ? k->unseen[GOITA_KING] : 0);
}

/* The 5-pawn decision's measure of a hand: kings, rooks and bishops, golds and silvers, pairs. */
static double hand_strength(const uint8_t *h) {
  double strength = 2.0 * h[GOITA_KING] + h[GOITA_ROOK] + h[GOITA_BISHOP] + 0.5 * (h[GOITA_GOLD] + h[GOITA_SILVER]);
  for (int kind = GOITA_LANCE; kind <= GOITA_ROOK; kind++) strength += h[kind] >= 2;
  return strength;
}

static void decision_features(const goita_view *v, goita_move m, double *f) {
  if (m.type != GOITA_MOVE_GO) return;
  f[F_GO] = 1;
  f[F_GO_STRENGTH] = hand_strength(v->hand);
}

/* The pieces of the hand that could answer the attack on the table. */
static int blockers(const goita_view *v) {
  const bool king_blocks = v->attack >= GOITA_KNIGHT && v->attack <= GOITA_ROOK;
  return v->hand[v->attack] + (king_blocks ? v->hand[GOITA_KING] : 0);
}

/* The hand's pieces of each kind into the block of 8 features at `block` (or the block into
 * the move's list, for scoring). */
static void hand_block(const goita_view *v, const knowledge *k, double *f, int block) {
  if (k->blocks) {
    int i = 0;
    while (k->blocks[i] >= 0) i++;
    k->blocks[i] = block;
    k->blocks[i + 1] = -1;
    return;
  }
  for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++) f[block + kind - GOITA_PAWN] = v->hand[kind];
}

static void pass_features(const goita_view *v, const knowledge *k, double *f) {
  if (v->attacker == k->partner) {
    f[F_PASS_PARTNER] = 1;
    if (k->inference) {
      f[F_PASS_PARTNER_COULD_BLOCK] = blockers(v) > 0;
      hand_block(v, k, f, F_PASS_X_HAND);
    }
    return;
  }
  /* Letting an opponent lead again; worst when it is about to finish. */
  const int size = v->size[v->attacker];
  f[size <= 2 ? F_PASS_OPPONENT_FINISHING : F_PASS_OPPONENT] = 1;
  f[F_PASS_OPPONENT_SMALL] = size <= 4;
  f[F_PASS_OPPONENT_ATTACK_VALUE] = value10(v->attack);
  f[F_PASS_COULD_BLOCK] = v->hand[v->attack] > 0;
  if (!k->inference) return;
  f[F_PASS_BLOCKERS] = blockers(v);
  f[F_PASS_KING_ONLY] = v->hand[v->attack] == 0 && blockers(v) > 0;
  f[F_PASS_KINGS_HELD] = v->hand[GOITA_KING];
  if (v->hand[v->attack] > 0) f[F_PASS_HOLDING_PAWN + v->attack - GOITA_PAWN] = 1;
  hand_block(v, k, f, F_PASS_X_HAND + 8);
}

static void play_features(const goita_view *v, const knowledge *k, goita_move m, double *f) {
  const int me = v->seat, size = v->size[me], left = size - 2;
  const bool lead = v->attack == GOITA_NONE;
  const int b = MARK_KIND(m.block), a = MARK_KIND(m.attack);
  if (left == 0) {
    f[F_FINISH] = 1;
    f[F_FINISH_POINTS] = value10(a) * (lead && a == b ? 2 : 1);
    return;
  }
  uint8_t after[GOITA_KIND_SLOTS];
  memcpy(after, v->hand, sizeof after);
  after[b]--;
  after[a]--;
  /* The attack: one nobody else can answer brings the lead back. */
  const int n = answers(k, a);
  if (n == 0)
    f[F_UNANSWERABLE] = 1;
  else
    f[F_ANSWER_INVERSE] = 1.0 / n;
  for (int o = 0; o < v->players; o++)
    if (side_of(v, o) != side_of(v, me) && (k->passed[o] >> a & 1)) f[F_PASSED_OPPONENTS] += 1;
  f[F_NEXT_PASSED] = (k->passed[(me + 1) % v->players] >> a & 1) != 0;
  f[F_ATTACK_VALUE] = value10(a);
  f[F_KEEP_ATTACK_KIND] = after[a] > 0;
  f[F_UNSEEN_ATTACK_KIND] = k->unseen[a] / 4.0;
  f[F_KINGS_AFTER] = after[GOITA_KING];
  /* Strong pieces are worth most as the last attack, and kings as defenders. */
  if (left >= 4) f[F_STRONG_ATTACK_EARLY] = value10(a) - 1.0;
  f[F_KING_ATTACK] = a == GOITA_KING;
  f[F_BREAKS_PAIR] = v->hand[a] == 2 && a != b; /* a pair kept for a doubled finish */
  if (k->inference) {
    f[F_ATTACK_COUNT] = v->hand[a] - (a == b);
    f[F_ATTACK_SINGLE] = after[a] == 0;
    f[F_BLOCK_COUNT] = v->hand[b];
    f[F_HIGH_AFTER] = after[GOITA_BISHOP] + after[GOITA_ROOK] + after[GOITA_KING];
    for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++) f[F_PAIRS_AFTER] += after[kind] >= 2;
    f[F_PAWNS_AFTER] = after[GOITA_PAWN];
    if (a < GOITA_KING) f[F_ATTACK_IS_PAWN + a - GOITA_PAWN] = 1;
    if (lead && b > GOITA_PAWN) f[F_LEAD_BLOCK_LANCE + b - GOITA_LANCE] = 1;
    if (!lead && b == GOITA_KING) f[F_KING_BLOCK_HAVING_KIND] = v->hand[v->attack] > 0;
    hand_block(v, k, f, F_ATTACK_X_HAND + 8 * (a - GOITA_PAWN));
    if (lead) hand_block(v, k, f, F_LEAD_BLOCK_X_HAND + 8 * (b - GOITA_PAWN));
  }
  if (left == 2) {
    int x = 0, y = 0;
    for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++)
      for (int c = 0; c < after[kind]; c++) {
        if (x)
          y = kind;
        else
          x = kind;
      }
    if (x == y)
      f[F_LAST_PAIR_VALUE] = value10(x);
    else
      f[F_LAST_HIGH_VALUE] = value10(x > y ? x : y);
  }
  if (lead) {
    /* The face-down piece: give up the least useful. */
    f[F_LEAD_BLOCK_VALUE] = value10(b);
    f[F_LEAD_BREAKS_PAIR] = v->hand[b] == 2 && a != b;
    f[F_LEAD_BLOCK_PAWN] = b == GOITA_PAWN;
  } else {
    if (b == GOITA_KING) {
      f[F_KING_BLOCK] = 1;
      f[F_KING_BLOCK_ATTACK_VALUE] = value10(v->attack);
    }
    if (v->attacker == k->partner) {
      f[size <= 4 && v->size[k->partner] > size ? F_DEFEND_PARTNER_LATE : F_DEFEND_PARTNER_EARLY] = 1;
    } else {
      f[F_DEFEND_OPPONENT] = 1;
      f[F_DEFEND_SMALL_HAND] = size <= 4;
    }
  }
}

/* Fills the features of the moves (rows of `stride` doubles), the inference model's own too
 * when `inference`: a playout policy weighs none of them, and playouts are most of the
 * master's time. With `blocks`, each move's hand blocks are listed there (MOVE_BLOCKS a move)
 * instead of filled, and rows hold only the features before them. */
#define MOVE_BLOCKS 3 /* at most two blocks and the end */
static void features(const goita_view *v, const goita_move *moves, int n, double *f, size_t stride, bool inference,
                     int (*blocks)[MOVE_BLOCKS]) {
  knowledge k;
  learn(v, &k);
  k.inference = inference;
  const size_t wanted = (inference ? (blocks ? F_ATTACK_X_HAND : GOITA__FEATURES) : F_INFERENCE_FIRST);
  for (int i = 0; i < n; i++) {
    const goita_move m = moves[i];
    double *row = f + (size_t)i * stride;
    memset(row, 0, wanted * sizeof *row);
    k.blocks = blocks ? blocks[i] : NULL;
    if (blocks) blocks[i][0] = -1;
    if (m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO)
      decision_features(v, m, row);
    else if (m.type == GOITA_MOVE_PASS)
      pass_features(v, &k, row);
    else
      play_features(v, &k, m, row);
  }
}

void goita__policy_features(const goita_view *v, const goita_move *moves, int n, double (*f)[GOITA__FEATURES]) {
  features(v, moves, n, f[0], GOITA__FEATURES, true, NULL);
}

/* The features a policy weighs: up to its last nonzero weight (the playout policy weighs none of
 * the inference model's own, and they are not computed for it). */
static int features_used(const goita__policy *policy) {
  int used = GOITA__FEATURES;
  while (used > 0 && policy->weight[used - 1] == 0) used--;
  return used;
}

static void scores_used(const goita__policy *policy, int used, const goita_view *v, const goita_move *moves, int n,
                        double *scores) {
  const bool inference = used > F_INFERENCE_FIRST;
  const int dense = used < F_ATTACK_X_HAND ? used : F_ATTACK_X_HAND;
  double f[GOITA_MAX_LEGAL][F_ATTACK_X_HAND];
  int blocks[GOITA_MAX_LEGAL][MOVE_BLOCKS];
  features(v, moves, n, f[0], F_ATTACK_X_HAND, inference, blocks);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < dense; j++) s += policy->weight[j] * f[i][j];
    for (const int *b = blocks[i]; *b >= 0; b++)
      for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++)
        s += policy->weight[*b + kind - GOITA_PAWN] * v->hand[kind];
    scores[i] = s;
  }
}

void goita__policy_scores(const goita__policy *policy, const goita_view *v, const goita_move *moves, int n,
                          double *scores) {
  scores_used(policy, features_used(policy), v, moves, n, scores);
}

static const char *const feature_names[F_ATTACK_X_HAND] = {
#define NAME(f) [f] = #f
    NAME(F_FINISH), NAME(F_FINISH_POINTS), NAME(F_UNANSWERABLE), NAME(F_ANSWER_INVERSE),
    NAME(F_PASSED_OPPONENTS), NAME(F_NEXT_PASSED), NAME(F_ATTACK_VALUE), NAME(F_KEEP_ATTACK_KIND),
    NAME(F_UNSEEN_ATTACK_KIND), NAME(F_KINGS_AFTER), NAME(F_STRONG_ATTACK_EARLY), NAME(F_KING_ATTACK),
    NAME(F_BREAKS_PAIR), NAME(F_LAST_PAIR_VALUE), NAME(F_LAST_HIGH_VALUE), NAME(F_LEAD_BLOCK_VALUE),
    NAME(F_LEAD_BREAKS_PAIR), NAME(F_LEAD_BLOCK_PAWN), NAME(F_KING_BLOCK), NAME(F_KING_BLOCK_ATTACK_VALUE),
    NAME(F_DEFEND_PARTNER_EARLY), NAME(F_DEFEND_PARTNER_LATE), NAME(F_DEFEND_OPPONENT), NAME(F_DEFEND_SMALL_HAND),
    NAME(F_PASS_PARTNER), NAME(F_PASS_OPPONENT_FINISHING), NAME(F_PASS_OPPONENT), NAME(F_PASS_OPPONENT_SMALL),
    NAME(F_PASS_OPPONENT_ATTACK_VALUE), NAME(F_PASS_COULD_BLOCK), NAME(F_GO), NAME(F_GO_STRENGTH),
    NAME(F_PASS_BLOCKERS), NAME(F_PASS_KING_ONLY), NAME(F_PASS_PARTNER_COULD_BLOCK), NAME(F_PASS_KINGS_HELD),
    NAME(F_ATTACK_COUNT), NAME(F_ATTACK_SINGLE), NAME(F_KING_BLOCK_HAVING_KIND), NAME(F_BLOCK_COUNT),
    NAME(F_HIGH_AFTER), NAME(F_PAIRS_AFTER), NAME(F_PAWNS_AFTER), NAME(F_ATTACK_IS_PAWN), NAME(F_ATTACK_IS_LANCE),
    NAME(F_ATTACK_IS_KNIGHT), NAME(F_ATTACK_IS_SILVER), NAME(F_ATTACK_IS_GOLD), NAME(F_ATTACK_IS_BISHOP),
    NAME(F_ATTACK_IS_ROOK), NAME(F_LEAD_BLOCK_LANCE), NAME(F_LEAD_BLOCK_KNIGHT), NAME(F_LEAD_BLOCK_SILVER),
    NAME(F_LEAD_BLOCK_GOLD), NAME(F_LEAD_BLOCK_BISHOP), NAME(F_LEAD_BLOCK_ROOK), NAME(F_LEAD_BLOCK_KING),
    NAME(F_PASS_HOLDING_PAWN), NAME(F_PASS_HOLDING_LANCE), NAME(F_PASS_HOLDING_KNIGHT), NAME(F_PASS_HOLDING_SILVER),
    NAME(F_PASS_HOLDING_GOLD), NAME(F_PASS_HOLDING_BISHOP), NAME(F_PASS_HOLDING_ROOK), NAME(F_PASS_HOLDING_KING),
#undef NAME
};

void goita__feature_name(int feature, char *out, size_t size) {
  if (feature < F_ATTACK_X_HAND)
    snprintf(out, size, "%s", feature_names[feature]);
  else if (feature < F_LEAD_BLOCK_X_HAND)
    snprintf(out, size, "F_ATTACK_X_HAND + %d", feature - F_ATTACK_X_HAND);
  else if (feature < F_PASS_X_HAND)
    snprintf(out, size, "F_LEAD_BLOCK_X_HAND + %d", feature - F_LEAD_BLOCK_X_HAND);
  else
    snprintf(out, size, "F_PASS_X_HAND + %d", feature - F_PASS_X_HAND);
}

/* The rule-based player's weights, set by hand (tenths of a round's points). */
const goita__policy goita__rules_policy = {
    2.0,
    {
        [F_FINISH] = 100, [F_FINISH_POINTS] = 1, [F_UNANSWERABLE] = 6, [F_ANSWER_INVERSE] = 2,
        [F_PASSED_OPPONENTS] = 1, [F_STRONG_ATTACK_EARLY] = -0.5, [F_KING_ATTACK] = -3, [F_BREAKS_PAIR] = -1,
        [F_LAST_PAIR_VALUE] = 1, [F_LAST_HIGH_VALUE] = 0.5, [F_LEAD_BLOCK_VALUE] = -0.8, [F_LEAD_BREAKS_PAIR] = -1,
        [F_KING_BLOCK] = -3.5, [F_KING_BLOCK_ATTACK_VALUE] = 0.5, [F_DEFEND_PARTNER_EARLY] = -4,
        [F_DEFEND_PARTNER_LATE] = -1, [F_DEFEND_OPPONENT] = 3, [F_PASS_PARTNER] = 3,
        [F_PASS_OPPONENT_FINISHING] = -8, [F_PASS_OPPONENT] = -2, [F_GO] = -5, [F_GO_STRENGTH] = 1,
    },
};

void goita__policy_probabilities(const double *scores, int n, double temperature, double *p) {
  double top = -INFINITY, sum = 0;
  for (int i = 0; i < n; i++) top = fmax(top, scores[i]);
  for (int i = 0; i < n; i++) sum += p[i] = exp((scores[i] - top) / temperature);
  for (int i = 0; i < n; i++) p[i] /= sum;
}

int goita__result_for(const goita_round *r, int seat) {
  const goita_round_result *res = &r->result;
  if (res->winner < 0) return 0;
  int points = res->points;
  if (res->wins_game) points = r->rules.target; /* a game won at once counts as the target */
  return goita_rules_side_of(&r->rules, res->winner) == goita_rules_side_of(&r->rules, seat) ? points : -points;
}

int goita__playout(const goita__policy *policy, const goita__policy *own, goita_round *r, int seat, goita_rng *rng,
                   uint64_t *work, int stop_pieces) {
  const int side = goita_rules_side_of(&r->rules, seat);
  const int used = features_used(policy), own_used = features_used(own);
  goita_view v;
  goita_move moves[GOITA_MAX_LEGAL];
  double scores[GOITA_MAX_LEGAL], p[GOITA_MAX_LEGAL];
  while (!goita_round_over(r)) {
    if (stop_pieces && r->phase == GOITA_PHASE_PLAY) {
      int left = 0;
      for (int s = 0; s < r->players; s++) left += r->size[s];
      if (left <= stop_pieces) return 0;
    }
    const int n = goita_round_legal_moves(r, moves);
    int pick = 0;
    *work += (uint64_t)n + 1;
    if (n > 1) {
      const bool own_side = goita_rules_side_of(&r->rules, r->turn) == side;
      const goita__policy *mover = own_side ? own : policy;
      goita_round_view(r, r->turn, &v);
      scores_used(mover, own_side ? own_used : used, &v, moves, n, scores);
      goita__policy_probabilities(scores, n, mover->temperature, p);
      double u = goita__unit(rng);
      for (pick = 0; pick < n - 1 && (u -= p[pick]) > 0; pick++) continue;
    }
    goita_round_apply_unchecked(r, moves[pick]);
  }
  return goita__result_for(r, seat);
}

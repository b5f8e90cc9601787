/* The rule-based player's judgement: how a sensible human weighs each move, from the seat's
 * view only. It keeps kings for defence and strong pieces for the last attack, keeps pairs
 * for a doubled finish, attacks with kinds the others cannot (or did not) answer, takes the
 * initiative from opponents and leaves it with the partner unless taking it helps.
 * Scores are in tenths of a round's points (a king's value is 5), so they add up sensibly. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "player_internal.h"

/* What the seat knows beyond its hand: pieces it has not seen, and the kinds each seat
 * declined to answer when an opponent attacked with them (a hint that it holds none). */
typedef struct knowledge {
  int me, partner;           /* partner -1 without teams */
  int unseen[GOITA_KIND_SLOTS];
  unsigned passed[GOITA_MAX_SEATS];
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

/* The 5-pawn decision: play on with a hand strong enough to carry the round. */
static double decision_score(const goita_view *v, goita_move m) {
  if (m.type == GOITA_MOVE_REDEAL) return 0;
  const uint8_t *h = v->hand;
  double strength = 2.0 * h[GOITA_KING] + h[GOITA_ROOK] + h[GOITA_BISHOP] + 0.5 * (h[GOITA_GOLD] + h[GOITA_SILVER]);
  for (int kind = GOITA_LANCE; kind <= GOITA_ROOK; kind++) strength += h[kind] >= 2;
  return strength - 5.0;
}

static double pass_score(const goita_view *v, const knowledge *k) {
  if (v->attacker == k->partner) return 3.0;
  /* Letting an opponent lead again; worst when it is about to finish. */
  return v->size[v->attacker] <= 2 ? -8.0 : -2.0;
}

static double play_score(const goita_view *v, const knowledge *k, goita_move m) {
  const int me = v->seat, size = v->size[me], left = size - 2;
  const bool lead = v->attack == GOITA_NONE;
  const int b = MARK_KIND(m.block), a = MARK_KIND(m.attack);
  if (left == 0) return 100.0 + value10(a) * (lead && a == b ? 2 : 1);
  uint8_t after[GOITA_KIND_SLOTS];
  memcpy(after, v->hand, sizeof after);
  after[b]--;
  after[a]--;
  double s = 0;
  /* The attack: one nobody else can answer brings the lead back. */
  const int n = answers(k, a);
  s += n == 0 ? 6.0 : 2.0 / n;
  for (int o = 0; o < v->players; o++)
    if (side_of(v, o) != side_of(v, me) && (k->passed[o] >> a & 1)) s += 1.0;
  /* Strong pieces are worth most as the last attack, and kings as defenders. */
  if (left >= 4) s -= (value10(a) - 1.0) * 0.5;
  if (a == GOITA_KING) s -= 3.0;
  if (v->hand[a] == 2 && a != b) s -= 1.0; /* breaks a pair kept for a doubled finish */
  if (left == 2) {
    int x = 0, y = 0;
    for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++)
      for (int c = 0; c < after[kind]; c++) {
        if (x)
          y = kind;
        else
          x = kind;
      }
    s += x == y ? value10(x) : 0.5 * value10(x > y ? x : y);
  }
  if (lead) {
    /* The face-down piece: give up the least useful. */
    s -= value10(b) * 0.8;
    if (v->hand[b] == 2 && a != b) s -= 1.0;
  } else {
    if (b == GOITA_KING) s -= 3.5 - 0.5 * value10(v->attack);
    if (v->attacker == k->partner)
      s -= size <= 4 && v->size[k->partner] > size ? 1.0 : 4.0;
    else
      s += 3.0;
  }
  return s;
}

void goita__heuristic_scores(const goita_view *v, const goita_move *moves, int n, double *scores) {
  knowledge k;
  learn(v, &k);
  for (int i = 0; i < n; i++) {
    const goita_move m = moves[i];
    if (m.type == GOITA_MOVE_REDEAL || m.type == GOITA_MOVE_GO)
      scores[i] = decision_score(v, m);
    else if (m.type == GOITA_MOVE_PASS)
      scores[i] = pass_score(v, &k);
    else
      scores[i] = play_score(v, &k, m);
  }
}

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

int goita__playout(goita_round *r, int seat, goita_rng *rng) {
  goita_view v;
  goita_move moves[GOITA_MAX_LEGAL];
  double scores[GOITA_MAX_LEGAL], p[GOITA_MAX_LEGAL];
  while (!goita_round_over(r)) {
    const int n = goita_round_legal_moves(r, moves);
    int pick = 0;
    if (n > 1) {
      goita_round_view(r, r->turn, &v);
      goita__heuristic_scores(&v, moves, n, scores);
      goita__policy_probabilities(scores, n, GOITA__POLICY_TEMPERATURE, p);
      double u = goita__unit(rng);
      for (pick = 0; pick < n - 1 && (u -= p[pick]) > 0; pick++) continue;
    }
    goita_round_apply_unchecked(r, moves[pick]);
  }
  return goita__result_for(r, seat);
}

/* Hints (hint.h): a computer player's best moves from a seat's view, with the facts behind
 * each, read off the deals it drew (what the others likely hold) and the move itself. */
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"
#include "player_internal.h"

/* Deals drawn for the chance that each seat holds each kind. */
#define HINT_DEALS 64

void goita_view_unseen(const goita_view *v, uint8_t unseen[GOITA_KIND_SLOTS]) {
  memset(unseen, 0, GOITA_KIND_SLOTS);
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) {
    int n = goita_rules_kind_total(&v->rules, k) - v->hand[k];
    for (int s = 0; s < v->players; s++)
      for (int i = 0; i < v->plays[s]; i++) {
        n -= goita_mark_kind(v->block_row[s][i]) == k; /* 0: face-down, not seen */
        n -= goita_mark_kind(v->attack_row[s][i]) == k;
      }
    unseen[k] = (uint8_t)(n > 0 ? n : 0);
  }
}

/* The chance each seat holds each kind, from deals drawn uniformly from the view (for levels
 * that do not read the others' moves). */
static int uniform_beliefs(const goita_view *v, uint64_t seed, double held[GOITA_MAX_SEATS][GOITA_KIND_SLOTS]) {
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  memset(held, 0, sizeof(double) * GOITA_MAX_SEATS * GOITA_KIND_SLOTS);
  for (int d = 0; d < HINT_DEALS; d++) {
    goita_round deal;
    if (goita_view_sample(v, &rng, &deal, NULL) != GOITA_OK) return GOITA_ESTATE;
    for (int s = 0; s < v->players; s++)
      for (int k = GOITA_PAWN; k <= GOITA_KING; k++) held[s][k] += (deal.hand[s][k] > 0) / (double)HINT_DEALS;
  }
  return GOITA_OK;
}

/* The chance that seat can answer an attack of kind: a piece of that kind, or (from the knight
 * up, as the standard rules allow) a king; holdings taken as independent. */
static double can_answer(const goita_hint *h, int seat, int kind) {
  double none = 1 - h->held[seat][kind];
  if (kind >= GOITA_KNIGHT && kind < GOITA_KING) none *= 1 - h->held[seat][GOITA_KING];
  return 1 - none;
}

static int partner_of(const goita_view *v) {
  return v->players == 4 ? (v->seat + 2) % 4 : -1;
}

static void add_reason(goita_hint_move *m, goita_reason_kind kind, int piece, int seat, int count, double chance) {
  if (m->nreasons == GOITA_HINT_REASONS) return;
  m->reasons[m->nreasons++] = (goita_hint_reason){(uint8_t)kind, (uint8_t)piece, (int8_t)seat, (int16_t)count, chance};
}

/* Counts the pieces a move places, per kind. */
static void spent(goita_move move, int counts[GOITA_KIND_SLOTS]) {
  memset(counts, 0, sizeof(int) * GOITA_KIND_SLOTS);
  if (move.type != GOITA_MOVE_PLAY) return;
  counts[goita_mark_kind(move.block)]++;
  counts[goita_mark_kind(move.attack)]++;
}

/* The highest kind the other move places and this one keeps, or 0. */
static int kept_against(goita_move move, goita_move other) {
  int mine[GOITA_KIND_SLOTS], theirs[GOITA_KIND_SLOTS];
  spent(move, mine);
  spent(other, theirs);
  for (int k = GOITA_KING; k >= GOITA_PAWN; k--)
    if (theirs[k] > mine[k]) return k;
  return 0;
}

/* The reasons of a play: going out, a pair kept for the finish, taking the lead, an attack
 * the opponents likely cannot answer. */
static void play_reasons(const goita_view *v, const goita_hint *h, goita_hint_move *m) {
  const int block = goita_mark_kind(m->move.block), attack = goita_mark_kind(m->move.attack);
  const int leading = v->attack == GOITA_NONE;
  const int left = v->size[v->seat] - 2;
  if (left == 0) {
    add_reason(m, GOITA_REASON_FINISH, attack, -1, goita_kind_value(attack) * (leading && block == attack ? 2 : 1), 1);
    return;
  }
  if (left == 2) {
    int after[GOITA_KIND_SLOTS] = {0};
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) after[k] = v->hand[k];
    after[block]--;
    after[attack]--;
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
      if (after[k] == 2) add_reason(m, GOITA_REASON_PAIR_LEFT, k, -1, 2 * goita_kind_value(k), 1);
  }
  if (!leading && v->attacker != partner_of(v) && v->size[v->attacker] <= 4)
    add_reason(m, GOITA_REASON_TAKES_LEAD, 0, v->attacker, v->size[v->attacker], 1);
  double safe = 1;
  for (int s = 0; s < v->players; s++)
    if (s != v->seat && s != partner_of(v)) safe *= 1 - can_answer(h, s, attack);
  if (safe >= 0.5) add_reason(m, GOITA_REASON_SAFE_ATTACK, attack, -1, 0, safe);
}

/* The reasons of a pass: the partner's attack stands, or the partner, still to answer, likely can. */
static void pass_reasons(const goita_view *v, const goita_hint *h, goita_hint_move *m) {
  const int partner = partner_of(v);
  if (partner < 0) return;
  if (v->attacker == partner) {
    add_reason(m, GOITA_REASON_PARTNER_ATTACK, v->attack, partner, 0, 1);
    return;
  }
  /* the seats answer in turn from the attacker's left: is the partner after this seat? */
  const int n = v->players;
  if ((partner - v->attacker + n) % n > (v->seat - v->attacker + n) % n) {
    const double chance = can_answer(h, partner, v->attack);
    if (chance >= 0.5) add_reason(m, GOITA_REASON_PARTNER_ANSWERS, v->attack, partner, 0, chance);
  }
}

/* Fills each offered move's reasons; the next-best move is what "keeps" compares with. */
static void explain(const goita_view *v, goita_hint *h) {
  for (int i = 0; i < h->nmoves; i++) {
    goita_hint_move *m = &h->moves[i];
    if (m->move.type == GOITA_MOVE_PLAY) play_reasons(v, h, m);
    else if (m->move.type == GOITA_MOVE_PASS) pass_reasons(v, h, m);
    if (h->nmoves > 1 && m->move.type != GOITA_MOVE_REDEAL && m->move.type != GOITA_MOVE_GO) {
      const int kept = kept_against(m->move, h->moves[i == 0 ? 1 : 0].move);
      if (kept && (i == 0 || m->move.type == GOITA_MOVE_PASS)) add_reason(m, GOITA_REASON_KEEPS, kept, -1, 0, 1);
    }
  }
}

/* Keeps the best GOITA_HINT_MOVES moves of the player's report, best first. */
static void best_moves(const goita_player_info *info, goita_move chosen, goita_hint *h) {
  int order[GOITA_MAX_LEGAL], n = info->nmoves;
  for (int i = 0; i < n; i++) order[i] = i;
  /* insertion sort by value, the move chosen first among equals */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0; j--) {
      const int a = order[j - 1], b = order[j];
      const double va = info->value[a], vb = info->value[b];
      const int before = vb > va || (vb == va && goita_move_equal(info->moves[b], chosen));
      if (!before) break;
      order[j - 1] = b;
      order[j] = a;
    }
  h->nmoves = n < GOITA_HINT_MOVES ? n : GOITA_HINT_MOVES;
  for (int i = 0; i < h->nmoves; i++) {
    const int j = order[i];
    h->moves[i] = (goita_hint_move){.move = info->moves[j], .value = info->value[j], .deals = info->deals[j],
                                    .agree = info->agree[j]};
  }
}

int goita_hint_make(const goita_view *v, const char *spec, uint64_t seed, goita_hint *h, goita_error *err) {
  if (!v || !spec || !h) return goita_error_set(err, GOITA_EINVAL, -1, "no view, spec or hint");
  memset(h, 0, sizeof *h);
  if (v->phase == GOITA_PHASE_OVER) return goita_error_set(err, GOITA_EOVER, -1, "the round is over");
  if (v->seat < 0 || v->seat != v->turn) return goita_error_set(err, GOITA_ETURN, -1, "it is not the seat's turn");
  goita_player *player;
  int st = goita_player_new(&player, spec, err);
  if (st != GOITA_OK) return st;
  goita_player_seed(player, seed);
  goita_player_info *info = calloc(1, sizeof *info);
  goita_move chosen;
  st = info ? goita_player_choose(player, v, &chosen, info) : GOITA_ENOMEM;
  if (st == GOITA_OK) {
    if (info->has_values) best_moves(info, chosen, h);
    else h->moves[h->nmoves++] = (goita_hint_move){.move = chosen};
    h->samples = info->samples;
    if (goita__budgeted_beliefs(player, v, HINT_DEALS, h->held) != GOITA_OK) st = uniform_beliefs(v, seed, h->held);
  }
  goita_player_free(player);
  free(info);
  if (st != GOITA_OK) return goita_error_set(err, st, -1, "%s", goita_strerror(st));
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) h->held[v->seat][k] = v->hand[k] > 0;
  goita_view_unseen(v, h->unseen);
  explain(v, h);
  return GOITA_OK;
}

/* Between goita_round and the solver's compact position (solver_internal.h): a deal's bits and
 * hand tables, a round's position, and the decisions of a deal (the 5-pawn choice) solved by
 * recursion over the rules engine. */
#include <stdbool.h>
#include <string.h>

#include "solver_moves.h"
#include "solver_table.h"

/* Added to hand_info.worth by a piece of each kind. */
static const uint32_t worth_of_kind[GOITA_KIND_SLOTS] = {
    0, 0, 0x01, 0x01, 0x0101, 0x0101, 0x010101, 0x010101, 0x01010101};

/* Whether r has the solver's deal under the same rules of play. */
static bool same_deal(const goita_solver *s, const goita_round *r) {
  return s->have_deal && s->players == r->players && s->rules.king_attack == r->rules.king_attack &&
         s->rules.king_face_down == r->rules.king_face_down && s->rules.king_b == r->rules.king_b &&
         memcmp(s->deal, r->deal, sizeof s->deal) == 0;
}

/* Fills seat's hand facts for every hand within the seat's bits `held` (local bits): hands
 * only shrink in play, so a solve reads no others. Each hand is a smaller hand plus its
 * lowest piece, and the sub-hands of held come in increasing order. */
static void build_hands(goita_solver *s, const goita_round *r, int seat, uint32_t held) {
  uint8_t kind_of_bit[MAX_SEAT_BITS];
  int dealt_kings = 0;
  for (int i = 0; i < s->hand_bits; i++) {
    kind_of_bit[i] = (uint8_t)MARK_KIND(r->deal[seat][i]);
    dealt_kings += kind_of_bit[i] == GOITA_KING;
  }
  memset(&s->info[seat][0], 0, sizeof(hand_info));
  s->info[seat][0].kings_b = (uint8_t)goita__kings_for_b(&r->rules, 0, dealt_kings);
  for (uint32_t x = held & -held; x; x = (x - held) & held) {
    hand_info *h = &s->info[seat][x];
    *h = s->info[seat][x & (x - 1)];
    const int k = kind_of_bit[__builtin_ctz(x)];
    const int c = ++h->count[k];
    h->held |= (uint16_t)(1u << k);
    if (c >= 2) h->pairs |= (uint16_t)(1u << k);
    h->size++;
    if (k == GOITA_KING) h->kings++;
    h->worth += worth_of_kind[k];
    const int best = kind_tens[k] * (c >= 2 ? 2 : 1);
    if (best > h->best) h->best = (uint8_t)best;
    h->kings_b = (uint8_t)goita__kings_for_b(&r->rules, h->kings, dealt_kings);
    uint32_t code = (uint32_t)h->kings_b << CODE_KINGS_B_SHIFT;
    for (int kind = 1; kind < GOITA_KIND_SLOTS; kind++) code |= (uint32_t)h->count[kind] << code_shift[kind];
    h->code[0] = (uint8_t)code;
    h->code[1] = (uint8_t)(code >> 8);
    h->code[2] = (uint8_t)(code >> 16);
  }
  s->built[seat] = held;
}

/* Lays out the bits of a new deal. A seat dealt the same hand as in the solver's last deal,
 * under the same rules of play, keeps its hand facts and kind bits (the deals a player samples
 * at one decision all give it its own hand); the other seats' facts are built later, for the
 * hands a solve reaches. The forced-run cache is kept unless the rules of play changed. */
static void load_deal(goita_solver *s, const goita_round *r) {
  const bool same_rules = s->players == r->players && s->hand_bits == goita_rules_hand_size(&r->rules) &&
                          s->rules.king_attack == r->rules.king_attack &&
                          s->rules.king_face_down == r->rules.king_face_down && s->rules.king_b == r->rules.king_b;
  if (!same_rules) memset(s->runs, 0, sizeof s->runs);
  s->have_deal = 1;
  s->rules = r->rules;
  s->players = r->players;
  s->hand_bits = goita_rules_hand_size(&r->rules);
  memset(s->kind_mask, 0, sizeof s->kind_mask);
  s->king_bits = 0;
  for (int seat = 0; seat < s->players; seat++) {
    s->offset[seat] = seat * s->hand_bits;
    uint32_t local[GOITA_KIND_SLOTS] = {0};
    memset(s->dealt_count[seat], 0, sizeof s->dealt_count[seat]);
    for (int i = 0; i < s->hand_bits; i++) {
      local[MARK_KIND(r->deal[seat][i])] |= 1u << i;
      s->dealt_count[seat][MARK_KIND(r->deal[seat][i])]++;
    }
    for (int k = 1; k < GOITA_KIND_SLOTS; k++) {
      s->kind_mask[seat][k] = local[k] << s->offset[seat];
      s->kind_mask[seat][0] |= s->kind_mask[seat][k];
    }
    s->king_bits |= s->kind_mask[seat][GOITA_KING];
    if (same_rules && memcmp(s->deal[seat], r->deal[seat], sizeof s->deal[seat]) == 0) continue;
    unsigned dealt = 0;
    for (int k = 1; k < GOITA_KIND_SLOTS; k++)
      if (local[k]) dealt |= 1u << (k - 1);
    s->dealt_kinds[seat] = (uint8_t)dealt;
    /* only sets of dealt kinds are asked for; each is a smaller set plus its lowest kind */
    s->bits_of_kinds[seat][0] = 0;
    for (unsigned kinds = dealt & -dealt; kinds; kinds = (kinds - dealt) & dealt)
      s->bits_of_kinds[seat][kinds] =
          (uint16_t)(s->bits_of_kinds[seat][kinds & (kinds - 1)] | local[__builtin_ctz(kinds) + 1]);
    s->built[seat] = 0;
  }
  memcpy(s->deal, r->deal, sizeof s->deal);
  goita__tt_new_generation(s);
}

/* The bits of the hands in r, all seats together: of each kind, the top bits of its range. */
static uint32_t hands_of_round(const goita_solver *s, const goita_round *r) {
  uint32_t hands = 0;
  for (int seat = 0; seat < s->players; seat++)
    for (int k = 1; k < GOITA_KIND_SLOTS; k++) {
      uint32_t bits = s->kind_mask[seat][k];
      for (int drop = s->dealt_count[seat][k] - r->hand[seat][k]; drop > 0; drop--) bits &= bits - 1;
      hands |= bits;
    }
  return hands;
}

void goita__solver_use_deal(goita_solver *s, const goita_round *r) {
  if (!same_deal(s, r)) load_deal(s, r);
  /* A deal's hand facts are built for the hands of its first solve; an earlier position of
   * the deal solved later (a larger hand) builds them again. */
  const uint32_t hands = hands_of_round(s, r);
  for (int seat = 0; seat < s->players; seat++) {
    const uint32_t held = (hands >> s->offset[seat]) & ((1u << s->hand_bits) - 1u);
    if (held & ~s->built[seat]) build_hands(s, r, seat, held);
  }
}

/* The compact position of a round in play (settled: forced passes made). */
spos goita__solver_position(const goita_solver *s, const goita_round *r) {
  spos p = {.turn = (uint8_t)r->turn,
            .attack = (uint8_t)(r->attack == GOITA_NONE ? 0 : r->attack),
            .passes = (uint8_t)r->passes,
            .kingup = (uint8_t)(r->kings_up > 0),
            .attacker = (uint8_t)r->attacker};
  p.hands = hands_of_round(s, r);
  if (p.attack == 0) p.attacker = p.turn;
  for (int seat = 0; seat < s->players; seat++) p.pieces = (uint8_t)(p.pieces + r->size[seat]);
  settle(s, &p);
  return p;
}

/* By recursion over the decisions of the deal; positions in play go to the search. */
void goita__solver_solve_round(goita_solver *s, const goita_round *r, goita_solve_mode mode, int *lo,
                               int *hi) {
  if (r->phase == GOITA_PHASE_OVER) {
    int v = r->result.winner < 0 ? 0 : r->result.points / 10;
    if (r->result.winner >= 0 && s->group[r->result.winner] != s->group[s->root]) v = -v;
    *lo = *hi = v;
    return;
  }
  if (r->phase == GOITA_PHASE_DECIDE) {
    /* The decider's side maximises; each choice is solved in full. */
    const int sign = s->group[r->turn] == s->group[s->root] ? 1 : -1;
    int best_lo = -100, best_hi = -100;
    for (int redeal = 0; redeal < 2; redeal++) {
      goita_round child = *r;
      goita_round_apply_unchecked(&child, goita_move_decide(r->turn, redeal));
      int clo, chi;
      goita__solver_solve_round(s, &child, GOITA_SOLVE_EXACT, &clo, &chi);
      const int l = sign > 0 ? clo : -chi, h = sign > 0 ? chi : -clo;
      if (l > best_lo) best_lo = l;
      if (h > best_hi) best_hi = h;
    }
    *lo = sign > 0 ? best_lo : -best_hi;
    *hi = sign > 0 ? best_hi : -best_lo;
    return;
  }
  const spos p = goita__solver_position(s, r);
  int l = -10, h = 10;
  goita__solver_narrow(s, &p, mode, &l, &h);
  if (flips(s, s->players, s->root, p.turn)) {
    *lo = -h;
    *hi = -l;
  } else {
    *lo = l;
    *hi = h;
  }
}

/* One round: dealing, the deal rules, move generation, applying moves, scoring
 * (RULES.md 3-5 and 8). */
#include <string.h>

#include "internal.h"

/* ---- Move generation and checking (shared with views through goita__turn) ---- */

/* Writes the plays with one block kind: every attack kind in attacks. */
static inline int put_plays(goita_move *out, int n, uint8_t seat, int block, unsigned attacks) {
  for (; attacks; attacks &= attacks - 1)
    out[n++] = (goita_move){GOITA_MOVE_PLAY, seat, (uint8_t)block, (uint8_t)__builtin_ctz(attacks)};
  return n;
}

int goita__gen_moves(const goita__turn *t, goita_move *out) {
  const uint8_t *hand = t->hand;
  const unsigned held = t->held;
  const unsigned king_bit = 1u << GOITA_KING;
  const int kings = hand[GOITA_KING];
  const uint8_t seat = (uint8_t)t->seat;
  int n = 0;
  if (t->attack == GOITA_NONE) {
    const bool king_attack = kings && goita__king_attack_ok(t->rules, t->kings_up, t->kings_b, t->size);
    const unsigned attacks = king_attack ? held : held & ~king_bit;
    unsigned blocks = held;
    if ((blocks & king_bit) && !goita__face_down_king_ok(t)) blocks &= ~king_bit;
    for (; blocks; blocks &= blocks - 1) {
      const int b = __builtin_ctz(blocks);
      /* the block's kind may also attack only when held twice */
      n = put_plays(out, n, seat, b, hand[b] >= 2 ? attacks : attacks & ~(blocks & -blocks));
    }
    return n;
  }
  out[n++] = (goita_move){GOITA_MOVE_PASS, seat, 0, 0};
  unsigned blocks = held & (1u << t->attack);
  if (t->attack >= GOITA_KNIGHT && t->attack <= GOITA_ROOK) blocks |= held & king_bit;
  for (; blocks; blocks &= blocks - 1) {
    const unsigned bit = blocks & -blocks;
    const int b = __builtin_ctz(blocks);
    const bool king_attack =
        kings && goita__king_attack_ok(t->rules, t->kings_up + (b == GOITA_KING), t->kings_b, t->size);
    const unsigned attacks = king_attack ? held : held & ~king_bit;
    n = put_plays(out, n, seat, b, hand[b] >= 2 ? attacks : attacks & ~bit);
  }
  return n;
}

static const char *king_attack_text(const goita_rules *r) {
  switch (r->king_attack) {
    case GOITA_KING_ATTACK_A_OR_LAST:
      return "only when a king is face-up or it is the last piece (king_attack=a_or_last)";
    case GOITA_KING_ATTACK_A_OR_B:
      return r->king_b == GOITA_KING_B_DEALT
                 ? "only when a king is face-up or the player was dealt both kings (king_attack=a_or_b)"
                 : "only when a king is face-up or the player holds both kings (king_attack=a_or_b)";
    default:
      return r->king_b == GOITA_KING_B_DEALT
                 ? "only when a king is face-up, the player was dealt both kings or it is the last piece"
                 : "only when a king is face-up, the player holds both kings or it is the last piece";
  }
}

int goita__check_move(const goita__turn *t, goita_move m, goita_error *err) {
  const int seat = SEAT_NAME(t->seat);
  const bool leading = t->attack == GOITA_NONE;
  if (m.type == GOITA_MOVE_PASS) {
    if (leading)
      return goita_error_set(err, GOITA_EILLEGAL, -1, "seat %d leads and cannot pass", seat);
    return GOITA_OK;
  }
  if (m.type != GOITA_MOVE_PLAY)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "no 5-pawn decision is pending");
  const int b = goita_mark_kind(m.block), a = goita_mark_kind(m.attack);
  if (b == GOITA_NONE || a == GOITA_NONE)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "a play needs two pieces written 1-9");
  if (t->hand[b] == 0)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "seat %d holds no %s", seat, goita_mark_kanji(m.block));
  if (t->hand[a] == 0)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "seat %d holds no %s", seat, goita_mark_kanji(m.attack));
  if (a == b && t->hand[a] < 2)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "seat %d holds only one %s", seat,
                           goita_mark_kanji(m.attack));
  int kings_up = t->kings_up;
  if (leading) {
    if (b == GOITA_KING && !goita__face_down_king_ok(t))
      return goita_error_set(err, GOITA_EILLEGAL, -1,
                             "a king may not be placed face-down (king_face_down=forbidden)");
  } else {
    if (!goita__can_block(b, t->attack)) {
      if (b == GOITA_KING)
        return goita_error_set(err, GOITA_EILLEGAL, -1, "a king cannot defend a lance or a pawn");
      return goita_error_set(err, GOITA_EILLEGAL, -1, "%s cannot answer an attack of %s",
                             goita_mark_kanji(m.block), goita_mark_kanji(t->attack));
    }
    kings_up += b == GOITA_KING;
  }
  if (a == GOITA_KING && !goita__king_attack_ok(t->rules, kings_up, t->kings_b, t->size))
    return goita_error_set(err, GOITA_EILLEGAL, -1, "a king may attack %s", king_attack_text(t->rules));
  return GOITA_OK;
}

/* ---- The round ---- */

static goita__turn turn_of(const goita_round *r) {
  const int s = r->turn;
  const int h = goita_rules_hand_size(&r->rules);
  const int dealt = (r->deal[s][h - 1] >= GOITA_MARK_OU) + (r->deal[s][h - 2] >= GOITA_MARK_OU);
  goita__turn t = {&r->rules, r->hand[s], r->held[s], r->size[s], r->attack, r->kings_up,
                   goita__kings_for_b(&r->rules, r->hand[s][GOITA_KING], dealt), s};
  return t;
}

int goita_round_legal_moves(const goita_round *r, goita_move *out) {
  if (r->phase == GOITA_PHASE_OVER) return 0;
  if (r->phase == GOITA_PHASE_DECIDE) {
    out[0] = goita_move_decide(r->turn, true);
    out[1] = goita_move_decide(r->turn, false);
    return 2;
  }
  const goita__turn t = turn_of(r);
  return goita__gen_moves(&t, out);
}

int goita_round_check(const goita_round *r, goita_move m, goita_error *err) {
  if (r->phase == GOITA_PHASE_OVER) return goita_error_set(err, GOITA_EOVER, -1, "the round is over");
  if (m.seat >= r->players)
    return goita_error_set(err, GOITA_EILLEGAL, -1, "there is no seat %d with %d players", SEAT_NAME(m.seat),
                           r->players);
  if (m.seat != r->turn)
    return goita_error_set(err, GOITA_ETURN, -1, "seat %d moved, but it is seat %d's turn",
                           SEAT_NAME(m.seat), SEAT_NAME(r->turn));
  if (r->phase == GOITA_PHASE_DECIDE) {
    if (m.type != GOITA_MOVE_REDEAL && m.type != GOITA_MOVE_GO)
      return goita_error_set(err, GOITA_EILLEGAL, -1,
                             "seat %d must first decide redeal or play (5 pawns)", SEAT_NAME(r->turn));
    return GOITA_OK;
  }
  const goita__turn t = turn_of(r);
  return goita__check_move(&t, m, err);
}

/* Takes one piece named by mark out of seat's hand and returns the physical mark taken
 * (for a king: the named one when held, else the other). */
static uint8_t take_piece(goita_round *r, int seat, int mark) {
  const int kind = MARK_KIND(mark);
  if (--r->hand[seat][kind] == 0) r->held[seat] &= (uint16_t)~(1u << kind);
  r->size[seat]--;
  if (kind != GOITA_KING) return (uint8_t)mark;
  unsigned want = mark == GOITA_MARK_GYOKU ? 2u : 1u;
  if (!(r->kings[seat] & want)) want ^= 3u;
  r->kings[seat] &= (uint8_t)~want;
  return want == 1u ? GOITA_MARK_OU : GOITA_MARK_GYOKU;
}

static void start_play(goita_round *r) {
  r->phase = GOITA_PHASE_PLAY;
  r->turn = r->dealer;
  r->attacker = r->dealer;
  r->attack = GOITA_NONE;
  r->passes = 0;
}

static void end_round(goita_round *r, goita_end end, int winner, int points) {
  r->phase = GOITA_PHASE_OVER;
  r->result.end = end;
  r->result.winner = (int8_t)winner;
  r->result.points = (int16_t)points;
}

/* The seat that decides for 5-pawn holder h now: its partner, or under
 * goshi_decision=holder_and_partner the holder first, and with 2 or 3 players the holder. */
static int asked_for(const goita_round *r, int h) {
  if (r->players != 4) return h;
  const int partner = (h + 2) % 4;
  if (r->rules.goshi_decision == GOITA_GOSHI_DECISION_HOLDER_AND_PARTNER && !((r->redeal_votes >> h) & 1))
    return h;
  return partner;
}

/* The decision so far for holder h (RULES.md 3.3): 1 redeal, 0 play, -1 not yet made. Under
 * holder_and_partner the holder's "play" settles it and its "redeal" waits for the partner. */
static int holder_decision(const goita_round *r, int h) {
  if (r->players == 4 && r->rules.goshi_decision == GOITA_GOSHI_DECISION_HOLDER_AND_PARTNER) {
    if ((r->go_votes >> h) & 1) return 0;
    if (!((r->redeal_votes >> h) & 1)) return -1;
  }
  const int seat = asked_for(r, h);
  if ((r->redeal_votes >> seat) & 1) return 1;
  if ((r->go_votes >> seat) & 1) return 0;
  return -1;
}

/* The place of holder h's side in the order of asking (RULES.md 3.4): how far from the dealer
 * sits the seat that speaks first for it (the partner, or under holder_and_partner the holder).
 * A side is asked to the end before the next one, so a team agrees within itself before the
 * other team speaks. */
static int side_order(const goita_round *r, int h) {
  int first = h;
  if (r->players == 4 && r->rules.goshi_decision == GOITA_GOSHI_DECISION_PARTNER) first = (h + 2) % 4;
  return (first - r->dealer + r->players) % r->players;
}

/* Works out who must decide next, or settles the deal once the decisions allow
 * (RULES.md 3.2-3.4). With several holders, a decision that already settles the outcome ends
 * the asking: redeal_if_both needs every holder's side to choose redeal, play_if_both every
 * one to choose play. Both holders on one team (double_goshi=redeal_or_play) are one team
 * deciding: a redeal needs both, whatever goshi_both_teams says of two teams. */
static void settle_decisions(goita_round *r) {
  bool any_go = false, any_redeal = false, all_made = true;
  uint8_t ask = 0;
  int next = -1;
  for (int h = 0; h < r->players; h++) {
    if (!((r->goshi >> h) & 1)) continue;
    const int d = holder_decision(r, h);
    any_go |= d == 0;
    any_redeal |= d == 1;
    if (d < 0) {
      all_made = false;
      ask |= (uint8_t)(1u << asked_for(r, h));
      if (next < 0 || side_order(r, h) < side_order(r, next)) next = h;
    }
  }
  const bool one_team = r->players == 4 && (r->goshi == 0x5 || r->goshi == 0xA);
  const bool redeal_needs_all = one_team || r->rules.goshi_both_teams == GOITA_GOSHI_REDEAL_IF_BOTH;
  const bool settled = all_made || (redeal_needs_all ? any_go : any_redeal);
  if (!settled) {
    r->phase = GOITA_PHASE_DECIDE;
    r->deciders = ask;
    r->turn = (int8_t)asked_for(r, next);
    return;
  }
  r->deciders = 0;
  if (redeal_needs_all ? !any_go : any_redeal)
    end_round(r, GOITA_END_REDEAL, -1, 0);
  else
    start_play(r);
}

/* Applies a 5-pawn decision. */
static void apply_decision(goita_round *r, goita_move m) {
  const uint8_t bit = (uint8_t)(1u << m.seat);
  if (m.type == GOITA_MOVE_REDEAL)
    r->redeal_votes |= bit;
  else
    r->go_votes |= bit;
  settle_decisions(r);
}

void goita_round_apply_unchecked(goita_round *r, goita_move m) {
  if (r->nlog < GOITA_MAX_LOG) r->log[r->nlog] = m;
  const int s = m.seat;
  if (m.type == GOITA_MOVE_PASS) {
    r->nlog++;
    r->turn = (int8_t)goita_next_seat(r, s);
    if (++r->passes == r->players - 1) {
      r->attack = GOITA_NONE; /* the turn is back with the attacker, who leads */
      r->passes = 0;
    }
    return;
  }
  if (m.type != GOITA_MOVE_PLAY) {
    r->nlog++;
    apply_decision(r, m);
    return;
  }
  const bool leading = r->attack == GOITA_NONE;
  const int i = r->plays[s];
  const uint8_t block = take_piece(r, s, m.block);
  const uint8_t attack = take_piece(r, s, m.attack);
  r->block_row[s][i] = block;
  r->attack_row[s][i] = attack;
  if (leading)
    r->face_down[s] |= (uint8_t)(1u << i);
  else if (block >= GOITA_MARK_OU)
    r->kings_up++;
  if (attack >= GOITA_MARK_OU) r->kings_up++;
  r->plays[s]++;
  if (r->nlog < GOITA_MAX_LOG) {
    r->log[r->nlog].block = block;
    r->log[r->nlog].attack = attack;
    if (leading) r->lead_log |= 1ull << r->nlog;
  }
  r->nlog++;
  const int a = MARK_KIND(attack);
  if (r->size[s] == 0) {
    const bool doubled = leading && MARK_KIND(block) == a;
    r->result.doubled = doubled;
    end_round(r, GOITA_END_FINISH, s, goita_kind_value(a) * (doubled ? 2 : 1));
    return;
  }
  r->attacker = (int8_t)s;
  r->attack = (uint8_t)a;
  r->passes = 0;
  r->turn = (int8_t)goita_next_seat(r, s);
}

int goita_round_apply(goita_round *r, goita_move m, goita_error *err) {
  int st = goita_round_check(r, m, err);
  if (st == GOITA_OK) goita_round_apply_unchecked(r, m);
  return st;
}

bool goita_move_equal(goita_move a, goita_move b) {
  if (a.type != b.type || a.seat != b.seat) return false;
  if (a.type != GOITA_MOVE_PLAY) return true;
  return goita_mark_kind(a.block) == goita_mark_kind(b.block) &&
         goita_mark_kind(a.attack) == goita_mark_kind(b.attack);
}

/* ---- Dealing ---- */

/* Teyaku points of a hand with 6 or more pawns (RULES.md 3.1): 8 pawns score 100, 7 twice
 * the highest other piece, 6 the highest other piece, doubled when two of its kind are held.
 * For 8-piece hands this is the pair / two-kinds rule; it also reads hands of 10 and 12. */
static int teyaku_points(const uint8_t *hand) {
  const int pawns = hand[GOITA_PAWN];
  if (pawns >= 8) return 100;
  int best = 0;
  bool pair = false;
  for (int k = GOITA_LANCE; k <= GOITA_KING; k++) {
    if (hand[k] == 0) continue;
    const int v = goita_kind_value(k);
    if (v > best) pair = false;
    if (v >= best) {
      best = v;
      pair |= hand[k] >= 2;
    }
  }
  if (pawns == 7) return 2 * best;
  return pair ? 2 * best : best;
}

/* Applies the deal rules of RULES.md 3 (and 8 for fewer players): teyaku, then 5 pawns. */
static void resolve_deal(goita_round *r) {
  start_play(r);
  const int n = r->players;
  if (r->rules.teyaku) {
    for (int i = 0; i < n; i++) {
      const int s = (r->dealer + i) % n;
      if (r->hand[s][GOITA_PAWN] >= 6) {
        end_round(r, GOITA_END_TEYAKU, s, teyaku_points(r->hand[s]));
        return;
      }
    }
  }
  if (!r->rules.goshi) return;
  int first = -1;
  for (int i = 0; i < n; i++) {
    const int s = (r->dealer + i) % n;
    if (r->hand[s][GOITA_PAWN] >= 5) {
      r->goshi |= (uint8_t)(1u << s);
      if (first < 0) first = s;
    }
  }
  if (!r->goshi) return;
  /* Both partners of one team (RULES.md 3.2); under redeal_or_play they decide as in 3.3. */
  if (n == 4 && (r->goshi == 0x5 || r->goshi == 0xA) && r->rules.double_goshi != GOITA_DOUBLE_GOSHI_DECIDE) {
    if (r->rules.double_goshi == GOITA_DOUBLE_GOSHI_WIN) {
      r->result.wins_game = true;
      end_round(r, GOITA_END_DOUBLE_GOSHI, first, 0);
    } else {
      end_round(r, GOITA_END_DOUBLE_GOSHI, first, r->rules.double_goshi_points);
    }
    return;
  }
  settle_decisions(r);
}

int goita__full_set(const goita_rules *rules, uint8_t *marks) {
  int n = 0;
  for (int k = GOITA_PAWN; k <= GOITA_ROOK; k++)
    for (int c = goita_rules_kind_total(rules, k); c > 0; c--) marks[n++] = (uint8_t)k;
  marks[n++] = GOITA_MARK_OU;
  marks[n++] = GOITA_MARK_GYOKU;
  return n;
}

static void begin(goita_round *r, const goita_rules *rules, int dealer) {
  memset(r, 0, sizeof *r);
  r->rules = *rules;
  r->players = (int8_t)rules->players;
  r->dealer = (int8_t)dealer;
  r->result.winner = -1;
}

/* Puts the hands (marks) in place and what the rules set aside (RULES.md 8) aside. The marks
 * must be valid. Each hand is stored ascending, counted per mark rather than sorted. */
static void put_hands(goita_round *r, const uint8_t hands[][GOITA_MAX_HAND]) {
  const int h = goita_rules_hand_size(&r->rules);
  int dealt[10] = {0};
  for (int s = 0; s < r->players; s++) {
    int count[10] = {0};
    for (int i = 0; i < h; i++) count[hands[s][i]]++;
    uint8_t *deal = r->deal[s];
    unsigned held = 0;
    for (int m = 1; m <= 9; m++) {
      dealt[m] += count[m];
      for (int c = 0; c < count[m]; c++) *deal++ = (uint8_t)m;
      const int kind = MARK_KIND(m);
      r->hand[s][kind] = (uint8_t)(r->hand[s][kind] + count[m]);
      if (count[m]) held |= 1u << kind;
    }
    r->held[s] = (uint16_t)held;
    r->kings[s] = (uint8_t)((count[GOITA_MARK_OU] ? 1 : 0) | (count[GOITA_MARK_GYOKU] ? 2 : 0));
    r->size[s] = (uint8_t)h;
  }
  const int aside = goita_rules_set_aside(&r->rules);
  int n = 0;
  for (int m = 1; m <= 9 && aside; m++) {
    const int total = m >= GOITA_MARK_OU ? 1 : goita_rules_kind_total(&r->rules, m);
    for (int c = dealt[m]; c < total && n < aside; c++) r->aside[n++] = (uint8_t)m;
  }
}

int goita_round_deal(goita_round *r, const goita_rules *rules, int dealer, uint64_t seed) {
  if (goita_rules_validate(rules, NULL) != GOITA_OK || dealer < 0 || dealer >= rules->players)
    return GOITA_EINVAL;
  begin(r, rules, dealer);
  uint8_t set[GOITA_PIECES];
  const int total = goita__full_set(rules, set);
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  goita_rng_shuffle(&rng, set, total);
  const int h = goita_rules_hand_size(rules);
  uint8_t hands[GOITA_MAX_SEATS][GOITA_MAX_HAND];
  for (int s = 0; s < rules->players; s++) memcpy(hands[s], set + s * h, (size_t)h);
  put_hands(r, (const uint8_t(*)[GOITA_MAX_HAND])hands);
  r->deal_seed = seed;
  resolve_deal(r);
  return GOITA_OK;
}

int goita_round_setup(goita_round *r, const goita_rules *rules, int dealer,
                      const uint8_t hands[][GOITA_MAX_HAND], goita_error *err) {
  int st = goita_rules_validate(rules, err);
  if (st != GOITA_OK) return st;
  if (dealer < 0 || dealer >= rules->players)
    return goita_error_set(err, GOITA_EDEAL, -1, "dealer seat %d is not a seat of %d players",
                           SEAT_NAME(dealer), rules->players);
  uint8_t left[10] = {0};
  for (int k = GOITA_PAWN; k <= GOITA_ROOK; k++) left[k] = (uint8_t)goita_rules_kind_total(rules, k);
  left[GOITA_MARK_OU] = left[GOITA_MARK_GYOKU] = 1;
  const int h = goita_rules_hand_size(rules);
  for (int s = 0; s < rules->players; s++)
    for (int i = 0; i < h; i++) {
      const uint8_t mark = hands[s][i];
      if (mark < 1 || mark > 9)
        return goita_error_set(err, GOITA_EDEAL, s, "seat %d: piece %d is not 1-9", SEAT_NAME(s), i + 1);
      if (left[mark] == 0)
        return goita_error_set(err, GOITA_EDEAL, s, "seat %d: one %s too many in the deal (the set has %d)",
                               SEAT_NAME(s), goita_mark_kanji(mark),
                               mark >= 8 ? 1 : goita_rules_kind_total(rules, mark));
      left[mark]--;
    }
  begin(r, rules, dealer);
  put_hands(r, hands);
  resolve_deal(r);
  return GOITA_OK;
}

/* Reading a history string written for one seat or an observer: the pieces it hides (x) are
 * filled in with a deal consistent with everything it shows, so that the round engine can
 * check every move and build the view. Any consistent deal gives the same view (the view
 * holds nothing hidden), so the choice of pieces does not matter, only that one exists. */
#include <stdio.h>
#include <string.h>

#include "hidden.h"
#include "internal.h"

typedef struct fill_state {
  const goita_rules *rules;
  int players, size, viewer;
  int total[10];                        /* pieces per mark in the set */
  int pool[10];                         /* pieces per mark nobody is known to hold */
  int known[GOITA_MAX_SEATS][10];       /* pieces per mark a hidden seat is known to hold */
  int given[GOITA_MAX_SEATS][10];       /* pieces per mark dealt to it by the fill */
  int room_open[GOITA_MAX_SEATS];       /* unknown pieces it never placed face-down */
  int room_down[GOITA_MAX_SEATS];       /* unknown pieces it placed face-down (x) */
  uint8_t down[GOITA_MAX_SEATS][GOITA_MAX_PLAYS]; /* the marks chosen for its x blocks */
  int ndown[GOITA_MAX_SEATS];
  int pawn_cap[GOITA_MAX_SEATS];        /* most pawns the hand can hold without announcing */
  bool needs_both_kings[GOITA_MAX_SEATS];
} fill_state;

static bool hidden_seat(const fill_state *f, int s) { return s != f->viewer && s < f->players; }

static int pieces(const int *counts) {
  int n = 0;
  for (int m = 1; m <= 9; m++) n += counts[m];
  return n;
}

/* Counts one piece the string shows seat s holding; a second 8 (or 9) names the other king, as
 * the engine reads it. Returns false when the set has no such piece left. */
static bool count_shown(fill_state *f, int s, int mark, int seen[10]) {
  if (mark >= GOITA_MARK_OU && seen[mark] > 0) mark = GOITA_MARK_OU + GOITA_MARK_GYOKU - mark;
  if (++seen[mark] <= f->known[s][mark]) return true;
  f->known[s][mark]++;
  return --f->pool[mark] >= 0;
}

/* Seats that attacked with a king when only "both kings in hand" (RULES.md 4 (b)) allowed it:
 * they must hold the other king too. Follows leads, plays and face-up kings from the moves. */
static void find_king_attacks(fill_state *f, const goita__history *h) {
  int passes = f->players - 1, kings_up = 0, plays[GOITA_MAX_SEATS] = {0};
  const bool last_counts = f->rules->king_attack != GOITA_KING_ATTACK_A_OR_B;
  for (int i = 0; i < h->nmoves; i++) {
    const goita_move m = h->moves[i];
    if (m.seat >= f->players) return; /* the engine reports it */
    if (m.type == GOITA_MOVE_PASS) {
      passes++;
      continue;
    }
    const bool lead = passes >= f->players - 1;
    const bool last = 2 * (plays[m.seat] + 1) >= f->size;
    const bool king_block = !lead && goita_mark_kind(m.block) == GOITA_KING;
    const int up = kings_up + king_block;
    if (goita_mark_kind(m.attack) == GOITA_KING && up == 0 && !(last && last_counts) && hidden_seat(f, m.seat))
      f->needs_both_kings[m.seat] = true;
    kings_up = up + (goita_mark_kind(m.attack) == GOITA_KING);
    plays[m.seat]++;
    passes = 0;
  }
}

/* Gives seat s one piece of mark (already taken from the pool), face-down (x) or never shown. */
static void give(fill_state *f, int s, int mark, bool face_down) {
  f->given[s][mark]++;
  if (face_down) {
    f->room_down[s]--;
    f->down[s][f->ndown[s]++] = (uint8_t)mark;
  } else {
    f->room_open[s]--;
  }
}

/* Chooses how many unseen kings and pawns each hidden seat from `seat` on gets (kings[],
 * pawns[]) so that all fit: kings in pieces never placed face-down (or any, when allowed),
 * the (b) king with its seat, pawns under each seat's allowance. What is left is set aside
 * when the rules set pieces aside (RULES.md 8). Returns whether a way exists. */
static bool split_constrained(const fill_state *f, int seat, int kings_left, int pawns_left, int *kings, int *pawns) {
  if (seat == f->players) return kings_left + pawns_left <= goita_rules_set_aside(f->rules);
  if (!hidden_seat(f, seat)) return split_constrained(f, seat + 1, kings_left, pawns_left, kings, pawns);
  const bool kings_down = f->rules->king_face_down == GOITA_KING_FACE_DOWN_ALLOWED;
  const int room = f->room_open[seat] + f->room_down[seat];
  int king_room = kings_down ? room : f->room_open[seat];
  if (king_room > kings_left) king_room = kings_left;
  int need = 0;
  for (int k = GOITA_MARK_OU; k <= GOITA_MARK_GYOKU && f->needs_both_kings[seat]; k++)
    need += f->known[seat][k] == 0 && f->pool[k] > 0;
  for (int k = king_room; k >= need; k--) {
    int pawn_room = f->pawn_cap[seat] - f->known[seat][GOITA_PAWN];
    if (pawn_room > room - k) pawn_room = room - k;
    if (pawn_room > pawns_left) pawn_room = pawns_left;
    if (pawn_room < 0) pawn_room = 0; /* a teyaku hand, written in full */
    for (int p = pawn_room; p >= 0; p--)
      if (split_constrained(f, seat + 1, kings_left - k, pawns_left - p, kings, pawns)) {
        kings[seat] = k;
        pawns[seat] = p;
        return true;
      }
  }
  return false;
}

static int fill_error(goita_error *err, const goita__token *t, const char *why) {
  return goita__token_error(err, GOITA_EILLEGAL, t, why);
}

int goita__complete_hidden(goita__history *h, const goita_rules *rules, int viewer, goita_error *err) {
  fill_state f;
  memset(&f, 0, sizeof f);
  f.rules = rules;
  f.players = h->players;
  f.size = goita_rules_hand_size(rules);
  f.viewer = viewer;
  for (int m = 1; m <= 9; m++) f.total[m] = f.pool[m] = m >= GOITA_MARK_OU ? 1 : goita_rules_kind_total(rules, m);
  char why[160];

  /* What each hand is known to hold: the viewer's hand, the digits of the others' hands. */
  for (int s = 0; s < f.players; s++) {
    const goita__token *t = &h->hand_token[s];
    for (int i = 0; i < f.size; i++) {
      const uint8_t mark = h->hands[s][i];
      if (mark == 0 && s == viewer) {
        snprintf(why, sizeof why, "the viewer's hand (seat %d) is written in full", SEAT_NAME(s));
        return goita__token_error(err, GOITA_EPARSE, t, why);
      }
      if (mark == 0) continue;
      f.known[s][mark]++;
      if (--f.pool[mark] < 0) {
        snprintf(why, sizeof why, "one %s too many (the set has %d)", goita_mark_kanji(mark), f.total[mark]);
        return goita__token_error(err, GOITA_EDEAL, t, why);
      }
    }
  }
  /* Pieces the other seats showed in play, beyond their written hands. */
  int seen[GOITA_MAX_SEATS][10] = {{0}}, plays[GOITA_MAX_SEATS] = {0};
  for (int i = 0; i < h->nmoves; i++) {
    const goita_move m = h->moves[i];
    const goita__token *t = &h->move_token[i];
    if (m.type != GOITA_MOVE_PLAY || m.seat >= f.players) continue;
    if (m.seat == viewer && m.block == 0) {
      snprintf(why, sizeof why, "seat %d is the viewer, whose face-down pieces are written in the open",
               SEAT_NAME(viewer));
      return goita__token_error(err, GOITA_EPARSE, t, why);
    }
    if (!hidden_seat(&f, m.seat) || ++plays[m.seat] > f.size / 2) continue; /* the engine reports it */
    if (m.block == 0)
      f.ndown[m.seat]++;
    else if (!count_shown(&f, m.seat, m.block, seen[m.seat]))
      return fill_error(err, t, "this piece is shown more times than the set has it");
    if (!count_shown(&f, m.seat, m.attack, seen[m.seat]))
      return fill_error(err, t, "this piece is shown more times than the set has it");
  }
  for (int s = 0; s < f.players; s++) {
    if (!hidden_seat(&f, s)) continue;
    /* Face-down blocks are pieces known to be in the hand but never shown in play (5 pawns
     * announced, say), or else unknown ones. */
    int blocks = f.ndown[s];
    f.ndown[s] = 0;
    for (int m = GOITA_PAWN; m <= GOITA_ROOK; m++)
      for (int c = f.known[s][m] - seen[s][m]; c > 0 && blocks > 0; c--, blocks--) f.down[s][f.ndown[s]++] = (uint8_t)m;
    f.room_down[s] = blocks;
    f.room_open[s] = f.size - pieces(f.known[s]) - blocks;
    if (f.room_open[s] < 0) {
      snprintf(why, sizeof why, "seat %d shows more pieces than a hand of %d holds", SEAT_NAME(s), f.size);
      return fill_error(err, &h->hand_token[s], why);
    }
    /* RULES.md 3: a hand with 5 pawns is announced, with 6-8 (teyaku) shown and scored. */
    const int pawns = f.known[s][GOITA_PAWN];
    if (pawns >= 6 && rules->teyaku && f.room_open[s] + f.room_down[s] > 0) {
      snprintf(why, sizeof why, "seat %d has teyaku (6 or more pawns), which is shown in full", SEAT_NAME(s));
      return goita__token_error(err, GOITA_EPARSE, &h->hand_token[s], why);
    }
    f.pawn_cap[s] = f.size;
    if (rules->goshi)
      f.pawn_cap[s] = pawns >= 5 ? (rules->teyaku ? 5 : f.size) : 4;
    else if (rules->teyaku)
      f.pawn_cap[s] = 5;
  }

  /* Kings and pawns are the pieces with constraints: an unseen king is in a hand but never
   * face-down (unless allowed), or set aside; a seat that attacked under (b) holds
   * the other king; no hand holds more pawns than it would have announced. A small search
   * settles how many of each every seat gets; the other pieces fill the rest. */
  find_king_attacks(&f, h);
  int kings[GOITA_MAX_SEATS] = {0}, pawns[GOITA_MAX_SEATS] = {0};
  const int unseen_kings = f.pool[GOITA_MARK_OU] + f.pool[GOITA_MARK_GYOKU];
  const bool pawn_rules = rules->goshi || rules->teyaku;
  const int unseen_pawns = pawn_rules ? f.pool[GOITA_PAWN] : 0;
  if (!split_constrained(&f, 0, unseen_kings, unseen_pawns, kings, pawns))
    return fill_error(err, &h->dealer_token,
                      unseen_pawns > 0
                          ? "the unseen pieces cannot be dealt: a king would be face-down or a hand would hold 5 "
                            "pawns, which it would have shown"
                          : "the unseen pieces cannot be dealt: a king would be face-down");
  for (int s = 0; s < f.players; s++) {
    if (!hidden_seat(&f, s)) continue;
    uint8_t marks[GOITA_MAX_HAND];
    int n = 0;
    for (int k = GOITA_MARK_OU; k <= GOITA_MARK_GYOKU; k++) /* the king a (b) attack needs first */
      if (n < kings[s] && f.needs_both_kings[s] && f.known[s][k] == 0 && f.pool[k] > 0) {
        marks[n++] = (uint8_t)k;
        f.pool[k]--;
      }
    for (int k = GOITA_MARK_OU; k <= GOITA_MARK_GYOKU; k++)
      for (; n < kings[s] && f.pool[k] > 0; f.pool[k]--) marks[n++] = (uint8_t)k;
    for (int c = 0; c < pawns[s]; c++) marks[n++] = GOITA_PAWN;
    f.pool[GOITA_PAWN] -= pawns[s];
    const int room = f.room_open[s] + f.room_down[s];
    /* under the pawn rules the unseen pawns are all dealt above; otherwise they fill like the rest */
    for (int m = pawn_rules ? GOITA_LANCE : GOITA_PAWN; m <= GOITA_ROOK; m++)
      for (; n < room && f.pool[m] > 0; f.pool[m]--) marks[n++] = (uint8_t)m;
    if (n != room) return fill_error(err, &h->dealer_token, "the unseen pieces cannot be dealt to the hidden hands");
    /* Face-down blocks take the pieces other than kings first (marks has the kings first), so
     * a king placed face-down comes last in down[]: it goes to the seat's last x block, and a
     * seat that attacked with a king under (b) held the other one until then. */
    for (int i = n - 1; i >= 0; i--) {
      const bool king = marks[i] >= GOITA_MARK_OU;
      give(&f, s, marks[i], f.room_down[s] > 0 && (!king || f.room_open[s] == 0));
    }
  }

  /* Write the filled hands and face-down blocks back. */
  for (int s = 0; s < f.players; s++) {
    if (!hidden_seat(&f, s)) continue;
    int n = 0;
    for (int m = 1; m <= 9; m++)
      for (int c = f.known[s][m] + f.given[s][m]; c > 0 && n < f.size; c--) h->hands[s][n++] = (uint8_t)m;
  }
  int next_down[GOITA_MAX_SEATS] = {0};
  for (int i = 0; i < h->nmoves; i++) {
    goita_move *m = &h->moves[i];
    if (m->type == GOITA_MOVE_PLAY && m->block == 0 && hidden_seat(&f, m->seat) && next_down[m->seat] < f.ndown[m->seat])
      m->block = f.down[m->seat][next_down[m->seat]++];
  }
  return GOITA_OK;
}

/* Reading a history string written for one seat or an observer: the pieces it hides (x) are
 * filled in with a deal consistent with everything it shows, so that the round engine can
 * check every move and build the view. Any consistent deal gives the same view (the view
 * holds nothing hidden), so the choice of pieces does not matter, only that one exists. */
#include <stdio.h>
#include <string.h>

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

/* Gives seat s one piece of mark from the pool, face-down (x) or never shown. */
static void give(fill_state *f, int s, int mark, bool face_down) {
  f->pool[mark]--;
  f->given[s][mark]++;
  if (face_down) {
    f->room_down[s]--;
    f->down[s][f->ndown[s]++] = (uint8_t)mark;
  } else {
    f->room_open[s]--;
  }
}

static int pawns_of(const fill_state *f, int s) { return f->known[s][GOITA_PAWN] + f->given[s][GOITA_PAWN]; }

/* The hidden seat with the most room of the kind asked (face-down or not) that may take one
 * more pawn, or -1. */
static int pawn_seat(const fill_state *f, bool face_down) {
  int best = -1, most = 0;
  for (int s = 0; s < f->players; s++) {
    if (!hidden_seat(f, s)) continue;
    const int room = face_down ? f->room_down[s] : f->room_open[s];
    if (room > most && pawns_of(f, s) < f->pawn_cap[s]) {
      best = s;
      most = room;
    }
  }
  return best;
}

/* Where an unseen king does least harm: a seat with room for a piece never placed face-down,
 * and the most room beyond what its pawn allowance may need, so that the pawns still fit. */
static int king_seat(const fill_state *f, bool face_down) {
  int best = -1, best_spare = 0, best_room = 0;
  for (int s = 0; s < f->players; s++) {
    if (!hidden_seat(f, s) || (face_down ? f->room_down[s] : f->room_open[s]) == 0) continue;
    const int room = f->room_open[s] + f->room_down[s];
    const int pawn_room = f->pawn_cap[s] - pawns_of(f, s);
    const int spare = room - (pawn_room > 0 ? pawn_room : 0);
    if (best < 0 || spare > best_spare || (spare == best_spare && room > best_room)) {
      best = s;
      best_spare = spare;
      best_room = room;
    }
  }
  return best;
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
    f.pawn_cap[s] = f.size;
    if (f.players == 4) {
      if (pawns >= 6 && rules->teyaku && f.room_open[s] + f.room_down[s] > 0) {
        snprintf(why, sizeof why, "seat %d has teyaku (6 or more pawns), which is shown in full", SEAT_NAME(s));
        return goita__token_error(err, GOITA_EPARSE, &h->hand_token[s], why);
      }
      f.pawn_cap[s] = pawns >= 5 ? (rules->teyaku ? 5 : f.size) : 4;
    }
  }

  /* Kings first: a seat that attacked under (b) holds the other king; every other unseen king
   * is in some hand but never face-down (unless allowed), or set aside with 2 players. */
  const bool kings_down = rules->king_face_down == GOITA_KING_FACE_DOWN_ALLOWED;
  find_king_attacks(&f, h);
  for (int s = 0; s < f.players; s++)
    for (int k = GOITA_MARK_OU; k <= GOITA_MARK_GYOKU && f.needs_both_kings[s]; k++)
      if (f.pool[k] > 0 && f.known[s][k] == 0) {
        if (f.room_open[s] > 0)
          give(&f, s, k, false);
        else if (kings_down && f.room_down[s] > 0)
          give(&f, s, k, true);
      }
  for (int k = GOITA_MARK_OU; k <= GOITA_MARK_GYOKU && f.players != 2; k++)
    while (f.pool[k] > 0) {
      int s = king_seat(&f, false);
      bool down = false;
      if (s < 0 && kings_down) down = (s = king_seat(&f, true)) >= 0;
      if (s < 0)
        return fill_error(err, &h->dealer_token,
                          "a king nobody has shown must be in a hand, but every unseen piece of the other hands "
                          "was placed face-down");
      give(&f, s, k, down);
    }
  /* Then pawns, keeping every hand under the count it would have announced. */
  while (f.players == 4 && f.pool[GOITA_PAWN] > 0) {
    int s = pawn_seat(&f, true);
    const bool down = s >= 0;
    if (s < 0) s = pawn_seat(&f, false);
    if (s < 0)
      return fill_error(err, &h->dealer_token,
                        "the unseen pawns cannot be dealt without some hand holding 5, which it would have shown");
    give(&f, s, GOITA_PAWN, down);
  }
  /* The rest anywhere; with 2 players what is left over is set aside. */
  for (int m = GOITA_PAWN; m <= GOITA_ROOK; m++)
    for (int s = 0; s < f.players; s++) {
      if (!hidden_seat(&f, s)) continue;
      while (f.pool[m] > 0 && f.room_down[s] > 0) give(&f, s, m, true);
      while (f.pool[m] > 0 && f.room_open[s] > 0) give(&f, s, m, false);
    }
  for (int s = 0; s < f.players; s++)
    if (hidden_seat(&f, s) && (f.room_open[s] || f.room_down[s]))
      return fill_error(err, &h->dealer_token, "the unseen pieces cannot be dealt to the hidden hands");

  /* Write the filled hands and face-down blocks back. */
  for (int s = 0; s < f.players; s++) {
    if (!hidden_seat(&f, s)) continue;
    int n = 0;
    for (int m = 1; m <= 9; m++)
      for (int c = f.known[s][m] + f.given[s][m]; c > 0 && n < f.size; c--) h->hands[s][n++] = (uint8_t)m;
  }
  /* Kings placed face-down go to the seat's last x blocks: a seat that attacked with a king
   * under (b) held the other one until then. */
  for (int s = 0; s < f.players; s++) {
    uint8_t sorted[GOITA_MAX_PLAYS];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < f.ndown[s]; i++)
        if ((goita_mark_kind(f.down[s][i]) == GOITA_KING) == (pass == 1)) sorted[n++] = f.down[s][i];
    memcpy(f.down[s], sorted, (size_t)n);
  }
  int next_down[GOITA_MAX_SEATS] = {0};
  for (int i = 0; i < h->nmoves; i++) {
    goita_move *m = &h->moves[i];
    if (m->type == GOITA_MOVE_PLAY && m->block == 0 && hidden_seat(&f, m->seat) && next_down[m->seat] < f.ndown[m->seat])
      m->block = f.down[m->seat][next_down[m->seat]++];
  }
  return GOITA_OK;
}

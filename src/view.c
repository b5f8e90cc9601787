/* Views: the part of a round one seat may know. */
#include <string.h>

#include "internal.h"

int goita_round_view(const goita_round *r, int seat, goita_view *v) {
  if (seat != GOITA_OBSERVER && (seat < 0 || seat >= r->players)) return GOITA_EINVAL;
  memset(v, 0, sizeof *v);
  v->rules = r->rules;
  v->seat = (int8_t)seat;
  v->players = r->players;
  v->dealer = r->dealer;
  v->turn = r->turn;
  v->attacker = r->attacker;
  v->phase = r->phase;
  v->attack = r->attack;
  v->passes = r->passes;
  v->kings_up = r->kings_up;
  if (seat != GOITA_OBSERVER) {
    memcpy(v->hand, r->hand[seat], sizeof v->hand);
    v->kings = r->kings[seat];
  }
  /* The finisher turns a face-down last block up: the doubling depends on it. */
  const bool finished = r->result.end == GOITA_END_FINISH && r->nlog > 0;
  const int finisher = finished ? r->result.winner : -1;
  for (int s = 0; s < r->players; s++) {
    v->size[s] = r->size[s];
    v->plays[s] = r->plays[s];
    v->face_down[s] = r->face_down[s];
    for (int i = 0; i < r->plays[s]; i++) {
      const bool last = s == finisher && i == r->plays[s] - 1;
      const bool hidden = (r->face_down[s] & (1u << i)) && s != seat && !last;
      v->block_row[s][i] = hidden ? 0 : r->block_row[s][i];
      v->attack_row[s][i] = r->attack_row[s][i];
    }
  }
  v->goshi = r->goshi;
  v->deciders = r->deciders;
  v->redeal_votes = r->redeal_votes;
  v->go_votes = r->go_votes;
  v->nlog = r->nlog;
  for (int i = 0; i < r->nlog && i < GOITA_MAX_LOG; i++) {
    v->log[i] = r->log[i];
    const bool last = finished && i == r->nlog - 1;
    if ((r->lead_log & (1ull << i)) && r->log[i].seat != seat && !last) v->log[i].block = 0;
  }
  v->result = r->result;
  if (r->result.end == GOITA_END_TEYAKU) memcpy(v->teyaku_hand, r->deal[r->result.winner], sizeof v->teyaku_hand);
  return GOITA_OK;
}

int goita_view_legal_moves(const goita_view *v, goita_move *out) {
  if (v->phase == GOITA_PHASE_OVER || v->seat != v->turn) return 0;
  if (v->phase == GOITA_PHASE_DECIDE) {
    out[0] = goita_move_decide(v->seat, true);
    out[1] = goita_move_decide(v->seat, false);
    return 2;
  }
  unsigned held = 0;
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
    if (v->hand[k]) held |= 1u << k;
  /* The viewer sees its own rows whole, so it knows the kings it was dealt. */
  int dealt = v->hand[GOITA_KING];
  for (int i = 0; i < v->plays[v->seat]; i++)
    dealt += (v->block_row[v->seat][i] >= GOITA_MARK_OU) + (v->attack_row[v->seat][i] >= GOITA_MARK_OU);
  const goita__turn t = {&v->rules, v->hand, held, v->size[v->seat], v->attack, v->kings_up,
                         goita__kings_for_b(&v->rules, v->hand[GOITA_KING], dealt), v->seat};
  return goita__gen_moves(&t, out);
}

/* A game of rounds to the target, with dealer succession (RULES.md 5-7). */
#include <string.h>

#include "internal.h"

/* Adds the finished round's points and decides whether the game is over. */
static void score_round(goita_game *g) {
  const goita_round_result *res = &g->round.result;
  if (res->end == GOITA_END_REDEAL || res->winner < 0) return;
  const int side = goita_rules_side_of(&g->rules, res->winner);
  if (res->wins_game) {
    if (g->score[side] < g->rules.target) g->score[side] = (int16_t)g->rules.target;
  } else {
    g->score[side] = (int16_t)(g->score[side] + res->points);
  }
  if (g->score[side] >= g->rules.target) {
    g->over = true;
    g->winner_side = (int8_t)side;
  }
}

static void deal(goita_game *g, int dealer) {
  memcpy(g->score_before, g->score, sizeof g->score);
  const uint64_t seed = goita_rng_next(&g->rng);
  goita_round_deal(&g->round, &g->rules, dealer, seed);
  g->round_index++;
  if (goita_round_over(&g->round)) score_round(g);
}

int goita_game_start(goita_game *g, const goita_rules *rules, uint64_t seed, goita_error *err) {
  int st = goita_rules_validate(rules, err);
  if (st != GOITA_OK) return st;
  memset(g, 0, sizeof *g);
  g->rules = *rules;
  g->seed = seed;
  g->winner_side = -1;
  goita_rng_seed(&g->rng, seed);
  st = goita_draw_run(rules->draw, rules->players, &g->rng, &g->draw);
  if (st != GOITA_OK) return goita_error_set(err, st, -1, "the draw for the first dealer failed");
  deal(g, g->draw.dealer);
  return GOITA_OK;
}

int goita_game_apply(goita_game *g, goita_move m, goita_error *err) {
  if (g->over) return goita_error_set(err, GOITA_EOVER, -1, "the game is over");
  const int st = goita_round_apply(&g->round, m, err);
  if (st == GOITA_OK && goita_round_over(&g->round)) score_round(g);
  return st;
}

int goita_game_next_dealer(const goita_game *g) {
  const goita_round *r = &g->round;
  if (r->result.end == GOITA_END_REDEAL || r->result.winner < 0) return r->dealer;
  if (g->rules.next_dealer == GOITA_NEXT_DEALER_ROTATE) return goita_next_seat(r, r->dealer);
  return r->result.winner;
}

int goita_game_next_round(goita_game *g, goita_error *err) {
  if (g->over) return goita_error_set(err, GOITA_EOVER, -1, "the game is over");
  if (!goita_round_over(&g->round))
    return goita_error_set(err, GOITA_ESTATE, -1, "the current round is not over");
  deal(g, goita_game_next_dealer(g));
  return GOITA_OK;
}

int goita_game_set_deal(goita_game *g, int dealer, const uint8_t hands[][GOITA_MAX_HAND], goita_error *err) {
  if (g->round.nlog != 0)
    return goita_error_set(err, GOITA_ESTATE, -1, "hands can only be set before the round's first move");
  if (dealer != g->round.dealer && g->round_index != 1)
    return goita_error_set(err, GOITA_EDEAL, -1, "seat %d deals this round, not seat %d",
                           SEAT_NAME(g->round.dealer), SEAT_NAME(dealer));
  goita_round r;
  const int st = goita_round_setup(&r, &g->rules, dealer, hands, err);
  if (st != GOITA_OK) return st;
  /* Undo what the replaced deal scored (a teyaku or double 5 pawns). */
  memcpy(g->score, g->score_before, sizeof g->score);
  g->over = false;
  g->winner_side = -1;
  g->round = r;
  if (goita_round_over(&g->round)) score_round(g);
  return GOITA_OK;
}

int goita_game_view(const goita_game *g, int seat, goita_view *v) {
  const int st = goita_round_view(&g->round, seat, v);
  if (st != GOITA_OK) return st;
  memcpy(v->score, g->score, sizeof v->score);
  v->round_index = g->round_index;
  return GOITA_OK;
}

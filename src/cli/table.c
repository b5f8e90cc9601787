/* Printing rounds for people, shared by watch and replay: hands, moves, results, scores. */
#include "cli.h"

void cli_print_side(const goita_rules *rules, int side) {
  if (rules->players == 4)
    printf("team %d-%d", side + 1, side + 3);
  else
    printf("seat %d", side + 1);
}

void cli_print_hand(const goita_round *r, int seat, bool ascii) {
  const int h = goita_rules_hand_size(&r->rules);
  printf("  seat %d: ", seat + 1);
  for (int i = 0; i < h; i++) printf("%s", cli_mark(r->deal[seat][i], ascii));
  printf("  (");
  for (int i = 0; i < h; i++) printf("%d", r->deal[seat][i]);
  printf(")%s\n", (r->goshi >> seat) & 1 ? "  five pawns, shown" : "");
}

/* A 5-pawn decision, log entry i, says who speaks: the holder (who proposes under
 * goshi_decision=holder_and_partner, or decides alone with 3 or 2 players) or the holder's
 * partner, who agrees to a redeal the holder asked for or decides alone (RULES.md 3.3). */
static void print_decision(const goita_round *r, int i) {
  const goita_move m = r->log[i];
  const bool redeal = m.type == GOITA_MOVE_REDEAL;
  if ((r->goshi >> m.seat) & 1) {
    printf("(holds 5 pawns) %s\n", redeal ? "asks for a redeal" : "chooses to play");
    return;
  }
  const int holder = (m.seat + 2) % 4;
  const bool asked = i > 0 && r->log[i - 1].seat == holder && r->log[i - 1].type == GOITA_MOVE_REDEAL;
  printf("(partner of a 5-pawn hand) %s\n", redeal ? (asked ? "agrees to a redeal" : "asks for a redeal")
                                                    : "chooses to play");
}

void cli_print_move(const goita_round *r, int i, int number, bool ascii) {
  const goita_move m = r->log[i];
  const bool lead = r->lead_log >> i & 1;
  char tok[8];
  goita_move_format(m, tok, sizeof tok);
  printf("  %3d. %-4s seat %d ", number, tok, m.seat + 1);
  switch (m.type) {
    case GOITA_MOVE_PASS: printf("passes\n"); return;
    case GOITA_MOVE_REDEAL:
    case GOITA_MOVE_GO: print_decision(r, i); return;
  }
  /* pieces as people name them: kanji (or the ASCII letter) and the English name */
  printf(lead ? "leads %s %s face-down, attacks %s %s\n" : "defends with %s %s, attacks %s %s\n",
         cli_mark(m.block, ascii), goita_mark_english(m.block), cli_mark(m.attack, ascii),
         goita_mark_english(m.attack));
}

void cli_print_result(const goita_round *r) {
  const goita_round_result *res = &r->result;
  printf("  -> ");
  switch (res->end) {
    case GOITA_END_FINISH:
      printf("seat %d goes out; ", res->winner + 1);
      break;
    case GOITA_END_TEYAKU:
      printf("teyaku: seat %d holds %d pawns; ", res->winner + 1, r->hand[res->winner][GOITA_PAWN]);
      break;
    case GOITA_END_DOUBLE_GOSHI:
      printf("5 pawns in both partners' hands (seat %d and partner); ", res->winner + 1);
      break;
    case GOITA_END_REDEAL:
      printf("redeal: nothing scored, seat %d deals again\n", r->dealer + 1);
      return;
    default:
      printf("the round is not over\n");
      return;
  }
  cli_print_side(&r->rules, goita_rules_side_of(&r->rules, res->winner));
  if (res->wins_game)
    printf(" wins the game at once\n");
  else
    printf(" scores %d%s\n", goita_rules_shown_points(&r->rules, res->points), res->doubled ? " (doubled)" : "");
}

void cli_print_scores(const goita_rules *rules, const int16_t *score) {
  for (int side = 0; side < goita_rules_sides(rules); side++) {
    printf(side ? ", " : " ");
    cli_print_side(rules, side);
    printf(" %d", goita_rules_shown_points(rules, score[side]));
  }
  printf("\n");
}

void cli_print_round(const goita_round *r, bool ascii) {
  for (int s = 0; s < r->players; s++) cli_print_hand(r, s, ascii);
  for (int i = 0; i < r->nlog; i++) cli_print_move(r, i, i + 1, ascii);
  cli_print_result(r);
}

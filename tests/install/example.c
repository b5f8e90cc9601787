/* A program written against an installed libgoita: deals a round, plays it out with the
 * computer player "rules", solves the first position and writes the game as a JSON record.
 * Prints one line the install test checks. */
#include <goita/goita.h>
#include <stdio.h>
#include <stdlib.h>

/* Says which step failed and why. */
static int fail(const char *step, const goita_error *err) {
  fprintf(stderr, "example: %s failed: %s\n", step, err ? err->message : "");
  return 1;
}

int main(void) {
  goita_rules rules;
  goita_error err;
  if (goita_rules_parse(&rules, "preset=french,target=5", &err) != GOITA_OK) return fail("rules", &err);
  goita_game game;
  if (goita_game_start(&game, &rules, 7, &err) != GOITA_OK) return fail("game", &err);
  goita_solver *solver = NULL;
  goita_player *player = NULL;
  if (goita_solver_new(&solver, 1 << 20) != GOITA_OK) return fail("solver", NULL);
  if (goita_player_new(&player, "rules", &err) != GOITA_OK) return fail("player", &err);
  goita_solve_result solved;
  goita_solve(solver, &game.round, NULL, &solved);
  goita_record record;
  goita_record_init(&record, &game);
  int moves = 0;
  while (!game.over) {
    goita_view view;
    goita_game_view(&game, game.round.turn, &view);
    goita_move move;
    if (goita_player_choose(player, &view, &move, NULL) != GOITA_OK) return fail("choose", NULL);
    if (goita_game_apply(&game, move, &err) != GOITA_OK) return fail("move", &err);
    moves++;
    if (!goita_round_over(&game.round)) continue;
    if (goita_record_add_round(&record, &game, "2026-11-24T00:00:00Z", "2026-11-24T00:01:00Z", &err) != GOITA_OK)
      return fail("record", &err);
    if (!game.over && goita_game_next_round(&game, &err) != GOITA_OK) return fail("next round", &err);
  }
  char *json = NULL;
  if (goita_record_write_json(&record, &json, &err) != GOITA_OK) return fail("writing", &err);
  printf("goita %s: %d moves, first value %d, record %s\n", goita_version(), moves, solved.value.lower,
         json[0] == '{' ? "written" : "broken");
  free(json);
  goita_record_free(&record);
  goita_player_free(player);
  goita_solver_free(solver);
  return 0;
}

/* Career statistics of a finished game (game_stats.h): each round replayed from its deal, and
 * the exact solver asked for the value of every legal move wherever its player had a choice. */
#include <stdlib.h>
#include <string.h>

#include "game_stats.h"

void srv_game_job_free(srv_game_job *job) {
  if (!job) return;
  free(job->rounds);
  job->rounds = NULL;
  job->nrounds = 0;
}

/* The loss of the move about to be played at round's position: the value of the best move less
 * that of the one played, both from the mover's side, with every hand known. Returns it, or -1
 * when the budget left either value unproven (then the move is not counted). */
static int move_loss(goita_solver *solver, const goita_round *round, goita_move played, uint64_t max_nodes) {
  goita_solve_options o;
  goita_solve_options_default(&o);
  o.all_moves = 1;
  o.max_nodes = max_nodes;
  goita_solve_result r;
  if (goita_solve(solver, round, &o, &r) != GOITA_OK || !r.complete) return -1;
  const goita_solve_bounds best = r.value;
  for (int i = 0; i < r.nmoves; i++) {
    if (!goita_move_equal(r.moves[i], played)) continue;
    const goita_solve_bounds mine = r.move_value[i];
    if (best.lower != best.upper || mine.lower != mine.upper) return -1;
    return best.lower - mine.lower;
  }
  return -1; /* (the record's move is legal: replaying it checks so) */
}

/* Replays one round from its deal, adding each seat's choices and their losses to out. Returns
 * 0, or -1 when a move of the record is refused or *stop is set. */
static int analyse_round(const srv_game_job *job, const goita_round *played, goita_solver *solver, uint64_t max_nodes,
                         const atomic_bool *stop, srv_game_stats *out) {
  goita_round r;
  goita_error err;
  if (goita_round_setup(&r, &job->rules, played->dealer, played->deal, &err) != GOITA_OK) return -1;
  goita_move legal[GOITA_MAX_LEGAL];
  for (int i = 0; i < played->nlog; i++) {
    const goita_move m = played->log[i];
    /* a choice in play: a 5-pawn decision is a question of the deal, not of play */
    if (stop && atomic_load(stop)) return -1;
    if (r.phase == GOITA_PHASE_PLAY && goita_round_legal_moves(&r, legal) >= 2) {
      const int loss = move_loss(solver, &r, m, max_nodes);
      if (loss < 0) {
        out->unsolved++;
      } else {
        out->seats[m.seat].moves++;
        out->seats[m.seat].lost += loss;
      }
    }
    if (goita_round_apply(&r, m, &err) != GOITA_OK) return -1;
  }
  return 0;
}

int srv_game_analyse(const srv_game_job *job, goita_solver *solver, uint64_t max_nodes, const atomic_bool *stop,
                     srv_game_stats *out) {
  memset(out, 0, sizeof *out);
  out->game = job->game;
  out->listed = job->listed;
  out->nplayers = job->nplayers;
  memcpy(out->players, job->players, sizeof out->players);
  for (int i = 0; i < job->nrounds; i++) {
    const goita_record_round *round = &job->rounds[i];
    for (int s = 0; s < job->nplayers; s++) {
      const int side = goita_rules_side_of(&job->rules, s); /* scores are kept per side */
      out->seats[s].rounds++;
      out->seats[s].points += round->score_after[side] - round->score_before[side];
    }
    if (analyse_round(job, &round->round, solver, max_nodes, stop, out) != 0) return -1;
  }
  return 0;
}

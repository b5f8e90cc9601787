/* Self-play games for fitting the evaluation: see selfplay.h. */
#include "selfplay.h"

#include <stdlib.h>

/* splitmix64: the opening's random choices, one stream per seed. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A move's kind for the opening: a pawn step (0), another quiet move (1) or a capture (2). */
static int opening_kind(const ks_position *pos, const ks_move *m) {
  if (m->ncap || m->nshot) return 2;
  return ks_face_of(pos->board[m->from]) == KS_P ? 0 : 1;
}

/* A random pawn step (a random quiet move when no pawn can step, any move when nothing is
 * quiet), as the referee's openings are. Returns -1 with no legal move or no memory. */
static int opening_move(const ks_position *pos, uint64_t *rng, ks_move *out) {
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(pos, &moves);
  if (n <= 0) {
    free(moves);
    return -1;
  }
  int count[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) count[opening_kind(pos, &moves[i])]++;
  const int kind = count[0] ? 0 : count[1] ? 1 : 2;
  int pick = (int)(next_random(rng) % (uint64_t)count[kind]);
  for (int i = 0; i < n; i++)
    if (opening_kind(pos, &moves[i]) == kind && pick-- == 0) *out = moves[i];
  free(moves);
  return 0;
}

int ks__selfplay(const ks__selfplay_options *opt, uint64_t seed, ks__quiet_fn quiet, void *ctx, int *plies) {
  ks_searcher *sides[2] = {ks_searcher_new(opt->hash_mib), ks_searcher_new(opt->hash_mib)};
  ks_game game;
  if (!sides[0] || !sides[1] || ks_game_init(&game) != 0) {
    ks_searcher_free(sides[0]);
    ks_searcher_free(sides[1]);
    return -1;
  }
  uint64_t rng = seed;
  int result = KS_NO_CONTEST, run = 0, run_side = -1;
  const ks_limits limits = {0, opt->nodes};
  while (game.result == KS_ONGOING && game.nplies < opt->limit) {
    ks_move move;
    if (game.nplies < opt->opening) {
      if (opening_move(&game.pos, &rng, &move) != 0) break;
    } else {
      ks_search_info info;
      ks_searcher *s = sides[game.pos.to_move];
      ks_searcher_set_deadline(s, -1, -1);
      if (ks_searcher_run(s, &game.pos, game.keys, game.nplies + 1, &limits, NULL, NULL, &move, &info) != 0) break;
      if (game.nplies >= opt->skip && !move.ncap && !move.nshot && quiet) quiet(ctx, &game.pos, game.nplies);
      /* adjudication: the side both searches favour by at least opt->adjudicate, plies running */
      if (opt->adjudicate) {
        const int favoured = info.score >= opt->adjudicate    ? game.pos.to_move
                             : info.score <= -opt->adjudicate ? game.pos.to_move ^ 1
                                                              : -1;
        run = favoured < 0 ? 0 : favoured == run_side ? run + 1 : 1;
        run_side = favoured;
        if (run >= 4) {
          result = favoured == KS_BLACK ? KS_BLACK_WINS : KS_WHITE_WINS;
          break;
        }
      }
    }
    if (ks_game_play(&game, &move) != 0) break;
  }
  if (game.result != KS_ONGOING) result = game.result;
  *plies = game.nplies;
  ks_game_free(&game);
  ks_searcher_free(sides[0]);
  ks_searcher_free(sides[1]);
  return result;
}

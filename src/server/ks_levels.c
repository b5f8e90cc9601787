/* The computer's strengths at a Ko shogi table as node budgets (ks_levels.h). */
#include "ks_levels.h"

#include <string.h>

static const srv_ks_level levels[] = {
#define SRV_KS_LEVEL_ROW(name, nodes) {name, nodes},
    SRV_KS_LEVELS(SRV_KS_LEVEL_ROW)
#undef SRV_KS_LEVEL_ROW
};

const srv_ks_level *srv_ks_levels(int *count) {
  *count = (int)(sizeof levels / sizeof levels[0]);
  return levels;
}

const srv_ks_level *srv_ks_level_find(const char *name) {
  for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
    if (strcmp(levels[i].name, name) == 0) return &levels[i];
  return NULL;
}

int srv_ks_think(ks_searcher *searcher, const ks_game *game, const srv_ks_level *level, char move[KS_MOVE_TEXT],
                 ks_search_info *info) {
  ks_searcher_clear(searcher);
  ks_searcher_set_stop(searcher, false);
  ks_searcher_set_deadline(searcher, -1, SRV_KS_THINK_MAX_MS);
  ks_limits limits = {.depth = 0, .nodes = level->nodes};
  ks_search_info found;
  ks_move best;
  /* keys[0 .. nplies - 1] are the positions before this one: returning to one is a draw */
  if (ks_searcher_run(searcher, &game->pos, game->keys, game->nplies, &limits, NULL, NULL, &best, &found) != 0)
    return -1;
  if (info) *info = found;
  return ks_move_format(&game->pos, &best, move, KS_MOVE_TEXT) > 0 ? 0 : -1;
}

int srv_ks_think_record(ks_searcher *searcher, const char *record, const srv_ks_level *level, char move[KS_MOVE_TEXT]) {
  ks_game game;
  char err[256];
  const int read = ks_record_read(&game, record, NULL, NULL, err, sizeof err);
  const int chosen = read == 0 ? srv_ks_think(searcher, &game, level, move, NULL) : -1;
  ks_game_free(&game);
  return chosen;
}

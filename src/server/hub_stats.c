/* Career statistics (hub_stats.h): the hub's side of srv_game_analyse, which runs elsewhere. */
#include <stdlib.h>
#include <string.h>

#include "hub_players.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_stats.h"

/* The newest games a stats reply lists: enough for the chart of how a player's play changes. */
#define STATS_ROWS 50

void hub_stats_analyse(srv_hub *h, const hub_table *t, const srv_game_row *game) {
  if (!h->io.analyse || game->ended[0] || t->record.nrounds == 0) return;
  srv_game_job job;
  memset(&job, 0, sizeof job);
  job.rounds = malloc((size_t)t->record.nrounds * sizeof *job.rounds);
  if (!job.rounds) return;
  memcpy(job.rounds, t->record.rounds, (size_t)t->record.nrounds * sizeof *job.rounds);
  job.nrounds = t->record.nrounds;
  job.game = game->id;
  job.listed = t->invite[0] == '\0';
  job.nplayers = game->nplayers;
  memcpy(job.players, game->players, sizeof job.players);
  job.rules = t->rules;
  h->io.analyse(h->io.ctx, &job);
}

void srv_hub_game_analysed(srv_hub *h, const srv_game_stats *stats) {
  if (srv_store_game_stats_save(h->store, stats) != 0)
    hub_log(h, "the statistics of game %lld were not saved: %s", (long long)stats->game, srv_store_error(h->store));
}

void hub_do_stats(srv_hub *h, hub_client *c, const srv_request *r) {
  srv_player p;
  if (srv_store_player_get(h->store, r->player, &p) != 0) {
    hub_send_error(h, c->id, "stats", SRV_ERR_PLAYER_UNKNOWN, "no player %lld", (long long)r->player);
    return;
  }
  srv_career career;
  srv_stats_row rows[STATS_ROWS];
  int n = 0;
  /* a private table's games count only for their own player's eyes */
  const bool own = c->player != 0 && c->player == r->player;
  if (srv_store_player_stats(h->store, r->player, own, &career, rows, STATS_ROWS, &n) != 0) {
    hub_send_error_retry(h, c->id, "stats", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return;
  }
  json_t *recent = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(recent, json_pack("{s:I, s:s, s:i, s:i, s:i, s:i}", "game", (json_int_t)rows[i].game, "time",
                                            rows[i].finished, "rounds", rows[i].stats.rounds, "points",
                                            rows[i].stats.points, "moves", rows[i].stats.moves, "lost",
                                            rows[i].stats.lost));
  hub_send_json(h, c->id,
                json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:o}", "type", "stats", "player", hub_player_json(&p),
                          "games", (json_int_t)career.games, "rounds", (json_int_t)career.rounds, "points",
                          (json_int_t)career.points, "moves", (json_int_t)career.moves, "lost",
                          (json_int_t)career.lost, "recent", recent));
}

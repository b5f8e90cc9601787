/* The Ko shogi leaderboard (docs/SERVER.md "Ko shogi tables"): Goita's leaderboard (hub_players.c)
 * by Ko shogi's own ratings, kept apart from hub_ks.c's tables as it reads only the store. */
#include "hub_players.h"
#include "hub_requests.h"
#include "hub_send.h"

/* As many rows as Goita's leaderboard. */
#define KS_LEADERBOARD_ROWS 50

void hub_do_ks_leaderboard(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  srv_player rows[KS_LEADERBOARD_ROWS];
  int n = 0;
  if (srv_store_ks_leaderboard(h->store, rows, KS_LEADERBOARD_ROWS, &n) != 0) {
    hub_send_error_retry(h, c->id, "ks_leaderboard", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(list, hub_player_json(&rows[i]));
  hub_send_json(h, c->id, json_pack("{s:s, s:o}", "type", "ks_leaderboard", "players", list));
}

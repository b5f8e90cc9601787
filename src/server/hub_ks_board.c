/* The Ko shogi leaderboard and rating history (docs/SERVER.md "Ko shogi tables"): Goita's
 * (hub_players.c) by Ko shogi's own ratings, kept apart from hub_ks.c's tables as they read only
 * the store. */
#include "hub_players.h"
#include "hub_requests.h"

void hub_do_ks_leaderboard(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  hub_send_leaderboard(h, c, "ks_leaderboard", srv_store_ks_leaderboard);
}

void hub_do_ks_history(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_send_history(h, c, r, "ks_history", srv_store_ks_rating_history);
}

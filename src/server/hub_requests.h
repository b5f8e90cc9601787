/* The request handlers: one per row of the request table (requests.h), wherever its part keeps
 * it; hub.c dispatches to them. */
#ifndef GOITA_SERVER_HUB_REQUESTS_H
#define GOITA_SERVER_HUB_REQUESTS_H

#include "hub_state.h"

void hub_do_list(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_hello(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_register(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_login(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leaderboard(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_history(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leave(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_bot(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_games(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_join(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_quick(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_quick_cancel(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_ping(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_rematch(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_chat(srv_hub *h, hub_client *c, const srv_request *r);

/* Bot accounts (hub_bot_accounts.c, docs/SERVER.md "Bots"). */
void hub_do_bot_create(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_bots(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_bot_token(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_bot_revoke(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_bot_leaderboard(srv_hub *h, hub_client *c, const srv_request *r);

/* Career statistics (hub_stats.c, docs/SERVER.md "Career statistics"). */
void hub_do_stats(srv_hub *h, hub_client *c, const srv_request *r);

/* Duplicate matches (hub_match.c, docs/SERVER.md "Duplicate matches"). */
void hub_do_match_create(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_match(srv_hub *h, hub_client *c, const srv_request *r);

/* Challenges to bots (hub_challenge.c, docs/SERVER.md "Bots"). */
void hub_do_challenge(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_challenge_decline(srv_hub *h, hub_client *c, const srv_request *r);

/* Ko shogi tables (hub_ks.c, docs/SERVER.md "Ko shogi"). */
void hub_do_ks_create(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_sit(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_watch(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_join(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_move(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_resign(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_draw(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_rematch(srv_hub *h, hub_client *c, const srv_request *r);
/* The Ko shogi leaderboard (hub_ks_board.c). */
void hub_do_ks_leaderboard(srv_hub *h, hub_client *c, const srv_request *r);
void hub_do_ks_history(srv_hub *h, hub_client *c, const srv_request *r);

#endif

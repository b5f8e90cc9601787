/* Bot accounts (docs/SERVER.md "Bots"): a registered person makes accounts for programs, each
 * named and marked as a bot, and known by an API token shown once and stored only as its hash
 * among the player tokens. A bot says hello with its token as its player_token and then plays
 * through the same requests as a person. Its owner may replace the token or revoke it; either
 * also ends the bot's connections here at once, so a leaked token stops working. */
#include <stdio.h>
#include <string.h>

#include "hub_players.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"
#include "names.h"
#include "secret.h"

/* How many bot accounts one person may own: enough for a few versions of a program side by
 * side, few enough that names are not hoarded. */
#define BOTS_PER_OWNER 5

static void storage_failed(srv_hub *h, hub_client *c, const char *request) {
  hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
}

/* Whether the client is a person with a claimed name (bots and guests own no bots); false after
 * sending the request an error. */
static bool registered_person(srv_hub *h, hub_client *c, const char *request) {
  srv_player p;
  if (srv_store_player_get(h->store, c->player, &p) != 0) {
    storage_failed(h, c, request);
    return false;
  }
  if (!p.registered || p.bot_account) {
    hub_send_error(h, c->id, request, SRV_ERR_NOT_REGISTERED,
                   p.bot_account ? "a bot account cannot own bots" : "claim a name (register) before you make bots");
    return false;
  }
  return true;
}

void hub_do_bot_create(srv_hub *h, hub_client *c, const srv_request *r) {
  if (!registered_person(h, c, "bot_create")) return;
  srv_player owned[BOTS_PER_OWNER];
  int n = 0;
  if (srv_store_bot_accounts(h->store, c->player, owned, BOTS_PER_OWNER, &n) != 0) {
    storage_failed(h, c, "bot_create");
    return;
  }
  if (n >= BOTS_PER_OWNER) {
    hub_send_error(h, c->id, "bot_create", SRV_ERR_TOO_MANY_BOTS,
                   "you own %d bot accounts, the most a person may: reuse one (bot_token gives it a new token)",
                   BOTS_PER_OWNER);
    return;
  }
  char name[SRV_NAME_SIZE], account[SRV_NAME_KEY_SIZE];
  hub_trim_name(r->name, name);
  if (!name[0]) {
    hub_send_error(h, c->id, "bot_create", SRV_ERR_BAD_REQUEST, "field \"name\": a bot needs a name");
    return;
  }
  if (!hub_name_allowed(h, c, "bot_create", name, 0) || srv_name_key(name, account) != 0) return;
  char token[SRV_TOKEN_SIZE], hash[SRV_TOKEN_HASH_SIZE];
  hub_new_token(h, token);
  srv_token_hash(token, hash);
  srv_player bot;
  if (srv_store_bot_account_create(h->store, c->player, name, account, hash, &bot) != 0) {
    storage_failed(h, c, "bot_create");
    return;
  }
  hub_send_json(h, c->id, json_pack("{s:s, s:o, s:s}", "type", "bot_created", "bot", hub_player_json(&bot), "token", token));
  srv_secret_wipe(token, sizeof token);
}

void hub_do_bots(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  srv_player rows[BOTS_PER_OWNER];
  int n = 0;
  if (srv_store_bot_accounts(h->store, c->player, rows, BOTS_PER_OWNER, &n) != 0) {
    storage_failed(h, c, "bots");
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(list, hub_player_json(&rows[i]));
  hub_send_json(h, c->id, json_pack("{s:s, s:o}", "type", "bots", "bots", list));
}

/* Ends what the bot's connections here may do: they leave their tables (as a closed connection
 * would: the seat waits for its grace period) and must say hello again with a valid token. */
static void cut_off(srv_hub *h, int64_t bot) {
  for (int i = 0; i < h->nclients; i++) {
    hub_client *c = &h->clients[i];
    if (c->player != bot || c->node[0]) continue;
    hub_detach(h, c);
    c->player = 0;
    c->bot_account = false;
    c->guest[0] = '\0';
    c->name[0] = '\0';
    hub_send_error(h, c->id, NULL, SRV_ERR_BOT_REVOKED, "this bot's token was revoked or replaced by its owner");
  }
}

/* Replaces (token: a new one) or revokes (NULL) an owned bot's tokens and answers. */
static void set_token(srv_hub *h, hub_client *c, const char *request, int64_t bot, const char *token) {
  char hash[SRV_TOKEN_HASH_SIZE];
  if (token) srv_token_hash(token, hash);
  bool found = false;
  if (srv_store_bot_account_token(h->store, c->player, bot, token ? hash : NULL, &found) != 0) {
    storage_failed(h, c, request);
    return;
  }
  if (!found) {
    hub_send_error(h, c->id, request, SRV_ERR_BOT_UNKNOWN, "you own no bot account %lld", (long long)bot);
    return;
  }
  cut_off(h, bot);
  json_t *msg = json_pack("{s:s, s:I}", "type", token ? "bot_token" : "bot_revoked", "bot", (json_int_t)bot);
  if (msg && token) json_object_set_new(msg, "token", json_string(token));
  hub_send_json(h, c->id, msg);
}

void hub_do_bot_token(srv_hub *h, hub_client *c, const srv_request *r) {
  if (!registered_person(h, c, "bot_token")) return;
  char token[SRV_TOKEN_SIZE];
  hub_new_token(h, token);
  set_token(h, c, "bot_token", r->player, token);
  srv_secret_wipe(token, sizeof token);
}

void hub_do_bot_revoke(srv_hub *h, hub_client *c, const srv_request *r) {
  if (!registered_person(h, c, "bot_revoke")) return;
  set_token(h, c, "bot_revoke", r->player, NULL);
}

void hub_do_bot_leaderboard(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  hub_send_leaderboard(h, c, "bot_leaderboard", srv_store_bot_leaderboard);
}

/* Challenges (docs/SERVER.md "Bots"), as chess servers let people challenge bots: a person asks
 * a bot connected here to play; the server makes a private table with the challenger in its
 * first seat and sends the bot a `challenge` event naming the table and a free seat. The bot
 * accepts by sitting there (it may: the table is open to it) or declines, and the challenger
 * is told. */
#include <string.h>

#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"

/* A connection of the bot here that sits at no table, or NULL. */
static hub_client *free_bot(srv_hub *h, int64_t bot) {
  for (int i = 0; i < h->nclients; i++)
    if (h->clients[i].player == bot && h->clients[i].bot_account && !h->clients[i].node[0] && !h->clients[i].table)
      return &h->clients[i];
  return NULL;
}

void hub_do_challenge(srv_hub *h, hub_client *c, const srv_request *r) {
  if (r->player == c->player) {
    hub_send_error(h, c->id, "challenge", SRV_ERR_BOT_BUSY, "a bot does not challenge itself");
    return;
  }
  hub_client *bot = free_bot(h, r->player);
  if (!bot) {
    hub_send_error(h, c->id, "challenge", SRV_ERR_BOT_BUSY,
                   "no bot %lld is connected here and free: it plays elsewhere, or is not a bot", (long long)r->player);
    return;
  }
  hub_failure why;
  hub_table *t = hub_table_create(h, c->player, r->rules, r->turn_seconds, true, &why);
  if (!t) {
    hub_send_failure(h, c->id, "challenge", &why);
    return;
  }
  char token[SRV_TOKEN_SIZE];
  hub_seat_person(h, &t->seats[0], c, token);
  if (hub_table_save(h, t) != 0) {
    memset(&t->seats[0], 0, sizeof t->seats[0]);
    hub_send_error_retry(h, c->id, "challenge", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return;
  }
  c->invited = t->id;
  bot->invited = t->id; /* the table is open to the bot, as to one given its invite code */
  hub_send_json(h, c->id, json_pack("{s:s, s:I, s:s, s:I}", "type", "challenge_sent", "table", (json_int_t)t->id,
                                    "invite", t->invite, "bot", (json_int_t)r->player));
  hub_take_seat(h, c, t, 0, token);
  hub_send_json(h, bot->id, json_pack("{s:s, s:I, s:s, s:I, s:s, s:i, s:i}", "type", "challenge", "table",
                                      (json_int_t)t->id, "from", c->name, "from_player", (json_int_t)c->player, "rules",
                                      t->rules_text, "turn_seconds", t->turn_seconds, "seat", 1));
}

void hub_do_challenge_decline(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t || !c->bot_account || c->invited != r->table || t->status != SRV_WAITING || c->table == r->table) {
    hub_send_error(h, c->id, "challenge_decline", SRV_ERR_NOT_CHALLENGED, "no challenge to you waits at table %lld",
                   (long long)r->table);
    return;
  }
  c->invited = 0;
  hub_send_json(h, c->id, json_pack("{s:s, s:I}", "type", "challenge_declined", "table", (json_int_t)t->id));
  const hub_seat *challenger = &t->seats[0];
  if (challenger->client)
    hub_send_json(h, challenger->client, json_pack("{s:s, s:I, s:s}", "type", "challenge_declined", "table",
                                                   (json_int_t)t->id, "bot", c->name));
}

/* The server's game logic (hub.h). Every state change is saved before it is applied and
 * announced, so a restarted server finds exactly what its clients last saw. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hub_bus.h"
#include "hub_lifecycle.h"
#include "hub_ks.h"
#include "hub_limits.h"
#include "hub_lobby.h"
#include "hub_map.h"
#include "hub_match.h"
#include "hub_own.h"
#include "hub_players.h"
#include "hub_quick.h"
#include "hub_rematch.h"
#include "hub_requests.h"
#include "hub_route.h"
#include "hub_send.h"
#include "hub_table.h"
#include "hub_view.h"
#include "secret.h"

/* A computer player's answer takes well under a second; one missing for this long is lost. */
#define THINK_GIVE_UP_MS 60000

void srv_hub_options_default(srv_hub_options *o) {
  memset(o, 0, sizeof *o); /* a server alone: no lease, no name */
  o->round_pause_ms = 4000;
  o->stand_in = "rules";
  o->max_tables = 10000;
  o->max_tables_per_player = 3;
  o->player_rate_per_second = 5;
  o->player_rate_burst = 20;
  o->waiting_table_expiry_ms = 5 * 60 * 1000;
  o->seat_grace_ms = 60 * 1000;
  o->chat_burst = 5;
  o->chat_interval_ms = 2000;
  o->rematch_wait_ms = 30000;
}

void hub_log(srv_hub *h, const char *fmt, ...) {
  if (!h->io.log) return;
  char text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  h->io.log(h->io.ctx, text);
}

void hub_new_token(srv_hub *h, char token[SRV_TOKEN_SIZE]) {
  uint8_t bytes[(SRV_TOKEN_SIZE - 1) / 2];
  h->io.random(h->io.ctx, bytes, sizeof bytes);
  for (size_t i = 0; i < sizeof bytes; i++) snprintf(token + 2 * i, 3, "%02x", bytes[i]);
}

void hub_utc_now(char out[GOITA_RECORD_TIME_SIZE]) {
  const time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, GOITA_RECORD_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

hub_client *hub_client_get(srv_hub *h, uint64_t id) {
  uint64_t at;
  return hub_map_get(&h->client_index, id, &at) ? &h->clients[at] : NULL;
}

hub_table *hub_table_get(srv_hub *h, int64_t id) {
  uint64_t ptr;
  hub_table *t = hub_map_get(&h->table_index, (uint64_t)id, &ptr) ? (hub_table *)(uintptr_t)ptr : NULL;
  return t && !t->lost ? t : NULL; /* a lost table is another server's: requests go there */
}

void srv_hub_free(srv_hub *h) {
  if (!h) return;
  for (int i = 0; i < h->ntables; i++) hub_table_free(h->tables[i]);
  hub_ks_free(h);
  hub_matches_free(h);
  for (size_t i = 0; i < h->player_index.cap; i++)
    if (h->player_index.entries[i].used) free((hub_player *)(uintptr_t)h->player_index.entries[i].value);
  hub_map_free(&h->table_index);
  hub_map_free(&h->client_index);
  hub_map_free(&h->seat_index);
  hub_map_free(&h->invite_index);
  hub_map_free(&h->player_index);
  hub_login_guards_prune(h, true);
  srv_throttle_free(h->address_tries);
  free(h->lobby_dirty);
  free(h->lobby_removed);
  free(h->tables);
  hub_quick_free(h);
  hub_bus_free(h);
  free(h->clients);
  free(h);
}

int srv_hub_connect(srv_hub *h, uint64_t id) {
  if (h->nclients == h->capclients) {
    const int cap = h->capclients ? 2 * h->capclients : 64;
    hub_client *grown = realloc(h->clients, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    h->clients = grown;
    h->capclients = cap;
  }
  if (hub_map_put(&h->client_index, id, (uint64_t)h->nclients) != 0) return -1;
  h->clients[h->nclients++] = (hub_client){.id = id, .seat = -1};
  return 0;
}

void srv_hub_disconnect(srv_hub *h, uint64_t id) {
  hub_client *c = hub_client_get(h, id);
  if (!c) return;
  hub_route_client_gone(h, c);
  hub_detach(h, c);
  hub_ks_client_gone(h, c);
  hub_quick_forget(h, id);
  hub_map_del(&h->client_index, id);
  const int at = (int)(c - h->clients);
  *c = h->clients[--h->nclients];
  if (at < h->nclients) hub_map_put(&h->client_index, c->id, (uint64_t)at); /* an existing key: no memory needed */
}

void hub_do_ping(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  hub_send_json(h, c->id, json_pack("{s:s}", "type", "pong"));
}

/* The cost, player and handler columns of the request table (requests.h). */
typedef struct request_rule {
  int cost;
  bool needs_player;
  void (*handle)(srv_hub *h, hub_client *c, const srv_request *r);
} request_rule;

#define REQUEST_RULE(id, name, cost, player, enters, route, handler, fields) {cost, player, handler},
static const request_rule request_rules[SRV_REQUEST_COUNT] = {SRV_REQUESTS(REQUEST_RULE)};
#undef REQUEST_RULE

void srv_hub_receive(srv_hub *h, uint64_t id, const char *text, size_t len) {
  hub_client *c = hub_client_get(h, id);
  if (!c) return;
  /* The caller's buffer may go with the first send (hub.h), and a request forwarded over the bus
   * is sent on after the client was answered (a guest's player row): the hub reads its own copy.
   * A longer text is refused by the parser before anything is sent. */
  char own[SRV_MAX_REQUEST + 1];
  if (len <= SRV_MAX_REQUEST) {
    memcpy(own, text, len);
    own[len] = '\0';
    text = own;
  }
  srv_request r;
  char err[256];
  const int parsed = srv_request_parse(text, len, &r, err, sizeof err);
  if (parsed != 0) {
    srv_secret_wipe(r.password, sizeof r.password);
    if (parsed == SRV_PARSE_NOMEM)
      hub_send_error_retry(h, id, NULL, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    else
      hub_send_error(h, id, srv_request_name(r.type), SRV_ERR_BAD_REQUEST, "%s", err);
    return;
  }
  const request_rule *rule = &request_rules[r.type];
  const char *name = srv_request_name(r.type);
  /* The bucket first, so a refused flood makes no player rows; then a guest's row is made on
   * its first request that needs one. */
  if (rule->cost && !hub_rate_take(h, c, name)) return;
  if (rule->needs_player && !hub_client_player(h, c, name)) return;
  if (hub_route_elsewhere(h, c, &r, text, len)) { /* a table of another server: it answers */
    srv_secret_wipe(r.token, sizeof r.token);
    return;
  }
  rule->handle(h, c, &r);
  srv_secret_wipe(r.password, sizeof r.password);
  hub_drop_lost(h); /* a write of this request may have found its table lost */
}

void srv_hub_bot_move(srv_hub *h, int64_t table, int version, goita_move move) {
  hub_table *t = hub_table_get(h, table);
  if (!t || t->version != version || t->thinking_version != version) return; /* late: the game moved on */
  t->thinking_version = -1;
  hub_failure why;
  if (hub_table_move(h, t, move, &why, 0) != 0) hub_table_bot_retry(h, t);
  hub_drop_lost(h);
}

void srv_hub_game_saved(srv_hub *h, const srv_game_write *g) {
  hub_table *t = hub_table_get(h, g->game.table);
  if (!t || !t->saving || t->epoch != g->game.epoch || t->status != SRV_PLAYING) return; /* the table was let go */
  hub_table_game_saved(h, t, g->status, g->error, &g->game, true);
  hub_drop_lost(h);
}

void srv_hub_move_saved(srv_hub *h, const srv_move_write *w) {
  hub_table *t = hub_table_get(h, w->table);
  if (!t || !t->saving || t->version != w->seq || t->epoch != w->epoch) return; /* the table was let go */
  hub_table_move_saved(h, t, w->status, w->error);
  hub_drop_lost(h);
}

/* A finished table nobody sits at or watches any more is dropped from memory (its game is
 * saved). */
static bool unattended(const hub_table *t) {
  if (t->status != SRV_OVER || t->nwatchers) return false;
  for (int s = 0; s < GOITA_MAX_SEATS; s++)
    if (t->seats[s].client) return false;
  return true;
}

void srv_hub_tick(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  /* first: a server that was paused or cut off learns which tables are still its own before
   * anything it holds acts (a timer, an abandon) */
  hub_lease_tick(h, now);
  hub_quick_tick(h);
  hub_rematch_tick(h);
  hub_match_tick(h); /* before the loop below lets a finished match table go */
  for (int i = 0; i < h->ntables; i++) {
    hub_table *t = h->tables[i];
    if (t->lost) continue;
    hub_lifecycle_tick(h, t, now);
    if (unattended(t)) {
      hub_table_remove(h, i--);
      continue;
    }
    if (t->status != SRV_PLAYING) continue;
    if (t->saving) continue; /* the move or game being saved decides what comes next */
    if (t->save_retry_ms && now >= t->save_retry_ms) {
      hub_finish_game(h, t);
      if (t->status == SRV_OVER) hub_broadcast_state(h, t);
    } else if (t->next_round_ms && now >= t->next_round_ms) {
      hub_deal_next(h, t, true);
      hub_arm_timer(h, t);
      hub_broadcast_state(h, t);
      hub_schedule(h, t, false);
    } else if (t->thinking_version == t->version && now - t->think_asked_ms > THINK_GIVE_UP_MS) {
      t->thinking_version = -1; /* no answer came: ask again */
      hub_schedule(h, t, !t->seats[t->game.round.turn].bot[0]);
    } else if (t->deadline_ms && now >= t->deadline_ms && t->thinking_version != t->version) {
      hub_turn_timed_out(h, t);
    }
  }
  hub_drop_lost(h);
  hub_ks_tick(h, now);
  hub_bus_tick(h, now);
  hub_lobby_flush(h);
  if (now >= h->prune_ms) {
    hub_players_prune(h);
    hub_login_guards_prune(h, false);
    h->prune_ms = now + 60000;
  }
}

long srv_hub_moves(const srv_hub *h) { return h->moves; }

void srv_hub_stats_get(const srv_hub *h, srv_hub_stats *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < h->nclients; i++) {
    if (h->clients[i].node[0])
      s->remote_clients++;
    else
      s->clients++;
  }
  s->moves = h->moves;
  s->tables = h->open_tables;
  for (int i = 0; i < h->ntables; i++) s->playing += h->tables[i]->status == SRV_PLAYING;
}

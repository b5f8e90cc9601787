/* The routing seam (docs/SERVER.md "Several servers"): which server serves a request, by the
 * ROUTE column of the request table (requests.h), and this server's clients at other servers'
 * tables: their requests sent there, their seats found again after a takeover or an outage, and
 * the requests not answered in time. How the message travels is the bus's (hub_bus.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_ks.h"
#include "hub_map.h"
#include "hub_quick.h"
#include "hub_requests.h"
#include "hub_route.h"
#include "hub_send.h"
#include "hub_table.h"
#include "secret.h"

/* A request sent to another server is answered (any message from there to its client) within
 * this long, or the client is told it was not. */
#define FORWARD_ANSWER_MS 5000

/* When a client is told to try again after the bus was unreachable ("in a moment"). */
#define BUS_RETRY_MS 1000

/* Clears where a client's table requests go, wiping its seat token. */
void hub_route_via_clear(hub_client *c) {
  c->via[0] = '\0';
  c->via_table = 0;
  srv_secret_wipe(c->via_token, sizeof c->via_token);
  c->via_invite[0] = '\0';
}

/* Sends a request of a client here to the server that owns its table. */
static int send_request(srv_hub *h, const hub_client *c, const char *node, const char *text, size_t len) {
  char id[24];
  snprintf(id, sizeof id, "%" PRIu64, c->id);
  return hub_bus_publish(h, node, json_pack("{s:s, s:s, s:s, s:I, s:s, s:s%}", "kind", "request", "node",
                                            h->options.node, "client", id, "player", (json_int_t)c->player, "name",
                                            c->name, "text", text, len));
}

/* Tells a server (that of the client's table when node is NULL) that the client is gone from there. */
void hub_route_close(srv_hub *h, const hub_client *c, const char *node) {
  char id[24];
  snprintf(id, sizeof id, "%" PRIu64, c->id);
  hub_bus_publish(h, node ? node : c->via,
                  json_pack("{s:s, s:s, s:s}", "kind", "close", "node", h->options.node, "client", id));
}

/* Tells the server of the client's table that the client is gone from there. */
static void send_close(srv_hub *h, const hub_client *c) { hub_route_close(h, c, NULL); }

void hub_route_client_gone(srv_hub *h, const hub_client *c) {
  if (hub_bus_on(h) && c->via[0]) send_close(h, c);
}

static void send_again(srv_hub *h, hub_client *c, const char *node);

/* The route and enters columns of the request table (requests.h). */
typedef struct route_rule {
  srv_route route;
  bool enters; /* takes its client to a table (from the one it was at) */
} route_rule;

#define ROUTE_RULE(id, name, cost, player, enters, route, handler, fields) {SRV_ROUTE_##route, enters},
static const route_rule route_rules[SRV_REQUEST_COUNT] = {SRV_REQUESTS(ROUTE_RULE)};
#undef ROUTE_RULE

static bool entering(int type) { return route_rules[type].enters; }

/* A client going to a table of this server leaves the other server's table it was at. */
static bool stay_here(srv_hub *h, hub_client *c, const srv_request *r) {
  if (entering(r->type) && c->via[0]) {
    send_close(h, c);
    hub_route_via_clear(c);
  }
  return false;
}

/* Where a request naming a table goes: the table's number, or its key in the store. Returns
 * false when it is none of the bus's business (a table of this server, or no table named). */
static bool request_key(srv_hub *h, hub_client *c, const srv_request *r, int *kind, char key[SRV_TOKEN_HASH_SIZE]) {
  uint64_t id;
  switch (route_rules[r->type].route) {
  case SRV_ROUTE_TABLE:
    if (hub_table_get(h, r->table) || hub_ks_holds(h, r->table)) {
      /* taken over by this server since: the client gets its seat here first */
      if (c->via[0] && c->via_table == r->table) send_again(h, c, h->options.node);
      return stay_here(h, c, r);
    }
    *kind = SRV_KEY_ID;
    snprintf(key, SRV_TOKEN_HASH_SIZE, "%lld", (long long)r->table);
    return true;
  case SRV_ROUTE_AT:
    return c->via[0] && !c->table;
  case SRV_ROUTE_SEAT_TOKEN:
    srv_token_hash(r->token, key);
    *kind = SRV_KEY_SEAT_TOKEN;
    return !hub_map_get(&h->seat_index, hub_token_key(key), &id) || stay_here(h, c, r);
  case SRV_ROUTE_INVITE:
    *kind = SRV_KEY_INVITE;
    snprintf(key, SRV_TOKEN_HASH_SIZE, "%s", r->invite);
    return (!hub_map_get(&h->invite_index, hub_token_key(r->invite), &id) && !hub_ks_invite_here(h, r->invite)) ||
           stay_here(h, c, r);
  default:
    return false;
  }
}

/* The server that owns the table a request names, and the table: the one the client is at
 * already when it names that, else the store's answer. Returns false after an error reply, or
 * with node "" when the table is this server's or no open table has the key. */
static bool find_owner(srv_hub *h, hub_client *c, const srv_request *r, int kind, const char *key,
                       char node[SRV_NODE_SIZE], int64_t *table) {
  node[0] = '\0';
  if (c->via[0] && (route_rules[r->type].route == SRV_ROUTE_AT || (kind == SRV_KEY_ID && r->table == c->via_table))) {
    snprintf(node, SRV_NODE_SIZE, "%s", c->via);
    *table = c->via_table;
    return true;
  }
  bool found = false;
  if (srv_store_table_owner(h->store, kind, key, table, node, &found) != 0) {
    hub_send_error_retry(h, c->id, srv_request_name(r->type), SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return false;
  }
  if (!found || strcmp(node, h->options.node) == 0) node[0] = '\0';
  return true;
}

/* Sends quick and quick_cancel to the matchmaker, unless it is this server. A client queued
 * there is "at" that server with no table yet (via_table 0) until its `seated` comes back. */
static bool forward_quick(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len) {
  const bool cancel = r->type == SRV_QUICK_CANCEL;
  const char *node = cancel && c->via[0] && c->via_table == 0 ? c->via : hub_bus_matchmaker(h);
  if (strcmp(node, h->options.node) == 0) return false;
  if (!h->bus_up || send_request(h, c, node, text, len) != 0) {
    hub_send_error_retry(h, c->id, cancel ? "quick_cancel" : "quick", SRV_ERR_SERVER_UNAVAILABLE, BUS_RETRY_MS,
                         "the quick-match queue is kept by server %s, and the servers' message bus is unreachable: try "
                         "again in a moment",
                         node);
    return true;
  }
  if (!cancel) {
    hub_quick_forget(h, c->id); /* a place it had in this server's queue moves there */
    if (c->via[0] && strcmp(c->via, node) != 0) send_close(h, c);
    hub_route_via_clear(c);
    snprintf(c->via, sizeof c->via, "%s", node);
  }
  return true;
}

bool hub_route_elsewhere(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len) {
  int kind = SRV_KEY_ID;
  char key[SRV_TOKEN_HASH_SIZE] = "", node[SRV_NODE_SIZE];
  int64_t table = 0;
  if (!hub_bus_on(h) || c->node[0]) return false;
  if (route_rules[r->type].route == SRV_ROUTE_MATCHMAKER) return forward_quick(h, c, r, text, len);
  if (!request_key(h, c, r, &kind, key)) return false;
  if (!find_owner(h, c, r, kind, key, node, &table)) return true;
  if (!node[0]) return stay_here(h, c, r); /* this server's, or none: answered here */
  const char *name = srv_request_name(r->type);
  if (!hub_bus_peer_alive(h, node)) {
    hub_send_error_retry(h, c->id, name, SRV_ERR_SERVER_UNAVAILABLE, hub_bus_dead_after_ms(h) + 1000,
                         "table %lld is served by server %s, which is not answering: another server takes its tables "
                         "over within %d s; try again then",
                         (long long)table, node, (int)(hub_bus_dead_after_ms(h) / 1000) + 1);
    return true;
  }
  if (!h->bus_up || send_request(h, c, node, text, len) != 0) {
    hub_send_error_retry(h, c->id, name, SRV_ERR_SERVER_UNAVAILABLE, BUS_RETRY_MS,
                         "table %lld is served by server %s, and the servers' message bus is unreachable: try again in "
                         "a moment",
                         (long long)table, node);
    return true;
  }
  if (c->via[0] && strcmp(c->via, node) != 0) send_close(h, c);
  if (c->table && entering(r->type)) hub_detach(h, c); /* it goes to the other server's table */
  if (!c->via_deadline_ms) c->via_deadline_ms = h->io.now_ms(h->io.ctx) + FORWARD_ANSWER_MS;
  c->via_request = name;
  if (strcmp(c->via, node) != 0 || c->via_table != table) hub_route_via_clear(c);
  snprintf(c->via, sizeof c->via, "%s", node);
  c->via_table = table;
  if (r->type == SRV_RESUME) snprintf(c->via_token, sizeof c->via_token, "%s", r->token);
  if (r->type == SRV_JOIN) snprintf(c->via_invite, sizeof c->via_invite, "%s", r->invite);
  if (r->type == SRV_WATCH || r->type == SRV_JOIN) srv_secret_wipe(c->via_token, sizeof c->via_token);
  return true;
}

/* Sends a client here to the table it was at, now at server node (this one, or another): by its
 * seat token, its invite, or as a spectator; at a Ko shogi table, by watching it (a seat there
 * is the player's, found again by watching). */
static void send_again(srv_hub *h, hub_client *c, const char *node) {
  srv_request r;
  memset(&r, 0, sizeof r);
  char text[128];
  if (c->via_table >= SRV_KS_TABLE_BASE) {
    r.type = SRV_KS_WATCH;
    r.table = c->via_table;
    snprintf(text, sizeof text, "{\"type\":\"ks_watch\",\"table\":%lld}", (long long)c->via_table);
  } else if (c->via_token[0]) {
    r.type = SRV_RESUME;
    snprintf(r.token, sizeof r.token, "%s", c->via_token);
    snprintf(text, sizeof text, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", c->via_token);
  } else if (c->via_invite[0]) {
    r.type = SRV_JOIN;
    snprintf(r.invite, sizeof r.invite, "%s", c->via_invite);
    snprintf(text, sizeof text, "{\"type\":\"join\",\"invite\":\"%s\"}", c->via_invite);
  } else {
    r.type = SRV_WATCH;
    r.table = c->via_table;
    snprintf(text, sizeof text, "{\"type\":\"watch\",\"table\":%lld}", (long long)c->via_table);
  }
  if (strcmp(node, h->options.node) != 0) {
    if (strcmp(c->via, node) != 0) send_close(h, c);
    snprintf(c->via, sizeof c->via, "%s", node);
    send_request(h, c, node, text, strlen(text)); /* lost if the bus went: sent again when it is back */
    return;
  }
  hub_route_via_clear(c); /* the table is here now */
  if (r.type == SRV_KS_WATCH)
    hub_do_ks_watch(h, c, &r);
  else if (r.type == SRV_RESUME)
    hub_do_resume(h, c, &r);
  else if (r.type == SRV_JOIN)
    hub_do_join(h, c, &r);
  else
    hub_do_watch(h, c, &r);
  srv_secret_wipe(r.token, sizeof r.token);
}

/* Looks up where the table of each client here at another server's table is now, and sends it
 * there again: those at server `all` (heard again after the bus was away), or those whose server
 * is dead (all NULL). */
void hub_route_rehome(srv_hub *h, const char *all) {
  for (int i = 0; i < h->nclients; i++) {
    hub_client *c = &h->clients[i];
    if (!c->via[0] || (all ? strcmp(c->via, all) != 0 : hub_bus_peer_alive(h, c->via))) continue;
    if (c->via_table == 0) { /* waiting in the quick-match queue of a server now dead, or cut off by the bus */
      if (all) send_close(h, c); /* what it missed is unknown: its place there goes, and the client asks again */
      hub_send_error(
          h, c->id, "quick", SRV_ERR_QUEUE_LOST,
          all ? "the servers' message bus was away, so your place in the quick-match queue (kept by server "
                "%s) was given up: ask for a quick match again"
              : "server %s, which kept the quick-match queue, stopped answering: ask for a quick match again",
          c->via);
      hub_route_via_clear(c);
      continue;
    }
    char key[24], node[SRV_NODE_SIZE] = "";
    snprintf(key, sizeof key, "%lld", (long long)c->via_table);
    int64_t table = 0;
    bool found = false;
    if (srv_store_table_owner(h->store, SRV_KEY_ID, key, &table, node, &found) != 0) return; /* next time */
    if (!found) {
      hub_route_via_clear(c); /* over: nothing to go back to */
    } else if (node[0] && (all || strcmp(node, c->via) != 0) && (strcmp(node, h->options.node) == 0 || hub_bus_peer_alive(h, node))) {
      send_again(h, c, node); /* (it connects and disconnects no client: the array stays as it is) */
    }
  }
}

void hub_route_table_here(srv_hub *h, const hub_table *t) { hub_route_table_id_here(h, t->id); }

void hub_route_table_id_here(srv_hub *h, int64_t table) {
  for (int i = 0; hub_bus_on(h) && i < h->nclients; i++)
    if (h->clients[i].via[0] && h->clients[i].via_table == table) send_again(h, &h->clients[i], h->options.node);
}

/* Tells each client whose request another server has not answered in time that it was not:
 * that server died, or the bus lost the request. */
void hub_route_unanswered(srv_hub *h, int64_t now) {
  for (int i = 0; i < h->nclients; i++) {
    hub_client *c = &h->clients[i];
    if (!c->via_deadline_ms || now < c->via_deadline_ms) continue;
    c->via_deadline_ms = 0;
    hub_send_error_retry(h, c->id, c->via_request, SRV_ERR_SERVER_UNAVAILABLE, hub_bus_dead_after_ms(h) + 1000,
                         "server %s did not answer within %d s: it may have stopped, and another server takes its "
                         "tables over within %d s; try again then",
                         c->via[0] ? c->via : "of your table", FORWARD_ANSWER_MS / 1000,
                         (int)(hub_bus_dead_after_ms(h) / 1000) + 1);
  }
}

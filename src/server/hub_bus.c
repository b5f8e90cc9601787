/* Several servers over a message bus (docs/SERVER.md "Several servers"): a client connected to
 * one server reaches a table another owns through it. Its requests naming that table go to
 * the owner (subject goita.node.OWNER) with this server's name, the client's id here and its
 * player; the owner serves it as a client of its own, a "remote client", and every message it
 * would send that client, built from that seat's view as for any other, comes back (subject
 * goita.node.THIS) to be passed on. Nothing else about a table crosses the bus. When the owner
 * dies and another takes its tables over, the clients here are sent there again by their seat
 * tokens. The hub only publishes through io.publish and takes what the network layer gives it,
 * so it has no network in it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_lobby.h"
#include "hub_map.h"
#include "hub_quick.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"
#include "secret.h"

/* A request sent to another server is answered (any message from there to its client) within
 * this long, or the client is told it was not. */
#define FORWARD_ANSWER_MS 5000

/* When a client is told to try again after the bus was unreachable ("in a moment"). */
#define BUS_RETRY_MS 1000

/* A server heard on the bus. */
typedef struct hub_peer {
  char node[SRV_NODE_SIZE];
  uint64_t boot;
  int64_t heard_ms;
  bool dead;   /* not heard for too long: its remote clients were let go */
  bool missed; /* this server's bus was away since it was last heard: it may have missed things */
} hub_peer;

bool hub_bus_on(const srv_hub *h) { return h->io.publish && h->options.node && h->options.lease_renew_ms > 0; }

/* A server is called dead when not heard for a lease: by then its tables are being taken over. */
static int64_t dead_after_ms(const srv_hub *h) { return 3 * (int64_t)h->options.lease_renew_ms; }

int hub_bus_publish(srv_hub *h, const char *node, json_t *msg) {
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  if (!text) return -1;
  char subject[SRV_NODE_SIZE + 16];
  snprintf(subject, sizeof subject, "%s%s", node ? SRV_BUS_NODE : SRV_BUS_LOBBY, node ? node : "");
  const int rc = h->io.publish(h->io.ctx, subject, text, strlen(text));
  free(text);
  return rc;
}

/* The key of another server's client in remote_index. */
static uint64_t remote_key(const char *node, uint64_t id) {
  uint64_t k = UINT64_C(1469598103934665603);
  for (const char *p = node; *p; p++) k = (k ^ (unsigned char)*p) * UINT64_C(1099511628211);
  return k ^ (id * UINT64_C(0x9E3779B97F4A7C15));
}

/* The client here standing for a client of another server, made when missing (create). */
static hub_client *remote_client(srv_hub *h, const char *node, uint64_t remote_id, bool create) {
  const uint64_t key = remote_key(node, remote_id);
  uint64_t local;
  if (hub_map_get(&h->remote_index, key, &local)) {
    hub_client *c = hub_client_get(h, local);
    if (c && c->remote_id == remote_id && strcmp(c->node, node) == 0) return c;
  }
  if (!create) return NULL;
  const uint64_t id = HUB_REMOTE_ID_BIT | ++h->remote_serial;
  srv_hub_connect(h, id);
  hub_client *c = hub_client_get(h, id);
  if (!c || hub_map_put(&h->remote_index, key, id) != 0) {
    if (c) srv_hub_disconnect(h, id);
    return NULL;
  }
  snprintf(c->node, sizeof c->node, "%s", node);
  c->remote_id = remote_id;
  return c;
}

/* Lets a client of another server go, as a disconnection of a client of this one. */
static void drop_remote_client(srv_hub *h, hub_client *c) {
  hub_map_del(&h->remote_index, remote_key(c->node, c->remote_id));
  srv_hub_disconnect(h, c->id);
}

/* Lets every client of a server go (it restarted, or died): their seats wait for their tokens. */
static void drop_clients_of(srv_hub *h, const char *node) {
  for (int i = h->nclients - 1; i >= 0; i--)
    if (strcmp(h->clients[i].node, node) == 0) drop_remote_client(h, &h->clients[i]);
}

void hub_bus_send(srv_hub *h, uint64_t client, const char *text, size_t len) {
  hub_client *c = hub_client_get(h, client);
  if (!c || !c->node[0]) return;
  char id[24];
  snprintf(id, sizeof id, "%" PRIu64, c->remote_id);
  /* lost when the bus is away: the client's server sends it here again once it is back */
  hub_bus_publish(h, c->node, json_pack("{s:s, s:s, s:s, s:s%}", "kind", "send", "node", h->options.node, "client",
                                        id, "text", text, len));
}

/* A server heard on the bus, made when missing (create); NULL when unknown or out of memory. */
static hub_peer *peer_get(srv_hub *h, const char *node, bool create) {
  for (int i = 0; i < h->npeers; i++)
    if (strcmp(h->peers[i].node, node) == 0) return &h->peers[i];
  if (!create) return NULL;
  if (h->npeers == h->cappeers) {
    const int cap = h->cappeers ? 2 * h->cappeers : 8;
    hub_peer *grown = realloc(h->peers, (size_t)cap * sizeof *grown);
    if (!grown) return NULL;
    h->peers = grown;
    h->cappeers = cap;
  }
  hub_peer *p = &h->peers[h->npeers++];
  memset(p, 0, sizeof *p);
  snprintf(p->node, sizeof p->node, "%s", node);
  return p;
}

/* Whether a server answers on the bus: heard lately, or never heard of (a new one). */
static bool peer_alive(srv_hub *h, const char *node) {
  const hub_peer *p = peer_get(h, node, false);
  return !p || !p->dead;
}

/* ---- this server's clients at other servers' tables ---- */

/* Clears where a client's table requests go, wiping its seat token. */
static void via_clear(hub_client *c) {
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
static void send_close_to(srv_hub *h, const hub_client *c, const char *node) {
  char id[24];
  snprintf(id, sizeof id, "%" PRIu64, c->id);
  hub_bus_publish(h, node ? node : c->via,
                  json_pack("{s:s, s:s, s:s}", "kind", "close", "node", h->options.node, "client", id));
}

/* Tells the server of the client's table that the client is gone from there. */
static void send_close(srv_hub *h, const hub_client *c) { send_close_to(h, c, NULL); }

void hub_bus_client_gone(srv_hub *h, const hub_client *c) {
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
    via_clear(c);
  }
  return false;
}

/* Where a request naming a table goes: the table's number, or its key in the store. Returns
 * false when it is none of the bus's business (a table of this server, or no table named). */
static bool request_key(srv_hub *h, hub_client *c, const srv_request *r, int *kind, char key[SRV_TOKEN_HASH_SIZE]) {
  uint64_t id;
  switch (route_rules[r->type].route) {
  case SRV_ROUTE_TABLE:
    if (hub_table_get(h, r->table)) {
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
    return !hub_map_get(&h->invite_index, hub_token_key(r->invite), &id) || stay_here(h, c, r);
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

/* The server that keeps the quick-match queue of all of them: the live one (this one included)
 * whose name sorts first, so that players asking on different servers wait in one queue. */
static const char *matchmaker(const srv_hub *h) {
  const char *best = h->options.node;
  for (int i = 0; i < h->npeers; i++)
    if (!h->peers[i].dead && strcmp(h->peers[i].node, best) < 0) best = h->peers[i].node;
  return best;
}

/* Sends quick and quick_cancel to the matchmaker, unless it is this server. A client queued
 * there is "at" that server with no table yet (via_table 0) until its `seated` comes back. */
static bool forward_quick(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len) {
  const bool cancel = r->type == SRV_QUICK_CANCEL;
  const char *node = cancel && c->via[0] && c->via_table == 0 ? c->via : matchmaker(h);
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
    via_clear(c);
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
  if (!peer_alive(h, node)) {
    hub_send_error_retry(h, c->id, name, SRV_ERR_SERVER_UNAVAILABLE, dead_after_ms(h) + 1000,
                         "table %lld is served by server %s, which is not answering: another server takes its tables "
                         "over within %d s; try again then",
                         (long long)table, node, (int)(dead_after_ms(h) / 1000) + 1);
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
  if (strcmp(c->via, node) != 0 || c->via_table != table) via_clear(c);
  snprintf(c->via, sizeof c->via, "%s", node);
  c->via_table = table;
  if (r->type == SRV_RESUME) snprintf(c->via_token, sizeof c->via_token, "%s", r->token);
  if (r->type == SRV_JOIN) snprintf(c->via_invite, sizeof c->via_invite, "%s", r->invite);
  if (r->type == SRV_WATCH || r->type == SRV_JOIN) srv_secret_wipe(c->via_token, sizeof c->via_token);
  return true;
}

/* Sends a client here to the table it was at, now at server node (this one, or another): by its
 * seat token, its invite, or as a spectator. */
static void send_again(srv_hub *h, hub_client *c, const char *node) {
  srv_request r;
  memset(&r, 0, sizeof r);
  char text[128];
  if (c->via_token[0]) {
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
  via_clear(c); /* the table is here now */
  if (r.type == SRV_RESUME)
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
static void rehome(srv_hub *h, const char *all) {
  for (int i = 0; i < h->nclients; i++) {
    hub_client *c = &h->clients[i];
    if (!c->via[0] || (all ? strcmp(c->via, all) != 0 : peer_alive(h, c->via))) continue;
    if (c->via_table == 0) { /* waiting in the quick-match queue of a server now dead, or cut off by the bus */
      if (all) send_close(h, c); /* what it missed is unknown: its place there goes, and the client asks again */
      hub_send_error(
          h, c->id, "quick", SRV_ERR_QUEUE_LOST,
          all ? "the servers' message bus was away, so your place in the quick-match queue (kept by server "
                "%s) was given up: ask for a quick match again"
              : "server %s, which kept the quick-match queue, stopped answering: ask for a quick match again",
          c->via);
      via_clear(c);
      continue;
    }
    char key[24], node[SRV_NODE_SIZE] = "";
    snprintf(key, sizeof key, "%lld", (long long)c->via_table);
    int64_t table = 0;
    bool found = false;
    if (srv_store_table_owner(h->store, SRV_KEY_ID, key, &table, node, &found) != 0) return; /* next time */
    if (!found) {
      via_clear(c); /* over: nothing to go back to */
    } else if (node[0] && (all || strcmp(node, c->via) != 0) && (strcmp(node, h->options.node) == 0 || peer_alive(h, node))) {
      send_again(h, c, node); /* (it connects and disconnects no client: the array stays as it is) */
    }
  }
}

void hub_bus_table_here(srv_hub *h, const hub_table *t) {
  for (int i = 0; hub_bus_on(h) && i < h->nclients; i++)
    if (h->clients[i].via[0] && h->clients[i].via_table == t->id) send_again(h, &h->clients[i], h->options.node);
}

/* Tells each client whose request another server has not answered in time that it was not:
 * that server died, or the bus lost the request. */
static void unanswered(srv_hub *h, int64_t now) {
  for (int i = 0; i < h->nclients; i++) {
    hub_client *c = &h->clients[i];
    if (!c->via_deadline_ms || now < c->via_deadline_ms) continue;
    c->via_deadline_ms = 0;
    hub_send_error_retry(h, c->id, c->via_request, SRV_ERR_SERVER_UNAVAILABLE, dead_after_ms(h) + 1000,
                         "server %s did not answer within %d s: it may have stopped, and another server takes its "
                         "tables over within %d s; try again then",
                         c->via[0] ? c->via : "of your table", FORWARD_ANSWER_MS / 1000,
                         (int)(dead_after_ms(h) / 1000) + 1);
  }
}

void hub_bus_tick(srv_hub *h, int64_t now) {
  if (!hub_bus_on(h)) return;
  unanswered(h, now);
  if (now < h->beat_at_ms) return;
  h->beat_at_ms = now + h->options.lease_renew_ms;
  if (!h->bus_up) return;
  char boot[24];
  snprintf(boot, sizeof boot, "%" PRIx64, h->boot);
  hub_bus_publish(h, NULL, json_pack("{s:s, s:s, s:s}", "kind", "alive", "node", h->options.node, "boot", boot));
  if (now - h->bus_up_ms < dead_after_ms(h)) return; /* give the others time to be heard */
  for (int i = 0; i < h->npeers; i++) {
    hub_peer *p = &h->peers[i];
    if (!p->dead && now - p->heard_ms > dead_after_ms(h)) {
      p->dead = true;
      drop_clients_of(h, p->node);
    }
  }
  rehome(h, NULL);
}

/* ---- messages from the bus ---- */

/* Another server says it is alive: it is heard now, and what a restart of it or an outage of
 * the bus made either miss is sent again. */
static void on_alive(srv_hub *h, const char *node, const char *boot_text) {
  const uint64_t boot = strtoull(boot_text ? boot_text : "0", NULL, 16);
  hub_peer *p = peer_get(h, node, true);
  if (!p) return;
  const bool restarted = p->boot && p->boot != boot;
  if (restarted) drop_clients_of(h, node); /* its clients went with its old process */
  /* Both are on the bus again after one of them was away (this one: missed; that one, alone:
   * dead), or it restarted: what either missed is sent again, and this server's clients at its
   * tables, which it no longer knows, are sent there again. */
  const bool missed = p->missed || p->dead || restarted;
  p->boot = boot;
  p->dead = false;
  p->heard_ms = h->io.now_ms(h->io.ctx);
  if (missed) {
    p->missed = false;
    hub_bus_publish(h, node, json_pack("{s:s, s:s}", "kind", "sync", "node", h->options.node));
    rehome(h, node);
  }
}

/* A message for a client here from the server its table is at: passed on as it is, after
 * noting the seat token of a `seated` (to send the client there again after a takeover). One
 * from a server the client has left (its close lost while the bus was away) is dropped, and
 * that server told again. */
static void on_send(srv_hub *h, const char *node, uint64_t client, const char *text, size_t len) {
  hub_client *c = hub_client_get(h, client);
  if (!c || c->node[0]) return;
  if (strcmp(c->via, node) != 0) {
    send_close_to(h, c, node);
    return;
  }
  c->via_deadline_ms = 0; /* answered */
  static const char seated[] = "{\"type\":\"seated\"", left[] = "{\"type\":\"left\"",
                    cancelled[] = "{\"type\":\"quick_cancelled\"", moved[] = "{\"type\":\"moved\"";
  if (strncmp(text, seated, sizeof seated - 1) == 0) {
    json_t *msg = json_loadb(text, len, 0, NULL);
    const char *token = json_string_value(json_object_get(msg, "seat_token"));
    c->via_table = (int64_t)json_integer_value(json_object_get(msg, "table"));
    snprintf(c->via_token, sizeof c->via_token, "%s", token ? token : "");
    json_decref(msg);
  } else if (strncmp(text, moved, sizeof moved - 1) == 0) {
    via_clear(c); /* lost by that server: the client's resume or watch finds the table's owner afresh */
  } else if (strncmp(text, left, sizeof left - 1) == 0 ||
             (c->via_table == 0 && strncmp(text, cancelled, sizeof cancelled - 1) == 0)) {
    via_clear(c);
  }
  h->io.send(h->io.ctx, client, text, len);
}

/* A request from a client of another server, served here as from a client of this one. */
static void on_request(srv_hub *h, const char *node, uint64_t client, json_t *msg) {
  json_t *text = json_object_get(msg, "text");
  const char *name = json_string_value(json_object_get(msg, "name"));
  if (!json_is_string(text)) return;
  hub_client *c = remote_client(h, node, client, true);
  if (!c) return;
  c->player = (int64_t)json_integer_value(json_object_get(msg, "player")); /* the servers trust each other */
  snprintf(c->name, sizeof c->name, "%s", name ? name : "");
  srv_hub_receive(h, c->id, json_string_value(text), json_string_length(text));
}

void srv_hub_bus_message(srv_hub *h, const char *subject, const char *text, size_t len) {
  if (!hub_bus_on(h)) return;
  json_t *msg = json_loadb(text, len, 0, NULL);
  const char *kind = json_string_value(json_object_get(msg, "kind")),
             *node = json_string_value(json_object_get(msg, "node")),
             *client_text = json_string_value(json_object_get(msg, "client"));
  if (!kind || !node || strcmp(node, h->options.node) == 0 || strlen(node) >= SRV_NODE_SIZE) {
    json_decref(msg); /* not a message of this protocol, or this server's own on the lobby's subject */
    return;
  }
  const uint64_t client = client_text ? strtoull(client_text, NULL, 10) : 0;
  (void)subject;
  if (strcmp(kind, "alive") == 0) {
    on_alive(h, node, json_string_value(json_object_get(msg, "boot")));
  } else if (strcmp(kind, "request") == 0) {
    on_request(h, node, client, msg);
  } else if (strcmp(kind, "send") == 0) {
    json_t *t = json_object_get(msg, "text");
    if (json_is_string(t)) on_send(h, node, client, json_string_value(t), json_string_length(t));
  } else if (strcmp(kind, "close") == 0) {
    hub_client *c = remote_client(h, node, client, false);
    if (c) drop_remote_client(h, c);
  } else if (strcmp(kind, "lobby") == 0) {
    hub_lobby_remote(h, node, json_string_value(json_object_get(msg, "event")), json_object_get(msg, "table"));
  } else if (strcmp(kind, "rows") == 0) {
    hub_lobby_remote_rows(h, node, json_object_get(msg, "tables"), json_is_true(json_object_get(msg, "first")),
                          json_is_true(json_object_get(msg, "last")));
  } else if (strcmp(kind, "sync") == 0) {
    hub_lobby_publish_all(h, node);
  }
  json_decref(msg);
}

void srv_hub_bus_state(srv_hub *h, bool up) {
  if (!hub_bus_on(h)) return;
  if (h->bus_up != up) hub_log(h, "the servers' message bus is %s", up ? "back" : "lost");
  h->bus_up = up;
  if (!up) {
    /* the clients here at other servers' tables hear nothing from there until it is back */
    for (int i = 0; i < h->nclients; i++) {
      hub_client *c = &h->clients[i];
      if (!c->via[0] || c->node[0]) continue;
      c->via_deadline_ms = 0;
      hub_send_error(h, c->id, "bus", SRV_ERR_LINK_LOST,
                     "this server lost its link to server %s, which serves your table: you are sent there again "
                     "as soon as the link is back (usually within seconds)",
                     c->via);
    }
    return;
  }
  const int64_t now = h->io.now_ms(h->io.ctx);
  h->bus_up_ms = now;
  for (int i = 0; i < h->npeers; i++) { /* nobody was heard while it was away */
    h->peers[i].heard_ms = now;
    h->peers[i].missed = true;
  }
  if (!h->boot) h->io.random(h->io.ctx, &h->boot, sizeof h->boot);
  h->beat_at_ms = 0; /* say it is alive at the next tick */
  /* What was missed while away: every server's rows now, and from each server as soon as it is
   * heard (it may come back to the bus later than this one) its rows again, and this server's
   * clients at its tables sent there again. */
  hub_bus_publish(h, NULL, json_pack("{s:s, s:s}", "kind", "sync", "node", h->options.node));
  hub_lobby_publish_all(h, NULL);
}

void hub_bus_free(srv_hub *h) {
  hub_lobby_remote_free(h);
  free(h->peers);
  hub_map_free(&h->remote_index);
}

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
#include "hub_route.h"
#include "hub_send.h"
#include "hub_table.h"
#include "secret.h"

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
int64_t hub_bus_dead_after_ms(const srv_hub *h) { return 3 * (int64_t)h->options.lease_renew_ms; }

int hub_bus_publish(srv_hub *h, const char *node, json_t *msg) {
  char *text = srv_json_text(msg, JSON_COMPACT);
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
bool hub_bus_peer_alive(srv_hub *h, const char *node) {
  const hub_peer *p = peer_get(h, node, false);
  return !p || !p->dead;
}

/* The server that keeps the quick-match queue of all of them: the live one (this one included)
 * whose name sorts first, so that players asking on different servers wait in one queue. */
const char *hub_bus_matchmaker(const srv_hub *h) {
  const char *best = h->options.node;
  for (int i = 0; i < h->npeers; i++)
    if (!h->peers[i].dead && strcmp(h->peers[i].node, best) < 0) best = h->peers[i].node;
  return best;
}

void hub_bus_tick(srv_hub *h, int64_t now) {
  if (!hub_bus_on(h)) return;
  hub_route_unanswered(h, now);
  if (now < h->beat_at_ms) return;
  h->beat_at_ms = now + h->options.lease_renew_ms;
  if (!h->bus_up) return;
  char boot[24];
  snprintf(boot, sizeof boot, "%" PRIx64, h->boot);
  hub_bus_publish(h, NULL, json_pack("{s:s, s:s, s:s}", "kind", "alive", "node", h->options.node, "boot", boot));
  if (now - h->bus_up_ms < hub_bus_dead_after_ms(h)) return; /* give the others time to be heard */
  for (int i = 0; i < h->npeers; i++) {
    hub_peer *p = &h->peers[i];
    if (!p->dead && now - p->heard_ms > hub_bus_dead_after_ms(h)) {
      p->dead = true;
      drop_clients_of(h, p->node);
    }
  }
  hub_route_rehome(h, NULL);
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
    hub_route_rehome(h, node);
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
    hub_route_close(h, c, node);
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
    hub_route_via_clear(c); /* lost by that server: the client's resume or watch finds the table's owner afresh */
  } else if (strncmp(text, left, sizeof left - 1) == 0 ||
             (c->via_table == 0 && strncmp(text, cancelled, sizeof cancelled - 1) == 0)) {
    hub_route_via_clear(c);
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

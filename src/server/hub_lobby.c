/* The lobby (docs/SERVER.md "The lobby"): a page of the listed tables on request, then only what
 * changes: one small "lobby" event per table that was created, changed or removed, at most one
 * per table per tick. Which tables are listed (open, not private) is hub_table_listed's to say,
 * for the pages and the events alike. Finished games come page by page too. What a message
 * costs does not grow with the number of tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_invite.h"
#include "hub_ks.h"
#include "hub_lobby.h"
#include "hub_requests.h"
#include "hub_send.h"

/* Adds what the lobby shows of a table's rules: the rule set's name (or null) and the point
 * scale (docs/RULES.md 10-11). */
static void add_rules_names(json_t *row, const goita_rules *rules) {
  const char *preset = goita_rules_preset(rules);
  json_object_set_new(row, "preset", preset ? json_string(preset) : json_null());
  json_object_set_new(row, "scale", json_string(rules->scale == GOITA_SCALE_ONES ? "ones" : "tens"));
}

/* One table as the lobby shows it. */
static json_t *table_row(const hub_table *t) {
  json_t *seats = json_array();
  for (int s = 0; s < players_of(t); s++) {
    json_t *seat =
        t->seats[s].player ? json_pack("{s:s, s:s}", "name", t->seats[s].name, "bot", t->seats[s].bot) : json_null();
    if (t->seats[s].bot_account) json_object_set_new(seat, "bot_account", json_true());
    json_array_append_new(seats, seat);
  }
  json_t *row = json_pack("{s:I, s:s, s:s, s:i, s:o, s:i}", "id", (json_int_t)t->id, "status",
                          t->status == SRV_PLAYING ? "playing" : "waiting", "rules", t->rules_text, "turn_seconds",
                          t->turn_seconds, "seats", seats, "watchers", t->nwatchers);
  if (row) add_rules_names(row, &t->rules);
  if (row && t->clock.bank_seconds > 0) json_object_set_new(row, "bank_seconds", json_integer(t->clock.bank_seconds));
  return row;
}

/* The position of the first table with an id above `after` (tables are in id order). */
static int first_after(const srv_hub *h, int64_t after) {
  int lo = 0, hi = h->ntables;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (h->tables[mid]->id <= after)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The position of the first remote row with an id above `after` (they are in id order). */
static int remote_after(const srv_hub *h, int64_t after) {
  int lo = 0, hi = h->nremote_rows;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (h->remote_rows[mid].id <= after)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The other servers' Goita rows come before this position, their Ko shogi rows from it (numbered
 * above every Goita table, and listed apart as this server's are). */
static int remote_koshogi(const srv_hub *h) { return remote_after(h, SRV_KS_TABLE_BASE - 1); }

/* Every listed Goita table the lobby knows of: this server's and, with a bus, the others'. */
static int lobby_total(const srv_hub *h) { return h->listed_tables + remote_koshogi(h); }

/* A page merges this server's tables and the other servers' rows, both in id order. */
void hub_do_list(srv_hub *h, hub_client *c, const srv_request *r) {
  c->lobby = true;
  const int limit = r->limit ? r->limit : SRV_DEFAULT_PAGE;
  json_t *rows = json_array();
  const int nremote = remote_koshogi(h);
  int i = first_after(h, r->cursor), j = remote_after(h, r->cursor), n = 0;
  int64_t last = 0;
  for (;;) {
    while (i < h->ntables && !hub_table_listed(h->tables[i])) i++;
    if (i < h->ntables && j < nremote && h->tables[i]->id == h->remote_rows[j].id) j++; /* taken over */
    const bool own = i < h->ntables, remote = j < nremote;
    if (n == limit || (!own && !remote)) break;
    if (own && (!remote || h->tables[i]->id < h->remote_rows[j].id)) {
      json_array_append_new(rows, table_row(h->tables[i]));
      last = h->tables[i++]->id;
    } else {
      json_array_append(rows, h->remote_rows[j].row);
      last = h->remote_rows[j++].id;
    }
    n++;
  }
  json_t *next = i < h->ntables || j < nremote ? json_integer(last) : json_null();
  json_t *page = json_pack("{s:s, s:I, s:o, s:i, s:o}", "type", "tables", "after", (json_int_t)r->cursor, "tables",
                           rows, "total", lobby_total(h), "next", next);
  if (page && r->cursor == 0) { /* every Ko shogi table, this server's and the others', on the first page */
    json_t *koshogi = hub_ks_lobby_rows(h);
    for (int k = nremote; koshogi && k < h->nremote_rows; k++)
      if (!hub_ks_holds(h, h->remote_rows[k].id)) json_array_append(koshogi, h->remote_rows[k].row);
    json_object_set_new(page, "koshogi", koshogi);
  }
  hub_send_json(h, c->id, page);
}

void hub_lobby_touch(srv_hub *h, hub_table *t) {
  if (t->lobby_dirty) return;
  if (h->nlobby_dirty == h->caplobby_dirty) {
    const int cap = h->caplobby_dirty ? 2 * h->caplobby_dirty : 64;
    int64_t *grown = realloc(h->lobby_dirty, (size_t)cap * sizeof *grown);
    if (!grown) return; /* out of memory: listeners see the change on their next list */
    h->lobby_dirty = grown;
    h->caplobby_dirty = cap;
  }
  h->lobby_dirty[h->nlobby_dirty++] = t->id;
  t->lobby_dirty = true;
}

/* Sends one event to every lobby listener (the table is only borrowed). */
static void send_listeners(srv_hub *h, const uint64_t *listeners, int n, const char *event, json_t *table) {
  json_t *msg = json_pack("{s:s, s:s, s:O, s:i}", "type", "lobby", "event", event, "table", table, "total",
                          lobby_total(h));
  char *text = srv_json_text(msg, JSON_COMPACT);
  json_decref(msg);
  if (!text) return;
  for (int i = 0; i < n; i++) hub_send_raw(h, listeners[i], text, strlen(text));
  free(text);
}

/* Sends one event of this server's table to every lobby listener, and over the bus to the
 * other servers' (the table is consumed). */
static void send_event(srv_hub *h, const uint64_t *listeners, int n, const char *event, json_t *table) {
  if (!table) return;
  send_listeners(h, listeners, n, event, table);
  if (hub_bus_on(h) && h->bus_up)
    hub_bus_publish(h, NULL, json_pack("{s:s, s:s, s:s, s:O}", "kind", "lobby", "node", h->options.node, "event",
                                       event, "table", table));
  json_decref(table);
}

/* The clients here that get the lobby's events (malloc'd; NULL when out of memory). */
static uint64_t *lobby_listeners(const srv_hub *h, int *n) {
  uint64_t *listeners = malloc((size_t)h->nclients * sizeof *listeners + 1);
  *n = 0;
  for (int i = 0; listeners && i < h->nclients; i++)
    if (h->clients[i].lobby) listeners[(*n)++] = h->clients[i].id;
  return listeners;
}

void hub_lobby_event(srv_hub *h, const char *event, json_t *row) {
  int n;
  uint64_t *listeners = lobby_listeners(h, &n);
  send_event(h, listeners, n, event, row);
  free(listeners);
}

void hub_lobby_flush(srv_hub *h) {
  if (!h->nlobby_dirty && !h->nlobby_removed) return;
  int n;
  uint64_t *listeners = lobby_listeners(h, &n);
  for (int i = 0; i < h->nlobby_removed; i++)
    send_event(h, listeners, n, "removed", json_pack("{s:I}", "id", (json_int_t)h->lobby_removed[i]));
  for (int i = 0; i < h->nlobby_dirty; i++) {
    hub_table *t = hub_table_get(h, h->lobby_dirty[i]);
    if (!t) continue; /* gone from memory: announced above if it had been announced */
    t->lobby_dirty = false;
    if (!hub_table_listed(t)) { /* over, or private: listeners never see it or see it go */
      if (t->announced) send_event(h, listeners, n, "removed", json_pack("{s:I}", "id", (json_int_t)t->id));
      t->announced = false;
    } else {
      send_event(h, listeners, n, t->announced ? "changed" : "created", table_row(t));
      t->announced = true;
    }
  }
  h->nlobby_dirty = h->nlobby_removed = 0;
  free(listeners);
}

void hub_do_games(srv_hub *h, hub_client *c, const srv_request *r) {
  const int limit = r->limit ? r->limit : SRV_DEFAULT_PAGE;
  srv_game_row *rows = malloc((size_t)(limit + 1) * sizeof *rows);
  int n = 0;
  if (!rows || srv_store_games(h->store, r->cursor, rows, limit + 1, &n) != 0) { /* one more: is there a next page? */
    if (rows)
      hub_send_error_retry(h, c->id, "games", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                           srv_store_error(h->store));
    else
      hub_send_error_retry(h, c->id, "games", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    free(rows);
    return;
  }
  const unsigned long failures = srv_json_failures(); /* a row lost for memory is no shorter page */
  json_t *list = json_array();
  for (int i = 0; i < n && i < limit; i++) {
    json_t *names = json_array();
    for (int s = 0; s < rows[i].nplayers; s++) json_array_append_new(names, json_string(rows[i].names[s]));
    json_t *row = json_pack("{s:I, s:s, s:o, s:[i,i]}", "id", (json_int_t)rows[i].id, "finished", rows[i].finished,
                            "names", names, "score", rows[i].score[0], rows[i].score[1]);
    goita_rules rules;
    if (goita_rules_parse(&rules, rows[i].rules, NULL) == GOITA_OK) add_rules_names(row, &rules);
    if (rows[i].ended[0]) json_object_set_new(row, "ended", json_string(rows[i].ended));
    json_array_append_new(list, row);
  }
  json_t *next = n > limit ? json_integer(rows[limit - 1].id) : json_null();
  free(rows);
  json_t *msg = json_pack("{s:s, s:I, s:o, s:o}", "type", "games", "before", (json_int_t)r->cursor, "games", list,
                          "next", next);
  if (srv_json_failures() != failures) {
    json_decref(msg);
    hub_send_error_retry(h, c->id, "games", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  hub_send_json(h, c->id, msg);
}

/* ---- the other servers' tables (several servers with a bus) ---- */

/* The position of a remote row, or -1. */
static int remote_find(const srv_hub *h, int64_t id) {
  const int at = remote_after(h, id - 1);
  return at < h->nremote_rows && h->remote_rows[at].id == id ? at : -1;
}

/* Forgets the remote row at a position. */
static void remote_remove(srv_hub *h, int at) {
  json_decref(h->remote_rows[at].row);
  memmove(&h->remote_rows[at], &h->remote_rows[at + 1], (size_t)(h->nremote_rows - at - 1) * sizeof *h->remote_rows);
  h->nremote_rows--;
}

/* Keeps a row of another server's table (the row is borrowed); returns false when out of memory. */
static bool remote_upsert(srv_hub *h, const char *node, json_t *row) {
  const int64_t id = (int64_t)json_integer_value(json_object_get(row, "id"));
  int at = remote_find(h, id);
  if (at < 0) {
    if (h->nremote_rows == h->capremote_rows) {
      const int cap = h->capremote_rows ? 2 * h->capremote_rows : 64;
      hub_remote_row *grown = realloc(h->remote_rows, (size_t)cap * sizeof *grown);
      if (!grown) return false;
      h->remote_rows = grown;
      h->capremote_rows = cap;
    }
    at = remote_after(h, id);
    memmove(&h->remote_rows[at + 1], &h->remote_rows[at], (size_t)(h->nremote_rows - at) * sizeof *h->remote_rows);
    h->nremote_rows++;
    h->remote_rows[at] = (hub_remote_row){.id = id};
  } else {
    json_decref(h->remote_rows[at].row);
  }
  hub_remote_row *r = &h->remote_rows[at];
  r->row = json_incref(row);
  r->stale = false;
  snprintf(r->node, sizeof r->node, "%s", node);
  return true;
}

void hub_lobby_remote(srv_hub *h, const char *node, const char *event, json_t *row) {
  const json_int_t id = json_integer_value(json_object_get(row, "id"));
  /* (a table this server holds is its own to tell) */
  if (!event || id <= 0 || hub_table_get(h, (int64_t)id) || hub_ks_holds(h, (int64_t)id)) return;
  const bool removed = strcmp(event, "removed") == 0;
  if (removed) {
    const int at = remote_find(h, (int64_t)id);
    /* (a server that lost the table to another says it is gone: the row is the other's now) */
    if (at < 0 || strcmp(h->remote_rows[at].node, node) != 0) return;
    remote_remove(h, at);
  } else if (!remote_upsert(h, node, row)) {
    return;
  }
  int n;
  uint64_t *listeners = lobby_listeners(h, &n);
  send_listeners(h, listeners, n, removed ? "removed" : event, row);
  free(listeners);
}

void hub_lobby_remote_rows(srv_hub *h, const char *node, json_t *rows, bool first, bool last) {
  if (first)
    for (int i = 0; i < h->nremote_rows; i++) h->remote_rows[i].stale |= strcmp(h->remote_rows[i].node, node) == 0;
  size_t i;
  json_t *row;
  json_array_foreach(rows, i, row) hub_lobby_remote(h, node, "changed", row);
  if (!last) return;
  int n;
  uint64_t *listeners = lobby_listeners(h, &n);
  for (int at = h->nremote_rows - 1; at >= 0; at--) {
    if (!h->remote_rows[at].stale || strcmp(h->remote_rows[at].node, node) != 0) continue;
    json_t *gone = json_pack("{s:I}", "id", (json_int_t)h->remote_rows[at].id);
    remote_remove(h, at);
    if (gone) send_listeners(h, listeners, n, "removed", gone);
    json_decref(gone);
  }
  free(listeners);
}

/* Rows go over the bus this many a message, well under NATS's 1 MB. */
#define ROWS_PER_MESSAGE 100

void hub_lobby_publish_all(srv_hub *h, const char *node) {
  if (!hub_bus_on(h)) return;
  int i = 0;
  bool first = true;
  do {
    json_t *rows = json_array();
    for (int n = 0; i < h->ntables && n < ROWS_PER_MESSAGE; i++)
      if (hub_table_listed(h->tables[i])) {
        json_array_append_new(rows, table_row(h->tables[i]));
        n++;
      }
    while (i < h->ntables && !hub_table_listed(h->tables[i])) i++;
    if (i >= h->ntables) { /* (the Ko shogi rows go last) */
      json_t *koshogi = hub_ks_lobby_rows(h);
      json_array_extend(rows, koshogi);
      json_decref(koshogi);
    }
    hub_bus_publish(h, node, json_pack("{s:s, s:s, s:o, s:b, s:b}", "kind", "rows", "node", h->options.node,
                                       "tables", rows, "first", first, "last", i >= h->ntables));
    first = false;
  } while (i < h->ntables);
}

void hub_lobby_remote_forget(srv_hub *h, int64_t table) {
  const int at = remote_find(h, table);
  if (at >= 0) remote_remove(h, at);
}

void hub_lobby_remote_free(srv_hub *h) {
  for (int i = 0; i < h->nremote_rows; i++) json_decref(h->remote_rows[i].row);
  free(h->remote_rows);
  h->remote_rows = NULL;
  h->nremote_rows = 0;
}

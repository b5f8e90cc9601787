/* The lobby (docs/SERVER.md "The lobby"): a page of the listed tables on request, then only what
 * changes: one small "lobby" event per table that was created, changed or removed, at most one
 * per table per tick. Which tables are listed (open, not private) is hub_table_listed's to say,
 * for the pages and the events alike. Finished games come page by page too. What a message
 * costs does not grow with the number of tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_internal.h"

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
  for (int s = 0; s < players_of(t); s++)
    json_array_append_new(seats, t->seats[s].player
                                     ? json_pack("{s:s, s:s}", "name", t->seats[s].name, "bot", t->seats[s].bot)
                                     : json_null());
  json_t *row = json_pack("{s:I, s:s, s:s, s:i, s:o, s:i}", "id", (json_int_t)t->id, "status",
                          t->status == SRV_PLAYING ? "playing" : "waiting", "rules", t->rules_text, "turn_seconds",
                          t->turn_seconds, "seats", seats, "watchers", t->nwatchers);
  if (row) add_rules_names(row, &t->rules);
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

void hub_do_list(srv_hub *h, hub_client *c, const srv_request *r) {
  c->lobby = true;
  const int limit = r->limit ? r->limit : SRV_DEFAULT_PAGE;
  json_t *rows = json_array();
  int i = first_after(h, r->cursor), n = 0;
  int64_t last = 0;
  for (; i < h->ntables && n < limit; i++) {
    if (!hub_table_listed(h->tables[i])) continue;
    json_array_append_new(rows, table_row(h->tables[i]));
    last = h->tables[i]->id;
    n++;
  }
  while (i < h->ntables && !hub_table_listed(h->tables[i])) i++; /* is there a next page? */
  json_t *next = i < h->ntables ? json_integer(last) : json_null();
  hub_send_json(h, c->id,
                json_pack("{s:s, s:I, s:o, s:i, s:o}", "type", "tables", "after", (json_int_t)r->cursor, "tables",
                          rows, "total", h->listed_tables, "next", next));
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

/* Sends one event to every lobby listener. */
static void send_event(srv_hub *h, const uint64_t *listeners, int n, const char *event, json_t *table) {
  json_t *msg = json_pack("{s:s, s:s, s:o, s:i}", "type", "lobby", "event", event, "table", table, "total",
                          h->listed_tables);
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  if (!text) return;
  for (int i = 0; i < n; i++) h->io.send(h->io.ctx, listeners[i], text, strlen(text));
  free(text);
}

void hub_lobby_flush(srv_hub *h) {
  if (!h->nlobby_dirty && !h->nlobby_removed) return;
  uint64_t *listeners = malloc((size_t)h->nclients * sizeof *listeners + 1);
  int n = 0;
  for (int i = 0; listeners && i < h->nclients; i++)
    if (h->clients[i].lobby) listeners[n++] = h->clients[i].id;
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
    hub_send_error(h, c->id, "games", "%s", rows ? srv_store_error(h->store) : "out of memory");
    free(rows);
    return;
  }
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
  hub_send_json(h, c->id, json_pack("{s:s, s:I, s:o, s:o}", "type", "games", "before", (json_int_t)r->cursor, "games",
                                    list, "next", next));
}

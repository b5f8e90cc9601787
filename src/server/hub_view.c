/* What clients are sent: a seat's or a spectator's state, the lobby's table list, the
 * finished games. Only views leave the hub (hub.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_internal.h"

static void table_info(const hub_table *t, srv_table_info *info, bool spectator, int64_t now) {
  memset(info, 0, sizeof *info);
  info->id = t->id;
  info->status = t->status;
  info->rules = t->rules_text;
  info->turn_seconds = t->turn_seconds;
  info->seconds_left = t->deadline_ms ? (int)((t->deadline_ms - now + 999) / 1000) : -1;
  if (info->seconds_left < -1) info->seconds_left = 0;
  info->players = players_of(t);
  for (int s = 0; s < players_of(t); s++) {
    if (!t->seats[s].player) continue;
    info->seats[s].name = t->seats[s].name;
    info->seats[s].bot = t->seats[s].bot;
    info->seats[s].rating = t->seats[s].rating;
    info->seats[s].connected = t->seats[s].bot[0] || t->seats[s].client != 0;
  }
  info->game_id = t->game_id;
  info->previous_round = spectator && t->previous_round[0] ? t->previous_round : NULL;
  info->invite = t->invite[0] ? t->invite : NULL; /* all at a private table got there with it */
  info->rematch.seconds_left = t->rematch.deadline_ms ? (int)((t->rematch.deadline_ms - now + 999) / 1000) : -1;
  if (info->rematch.seconds_left < -1) info->rematch.seconds_left = 0;
  info->rematch.table = t->rematch.table;
  memcpy(info->rematch.asked, t->rematch.asked, sizeof info->rematch.asked);
}

/* Sends one client the table as it may see it: a seat's view, or the observer's. */
void hub_send_state(srv_hub *h, const hub_table *t, uint64_t client, int seat) {
  srv_table_info info;
  table_info(t, &info, seat < 0, h->io.now_ms(h->io.ctx));
  if (t->status == SRV_WAITING) {
    hub_send_text(h, client, srv_message_state(&info, seat, NULL));
    return;
  }
  goita_view view;
  goita_game_view(&t->game, seat < 0 ? GOITA_OBSERVER : seat, &view);
  hub_send_text(h, client, srv_message_state(&info, seat, &view));
}

void hub_broadcast_state(srv_hub *h, const hub_table *t) {
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].client) hub_send_state(h, t, t->seats[s].client, s);
  for (int i = 0; i < t->nwatchers; i++) hub_send_state(h, t, t->watchers[i], -1);
}

/* Adds what the lobby shows of a table's rules: the rule set's name (or null) and the point
 * scale (docs/RULES.md 10-11). */
static void add_rules_names(json_t *row, const goita_rules *rules) {
  const char *preset = goita_rules_preset(rules);
  json_object_set_new(row, "preset", preset ? json_string(preset) : json_null());
  json_object_set_new(row, "scale", json_string(rules->scale == GOITA_SCALE_ONES ? "ones" : "tens"));
}

json_t *hub_tables_json(srv_hub *h) {
  json_t *list = json_array();
  for (int i = 0; i < h->ntables; i++) {
    const hub_table *t = h->tables[i];
    if (!hub_table_listed(t)) continue;
    json_t *seats = json_array();
    for (int s = 0; s < players_of(t); s++)
      json_array_append_new(seats, t->seats[s].player ? json_pack("{s:s, s:s}", "name", t->seats[s].name, "bot",
                                                                  t->seats[s].bot)
                                                      : json_null());
    json_t *row = json_pack("{s:I, s:s, s:s, s:i, s:o, s:i}", "id", (json_int_t)t->id, "status",
                            t->status == SRV_PLAYING ? "playing" : "waiting", "rules", t->rules_text, "turn_seconds",
                            t->turn_seconds, "seats", seats, "watchers", t->nwatchers);
    add_rules_names(row, &t->rules);
    json_array_append_new(list, row);
  }
  return json_pack("{s:s, s:o}", "type", "tables", "tables", list);
}

void hub_broadcast_lobby(srv_hub *h) {
  json_t *msg = NULL;
  char *text = NULL;
  for (int i = 0; i < h->nclients; i++) {
    if (!h->clients[i].lobby) continue;
    if (!text) {
      msg = hub_tables_json(h);
      text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
      json_decref(msg);
      if (!text) return;
    }
    h->io.send(h->io.ctx, h->clients[i].id, text, strlen(text));
  }
  free(text);
}

void hub_do_games(srv_hub *h, hub_client *c) {
  srv_game_row rows[50];
  int n = 0;
  if (srv_store_games(h->store, rows, 50, &n) != 0) {
    hub_send_error(h, c->id, "games", "%s", srv_store_error(h->store));
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++) {
    json_t *names = json_array();
    for (int s = 0; s < rows[i].nplayers; s++) json_array_append_new(names, json_string(rows[i].names[s]));
    json_t *row = json_pack("{s:I, s:s, s:o, s:[i,i]}", "id", (json_int_t)rows[i].id, "finished", rows[i].finished,
                            "names", names, "score", rows[i].score[0], rows[i].score[1]);
    goita_rules rules;
    if (goita_rules_parse(&rules, rows[i].rules, NULL) == GOITA_OK) add_rules_names(row, &rules);
    json_array_append_new(list, row);
  }
  hub_send_json(h, c->id, json_pack("{s:s, s:o}", "type", "games", "games", list));
}

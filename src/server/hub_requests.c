/* The requests clients send (docs/SERVER.md): hello, create, sit, resume, leave, bot, start,
 * move, watch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_internal.h"

void hub_do_hello(srv_hub *h, hub_client *c, const srv_request *r) {
  srv_player p;
  char token[SRV_TOKEN_SIZE] = "";
  if (r->token[0]) {
    bool found = false;
    if (srv_store_player_by_token(h->store, r->token, &p, &found) != 0) {
      hub_send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
      return;
    }
    if (!found) {
      hub_send_error(h, c->id, "hello", "unknown player_token: say hello without one to be a new player");
      return;
    }
    memcpy(token, r->token, sizeof token);
    if (r->name[0] && strcmp(r->name, p.name) != 0) {
      if (srv_store_player_rename(h->store, p.id, r->name) != 0) {
        hub_send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
        return;
      }
      snprintf(p.name, sizeof p.name, "%s", r->name);
    }
  } else {
    hub_new_token(h, token);
    char name[SRV_NAME_SIZE];
    snprintf(name, sizeof name, "%s", r->name[0] ? r->name : "Player");
    if (srv_store_player_create(h->store, name, token, &p) != 0) {
      hub_send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
      return;
    }
  }
  c->player = p.id;
  snprintf(c->name, sizeof c->name, "%s", p.name);
  hub_send_json(h, c->id,
            json_pack("{s:s, s:{s:I, s:s, s:i, s:i}, s:s}", "type", "welcome", "player", "id", (json_int_t)p.id, "name",
                      p.name, "rating", (int)(p.rating + 0.5), "games", p.games, "player_token", token));
}

static hub_table *waiting_table(srv_hub *h, hub_client *c, const char *request, int64_t id, int seat) {
  hub_table *t = hub_table_get(h, id);
  if (!t) {
    hub_send_error(h, c->id, request, "no table %lld", (long long)id);
    return NULL;
  }
  if (t->status != SRV_WAITING) {
    hub_send_error(h, c->id, request, "table %lld has started", (long long)id);
    return NULL;
  }
  if (seat >= players_of(t)) {
    hub_send_error(h, c->id, request, "table %lld has seats 0 to %d", (long long)id, players_of(t) - 1);
    return NULL;
  }
  if (seat >= 0 && t->seats[seat].player) {
    hub_send_error(h, c->id, request, "seat %d is taken", seat);
    return NULL;
  }
  return t;
}

static bool save_table(srv_hub *h, hub_client *c, const char *request, const hub_table *t) {
  if (hub_table_save(h, t) == 0) return true;
  hub_send_error(h, c->id, request, "not saved: %s", srv_store_error(h->store));
  return false;
}

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r) {
  if (h->open_tables >= h->options.max_tables) {
    hub_send_error(h, c->id, "create", "the server has %d open tables, its most", h->open_tables);
    return;
  }
  const hub_player *owner = hub_player_get(h, c->player);
  const int most = h->options.max_tables_per_player;
  if (owner && most > 0 && owner->open_tables >= most) {
    hub_send_error(h, c->id, "create",
                   "you already have %d open tables (at most %d a player): play or leave one, or wait until it "
                   "expires",
                   owner->open_tables, most);
    return;
  }
  hub_table *t = calloc(1, sizeof *t);
  if (!t) {
    hub_send_error(h, c->id, "create", "out of memory");
    return;
  }
  goita_rules_default(&t->rules);
  goita_error gerr;
  if ((r->rules[0] && goita_rules_parse(&t->rules, r->rules, &gerr) != GOITA_OK) ||
      goita_rules_validate(&t->rules, &gerr) != GOITA_OK) {
    hub_send_error(h, c->id, "create", "rules: %s", gerr.message);
    free(t);
    return;
  }
  goita_rules_format(&t->rules, t->rules_text, sizeof t->rules_text);
  h->io.random(h->io.ctx, &t->seed, sizeof t->seed);
  t->seed &= (UINT64_C(1) << 62) - 1; /* kept positive as an SQLite integer */
  t->turn_seconds = r->turn_seconds;
  t->status = SRV_WAITING;
  t->thinking_version = -1;
  t->owner = c->player;
  t->empty_since_ms = h->io.now_ms(h->io.ctx);
  for (int s = 0; s < GOITA_MAX_SEATS; s++) hub_new_token(h, t->seats[s].token);
  srv_table_row row;
  hub_table_row(t, &row);
  if (srv_store_table_create(h->store, &row) != 0 || (t->id = row.id, hub_table_add(h, t) != 0)) {
    hub_send_error(h, c->id, "create", "not saved: %s", srv_store_error(h->store));
    free(t);
    return;
  }
  hub_send_json(h, c->id, json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)t->id));
  hub_lobby_touch(h, t);
}

static void take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat) {
  if (c->table && (c->table != t->id || c->seat != seat)) hub_detach(h, c);
  hub_seat *s = &t->seats[seat];
  if (s->client && s->client != c->id) { /* the seat moves to the newer connection */
    hub_client *old = hub_client_get(h, s->client);
    if (old) {
      hub_send_error(h, old->id, NULL, "your seat at table %lld was taken back from another connection", (long long)t->id);
      old->table = 0;
      old->seat = -1;
    }
  }
  s->client = c->id;
  s->gone_since_ms = 0;
  c->table = t->id;
  c->seat = seat;
  if (s->stand_in) hub_stand_in_stop(h, t, seat);
  hub_send_json(h, c->id, json_pack("{s:s, s:I, s:i, s:s}", "type", "seated", "table", (json_int_t)t->id, "seat", seat,
                                "seat_token", s->token));
  hub_broadcast_state(h, t);
}

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "sit", r->table, r->seat);
  if (!t) return;
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].player == c->player && !t->seats[s].bot[0]) {
      hub_send_error(h, c->id, "sit", "you already sit at this table, in seat %d", s);
      return;
    }
  hub_seat *seat = &t->seats[r->seat];
  seat->player = c->player;
  snprintf(seat->name, sizeof seat->name, "%s", c->name);
  seat->bot[0] = '\0';
  srv_player p;
  seat->rating = srv_store_player_get(h->store, c->player, &p) == 0 ? p.rating : 1500;
  if (!save_table(h, c, "sit", t)) {
    memset(seat->name, 0, sizeof seat->name);
    seat->player = 0;
    return;
  }
  t->empty_since_ms = 0;
  take_seat(h, c, t, r->seat);
  hub_lobby_touch(h, t);
}

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r) {
  uint64_t id;
  hub_table *t = hub_map_get(&h->seat_index, hub_token_key(r->token), &id) ? hub_table_get(h, (int64_t)id) : NULL;
  for (int s = 0; t && s < players_of(t); s++)
    if (t->seats[s].player && !t->seats[s].bot[0] && strcmp(t->seats[s].token, r->token) == 0) {
      take_seat(h, c, t, s);
      return;
    }
  hub_send_error(h, c->id, "resume", "no seat has this seat_token (the game may be over)");
}

void hub_do_leave(srv_hub *h, hub_client *c) {
  hub_table *t = c->table ? hub_table_get(h, c->table) : NULL;
  if (!t) {
    hub_send_error(h, c->id, "leave", "you are not at a table");
    return;
  }
  if (c->seat >= 0 && t->status == SRV_WAITING) {
    if (hub_free_seat(h, t, c->seat) != 0) {
      hub_send_error(h, c->id, "leave", "not saved: %s", srv_store_error(h->store));
      return;
    }
    c->table = 0;
    c->seat = -1;
    hub_broadcast_state(h, t);
  } else {
    hub_detach(h, c); /* a seat in a game is kept: its token brings its holder back */
  }
  hub_send_json(h, c->id, json_pack("{s:s}", "type", "left"));
}

void hub_do_bot(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "bot", r->table, r->seat);
  if (!t) return;
  srv_player p;
  if (srv_store_bot_player(h->store, r->level, &p) != 0) {
    hub_send_error(h, c->id, "bot", "%s", srv_store_error(h->store));
    return;
  }
  hub_seat *s = &t->seats[r->seat];
  s->player = p.id;
  snprintf(s->name, sizeof s->name, "%s", p.name);
  snprintf(s->bot, sizeof s->bot, "%s", r->level);
  s->rating = p.rating;
  if (!save_table(h, c, "bot", t)) {
    memset(s->name, 0, sizeof s->name);
    memset(s->bot, 0, sizeof s->bot);
    s->player = 0;
    return;
  }
  hub_broadcast_state(h, t);
  hub_lobby_touch(h, t);
}

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "start", r->table, -1);
  if (!t) return;
  if (c->table != t->id || c->seat < 0) {
    hub_send_error(h, c->id, "start", "only a player seated at table %lld can start it", (long long)t->id);
    return;
  }
  for (int s = 0; s < players_of(t); s++)
    if (!t->seats[s].player) {
      hub_send_error(h, c->id, "start", "seat %d is empty: sit someone there or a computer player", s);
      return;
    }
  goita_game game;
  goita_error gerr;
  if (goita_game_start(&game, &t->rules, t->seed, &gerr) != GOITA_OK) {
    hub_send_error(h, c->id, "start", "%s", gerr.message);
    return;
  }
  /* A draw that assigns seats (RULES.md 7) moves the players, in their joining order (the
   * seats they chose), to the seats it gives; their tokens go with them. */
  hub_seat moved[GOITA_MAX_SEATS];
  memcpy(moved, t->seats, sizeof moved);
  for (int p = 0; p < players_of(t); p++) {
    const int to = game.draw.seat_of[p];
    if (to >= 0 && to < players_of(t)) moved[to] = t->seats[p];
  }
  hub_seat before[GOITA_MAX_SEATS];
  memcpy(before, t->seats, sizeof before);
  memcpy(t->seats, moved, sizeof moved);
  t->status = SRV_PLAYING;
  if (!save_table(h, c, "start", t)) {
    memcpy(t->seats, before, sizeof t->seats);
    t->status = SRV_WAITING;
    return;
  }
  t->game = game;
  goita_record_init(&t->record, &t->game);
  hub_record_names(t);
  hub_utc_now(t->round_started);
  snprintf(t->record.started, sizeof t->record.started, "%s", t->round_started);
  if (round_over(t)) hub_round_finished(h, t, true); /* ended at the deal */
  for (int s = 0; s < players_of(t); s++) { /* seated clients follow their seats */
    hub_client *cl = t->seats[s].client ? hub_client_get(h, t->seats[s].client) : NULL;
    if (cl && cl->table == t->id) cl->seat = s;
  }
  hub_arm_timer(h, t);
  hub_broadcast_state(h, t);
  hub_lobby_touch(h, t);
  hub_schedule(h, t, false);
}

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t || c->table != r->table || c->seat < 0) {
    hub_send_error(h, c->id, "move", "you do not sit at table %lld", (long long)r->table);
    return;
  }
  if (r->move.seat != c->seat) {
    hub_send_error(h, c->id, "move", "you are seat %d; \"%s\" is a move of seat %d", c->seat + 1, r->move_text,
               r->move.seat + 1);
    return;
  }
  char err[256];
  if (hub_table_move(h, t, r->move, err, sizeof err) != 0) hub_send_error(h, c->id, "move", "%s", err);
}

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t) {
    hub_send_error(h, c->id, "watch", "no table %lld", (long long)r->table);
    return;
  }
  if (c->table) hub_detach(h, c);
  if (t->nwatchers == t->capwatchers) {
    const int cap = t->capwatchers ? 2 * t->capwatchers : 4;
    uint64_t *grown = realloc(t->watchers, (size_t)cap * sizeof *grown);
    if (!grown) {
      hub_send_error(h, c->id, "watch", "out of memory");
      return;
    }
    t->watchers = grown;
    t->capwatchers = cap;
  }
  t->watchers[t->nwatchers++] = c->id;
  c->table = t->id;
  c->seat = -1;
  hub_send_state(h, t, c->id, -1);
  hub_lobby_touch(h, t);
}

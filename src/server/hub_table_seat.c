/* The table service's seating (hub_table.h): a new table, people and computer players seated,
 * the game started, spectators; what the requests, quick matches, rematches, restores and
 * the bus all call. Its play (moves, rounds, the finished game) is in hub_table.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_chat.h"
#include "hub_clock.h"
#include "hub_lifecycle.h"
#include "hub_limits.h"
#include "hub_lobby.h"
#include "hub_options.h"
#include "hub_players.h"
#include "hub_send.h"
#include "hub_table.h"
#include "hub_view.h"
#include "ratings.h"
#include "secret.h"

hub_table *hub_table_create(srv_hub *h, int64_t owner, const char *rules, int turn_seconds, bool private_table,
                            hub_failure *why) {
  return hub_table_create_seeded(h, owner, rules, turn_seconds, private_table, NULL, why);
}

hub_table *hub_table_create_seeded(srv_hub *h, int64_t owner, const char *rules, int turn_seconds, bool private_table,
                                   const uint64_t *seed, hub_failure *why) {
  if (h->open_tables >= h->options.max_tables) {
    hub_fail(why, SRV_ERR_SERVER_BUSY, HUB_RETRY_FULL_MS, "the server has %d open tables, its most", h->open_tables);
    return NULL;
  }
  if (!hub_table_room(h, owner)) {
    const hub_player *p = hub_player_get(h, owner);
    hub_fail(why, SRV_ERR_TOO_MANY_TABLES, 0,
             "you already have %d open tables (at most %d a player): play or leave one, or wait until it expires",
             p ? p->open_tables : 0, h->options.max_tables_per_player);
    return NULL;
  }
  hub_table *t = calloc(1, sizeof *t);
  if (!t) {
    hub_fail(why, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return NULL;
  }
  goita_rules_default(&t->rules);
  goita_error gerr;
  if ((rules[0] && goita_rules_parse(&t->rules, rules, &gerr) != GOITA_OK) ||
      goita_rules_validate(&t->rules, &gerr) != GOITA_OK) {
    hub_fail(why, SRV_ERR_RULES_INVALID, 0, "rules: %s", gerr.message);
    free(t);
    return NULL;
  }
  goita_rules_format(&t->rules, t->rules_text, sizeof t->rules_text);
  if (seed)
    t->seed = *seed;
  else
    h->io.random(h->io.ctx, &t->seed, sizeof t->seed);
  t->seed &= (UINT64_C(1) << 62) - 1; /* kept positive as an SQLite integer */
  t->turn_seconds = turn_seconds;
  t->status = SRV_WAITING;
  t->thinking_version = -1;
  t->owner = owner;
  t->empty_since_ms = h->io.now_ms(h->io.ctx);
  if (private_table) hub_new_token(h, t->invite);
  srv_table_row row;
  hub_table_row(t, &row);
  if (srv_store_table_create(h->store, &row) != 0 || (t->id = row.id, t->epoch = row.epoch, hub_table_add(h, t) != 0)) {
    hub_fail_store(h, why, "not saved");
    free(t);
    return NULL;
  }
  hub_lobby_touch(h, t); /* a "created" event at the next tick, for a listed table */
  return t;
}

void hub_take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, const char *token) {
  if (c->table && (c->table != t->id || c->seat != seat)) hub_detach(h, c);
  hub_seat *s = &t->seats[seat];
  if (s->client && s->client != c->id) { /* the seat moves to the newer connection */
    hub_client *old = hub_client_get(h, s->client);
    if (old) {
      hub_send_error(h, old->id, NULL, SRV_ERR_SEAT_TAKEN_BACK,
                     "your seat at table %lld was taken back from another connection", (long long)t->id);
      old->table = 0;
      old->seat = -1;
    }
  }
  s->client = c->id;
  s->gone_since_ms = 0;
  t->empty_since_ms = 0; /* a person sits: the table does not wait empty */
  hub_index_seats(h, t); /* its token's hash, new or the same, finds the table for resume */
  c->table = t->id;
  c->seat = seat;
  if (s->stand_in) hub_stand_in_stop(h, t, seat);
  hub_send_json(h, c->id, json_pack("{s:s, s:I, s:i, s:s}", "type", "seated", "table", (json_int_t)t->id, "seat", seat,
                                "seat_token", token));
  hub_broadcast_state(h, t);
  hub_chat_history(h, t, c->id);
}

void hub_seat_person(srv_hub *h, hub_seat *seat, const hub_client *c, char token[SRV_TOKEN_SIZE]) {
  memset(seat, 0, sizeof *seat);
  hub_new_token(h, token);
  srv_token_hash(token, seat->token);
  seat->player = c->player;
  snprintf(seat->name, sizeof seat->name, "%s", c->name);
  seat->bot_account = c->bot_account;
  srv_player p;
  const bool known = srv_store_player_get(h->store, c->player, &p) == 0;
  seat->rating = known ? p.rating : SRV_RATING_START;
  seat->deviation = known ? p.deviation : SRV_DEVIATION_START;
}

int hub_seat_bot(srv_hub *h, hub_seat *seat, int index, const char *level) {
  srv_player p;
  if (srv_store_bot_player(h->store, level, &p) != 0) return -1;
  memset(seat, 0, sizeof *seat);
  seat->player = p.id;
  snprintf(seat->bot, sizeof seat->bot, "%s", level);
  hub_bot_seat_name(seat, index);
  seat->rating = p.rating;
  seat->deviation = p.deviation;
  return 0;
}

int hub_table_start(srv_hub *h, hub_table *t, hub_failure *why) {
  for (int s = 0; s < players_of(t); s++)
    if (!t->seats[s].player) {
      return hub_fail(why, SRV_ERR_SEATS_EMPTY, 0, "seat %d is empty: sit someone there or a computer player", s + 1);
    }
  goita_game game;
  goita_error gerr;
  if (goita_game_start(&game, &t->rules, t->seed, &gerr) != GOITA_OK) {
    return hub_fail(why, SRV_ERR_RULES_INVALID, 0, "%s", gerr.message);
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
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].bot[0]) hub_bot_seat_name(&t->seats[s], s); /* named after the seat the draw gave */
  t->status = SRV_PLAYING;
  if (hub_table_save(h, t) != 0) {
    hub_fail_store(h, why, "not saved");
    memcpy(t->seats, before, sizeof t->seats);
    t->status = SRV_WAITING;
    return -1;
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
  hub_clock_start(t);
  hub_arm_timer(h, t);
  hub_broadcast_state(h, t);
  hub_lobby_touch(h, t);
  hub_schedule(h, t, false);
  return 0;
}

int hub_take_over_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, hub_failure *why) {
  if (!t->take_over) return hub_fail(why, SRV_ERR_TABLE_STARTED, 0, "table %lld has started (its seats are not taken over)", (long long)t->id);
  if (c->table != t->id || c->seat >= 0)
    return hub_fail(why, SRV_ERR_NOT_AT_TABLE, 0, "only a spectator of table %lld may take over a seat", (long long)t->id);
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].player == c->player && !t->seats[s].bot[0])
      return hub_fail(why, SRV_ERR_ALREADY_SEATED, 0, "you sit at this table already, in seat %d", s + 1);
  const hub_seat before = t->seats[seat];
  if (before.bot[0] || !before.stand_in || before.client)
    return hub_fail(why, SRV_ERR_SEAT_TAKEN, 0, "seat %d is taken: only a seat whose person is gone for good may be taken over", seat + 1);
  char token[SRV_TOKEN_SIZE];
  hub_unindex_seats(h, t); /* the gone person's token opens nothing any more */
  hub_seat *s = &t->seats[seat];
  hub_seat_person(h, s, c, token);
  s->bank_ms = before.bank_ms;
  s->left_player = before.left_player ? before.left_player : before.player; /* the first to leave it loses */
  s->stand_in = true; /* until hub_take_seat stops it, its answer dropped */
  if (hub_table_save(h, t) != 0 || hub_options_save(h, t) != 0) {
    t->seats[seat] = before;
    hub_index_seats(h, t);
    return hub_fail_store(h, why, "not saved");
  }
  hub_index_seats(h, t);
  hub_take_seat(h, c, t, seat, token);
  hub_lobby_touch(h, t);
  return 0;
}

void hub_watch(srv_hub *h, hub_client *c, hub_table *t, const char *request) {
  if (c->table) hub_detach(h, c);
  if (t->nwatchers == t->capwatchers) {
    const int cap = t->capwatchers ? 2 * t->capwatchers : 4;
    uint64_t *grown = realloc(t->watchers, (size_t)cap * sizeof *grown);
    if (!grown) {
      hub_send_error_retry(h, c->id, request, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
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
  hub_chat_history(h, t, c->id);
}
static void stop_watching(srv_hub *h, hub_table *t, uint64_t client) {
  for (int i = 0; i < t->nwatchers; i++)
    if (t->watchers[i] == client) {
      t->watchers[i] = t->watchers[--t->nwatchers];
      hub_lobby_touch(h, t); /* the lobby shows how many watch */
      return;
    }
}

/* Detaches a client from its table (the seat is kept for its token). */
void hub_detach(srv_hub *h, hub_client *c) {
  hub_table *t = c->table ? hub_table_get(h, c->table) : NULL;
  if (t && c->seat >= 0) {
    if (t->seats[c->seat].client == c->id) {
      t->seats[c->seat].client = 0;
      hub_seat_gone(h, t, c->seat);
    }
    hub_broadcast_state(h, t); /* the others see the seat disconnected */
  } else if (t) {
    stop_watching(h, t, c->id);
  }
  c->table = 0;
  c->seat = -1;
}

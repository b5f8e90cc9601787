/* The requests clients send about tables (docs/SERVER.md): create, sit, resume, leave, bot,
 * start, move, watch; each checks who asks and what for, and leaves the work to the table
 * service (hub_table.h). Those about players are in hub_players.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_clock.h"
#include "hub_invite.h"
#include "hub_lifecycle.h"
#include "hub_lobby.h"
#include "hub_map.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"
#include "hub_view.h"
#include "ratings.h"
#include "secret.h"

static hub_table *waiting_table(srv_hub *h, hub_client *c, const char *request, int64_t id, int seat) {
  hub_table *t = hub_table_get(h, id);
  if (!t) {
    hub_send_error(h, c->id, request, SRV_ERR_TABLE_UNKNOWN, "no table %lld", (long long)id);
    return NULL;
  }
  if (!hub_table_open_to(t, c)) {
    hub_send_error(h, c->id, request, SRV_ERR_TABLE_PRIVATE, "table %lld is private: join it with its invite code",
                   (long long)id);
    return NULL;
  }
  if (t->status != SRV_WAITING) {
    hub_send_error(h, c->id, request, SRV_ERR_TABLE_STARTED, "table %lld has started", (long long)id);
    return NULL;
  }
  if (seat >= players_of(t)) {
    hub_send_error(h, c->id, request, SRV_ERR_SEAT_INVALID, "table %lld has seats 1 to %d", (long long)id,
                   players_of(t));
    return NULL;
  }
  if (seat >= 0 && t->seats[seat].player) {
    hub_send_error(h, c->id, request, SRV_ERR_SEAT_TAKEN, "seat %d is taken", seat + 1);
    return NULL;
  }
  return t;
}

static bool save_table(srv_hub *h, hub_client *c, const char *request, hub_table *t) {
  if (hub_table_save(h, t) == 0) return true;
  hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "not saved: %s",
                       srv_store_error(h->store));
  return false;
}

/* Seats a table's creator in its first seat, as a sit would: the person who made the table
 * came to play at it. */
static void seat_creator(srv_hub *h, hub_client *c, hub_table *t) {
  char token[SRV_TOKEN_SIZE];
  hub_seat_person(h, &t->seats[0], c, token);
  if (!save_table(h, c, "create", t)) {
    memset(&t->seats[0], 0, sizeof t->seats[0]);
    return;
  }
  hub_take_seat(h, c, t, 0, token);
  hub_lobby_touch(h, t);
}

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_failure why;
  hub_table *t = hub_table_create(h, c->player, r->rules, r->turn_seconds, r->private_table, &why);
  if (!t) {
    hub_send_failure(h, c->id, "create", &why);
    return;
  }
  t->take_over = r->take_over;
  hub_clock_setup(h, t, r->bank_seconds, r->on_timeout); /* saves the options */
  json_t *created = json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)t->id);
  if (created && t->invite[0]) {
    c->invited = t->id; /* its creator may sit at a private table */
    json_object_set_new(created, "invite", json_string(t->invite));
  }
  if (created && r->sit_down) json_object_set_new(created, "seat", json_integer(0)); /* "seated" follows */
  hub_send_json(h, c->id, created);
  if (r->sit_down) seat_creator(h, c, t);
}

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *playing = hub_table_get(h, r->table);
  if (playing && playing->status == SRV_PLAYING && playing->take_over && r->seat < players_of(playing) &&
      hub_table_open_to(playing, c)) {
    hub_failure why;
    if (hub_take_over_seat(h, c, playing, r->seat, &why) != 0) hub_send_failure(h, c->id, "sit", &why);
    return;
  }
  hub_table *t = waiting_table(h, c, "sit", r->table, r->seat);
  if (!t) return;
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].player == c->player && !t->seats[s].bot[0]) {
      hub_send_error(h, c->id, "sit", SRV_ERR_ALREADY_SEATED, "you already sit at this table, in seat %d", s + 1);
      return;
    }
  hub_seat *seat = &t->seats[r->seat];
  char token[SRV_TOKEN_SIZE];
  hub_seat_person(h, seat, c, token);
  if (!save_table(h, c, "sit", t)) {
    memset(seat, 0, sizeof *seat);
    return;
  }
  hub_take_seat(h, c, t, r->seat, token);
  hub_lobby_touch(h, t);
}

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r) {
  char hash[SRV_TOKEN_HASH_SIZE];
  srv_token_hash(r->token, hash); /* seats keep only their token's hash, and are indexed by it */
  uint64_t id;
  hub_table *t = hub_map_get(&h->seat_index, hub_token_key(hash), &id) ? hub_table_get(h, (int64_t)id) : NULL;
  for (int s = 0; t && s < players_of(t); s++)
    if (t->seats[s].player && !t->seats[s].bot[0] && strcmp(t->seats[s].token, hash) == 0) {
      hub_take_seat(h, c, t, s, r->token);
      return;
    }
  hub_send_error(h, c->id, "resume", SRV_ERR_SEAT_UNKNOWN, "no seat has this seat_token (the game may be over)");
}

void hub_do_leave(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  hub_table *t = c->table ? hub_table_get(h, c->table) : NULL;
  if (!t) {
    hub_send_error(h, c->id, "leave", SRV_ERR_NOT_AT_TABLE, "you are not at a table");
    return;
  }
  if (c->seat >= 0 && t->status == SRV_WAITING) {
    if (hub_free_seat(h, t, c->seat) != 0) {
      hub_send_error_retry(h, c->id, "leave", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "not saved: %s",
                           srv_store_error(h->store));
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
  hub_seat *s = &t->seats[r->seat];
  if (hub_seat_bot(h, s, r->seat, r->level) != 0) {
    hub_send_error_retry(h, c->id, "bot", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return;
  }
  if (!save_table(h, c, "bot", t)) {
    memset(s, 0, sizeof *s);
    return;
  }
  hub_broadcast_state(h, t);
  hub_lobby_touch(h, t);
}

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "start", r->table, -1);
  if (!t) return;
  if (c->table != t->id || c->seat < 0) {
    hub_send_error(h, c->id, "start", SRV_ERR_NOT_SEATED, "only a player seated at table %lld can start it",
                   (long long)t->id);
    return;
  }
  hub_failure why;
  if (hub_table_start(h, t, &why) != 0) hub_send_failure(h, c->id, "start", &why);
}

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t || c->table != r->table || c->seat < 0) {
    hub_send_error(h, c->id, "move", SRV_ERR_NOT_SEATED, "you do not sit at table %lld", (long long)r->table);
    return;
  }
  if (r->move.seat != c->seat) {
    hub_send_error(h, c->id, "move", SRV_ERR_WRONG_SEAT, "you are seat %d; \"%s\" is a move of seat %d", c->seat + 1,
                   r->move_text, r->move.seat + 1);
    return;
  }
  hub_failure why;
  if (hub_table_move(h, t, r->move, &why, c->id) != 0) hub_send_failure(h, c->id, "move", &why);
}

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t) {
    hub_send_error(h, c->id, "watch", SRV_ERR_TABLE_UNKNOWN, "no table %lld", (long long)r->table);
    return;
  }
  if (!hub_table_open_to(t, c)) {
    hub_send_error(h, c->id, "watch", SRV_ERR_TABLE_PRIVATE, "table %lld is private: join it with its invite code",
                   (long long)r->table);
    return;
  }
  hub_watch(h, c, t, "watch");
}


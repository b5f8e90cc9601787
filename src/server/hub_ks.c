/* Ko shogi tables in the hub (hub_ks.h): made in the lobby beside Goita's tables, two seats
 * held by players (not connections: a player back on another connection watches the table and
 * plays on), moves, resignation and draws judged by the table's game (ks_table.h), the flag
 * decided by the hub's own clock on its tick, the computer's moves thought off the hub's thread
 * (io.ks_think), and the finished game with its record and both players' new Ko shogi ratings
 * saved on the store thread (io.save_ks_game). Each table and each move is kept in the store
 * before it is announced (synchronously, on the hub's own store), so a new server restores them
 * (hub_ks_restore). With several servers on one database a table is owned as a Goita table is
 * (hub_own.c, docs/SERVER.md "Ownership"): numbered by the database, every write fenced by the
 * epoch this server owns it in, taken over from a server whose lease ran out
 * (hub_ks_reconcile), let go when a write finds another server owns it now. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_ks.h"
#include "hub_limits.h"
#include "hub_lobby.h"
#include "hub_map.h"
#include "hub_own.h"
#include "hub_requests.h"
#include "hub_route.h"
#include "hub_send.h"
#include "ks_levels.h"
#include "ks_message.h"
#include "ks_rating.h"

/* A computer's answer takes well under a second; one missing for this long is asked again. */
#define KS_THINK_GIVE_UP_MS 60000
/* A finished game the store refused is saved again after this long. */
#define KS_SAVE_RETRY_MS 5000

typedef struct ks_seat {
  int64_t player; /* 0: empty */
  char name[SRV_NAME_SIZE];
  char bot[SRV_LEVEL_SIZE]; /* the computer's level, "" for a person */
  srv_ks_rating rating;     /* its Ko shogi rating when it sat down */
} ks_seat;

typedef struct ks_room {
  int64_t id;
  int64_t owner;        /* the player who made it (open tables per player) */
  srv_ks_table game;
  ks_seat seats[2];     /* at KS_BLACK and KS_WHITE */
  char invite[SRV_TOKEN_SIZE]; /* a private table's invite code, "" for a listed one */
  uint64_t *watchers;   /* every connection at the table, seated or watching */
  int nwatchers, capwatchers;
  int64_t created_ms;
  bool open;            /* counted among the open tables (until it is over) */
  int thinking_version; /* plies played when the computer was asked, -1 when not asked */
  int64_t think_asked_ms;
  bool saving, saved;   /* the finished game is out to be saved; saved with game_id */
  int64_t save_retry_ms;
  int64_t game_id;
  srv_ks_rating after[2]; /* the new ratings once rated */
  bool rated;
  bool rematch_asked[2];
  int64_t rematch;      /* the rematch's table once made */
  bool lobby_dirty, announced;
  bool row_stored;      /* the table's row is in the store as it is now */
  int64_t epoch;        /* the epoch this server owns it in (docs/SERVER.md "Ownership") */
  bool lost;            /* another server owns it now: let go by hub_ks_drop_lost */
} ks_room;

struct hub_ks {
  ks_room **rooms; /* in id order */
  int n, cap;
  hub_map index;   /* id -> ks_room *: a request costs the same with 10,000 tables */
};

static const char *side_word(int side) { return side == KS_BLACK ? "black" : "white"; }

static ks_room *room_get(srv_hub *h, int64_t id) {
  uint64_t ptr;
  return h->ks && hub_map_get(&h->ks->index, (uint64_t)id, &ptr) ? (ks_room *)(uintptr_t)ptr : NULL;
}

static void room_free(ks_room *t) {
  srv_ks_table_free(&t->game);
  free(t->watchers);
  free(t);
}

void hub_ks_free(srv_hub *h) {
  if (!h->ks) return;
  for (int i = 0; i < h->ks->n; i++) room_free(h->ks->rooms[i]);
  hub_map_free(&h->ks->index);
  free(h->ks->rooms);
  free(h->ks);
  h->ks = NULL;
}

static void count_open(srv_hub *h, ks_room *t, int delta) {
  t->open = delta > 0;
  h->open_tables += delta;
  hub_player *p = hub_player_get(h, t->owner);
  if (p) p->open_tables += delta;
}

static bool listed(const ks_room *t) { return t->open && !t->invite[0]; }

/* ---- the store, and ownership among several servers ---- */

/* Marks a table lost to another server (logged once, with why): hub_ks_drop_lost lets it go
 * once the request or tick at hand is done with it. */
static void lose(srv_hub *h, ks_room *t, const char *why) {
  if (t->lost) return;
  t->lost = true;
  h->nlost++;
  hub_log(h, "koshogi table %lld lost (epoch %lld): %s", (long long)t->id, (long long)t->epoch, why);
}

/* Passes a store call's status on, first marking the table lost when fencing refused it. */
static int owned(srv_hub *h, ks_room *t, int status) {
  if (status == SRV_STORE_FENCED) lose(h, t, srv_store_error(h->store));
  return status;
}

/* The table's row as stored (srv_ks_table_row). */
static srv_ks_table_row stored_row_of(const ks_room *t) {
  srv_ks_table_row row = {.id = t->id, .owner = t->owner, .main_ms = t->game.clock.main_ms,
                          .byoyomi_ms = t->game.clock.byoyomi_ms, .draw_offer = t->game.draw_offer,
                          .epoch = t->epoch};
  snprintf(row.invite, sizeof row.invite, "%s", t->invite);
  for (int side = KS_BLACK; side <= KS_WHITE; side++) {
    row.players[side] = t->seats[side].player;
    snprintf(row.names[side], sizeof row.names[side], "%s", t->seats[side].name);
    snprintf(row.bots[side], sizeof row.bots[side], "%s", t->seats[side].bot);
  }
  return row;
}

/* Stores the table's row (seated, or its draw offer changed) in its epoch: true when stored. */
static bool store_room(srv_hub *h, ks_room *t) {
  if (t->lost) return false;
  srv_ks_table_row row = stored_row_of(t);
  t->row_stored = owned(h, t, srv_store_ks_table_save(h->store, &row)) == 0;
  if (!t->row_stored)
    hub_log(h, "koshogi table %lld was not stored: %s", (long long)t->id, srv_store_error(h->store));
  return t->row_stored;
}

/* Stores the move just played (its text as it was given, which replays on the same position)
 * with both sides' main time left after it, in the epoch this server owns the table in; and the
 * row again when the move declined a draw offer. Returns false, with the reason in err, when it
 * could not be stored (the table lost, when fencing refused it). */
static bool store_move(srv_hub *h, ks_room *t, const char *move, int draw_offer_before, char *err, size_t errsize) {
  if ((t->row_stored || store_room(h, t)) &&
      owned(h, t,
            srv_store_ks_move_add(h->store, t->id, t->epoch, t->game.game.nplies - 1, move, t->game.clock.left_ms)) ==
          0) {
    if (draw_offer_before != t->game.draw_offer) store_room(h, t); /* (not stored: the move stands, the offer may) */
    return true;
  }
  snprintf(err, errsize, "the move could not be stored, so it was not played: %s", srv_store_error(h->store));
  return false;
}

static void lobby_touch(ks_room *t) { t->lobby_dirty = true; }

/* ---- what is sent ---- */

static json_t *seat_json(const ks_seat *s) {
  if (!s->player) return json_null();
  return json_pack("{s:s, s:s, s:i}", "name", s->name, "bot", s->bot, "rating", (int)(s->rating.rating + 0.5));
}

static json_t *lobby_row(const ks_room *t) {
  return json_pack("{s:s, s:I, s:s, s:I, s:I, s:[o,o], s:i}", "game", "koshogi", "id", (json_int_t)t->id, "status",
                   t->game.started ? "playing" : "waiting", "main_ms", (json_int_t)t->game.clock.main_ms,
                   "byoyomi_ms", (json_int_t)t->game.clock.byoyomi_ms, "seats", seat_json(&t->seats[KS_BLACK]),
                   seat_json(&t->seats[KS_WHITE]), "watchers", t->nwatchers);
}

json_t *hub_ks_lobby_rows(srv_hub *h) {
  json_t *rows = json_array();
  for (int i = 0; rows && h->ks && i < h->ks->n; i++)
    if (listed(h->ks->rooms[i])) json_array_append_new(rows, lobby_row(h->ks->rooms[i]));
  return rows;
}

/* The table's message, the same for everyone at it but "you" (the receiver's side, or null). */
static json_t *table_json(srv_hub *h, const ks_room *t) {
  json_t *msg = srv_ks_message_json(&t->game, t->id, h->io.now_ms(h->io.ctx));
  if (!msg) return NULL;
  json_object_set_new(msg, "seats", json_pack("[o,o]", seat_json(&t->seats[KS_BLACK]), seat_json(&t->seats[KS_WHITE])));
  json_object_set_new(msg, "status", json_string(srv_ks_table_over(&t->game) ? "over"
                                                 : t->game.started          ? "playing"
                                                                            : "waiting"));
  if (t->invite[0]) json_object_set_new(msg, "invite", json_string(t->invite));
  if (t->game_id) json_object_set_new(msg, "game_id", json_integer(t->game_id));
  if (t->rated)
    json_object_set_new(msg, "ratings", json_pack("[i,i]", (int)(t->after[KS_BLACK].rating + 0.5),
                                                  (int)(t->after[KS_WHITE].rating + 0.5)));
  if (srv_ks_table_over(&t->game))
    json_object_set_new(msg, "rematch", json_pack("{s:[b,b], s:o}", "asked", t->rematch_asked[KS_BLACK],
                                                  t->rematch_asked[KS_WHITE], "table",
                                                  t->rematch ? json_integer(t->rematch) : json_null()));
  return msg;
}

/* Sends the table's message to one client, with its side at the table. */
static void send_table_to(srv_hub *h, const ks_room *t, json_t *msg, const hub_client *c) {
  const int side = srv_ks_table_side_of(&t->game, c->player);
  json_object_set_new(msg, "you", side >= 0 ? json_string(side_word(side)) : json_null());
  char *text = srv_json_text(msg, JSON_COMPACT);
  if (text) {
    hub_send_raw(h, c->id, text, strlen(text));
    free(text);
  } else {
    hub_send_error(h, c->id, NULL, SRV_ERR_MESSAGE_LOST, "out of memory for the table's message: watch it again");
  }
}

static void broadcast(srv_hub *h, const ks_room *t) {
  json_t *msg = table_json(h, t);
  for (int i = 0; i < t->nwatchers; i++) {
    const hub_client *c = hub_client_get(h, t->watchers[i]);
    if (!c) continue;
    if (msg)
      send_table_to(h, t, msg, c);
    else
      hub_send_error(h, c->id, NULL, SRV_ERR_MESSAGE_LOST, "out of memory for the table's message: watch it again");
  }
  json_decref(msg);
}

/* ---- watchers ---- */

static void unwatch(ks_room *t, uint64_t client) {
  for (int i = 0; i < t->nwatchers; i++)
    if (t->watchers[i] == client) {
      t->watchers[i] = t->watchers[--t->nwatchers];
      lobby_touch(t);
      return;
    }
}

/* Puts a client at a table (away from the Ko shogi table it was at) and sends it the table.
 * Returns false, with the error sent, when out of memory. */
static bool attend(srv_hub *h, hub_client *c, ks_room *t, const char *request) {
  if (c->ks_table != t->id) {
    ks_room *before = c->ks_table ? room_get(h, c->ks_table) : NULL;
    if (t->nwatchers == t->capwatchers) {
      const int cap = t->capwatchers ? 2 * t->capwatchers : 4;
      uint64_t *grown = realloc(t->watchers, (size_t)cap * sizeof *grown);
      if (!grown) {
        hub_send_error_retry(h, c->id, request, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
        return false;
      }
      t->watchers = grown;
      t->capwatchers = cap;
    }
    if (before) unwatch(before, c->id);
    t->watchers[t->nwatchers++] = c->id;
    c->ks_table = t->id;
    lobby_touch(t);
  }
  json_t *msg = table_json(h, t);
  if (msg) send_table_to(h, t, msg, c);
  json_decref(msg);
  return true;
}

void hub_ks_client_gone(srv_hub *h, const hub_client *c) {
  ks_room *t = c->ks_table ? room_get(h, c->ks_table) : NULL;
  if (t) unwatch(t, c->id);
}

/* ---- the computer ---- */

/* Asks the computer for its move when it is to move and has not been asked at this ply. */
static void schedule(srv_hub *h, ks_room *t);

/* Plays a move for the side to move's player (a person's or the computer's) and what follows:
 * the end, the computer's turn, everyone told. */
static srv_error play(srv_hub *h, ks_room *t, int64_t player, const char *move, char *err, size_t errsize);

static void think_now(srv_hub *h, ks_room *t, const srv_ks_think_job *job) {
  ks_searcher *searcher = ks_searcher_new(16);
  char move[KS_MOVE_TEXT], err[256];
  const srv_ks_level *level = srv_ks_level_find(job->level);
  const int chosen = searcher && level ? srv_ks_think_record(searcher, job->record, level, move) : -1;
  ks_searcher_free(searcher);
  free(job->record);
  if (chosen == 0 && play(h, t, t->seats[t->game.game.pos.to_move].player, move, err, sizeof err) == SRV_ERROR_NONE)
    return;
  t->thinking_version = -1; /* asked again on a later tick */
  t->think_asked_ms = h->io.now_ms(h->io.ctx);
}

static void schedule(srv_hub *h, ks_room *t) {
  if (!t->game.started || srv_ks_table_over(&t->game)) return;
  const ks_seat *mover = &t->seats[t->game.game.pos.to_move];
  if (!mover->bot[0] || t->thinking_version == t->game.game.nplies) return;
  srv_ks_think_job job = {.table = t->id, .version = t->game.game.nplies};
  snprintf(job.level, sizeof job.level, "%s", mover->bot);
  job.record = ks_record_write(&t->game.game, t->seats[KS_BLACK].name, t->seats[KS_WHITE].name);
  t->think_asked_ms = h->io.now_ms(h->io.ctx);
  if (!job.record) return; /* out of memory: asked again after KS_THINK_GIVE_UP_MS */
  t->thinking_version = job.version;
  if (h->io.ks_think)
    h->io.ks_think(h->io.ctx, &job);
  else
    think_now(h, t, &job);
}

void srv_hub_ks_bot_move(srv_hub *h, int64_t table, int version, const char *move) {
  ks_room *t = room_get(h, table);
  if (!t || srv_ks_table_over(&t->game) || t->thinking_version != version || t->game.game.nplies != version)
    return; /* late: the game moved on or ended */
  char err[256];
  if (play(h, t, t->seats[t->game.game.pos.to_move].player, move, err, sizeof err) != SRV_ERROR_NONE) {
    hub_log(h, "koshogi table %lld: the computer's move %s was refused: %s", (long long)table, move, err);
    t->thinking_version = -1;
  }
  hub_drop_lost(h);
}

/* ---- the end ---- */

static void save_done(srv_hub *h, ks_room *t, int status, const char *error, const srv_ks_game_row *game) {
  t->saving = false;
  if (status == SRV_STORE_FENCED) { /* another server owns the table: its result is that server's to store */
    lose(h, t, error);
    return;
  }
  if (status != 0) {
    hub_log(h, "koshogi table %lld: the finished game was not saved: %s", (long long)t->id, error);
    t->save_retry_ms = h->io.now_ms(h->io.ctx) + KS_SAVE_RETRY_MS;
    return;
  }
  t->saved = true;
  t->game_id = game->id;
  broadcast(h, t);
}

/* Sends the finished game to be saved: the record, the result and both new ratings. */
static void save_game(srv_hub *h, ks_room *t) {
  if (t->lost) return; /* (its result is its new owner's to store) */
  srv_ks_game_write w = {.table = t->id};
  srv_ks_game_row *g = &w.game;
  for (int side = KS_BLACK; side <= KS_WHITE; side++) {
    g->players[side] = t->seats[side].player;
    snprintf(g->names[side], sizeof g->names[side], "%s", t->seats[side].name);
    g->rating_before[side] = t->seats[side].rating.rating;
    g->deviation_before[side] = t->seats[side].rating.deviation;
    g->rating_after[side] = t->after[side].rating;
    g->deviation_after[side] = t->after[side].deviation;
  }
  const int result = t->game.result;
  snprintf(g->result, sizeof g->result, "%s", result == KS_BLACK_WINS ? "black" : result == KS_WHITE_WINS ? "white" : "draw");
  snprintf(g->end, sizeof g->end, "%s", srv_ks_end_name(&t->game) ? srv_ks_end_name(&t->game) : "");
  g->moves = t->game.game.nplies;
  g->main_ms = t->game.clock.main_ms;
  g->byoyomi_ms = t->game.clock.byoyomi_ms;
  snprintf(g->invite, sizeof g->invite, "%s", t->invite);
  g->rated = t->rated;
  g->table = t->id;
  g->epoch = t->epoch;
  w.record = srv_ks_record(&t->game, t->seats[KS_BLACK].name, t->seats[KS_WHITE].name);
  t->save_retry_ms = 0;
  if (!w.record) {
    t->save_retry_ms = h->io.now_ms(h->io.ctx) + KS_SAVE_RETRY_MS;
    return;
  }
  t->saving = true;
  if (h->io.save_ks_game) {
    if (h->io.save_ks_game(h->io.ctx, &w) != 0) {
      t->saving = false;
      t->save_retry_ms = h->io.now_ms(h->io.ctx) + KS_SAVE_RETRY_MS;
    }
    return;
  }
  const int status = srv_store_ks_game_save(h->store, g, w.record);
  free(w.record);
  save_done(h, t, status, srv_store_error(h->store), g);
}

void srv_hub_ks_game_saved(srv_hub *h, const srv_ks_game_write *w) {
  ks_room *t = room_get(h, w->table);
  if (!t || !t->saving || t->epoch != w->game.epoch) return; /* the table was let go */
  save_done(h, t, w->status, w->error, &w->game);
  hub_drop_lost(h);
}

/* The game has just ended: no longer open, rated, sent to be saved. */
static void game_ended(srv_hub *h, ks_room *t) {
  count_open(h, t, -1);
  const srv_ks_rating before[2] = {t->seats[KS_BLACK].rating, t->seats[KS_WHITE].rating};
  t->rated = srv_ks_rate(&t->game, before, t->after);
  save_game(h, t);
}

/* After anything that changed a table's game: its end handled, the computer asked, everyone
 * told, the lobby's row refreshed. */
static void changed(srv_hub *h, ks_room *t) {
  if (srv_ks_table_over(&t->game) && t->open) game_ended(h, t);
  schedule(h, t);
  broadcast(h, t);
  lobby_touch(t);
}

static srv_error play(srv_hub *h, ks_room *t, int64_t player, const char *move, char *err, size_t errsize) {
  if (t->lost) {
    snprintf(err, errsize, "Ko shogi table %lld is served by another server now: watch it again", (long long)t->id);
    return SRV_ERR_STORAGE_FAILED;
  }
  const srv_ks_clock clock = t->game.clock;
  const int draw_offer = t->game.draw_offer;
  const srv_error refused = srv_ks_table_move(&t->game, player, move, h->io.now_ms(h->io.ctx), err, errsize);
  if (refused == SRV_ERROR_NONE && !store_move(h, t, move, draw_offer, err, errsize) &&
      srv_ks_table_take_back(&t->game, &clock, draw_offer) == 0)
    return SRV_ERR_STORAGE_FAILED; /* stored before it is announced, or not played */
  if (refused == SRV_ERROR_NONE) h->moves++;
  if (refused == SRV_ERROR_NONE || srv_ks_table_over(&t->game)) changed(h, t); /* (or the flag fell first) */
  return refused;
}

/* ---- tables made and seated ---- */

/* A new table with empty seats under a clock, in the hub's list; NULL when out of memory. */
static ks_room *room_new(srv_hub *h, int64_t id, int64_t owner, int64_t main_ms, int64_t byoyomi_ms) {
  struct hub_ks *ks = h->ks;
  ks_room *t = calloc(1, sizeof *t);
  char err[128];
  if (ks->n == ks->cap) {
    const int cap = ks->cap ? 2 * ks->cap : 16;
    ks_room **grown = realloc(ks->rooms, (size_t)cap * sizeof *grown);
    if (grown) {
      ks->rooms = grown;
      ks->cap = cap;
    }
  }
  if (!t || ks->n == ks->cap || srv_ks_table_init(&t->game, main_ms, byoyomi_ms, err, sizeof err) != 0 ||
      hub_map_put(&ks->index, (uint64_t)id, (uint64_t)(uintptr_t)t) != 0) {
    if (t) srv_ks_table_free(&t->game);
    free(t);
    return NULL;
  }
  t->id = id;
  t->owner = owner;
  t->thinking_version = -1;
  t->created_ms = h->io.now_ms(h->io.ctx);
  int at = ks->n; /* (a table taken over may be older than those held) */
  while (at > 0 && ks->rooms[at - 1]->id > id) at--;
  memmove(&ks->rooms[at + 1], &ks->rooms[at], (size_t)(ks->n - at) * sizeof *ks->rooms);
  ks->rooms[at] = t;
  ks->n++;
  lobby_touch(t);
  return t;
}

static ks_room *room_add(srv_hub *h, hub_client *c, const char *request, int64_t main_ms, int64_t byoyomi_ms,
                         bool private_table) {
  if (!h->ks && !(h->ks = calloc(1, sizeof *h->ks))) {
    hub_send_error_retry(h, c->id, request, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return NULL;
  }
  if (h->open_tables >= h->options.max_tables) {
    hub_send_error_retry(h, c->id, request, SRV_ERR_SERVER_BUSY, HUB_RETRY_FULL_MS,
                         "the server has its most open tables (%d): try again later", h->options.max_tables);
    return NULL;
  }
  if (!hub_table_room(h, c->player)) {
    hub_send_error(h, c->id, request, SRV_ERR_TOO_MANY_TABLES, "you have %d open tables, the most a player may have",
                   h->options.max_tables_per_player);
    return NULL;
  }
  /* numbered by the database, so that no two servers' tables share a number */
  srv_ks_table_row row = {.owner = c->player, .main_ms = main_ms, .byoyomi_ms = byoyomi_ms, .draw_offer = -1};
  if (private_table) hub_new_token(h, row.invite);
  if (srv_store_ks_table_save(h->store, &row) != 0) {
    hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return NULL;
  }
  ks_room *t = room_new(h, row.id, c->player, main_ms, byoyomi_ms);
  if (!t) {
    if (srv_store_ks_table_close(h->store, row.id, row.epoch) != 0)
      hub_log(h, "koshogi table %lld was not closed in the store: %s", (long long)row.id, srv_store_error(h->store));
    hub_send_error_retry(h, c->id, request, SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return NULL;
  }
  snprintf(t->invite, sizeof t->invite, "%s", row.invite);
  t->epoch = row.epoch;
  t->row_stored = true;
  count_open(h, t, +1);
  return t;
}

/* Seats a person (the client's player) or the computer at a level (c NULL) at a side. Returns
 * 0, or -1 with the error sent to the client. */
static int seat(srv_hub *h, ks_room *t, int side, hub_client *c, const char *level, const char *request) {
  ks_seat s = {0};
  srv_player bot;
  const bool stored = c ? true : srv_store_bot_player(h->store, level, &bot) == 0;
  if (stored) {
    s.player = c ? c->player : bot.id;
    snprintf(s.name, sizeof s.name, "%s", c ? c->name : bot.name);
    if (!c) snprintf(s.bot, sizeof s.bot, "%s", level);
  }
  int games;
  if (!stored || srv_store_ks_rating(h->store, s.player, &s.rating.rating, &s.rating.deviation, &games) != 0) {
    if (c) hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return -1;
  }
  const srv_error refused = srv_ks_table_sit(&t->game, side, s.player);
  if (refused != SRV_ERROR_NONE) {
    if (c)
      hub_send_error(h, c->id, request, refused, "%s", refused == SRV_ERR_SEAT_TAKEN ? "someone sits at that side"
                                                       : refused == SRV_ERR_ALREADY_SEATED ? "you sit at this table already"
                                                                                           : "the game has started");
    return -1;
  }
  t->seats[side] = s;
  if (srv_ks_table_start(&t->game, h->io.now_ms(h->io.ctx)) == SRV_ERROR_NONE) schedule(h, t);
  lobby_touch(t);
  return 0;
}

void hub_do_ks_create(srv_hub *h, hub_client *c, const srv_request *r) {
  const int main_minutes = r->ks.main_minutes >= 0 ? r->ks.main_minutes : 10;
  const int byoyomi = r->ks.byoyomi_seconds >= 0 ? r->ks.byoyomi_seconds : 30;
  if (main_minutes == 0 && byoyomi == 0) {
    hub_send_error(h, c->id, "ks_create", SRV_ERR_BAD_REQUEST,
                   "a game online needs a clock: a main time or a byoyomi (or both) above 0");
    return;
  }
  if (r->level[0] && r->ks.side < 0) {
    hub_send_error(h, c->id, "ks_create", SRV_ERR_BAD_REQUEST,
                   "against the computer, say your side: \"side\": \"black\" or \"white\"");
    return;
  }
  ks_room *t = room_add(h, c, "ks_create", (int64_t)main_minutes * 60000, (int64_t)byoyomi * 1000, r->private_table);
  if (!t) return;
  if (t->invite[0]) c->invited = t->id; /* its maker may sit at its private table */
  json_t *created = json_pack("{s:s, s:I}", "type", "ks_created", "table", (json_int_t)t->id);
  if (created && t->invite[0]) json_object_set_new(created, "invite", json_string(t->invite));
  hub_send_json(h, c->id, created);
  if (r->ks.side >= 0) seat(h, t, r->ks.side, c, NULL, "ks_create");
  if (r->level[0] && t->seats[r->ks.side].player) seat(h, t, 1 - r->ks.side, NULL, r->level, "ks_create");
  if (t->seats[KS_BLACK].player || t->seats[KS_WHITE].player)
    store_room(h, t); /* (a row not stored is stored again with the first move) */
  attend(h, c, t, "ks_create");
}

/* The table a request names, open to the client (listed, or private and invited or seated);
 * NULL with the error sent. */
static ks_room *open_room(srv_hub *h, hub_client *c, const char *request, int64_t id) {
  ks_room *t = room_get(h, id);
  if (!t) {
    hub_send_error(h, c->id, request, SRV_ERR_TABLE_UNKNOWN, "no Ko shogi table %lld", (long long)id);
    return NULL;
  }
  if (t->invite[0] && c->invited != t->id && srv_ks_table_side_of(&t->game, c->player) < 0) {
    hub_send_error(h, c->id, request, SRV_ERR_TABLE_PRIVATE, "table %lld is private: join it with its invite code",
                   (long long)id);
    return NULL;
  }
  return t;
}

void hub_do_ks_sit(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = open_room(h, c, "ks_sit", r->table);
  if (!t || seat(h, t, r->ks.side, c, NULL, "ks_sit") != 0) return;
  store_room(h, t);
  attend(h, c, t, "ks_sit");
  broadcast(h, t);
}

void hub_do_ks_watch(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = open_room(h, c, "ks_watch", r->table);
  if (t) attend(h, c, t, "ks_watch");
}

void hub_do_ks_join(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *found = NULL;
  for (int i = 0; h->ks && i < h->ks->n && !found; i++)
    if (h->ks->rooms[i]->invite[0] && strcmp(h->ks->rooms[i]->invite, r->invite) == 0) found = h->ks->rooms[i];
  if (!found) {
    hub_send_error(h, c->id, "ks_join", SRV_ERR_INVITE_UNKNOWN, "no open Ko shogi table has this invite code");
    return;
  }
  c->invited = found->id;
  attend(h, c, found, "ks_join");
}

/* The table of a game request by a player seated at it; NULL with the error sent. */
static ks_room *seated_room(srv_hub *h, hub_client *c, const char *request, int64_t id) {
  ks_room *t = room_get(h, id);
  if (!t || srv_ks_table_side_of(&t->game, c->player) < 0) {
    hub_send_error(h, c->id, request, SRV_ERR_NOT_SEATED, "you do not sit at Ko shogi table %lld", (long long)id);
    return NULL;
  }
  return t;
}

/* Sends a refusal of the game (ks_table.h) with words for people. */
static void send_refusal(srv_hub *h, hub_client *c, const char *request, srv_error refused, const char *why) {
  if (refused == SRV_ERR_STORAGE_FAILED || refused == SRV_ERR_SERVER_BUSY) { /* not played: it may be sent again */
    hub_send_error_retry(h, c->id, request, refused,
                         refused == SRV_ERR_STORAGE_FAILED ? HUB_RETRY_STORE_MS : HUB_RETRY_MEMORY_MS, "%s", why);
    return;
  }
  const char *text = refused == SRV_ERR_NOT_PLAYING     ? "no game is being played at the table (not started, or over)"
                     : refused == SRV_ERR_WRONG_SEAT    ? "it is your opponent's turn"
                     : refused == SRV_ERR_DRAW_NOT_OFFERED ? "your opponent has no draw offer standing"
                                                           : why;
  hub_send_error(h, c->id, request, refused, "%s", text);
}

void hub_do_ks_move(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = seated_room(h, c, "ks_move", r->table);
  if (!t) return;
  char err[256] = "";
  const srv_error refused = play(h, t, c->player, r->ks.move, err, sizeof err);
  if (refused != SRV_ERROR_NONE) send_refusal(h, c, "ks_move", refused, err);
}

void hub_do_ks_resign(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = seated_room(h, c, "ks_resign", r->table);
  if (!t) return;
  const bool over = srv_ks_table_over(&t->game);
  const srv_error refused = srv_ks_table_resign(&t->game, c->player, h->io.now_ms(h->io.ctx));
  if (refused != SRV_ERROR_NONE) send_refusal(h, c, "ks_resign", refused, "");
  if (srv_ks_table_over(&t->game) && !over) changed(h, t); /* resigned, or the flag fell first */
}

void hub_do_ks_draw(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = seated_room(h, c, "ks_draw", r->table);
  if (!t) return;
  const int64_t now = h->io.now_ms(h->io.ctx);
  const bool over = srv_ks_table_over(&t->game);
  const srv_error refused = r->ks.draw == SRV_KS_DRAW_OFFER
                                ? srv_ks_table_offer_draw(&t->game, c->player, now)
                                : srv_ks_table_answer_draw(&t->game, c->player, r->ks.draw == SRV_KS_DRAW_ACCEPT, now);
  if (refused != SRV_ERROR_NONE) {
    send_refusal(h, c, "ks_draw", refused, "");
    if (srv_ks_table_over(&t->game) && !over) changed(h, t); /* the flag fell first */
    return;
  }
  const int opponent = 1 - srv_ks_table_side_of(&t->game, c->player);
  /* the computer declines every offer: it plays on */
  if (r->ks.draw == SRV_KS_DRAW_OFFER && t->seats[opponent].bot[0])
    srv_ks_table_answer_draw(&t->game, t->seats[opponent].player, false, now);
  if (!srv_ks_table_over(&t->game)) store_room(h, t); /* the offer standing, or none, across a restart */
  changed(h, t);
}

/* Makes the rematch once every person seated asked: a new table under the same clock with the
 * colours swapped (private again, under a new invite code), everyone at the old table brought
 * to it. */
static void make_rematch(srv_hub *h, hub_client *c, ks_room *t) {
  ks_room *next = room_add(h, c, "ks_rematch", t->game.clock.main_ms, t->game.clock.byoyomi_ms, t->invite[0] != 0);
  if (!next) return;
  for (int side = KS_BLACK; side <= KS_WHITE; side++) {
    const ks_seat *s = &t->seats[side];
    next->seats[1 - side] = *s;
    if (t->rated) next->seats[1 - side].rating = t->after[side];
    srv_ks_table_sit(&next->game, 1 - side, s->player);
  }
  srv_ks_table_start(&next->game, h->io.now_ms(h->io.ctx));
  store_room(h, next);
  t->rematch = next->id;
  broadcast(h, t);
  while (t->nwatchers > 0) {
    const uint64_t id = t->watchers[0];
    hub_client *w = hub_client_get(h, id);
    unwatch(t, id);
    if (w && w->ks_table == t->id) w->ks_table = 0;
    if (w) attend(h, w, next, "ks_rematch");
  }
  schedule(h, next);
}

void hub_do_ks_rematch(srv_hub *h, hub_client *c, const srv_request *r) {
  ks_room *t = seated_room(h, c, "ks_rematch", r->table);
  if (!t) return;
  if (!srv_ks_table_over(&t->game) || !t->saved) {
    hub_send_error(h, c->id, "ks_rematch", SRV_ERR_GAME_NOT_OVER, "a rematch is asked after the game is over and saved");
    return;
  }
  if (t->rematch) {
    hub_send_error(h, c->id, "ks_rematch", SRV_ERR_REMATCH_STARTED, "the rematch is table %lld", (long long)t->rematch);
    return;
  }
  t->rematch_asked[srv_ks_table_side_of(&t->game, c->player)] = true;
  bool all = true;
  for (int side = KS_BLACK; side <= KS_WHITE; side++) all &= t->rematch_asked[side] || t->seats[side].bot[0];
  if (all)
    make_rematch(h, c, t);
  else
    broadcast(h, t);
}

/* ---- the tick ---- */

/* Whether a table goes from memory: a waiting one whose waiting time is up, or a finished and
 * saved one nobody is at. */
static bool done_with(srv_hub *h, const ks_room *t, int64_t now) {
  if (t->game.started) return t->saved && t->nwatchers == 0;
  const int expiry = h->options.waiting_table_expiry_ms;
  if (expiry <= 0 || now - t->created_ms < expiry) return false;
  for (int i = 0; i < t->nwatchers; i++) { /* a person seated and still here waits on */
    const hub_client *c = hub_client_get(h, t->watchers[i]);
    if (c && srv_ks_table_side_of(&t->game, c->player) >= 0) return false;
  }
  return true;
}

static void send_lobby(srv_hub *h, ks_room *t) {
  t->lobby_dirty = false;
  if (!listed(t)) {
    if (t->announced) hub_lobby_event(h, "removed", json_pack("{s:s, s:I}", "game", "koshogi", "id", (json_int_t)t->id));
    t->announced = false;
  } else {
    hub_lobby_event(h, t->announced ? "changed" : "created", lobby_row(t));
    t->announced = true;
  }
}

static void room_remove(srv_hub *h, int i) {
  ks_room *t = h->ks->rooms[i];
  if (t->open) count_open(h, t, -1);
  t->open = false;
  if (t->announced) send_lobby(h, t);
  for (int j = 0; j < t->nwatchers; j++) {
    hub_client *c = hub_client_get(h, t->watchers[j]);
    if (c && c->ks_table == t->id) c->ks_table = 0;
  }
  /* a game played was closed in the store by its save; a table let go waiting is closed here
   * (one lost to another server is that server's to close) */
  if (!t->lost && !t->game.started && srv_store_ks_table_close(h->store, t->id, t->epoch) != 0)
    hub_log(h, "koshogi table %lld was not closed in the store: %s", (long long)t->id, srv_store_error(h->store));
  hub_map_del(&h->ks->index, (uint64_t)t->id);
  room_free(t);
  memmove(&h->ks->rooms[i], &h->ks->rooms[i + 1], (size_t)(h->ks->n - i - 1) * sizeof *h->ks->rooms);
  h->ks->n--;
}

/* Lets a table go that this server does not own (lost, or half taken over): its clients leave
 * it, its lobby row goes, nothing is written. */
static void room_remove_lost(srv_hub *h, int i) {
  h->ks->rooms[i]->lost = true; /* (room_remove closes nothing in the store for it) */
  room_remove(h, i);
}

void hub_ks_tick(srv_hub *h, int64_t now) {
  for (int i = 0; h->ks && i < h->ks->n; i++) {
    ks_room *t = h->ks->rooms[i];
    if (t->lost) continue; /* (let go by hub_drop_lost, before this tick and after it) */
    if (srv_ks_table_tick(&t->game, now)) {
      changed(h, t); /* the flag fell: the server's clock decides */
    } else if (t->save_retry_ms && now >= t->save_retry_ms && !t->saving && !t->saved) {
      save_game(h, t);
    } else if (t->thinking_version >= 0 && now - t->think_asked_ms > KS_THINK_GIVE_UP_MS) {
      t->thinking_version = -1;
      schedule(h, t);
    } else if (t->thinking_version < 0 && now - t->think_asked_ms > HUB_RETRY_MEMORY_MS) {
      schedule(h, t); /* a refused or unasked computer's turn */
    }
    if (done_with(h, t, now)) {
      room_remove(h, i--);
      continue;
    }
    if (t->lobby_dirty) send_lobby(h, t);
  }
  hub_drop_lost(h); /* a write of this tick may have found its table lost */
}

/* ---- restored at start ---- */

typedef struct ks_stored {
  srv_ks_table_row *rows;
  int n, cap;
  bool out_of_memory;
} ks_stored;

static void stored_row(void *ctx, const srv_ks_table_row *row) {
  ks_stored *st = ctx;
  if (st->n == st->cap) {
    const int cap = st->cap ? 2 * st->cap : 16;
    srv_ks_table_row *grown = realloc(st->rows, (size_t)cap * sizeof *grown);
    if (!grown) {
      st->out_of_memory = true;
      return;
    }
    st->rows = grown;
    st->cap = cap;
  }
  st->rows[st->n++] = *row;
}

typedef struct ks_replay {
  ks_room *t;
  int64_t left_ms[2]; /* as stored with the last move */
  char err[256];
  bool failed;
} ks_replay;

static void stored_move(void *ctx, const char *move, const int64_t left_ms[2]) {
  ks_replay *r = ctx;
  if (r->failed) return;
  char why[200];
  if (srv_ks_table_replay(&r->t->game, move, why, sizeof why) != SRV_ERROR_NONE) {
    snprintf(r->err, sizeof r->err, "Ko shogi table %lld, move %d \"%s\" does not replay: %s", (long long)r->t->id,
             r->t->game.game.nplies + 1, move, why);
    r->failed = true;
    return;
  }
  r->left_ms[KS_BLACK] = left_ms[KS_BLACK];
  r->left_ms[KS_WHITE] = left_ms[KS_WHITE];
}

/* Brings one stored table back: its seats with the players' ratings now, its moves replayed,
 * its clock resumed at now. Returns 0, or -1 with the reason in err. */
static int restore_room(srv_hub *h, const srv_ks_table_row *row, char *err, size_t errsize) {
  ks_room *t = room_new(h, row->id, row->owner, row->main_ms, row->byoyomi_ms);
  if (!t) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  snprintf(t->invite, sizeof t->invite, "%s", row->invite);
  t->epoch = row->epoch;
  count_open(h, t, +1);
  for (int side = KS_BLACK; side <= KS_WHITE; side++) {
    ks_seat *s = &t->seats[side];
    if (!row->players[side]) continue;
    s->player = row->players[side];
    snprintf(s->name, sizeof s->name, "%s", row->names[side]);
    snprintf(s->bot, sizeof s->bot, "%s", row->bots[side]);
    int games;
    if (srv_store_ks_rating(h->store, s->player, &s->rating.rating, &s->rating.deviation, &games) != 0 ||
        srv_ks_table_sit(&t->game, side, s->player) != SRV_ERROR_NONE) {
      snprintf(err, errsize, "Ko shogi table %lld: %s", (long long)row->id, srv_store_error(h->store));
      return -1;
    }
  }
  t->row_stored = true;
  ks_replay r = {.t = t, .left_ms = {row->main_ms, row->main_ms}};
  if (srv_store_ks_moves(h->store, row->id, stored_move, &r) != 0) {
    snprintf(err, errsize, "%s", srv_store_error(h->store));
    return -1;
  }
  if (r.failed) {
    snprintf(err, errsize, "%s", r.err);
    return -1;
  }
  if (t->seats[KS_BLACK].player && t->seats[KS_WHITE].player)
    srv_ks_table_resume(&t->game, r.left_ms, h->io.now_ms(h->io.ctx));
  if (srv_ks_table_over(&t->game))
    game_ended(h, t); /* its last move was stored, its save was not */
  else if (t->game.started && (row->draw_offer == KS_BLACK || row->draw_offer == KS_WHITE))
    t->game.draw_offer = row->draw_offer;
  schedule(h, t);
  return 0;
}

int hub_ks_restore(srv_hub *h, char *err, size_t errsize) {
  ks_stored st = {0};
  if (srv_store_ks_tables_open(h->store, stored_row, &st) != 0) {
    snprintf(err, errsize, "%s", srv_store_error(h->store));
    free(st.rows);
    return -1;
  }
  int status = 0;
  if (st.out_of_memory || (st.n > 0 && !h->ks && !(h->ks = calloc(1, sizeof *h->ks)))) {
    snprintf(err, errsize, "out of memory");
    status = -1;
  }
  for (int i = 0; status == 0 && i < st.n; i++) status = restore_room(h, &st.rows[i], err, errsize);
  free(st.rows);
  return status;
}

/* ---- several servers ---- */

bool hub_ks_holds(srv_hub *h, int64_t table) { return room_get(h, table) != NULL; }

bool hub_ks_invite_here(srv_hub *h, const char *invite) {
  for (int i = 0; h->ks && i < h->ks->n; i++)
    if (h->ks->rooms[i]->invite[0] && strcmp(h->ks->rooms[i]->invite, invite) == 0) return true;
  return false;
}

/* The position of a table in the owned list (in id order), or -1. */
static int owned_at(const int64_t *ids, int n, int64_t id) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ids[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ids[lo] == id ? lo : -1;
}

void hub_ks_reconcile(srv_hub *h, const int64_t *ids, const int64_t *epochs, int n) {
  for (int i = 0; h->ks && i < h->ks->n; i++) {
    ks_room *t = h->ks->rooms[i];
    /* (a finished game's row went with its save; one being saved says itself whether it is still
     * this server's) */
    if (t->lost || !t->open || t->saving) continue;
    const int at = owned_at(ids, n, t->id);
    if (at < 0)
      lose(h, t, "the database names another server as its owner");
    else if (epochs[at] != t->epoch)
      lose(h, t, "claimed again in a later epoch: restored from the database");
  }
  hub_drop_lost(h);
  for (int k = 0; k < n; k++) {
    if (room_get(h, ids[k])) continue;
    srv_ks_table_row row;
    bool found = false;
    char err[256];
    if (srv_store_ks_table_load(h->store, ids[k], &row, &found) != 0 || !found) continue; /* next renewal */
    if ((!h->ks && !(h->ks = calloc(1, sizeof *h->ks))) || restore_room(h, &row, err, sizeof err) != 0) {
      hub_log(h, "koshogi table %lld not taken over: %s", (long long)ids[k], h->ks ? err : "out of memory");
      ks_room *half = room_get(h, ids[k]); /* (a table half restored is not kept) */
      for (int i = 0; half && i < h->ks->n; i++)
        if (h->ks->rooms[i] == half) room_remove_lost(h, i);
      continue;
    }
    ks_room *t = room_get(h, ids[k]);
    hub_log(h, "koshogi table %lld taken over (epoch %lld, %d moves)", (long long)t->id, (long long)t->epoch,
            t->game.game.nplies);
    hub_lobby_remote_forget(h, t->id); /* the lobby's row of it is this server's now */
    hub_route_table_id_here(h, t->id);
  }
}

void hub_ks_drop_lost(srv_hub *h) {
  for (int i = h->ks ? h->ks->n - 1 : -1; i >= 0; i--) {
    ks_room *t = h->ks->rooms[i];
    if (!t->lost) continue;
    char node[SRV_NODE_SIZE];
    hub_owner_now(h, t->id, node);
    for (int w = 0; w < t->nwatchers; w++) hub_send_moved(h, t->watchers[w], t->id, node);
    hub_log(h, "koshogi table %lld let go%s%s", (long long)t->id, node[0] ? ": served by " : "", node);
    room_remove_lost(h, i);
    /* the lobby here gets the new owner's row of it (this server ignored it while it held it) */
    if (node[0] && hub_bus_on(h)) hub_bus_publish(h, node, json_pack("{s:s, s:s}", "kind", "sync", "node", h->options.node));
  }
}

/* The hub's own parts, shared by its files (hub.c, hub_view.c, hub_table.c, hub_restore.c,
 * hub_requests.c); nothing outside the hub includes this. */
#ifndef GOITA_SERVER_HUB_INTERNAL_H
#define GOITA_SERVER_HUB_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "hub.h"
#include "protocol.h"

typedef struct hub_seat {
  int64_t player; /* 0: empty */
  char name[SRV_NAME_SIZE];
  char bot[SRV_LEVEL_SIZE]; /* level of a computer player, "" for a person */
  double rating;
  char token[SRV_TOKEN_SIZE];
  uint64_t client; /* the connection acting for the seat, 0 when none */
  int64_t gone_since_ms; /* a person's seat with no connection: since when (0 otherwise) */
  bool stand_in;         /* a computer player moves for its gone holder until they resume */
} hub_seat;

typedef struct hub_table {
  int64_t id;
  goita_rules rules;
  char rules_text[512];
  uint64_t seed;
  int turn_seconds;
  int status;
  hub_seat seats[GOITA_MAX_SEATS];
  goita_game game;
  goita_record record;
  char round_started[GOITA_RECORD_TIME_SIZE];
  int version;            /* moves played (and saved) */
  int thinking_version;   /* version a think job is out for, -1 when none */
  int64_t think_asked_ms; /* when it was asked for: a job lost (out of memory) is asked again */
  int64_t deadline_ms;    /* of the turn timer, 0 when none runs */
  int64_t next_round_ms;  /* when the next round is dealt, 0 when not waiting */
  int64_t save_retry_ms;  /* when to try again to save a finished game the storage refused */
  char previous_round[1024]; /* the last finished round in full, for spectators */
  int64_t game_id;
  uint64_t *watchers;
  int nwatchers, capwatchers;
  int64_t owner;          /* the player who created it (open tables per player) */
  int64_t empty_since_ms; /* waiting with no person seated: since when (0 otherwise) */
  bool lobby_dirty;       /* its lobby row changed since the last tick */
  bool announced;         /* lobby listeners may know it (a "created" went out, or restored) */
} hub_table;

typedef struct hub_client {
  uint64_t id;
  int64_t player; /* 0 until hello */
  char name[SRV_NAME_SIZE];
  bool lobby;     /* gets the table list when it changes */
  int64_t table;  /* the table it sits at or watches, 0 for none */
  int seat;       /* its seat there, -1 when watching */
} hub_client;

/* A hash map from a 64-bit key to a 64-bit value (hub_map.c). */
typedef struct hub_map_entry {
  uint64_t key, value;
  bool used;
} hub_map_entry;

typedef struct hub_map {
  hub_map_entry *entries;
  size_t cap, count; /* cap is 0 or a power of two */
} hub_map;

/* What the hub keeps per player who did something (hub_limits.c). */
typedef struct hub_player {
  int open_tables;       /* created by the player and not over */
  int64_t tokens_milli;  /* the request bucket, in thousandths of a request */
  int64_t refilled_ms;
} hub_player;

struct srv_hub {
  srv_store *store;
  srv_hub_io io;
  srv_hub_options options;
  hub_table **tables; /* in id order, for the lobby's pages */
  int ntables, captables;
  hub_client *clients;
  int nclients, capclients;
  long moves;
  int open_tables;        /* tables not over */
  hub_map table_index;    /* table id -> hub_table * */
  hub_map client_index;   /* client id -> its position in clients */
  hub_map seat_index;     /* a seat token's first 16 hex digits -> its table's id */
  hub_map player_index;   /* player id -> hub_player * */
  int64_t *lobby_dirty;   /* tables whose lobby row changed since the last tick */
  int nlobby_dirty, caplobby_dirty;
  int64_t *lobby_removed; /* tables gone from memory since the last tick */
  int nlobby_removed, caplobby_removed;
  int64_t prune_ms;       /* when idle players' entries are next dropped */
};

static inline int players_of(const hub_table *t) { return t->rules.players; }

static inline bool round_over(const hub_table *t) { return goita_round_over(&t->game.round); }

/* Shared by the hub's files. */
void hub_send_text(srv_hub *h, uint64_t client, char *text);

void hub_send_error(srv_hub *h, uint64_t client, const char *request, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void hub_send_json(srv_hub *h, uint64_t client, json_t *msg);

void hub_new_token(srv_hub *h, char token[SRV_TOKEN_SIZE]);

void hub_utc_now(char out[GOITA_RECORD_TIME_SIZE]);

hub_client *hub_client_get(srv_hub *h, uint64_t id);

hub_table *hub_table_get(srv_hub *h, int64_t id);

/* Sends one client the table as it may see it: a seat's view, or the observer's. */
void hub_send_state(srv_hub *h, const hub_table *t, uint64_t client, int seat);

void hub_broadcast_state(srv_hub *h, const hub_table *t);

/* ---- the lobby (hub_lobby.c) ---- */

/* Notes that a table's lobby row changed (created, seats, status, watchers, over): listeners
 * get one "lobby" event for it at the next tick. */
void hub_lobby_touch(srv_hub *h, hub_table *t);

/* Sends listeners the events of the tables touched since the last tick. */
void hub_lobby_flush(srv_hub *h);

void hub_do_list(srv_hub *h, hub_client *c, const srv_request *r);

/* ---- indexes (hub_map.c) ---- */

bool hub_map_get(const hub_map *m, uint64_t key, uint64_t *value);
/* Returns 0, or -1 when out of memory (the map is unchanged). */
int hub_map_put(hub_map *m, uint64_t key, uint64_t value);
void hub_map_del(hub_map *m, uint64_t key);
void hub_map_free(hub_map *m);

/* Indexes a table's seat tokens (at its creation, restore, or after a token changes), or drops
 * them (before it is freed or a token changes). */
void hub_index_seats(srv_hub *h, const hub_table *t);
/* The first 16 hex digits of a seat token as a number: tokens are random, so it is a fine key. */
uint64_t hub_token_key(const char *token);
void hub_unindex_seats(srv_hub *h, const hub_table *t);

/* ---- per-player limits (hub_limits.c) ---- */

/* The player's entry, made when missing; NULL when out of memory. */
hub_player *hub_player_get(srv_hub *h, int64_t player);

/* Takes one request from the sender's bucket; false (with the error sent) when it is empty. */
bool hub_rate_take(srv_hub *h, hub_client *c, const char *request);

/* Counts a table as open for its owner, or no longer (once it is over). */
void hub_count_open(srv_hub *h, hub_table *t, int delta);

/* Drops entries of players with nothing open and a full bucket (every minute). */
void hub_players_prune(srv_hub *h);

/* ---- table lifecycle (hub_lifecycle.c) ---- */

/* Empties a waiting table's seat, with a new token (the old one no longer opens it), and saves
 * it; returns 0, or -1 (the seat unchanged) when the store refuses. */
int hub_free_seat(srv_hub *h, hub_table *t, int seat);

/* A person's seat lost its connection: its grace period starts. */
void hub_seat_gone(srv_hub *h, hub_table *t, int seat);

/* Whether a person (not a computer or a stand-in) is seated at the table. */
bool hub_has_person(const hub_table *t);

/* Frees waiting seats, puts in stand-ins, expires and abandons tables whose time has come. */
void hub_lifecycle_tick(srv_hub *h, hub_table *t, int64_t now);

/* A seat's holder is back: its stand-in stops at once. */
void hub_stand_in_stop(srv_hub *h, hub_table *t, int seat);

void hub_table_row(const hub_table *t, srv_table_row *row);

void hub_table_free(hub_table *t);

/* Adds a table (in id order) and indexes it; returns -1 when out of memory. */
int hub_table_add(srv_hub *h, hub_table *t);

/* Removes the table at position i from memory, with its indexes. */
void hub_table_remove(srv_hub *h, int i);

/* Saves a table's status and seats; returns 0, or -1 with the store's error. */
int hub_table_save(srv_hub *h, const hub_table *t);

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
void hub_schedule(srv_hub *h, hub_table *t, bool timed_out);

/* Starts the turn timer when a person is to move. */
void hub_arm_timer(srv_hub *h, hub_table *t);

/* Writes a table's record as JSON and its rounds as history strings, one a line (both
 * malloc'd); returns 0, or -1 when out of memory. */
int hub_record_texts(const hub_table *t, char **json, char **histories);

/* The game is over: the record, its history strings and the new ratings are saved together. */
void hub_finish_game(srv_hub *h, hub_table *t);

/* Deals the next round; one that ends at the deal (teyaku, 5 pawns twice) is finished at once. */
void hub_deal_next(srv_hub *h, hub_table *t, bool live);

/* A round is over: it goes into the record; a finished game is saved; otherwise the next round
 * is dealt after the pause (at once when there is none). While restoring (not live) the moves
 * that follow deal it. */
void hub_round_finished(srv_hub *h, hub_table *t, bool live);

/* Plays a move at a table: checked on a copy, saved, then applied and announced. Returns 0, or
 * -1 with the reason in err. */
int hub_table_move(srv_hub *h, hub_table *t, goita_move move, char *err, size_t errsize);

void hub_record_names(hub_table *t);

/* Detaches a client from its table (the seat is kept for its token). */
void hub_detach(srv_hub *h, hub_client *c);

void hub_do_hello(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leave(srv_hub *h, hub_client *c);

void hub_do_bot(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_games(srv_hub *h, hub_client *c, const srv_request *r);

#endif

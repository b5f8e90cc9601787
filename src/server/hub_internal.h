/* The hub's own parts, shared by its files (hub*.c); nothing outside the hub includes this. */
#ifndef GOITA_SERVER_HUB_INTERNAL_H
#define GOITA_SERVER_HUB_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "hub.h"
#include "protocol.h"

typedef struct hub_seat {
  int64_t player; /* 0: empty */
  char name[SRV_NAME_SIZE]; /* a computer's is "Computer 2 · expert" (hub_bot_seat_name) */
  char bot[SRV_LEVEL_SIZE]; /* level of a computer player, "" for a person */
  double rating, deviation;
  char token[SRV_TOKEN_HASH_SIZE]; /* the seat token's hash (secret.h): the token itself is never kept */
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
  char invite[SRV_TOKEN_SIZE]; /* a private table's invite code, "" for a table in the lobby */
  struct {
    bool asked[GOITA_MAX_SEATS]; /* seats whose players asked for a rematch (hub_rematch.c) */
    int64_t deadline_ms;         /* when those who asked get it anyway, 0 until someone asks */
    int64_t table;               /* the rematch's table once made */
  } rematch;
  struct hub_chat *chat; /* the last lines said at the table (hub_chat.c), NULL before the first */
  /* Several servers (hub_own.c): the ownership epoch this server holds the table in, named by
   * every write for it; and whether the table was found lost to another server (a write refused
   * by fencing, or the lease's list): a lost table is out of hub_table_get's reach and is let go
   * (hub_drop_lost) once no caller holds it. */
  int64_t epoch;
  bool lost;
} hub_table;

typedef struct hub_client {
  uint64_t id;
  int64_t player; /* 0 until it has a player row (hub_client_player) */
  char guest[SRV_TOKEN_HASH_SIZE]; /* after a hello without a token: the new token's hash, until a row is made */
  char name[SRV_NAME_SIZE];
  bool lobby;     /* gets the table list when it changes */
  int64_t table;  /* the table it sits at or watches, 0 for none */
  int seat;       /* its seat there, -1 when watching */
  int64_t invited;     /* the private table it gave the invite code of (or created) */
  int64_t chat_due_ms; /* its chat rate's token bucket, as the time its debt is paid (hub_chat.c) */
  /* A register or login waiting for its password job (hub_players.c): what it will finish. */
  int password_pending;                /* 0, or the srv_password_kind of the job out */
  uint64_t password_serial;            /* of the job out */
  int64_t pending_player;              /* register: the player; login: the account's player */
  char pending_name[SRV_NAME_SIZE];    /* register: the name claimed */
  char pending_account[SRV_NAME_SIZE]; /* the account (folded name) */
  /* Several servers (hub_bus.c). A client of another server, whose requests come over the bus
   * and whose messages go back over it: */
  char node[SRV_NODE_SIZE]; /* that server's name, "" for a client connected here */
  uint64_t remote_id;       /* its id there */
  /* A client connected here that is at a table of another server: */
  char via[SRV_NODE_SIZE];          /* that server, where its table's requests go; "" for none */
  int64_t via_table;                /* the table */
  char via_token[SRV_TOKEN_SIZE];   /* its seat token there (from `seated`), "" when watching */
  char via_invite[SRV_TOKEN_SIZE];  /* the invite code it joined a private table with */
  int64_t via_deadline_ms;          /* a request sent there and not answered yet: when it is given up */
  const char *via_request;          /* its name */
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

/* Tries at one account's password, which slow down the next ones (hub_players.c). One per
 * registered player with tries not yet forgotten, so the memory is bounded by the accounts and
 * no guard is ever evicted to make room for another. */
typedef struct hub_login_guard {
  int failures;              /* tries counted (each before its hash is checked) and not undone */
  int64_t last_ms, until_ms; /* the last try counted; no try before until_ms */
} hub_login_guard;

struct srv_hub {
  srv_store *store;
  srv_hub_io io;
  srv_hub_options options;
  hub_table **tables; /* in id order, for the lobby's pages */
  int ntables, captables;
  hub_client *clients;
  int nclients, capclients;
  long moves;
  uint64_t password_serial; /* numbers the password jobs */
  int open_tables;        /* tables not over */
  int listed_tables;      /* of those, the ones the lobby lists (not private) */
  hub_map table_index;    /* table id -> hub_table * */
  hub_map client_index;   /* client id -> its position in clients */
  hub_map seat_index;     /* a seat token hash's first 16 hex digits -> its table's id */
  hub_map invite_index;   /* a private table's invite code's first 16 hex digits -> its id */
  hub_map player_index;   /* player id, or a guest's bucket key (hub_limits.c) -> hub_player * */
  int64_t *lobby_dirty;   /* tables whose lobby row changed since the last tick */
  int nlobby_dirty, caplobby_dirty;
  int64_t *lobby_removed; /* tables gone from memory since the last tick */
  int nlobby_removed, caplobby_removed;
  int64_t prune_ms;       /* when idle players' entries are next dropped */
  int64_t lease_renew_at_ms; /* when this server next renews its lease (several servers) */
  int64_t lease_ok_ms;       /* when it last renewed it */
  int64_t claim_after_ms;    /* no other server's table is claimed before (a grace after an outage) */
  bool lease_failing;        /* the last renewal failed (logged once) */
  bool superseded;           /* another server started under this one's name: it serves nothing */
  int nlost;                 /* tables marked lost and not let go yet */
  hub_map login_index; /* a registered player's id -> its hub_login_guard * (hub_players.c) */
  struct hub_quick *queue; /* players waiting for a quick match, oldest first (hub_quick.c) */
  int nqueue, capqueue;
  /* Several servers with a bus (hub_bus.c, hub_lobby.c). */
  struct hub_remote_row *remote_rows; /* the listed tables of the other servers, in id order */
  int nremote_rows, capremote_rows;
  struct hub_peer *peers; /* the other servers heard on the bus */
  int npeers, cappeers;
  hub_map remote_index; /* a client of another server (hub_bus.c remote_key) -> its id here */
  uint64_t remote_serial; /* numbers those clients */
  uint64_t boot;          /* this run's random number: a new one tells the others it restarted */
  bool bus_up;
  int64_t bus_up_ms;   /* when it last connected */
  int64_t beat_at_ms;  /* when this server next says it is alive */
};

/* A table of another server, as the lobby shows it (hub_lobby.c). */
typedef struct hub_remote_row {
  int64_t id;
  char node[SRV_NODE_SIZE];
  json_t *row;
  bool stale; /* of a server sending all its rows again: gone unless they come */
} hub_remote_row;

static inline int players_of(const hub_table *t) { return t->rules.players; }

static inline bool round_over(const hub_table *t) { return goita_round_over(&t->game.round); }

/* Shared by the hub's files. */
void hub_send_text(srv_hub *h, uint64_t client, char *text);

/* Sends a client an error: its code (protocol.h SRV_ERRORS), the request it answers (NULL:
 * none) and a text for people. An error whose code says when to try again is sent with
 * hub_send_error_retry and its retry_ms. */
void hub_send_error(srv_hub *h, uint64_t client, const char *request, srv_error code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void hub_send_error_retry(srv_hub *h, uint64_t client, const char *request, srv_error code, int64_t retry_ms,
                          const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* When to try again after the database failed (it may be back), after running out of memory,
 * or with the server at its most open tables. */
#define HUB_RETRY_STORE_MS 2000
#define HUB_RETRY_MEMORY_MS 1000
#define HUB_RETRY_FULL_MS 10000

/* Why a call of the table service failed, as the error to send. */
typedef struct hub_failure {
  srv_error code;
  int64_t retry_ms; /* 0 unless the code retries */
  char text[256];
} hub_failure;

/* Fills a failure; returns -1 for the caller's return. */
int hub_fail(hub_failure *f, srv_error code, int64_t retry_ms, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A failure of the database: storage_failed with its retry, the text prefixed (e.g. "not saved"). */
int hub_fail_store(srv_hub *h, hub_failure *f, const char *prefix);
/* Sends a failure as an error to a client. */
void hub_send_failure(srv_hub *h, uint64_t client, const char *request, const hub_failure *f);

/* Writes a line of the operators' log through io.log (log.h). */
void hub_log(srv_hub *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hub_send_json(srv_hub *h, uint64_t client, json_t *msg);

/* Sends text to a client: through io.send to a client of this server, over the bus to one of
 * another (hub_bus.c). */
void hub_send_raw(srv_hub *h, uint64_t client, const char *text, size_t len);

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

/* Several servers: a lobby event of another server's table (created, changed or removed),
 * kept and passed on to this server's listeners. */
void hub_lobby_remote(srv_hub *h, const char *node, const char *event, json_t *row);
/* The rows of another server's listed tables: with first, its rows so far are marked stale;
 * with last, those still stale are removed. */
void hub_lobby_remote_rows(srv_hub *h, const char *node, json_t *rows, bool first, bool last);
/* Publishes every listed table of this server's: to one server (node), or to all (NULL). */
void hub_lobby_publish_all(srv_hub *h, const char *node);
/* A table of another server this one now holds: its remote row goes. */
void hub_lobby_remote_forget(srv_hub *h, int64_t table);
void hub_lobby_remote_free(srv_hub *h);

/* ---- several servers over the bus (hub_bus.c) ---- */

/* Publishes a message (consumed) on the lobby's subject (node NULL) or to one server. */
int hub_bus_publish(srv_hub *h, const char *node, json_t *msg);
/* Whether this hub talks to other servers over a bus. */
bool hub_bus_on(const srv_hub *h);
/* Forwards a request naming a table of another server to it; returns whether it was (or was
 * refused with an error), false when it is this server's to handle. */
bool hub_route_elsewhere(srv_hub *h, hub_client *c, const srv_request *r, const char *text, size_t len);
/* A table of another server this one has taken over: this server's clients at it get their
 * seats (or their places as spectators) here. */
void hub_bus_table_here(srv_hub *h, const hub_table *t);
/* A client connected here has gone: the server its table is at is told. */
void hub_bus_client_gone(srv_hub *h, const hub_client *c);
/* Says this server is alive, notices servers that are not, and sends clients at a table that
 * moved to another server (a takeover) there. */
void hub_bus_tick(srv_hub *h, int64_t now);
void hub_bus_free(srv_hub *h);
/* The ids of remote clients (of another server, reached over the bus) have their top bit set;
 * the network layer's never do. */
#define HUB_REMOTE_ID_BIT (UINT64_C(1) << 63)
/* Sends text to a client of another server, over the bus. */
void hub_bus_send(srv_hub *h, uint64_t client, const char *text, size_t len);

/* ---- indexes (hub_map.c) ---- */

bool hub_map_get(const hub_map *m, uint64_t key, uint64_t *value);
/* Returns 0, or -1 when out of memory (the map is unchanged). */
int hub_map_put(hub_map *m, uint64_t key, uint64_t value);
void hub_map_del(hub_map *m, uint64_t key);
void hub_map_free(hub_map *m);

/* Indexes a table's seat tokens (at its creation, restore, or after a token changes), or drops
 * them (before it is freed or a token changes). */
void hub_index_seats(srv_hub *h, const hub_table *t);
/* The first 16 hex digits of a seat token's hash or of an invite code as a number: both are
 * random, so it is a fine key. */
uint64_t hub_token_key(const char *token);
void hub_unindex_seats(srv_hub *h, const hub_table *t);

/* ---- per-player limits (hub_limits.c) ---- */

/* The entry of a player (or of a guest's bucket, hub_limits.c), made when missing; NULL for 0 or
 * when out of memory. */
hub_player *hub_player_get(srv_hub *h, int64_t player);

/* Takes one request from the sender's bucket; false (with the error sent) when it is empty. */
bool hub_rate_take(srv_hub *h, hub_client *c, const char *request);

/* A guest got its player row: the bucket it drew from as a guest becomes the player's, so
 * becoming a player does not refill it. */
void hub_rate_adopt(srv_hub *h, const char guest[SRV_TOKEN_HASH_SIZE], int64_t player);

/* Whether a player may own one more open table (max_tables_per_player); 0 (no owner) always may. */
bool hub_table_room(srv_hub *h, int64_t player);

/* Counts a table as open for its owner, or no longer (once it is over). */
void hub_count_open(srv_hub *h, hub_table *t, int delta);

/* Drops entries of players with nothing open and a full bucket (every minute). */
void hub_players_prune(srv_hub *h);
/* Drops the login guards whose tries are forgotten (hub_players.c); all of them at the end (all). */
void hub_login_guards_prune(srv_hub *h, bool all);

/* ---- table lifecycle (hub_lifecycle.c) ---- */

/* Empties a waiting table's seat, token hash and all (the old token no longer opens it), and
 * saves it; returns 0, or -1 (the seat unchanged) when the store refuses. */
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

/* Saves a table's status and seats; returns 0, or -1 with the store's error (the table is
 * marked lost when fencing refused the write). */
int hub_table_save(srv_hub *h, hub_table *t);

/* Several servers (hub_own.c). Passes a store call's status on, first marking the table lost
 * when the call was refused by fencing (SRV_STORE_FENCED): another server owns it now. */
int hub_owned(srv_hub *h, hub_table *t, int status);
/* Marks a table lost (logged once, with why). */
void hub_table_lost(srv_hub *h, hub_table *t, const char *why);
/* Lets every lost table go: its clients are told it moved ("moved", docs/PROTOCOL.md) and
 * leave it, its computer players' answers are dropped, and it leaves this server's lobby. */
void hub_drop_lost(srv_hub *h);

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
void hub_schedule(srv_hub *h, hub_table *t, bool timed_out);

/* Starts the turn timer when a person is to move. */
void hub_arm_timer(srv_hub *h, hub_table *t);

/* Writes a table's record as JSON and its rounds as history strings, one a line (both
 * malloc'd); returns 0, or -1 when out of memory. */
int hub_record_texts(const hub_table *t, char **json, char **histories);
/* Rates a game that ended, finished or abandoned, into its row; leavers lose (hub_table.c). */
void hub_rate_game(srv_hub *h, const hub_table *t, srv_game_row *game);
/* Tells every connection of a rated player of the game its new rating. */
void hub_announce_ratings(srv_hub *h, const srv_game_row *game);

/* The game is over: the record, its history strings and the new ratings are saved together. */
void hub_finish_game(srv_hub *h, hub_table *t);

/* Deals the next round; one that ends at the deal (teyaku, 5 pawns twice) is finished at once. */
void hub_deal_next(srv_hub *h, hub_table *t, bool live);

/* A round is over: it goes into the record; a finished game is saved; otherwise the next round
 * is dealt after the pause (at once when there is none). While restoring (not live) the moves
 * that follow deal it. */
void hub_round_finished(srv_hub *h, hub_table *t, bool live);

/* Plays a move at a table: checked on a copy, saved, then applied and announced. Returns 0, or
 * -1 with the reason in why. */
int hub_table_move(srv_hub *h, hub_table *t, goita_move move, hub_failure *why);

void hub_record_names(hub_table *t);
/* Several servers: every options.lease_renew_ms, renews this server's lease on its tables,
 * lets go those another server owns now, and takes over those of servers whose lease ran out
 * (hub_own.c). */
void hub_lease_tick(srv_hub *h, int64_t now);
/* Restores one table from its row (hub_restore.c): its seats, and its moves replayed. Returns
 * the table added, or NULL with the reason in err. */
hub_table *hub_restore_table(srv_hub *h, const srv_table_row *row, char *err, size_t errsize);
/* Sets a table restored after a takeover going: a finished game saved, its computer players
 * asked, its lobby row, and the clients here that were at it sent to it. */
void hub_take_over(srv_hub *h, hub_table *t);

/* Detaches a client from its table (the seat is kept for its token). */
void hub_detach(srv_hub *h, hub_client *c);

/* Players (hub_players.c). */

/* Makes sure the client has a player row, creating a guest's on its first action that needs one
 * (and telling it with a `player` message). Returns false after sending the request an error. */
bool hub_client_player(srv_hub *h, hub_client *c, const char *request);

/* Sends a client its player as stored now: {"type":"player","player":{...}}. */
void hub_send_player(srv_hub *h, uint64_t client, int64_t player);

/* Names a computer's seat "Computer N · level" (N counted from 1), so seats of one level differ. */
void hub_bot_seat_name(hub_seat *s, int seat);

void hub_do_hello(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_register(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_login(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leaderboard(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_history(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leave(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_bot(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_games(srv_hub *h, hub_client *c, const srv_request *r);

/* ---- what quick matches and rematches share with the requests (hub_requests.c) ---- */

/* Makes a new table, saved, added to the hub and announced to the lobby (when listed): rules as
 * option text ("" for the default), a private one with an invite code, owned by a player (0:
 * none) who must have room for it (hub_table_room). Returns it, or NULL with the reason in why. */
hub_table *hub_table_create(srv_hub *h, int64_t owner, const char *rules, int turn_seconds, bool private_table,
                            hub_failure *why);

/* Puts a client's player in a seat (not saved, no client bound) with a new seat token: the
 * seat keeps its hash, token receives the token itself for the `seated` reply. */
void hub_seat_person(srv_hub *h, hub_seat *seat, const hub_client *c, char token[SRV_TOKEN_SIZE]);

/* Puts a computer player of a level in seat number index (named after it; not saved); returns
 * -1 when the store fails. */
int hub_seat_bot(srv_hub *h, hub_seat *seat, int index, const char *level);

/* Binds a client to its seat at a table: the seat's token hash is indexed for resume, a
 * stand-in there stops, the client gets `seated` with the seat token (the one it was given or
 * showed), the table its state and the client the table's chat. */
void hub_take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, const char *token);

/* Starts the game at a table whose seats are all filled: saved, dealt and announced. Returns 0,
 * or -1 with the reason in why (nothing changed). */
int hub_table_start(srv_hub *h, hub_table *t, hub_failure *why);

/* Makes a client a spectator of a table (its state and chat sent); request names the request
 * for an error. */
void hub_watch(srv_hub *h, hub_client *c, hub_table *t, const char *request);

/* ---- private tables (hub_invite.c) ---- */

/* Whether the lobby lists a table: one not over and not private. The one place that decides,
 * for the whole list and its changes alike. */
bool hub_table_listed(const hub_table *t);

/* Whether a client may watch a table or sit at it by its number: a listed table, or a private
 * one it gave the invite code of or holds a seat at. */
bool hub_table_open_to(const hub_table *t, const hub_client *c);

void hub_do_join(srv_hub *h, hub_client *c, const srv_request *r);

/* ---- the quick-match queue (hub_quick.c) ---- */

void hub_do_quick(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_quick_cancel(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_ping(srv_hub *h, hub_client *c, const srv_request *r);

/* Takes a client's place out of the queue (a cancel, a disconnect); returns whether it had one. */
bool hub_quick_forget(srv_hub *h, uint64_t client);

/* Seats those whose wait is over, with computer players in the seats no one waited for. */
void hub_quick_tick(srv_hub *h);

void hub_quick_free(srv_hub *h);

/* ---- rematches (hub_rematch.c) ---- */

void hub_do_rematch(srv_hub *h, hub_client *c, const srv_request *r);

/* Makes the rematches whose wait is over. */
void hub_rematch_tick(srv_hub *h);

/* ---- table chat (hub_chat.c) ---- */

void hub_do_chat(srv_hub *h, hub_client *c, const srv_request *r);

/* Sends a client that has just come to a table the lines said there before it came. */
void hub_chat_history(srv_hub *h, const hub_table *t, uint64_t client);

void hub_chat_free(hub_table *t);

#endif

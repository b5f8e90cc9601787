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
  char name[SRV_NAME_SIZE]; /* a computer's is "Computer 2 · expert" (hub_bot_seat_name) */
  char bot[SRV_LEVEL_SIZE]; /* level of a computer player, "" for a person */
  double rating, deviation;
  char token[SRV_TOKEN_HASH_SIZE]; /* the seat token's hash (secret.h): the token itself is never kept */
  uint64_t client; /* the connection acting for the seat, 0 when none */
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
  char invite[SRV_TOKEN_SIZE]; /* a private table's invite code, "" for a table in the lobby */
  struct {
    bool asked[GOITA_MAX_SEATS]; /* seats whose players asked for a rematch (hub_rematch.c) */
    int64_t deadline_ms;         /* when those who asked get it anyway, 0 until someone asks */
    int64_t table;               /* the rematch's table once made */
  } rematch;
  struct hub_chat *chat; /* the last lines said at the table (hub_chat.c), NULL before the first */
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
} hub_client;

/* Wrong passwords for one account, which slow down the next tries (hub_players.c). */
typedef struct hub_login_guard {
  char account[SRV_NAME_SIZE];
  int failures;
  int64_t last_ms, until_ms; /* the last failure; no try before until_ms */
} hub_login_guard;

#define HUB_LOGIN_GUARDS 64

struct srv_hub {
  srv_store *store;
  srv_hub_io io;
  srv_hub_options options;
  hub_table **tables;
  int ntables, captables;
  hub_client *clients;
  int nclients, capclients;
  long moves;
  hub_login_guard login_guards[HUB_LOGIN_GUARDS];
  struct hub_quick *queue; /* players waiting for a quick match, oldest first (hub_quick.c) */
  int nqueue, capqueue;
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

json_t *hub_tables_json(srv_hub *h);

void hub_broadcast_lobby(srv_hub *h);

void hub_table_row(const hub_table *t, srv_table_row *row);

void hub_table_free(hub_table *t);

int hub_table_add(srv_hub *h, hub_table *t);

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
void hub_schedule(srv_hub *h, hub_table *t, bool timed_out);

/* Starts the turn timer when a person is to move. */
void hub_arm_timer(srv_hub *h, hub_table *t);

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

void hub_do_leaderboard(srv_hub *h, hub_client *c);

void hub_do_history(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_create(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_sit(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_resume(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_leave(srv_hub *h, hub_client *c);

void hub_do_bot(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_start(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_move(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_watch(srv_hub *h, hub_client *c, const srv_request *r);

void hub_do_games(srv_hub *h, hub_client *c);

/* ---- what quick matches and rematches share with the requests (hub_requests.c) ---- */

/* Makes a new table, saved and added to the hub: rules as option text ("" for the default),
 * a private one with an invite code. Returns it, or NULL with the reason in err. */
hub_table *hub_table_create(srv_hub *h, const char *rules, int turn_seconds, bool private_table, char *err,
                            size_t errsize);

/* Puts a client's player in a seat (not saved, no client bound) with a new seat token: the
 * seat keeps its hash, token receives the token itself for the `seated` reply. */
void hub_seat_person(srv_hub *h, hub_seat *seat, const hub_client *c, char token[SRV_TOKEN_SIZE]);

/* Puts a computer player of a level in seat number index (named after it; not saved); returns
 * -1 when the store fails. */
int hub_seat_bot(srv_hub *h, hub_seat *seat, int index, const char *level);

/* Binds a client to its seat at a table: it gets `seated` with the seat token (the one it was
 * given or showed), the table its state and the client the table's chat. */
void hub_take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, const char *token);

/* Starts the game at a table whose seats are all filled: saved, dealt and announced. Returns 0,
 * or -1 with the reason in err (nothing changed). */
int hub_table_start(srv_hub *h, hub_table *t, char *err, size_t errsize);

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

void hub_do_quick_cancel(srv_hub *h, hub_client *c);

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

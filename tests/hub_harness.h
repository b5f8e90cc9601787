/* A fake world around the server's hub (src/server/hub.h) for tests that drive it without a
 * network: clients that keep what they were last sent, a fake clock, computer players and
 * password jobs run on demand, moves and games saved at once or held, and a scan of every state
 * message for hidden pieces and tokens (when w.scan is set). */
#ifndef GOITA_TESTS_HUB_HARNESS_H
#define GOITA_TESTS_HUB_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "goita/goita.h"
#include "hub.h"
#include "store.h"

#define MAX_CLIENTS 40
#define MAX_JOBS 64

typedef struct client_state {
  int table;
  int seat; /* -1: none or watching */
  bool watching;
  char seat_token[SRV_TOKEN_SIZE];
  char player_token[SRV_TOKEN_SIZE];
  json_t *last; /* the last message */
  json_t *last_state;
  json_t *player; /* the player as the last welcome or player message showed it */
  json_t *choices; /* the last welcome's levels, rule options and rule sets */
  int welcomes;   /* welcome messages received */
  int players;    /* player messages received */
  int errors;
  int errors_before_request; /* errors when the client last said something */
  char last_error[256];
  char last_code[32];       /* the last error's code */
  json_int_t last_retry_ms; /* and its retry_ms, 0 when it has none */
  int received;        /* messages of any type */
  char types[64][16];  /* the types of the first 64 messages, in order */
  size_t last_len;     /* the last message's length in bytes */
  int lobby_events;    /* "lobby" messages */
  size_t largest_lobby; /* the longest "lobby" message, in bytes */
  json_int_t last_removed; /* the table of the last "removed" event */
  int created_events;
  json_t *last_lobby;
  char invite[SRV_TOKEN_SIZE]; /* from "created" */
  json_t *queued;              /* the last "queued" */
  json_t *chat;                /* the last "chat" */
  int chats;                   /* "chat" messages received */
  json_t *chat_history;        /* the last "chat_history" */
  json_t *tables;              /* the last "tables" (a lobby page) */
  json_t *match;               /* the last "match" */
  json_t *created;             /* the last "created" */
  json_t *seated;              /* the last "seated" */
  json_t *ks_table;            /* the last "ks_table" (a Ko shogi table) */
  int ks_tables;               /* "ks_table" messages received */
} client_state;

/* The world around the hub: one per test program, made afresh by hub_harness_setup. */
typedef struct hub_world {
  srv_store *store;
  srv_hub *hub;
  char db[64];
  client_state clients[MAX_CLIENTS + 1];
  srv_think_job jobs[MAX_JOBS];
  srv_password_job passwords[MAX_JOBS]; /* held password jobs (fake_password) */
  int npasswords;
  bool hold_passwords;
  int njobs;
  int64_t now;
  goita_rng rng;
  long messages, scanned;
  bool scan;
  srv_hub_options options;
  srv_move_write saves[MAX_JOBS]; /* held moves to save (fake_save_move) */
  int nsaves;
  bool hold_saves;
  srv_game_write held_game; /* a finished game held by fake_save_game (hold_saves), until given back */
  bool game_held;
  bool analyse;  /* saved games are analysed for the career statistics (fake_analyse) */
  int analysed;  /* games analysed */
  int64_t counted_table;           /* think jobs for this table are counted per seat */
  int seat_jobs[GOITA_MAX_SEATS];
} hub_world;

extern hub_world w;

/* Does the held password jobs and hands their answers to the hub. */
void run_passwords(void);

/* Saves the held moves together in one transaction and hands their outcomes to the hub. */
void save_moves(void);

/* Saves the held game and gives its outcome to the hub. */
void save_held_game(void);

/* A fresh world: an empty database, the clock at 1000 s, no limits (tests that are not about
 * limits run with none), the hub opened. For TestSuite's .init. */
void hub_harness_setup(void);

/* Closes the hub and removes the database. For TestSuite's .fini. */
void hub_harness_teardown(void);

/* Opens the hub with w.options: tests that are not about limits run with none. */
void open_hub(int round_pause_ms);

/* A server killed: nothing but the database survives. */
void close_hub(void);

/* The client sends the formatted text to the hub. */
void say(uint64_t client, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The client connects and says hello under the name, which must be accepted. */
void connect_client(uint64_t id, const char *name);

/* Answers every computer player's turn with a random legal move. */
void run_jobs(void);

/* The client plays a random legal move from its last state when it is its turn; returns
 * whether it did. */
bool play_if_turn(uint64_t id);

/* The status of the client's last state ("" before any). */
const char *status_of(uint64_t id);

/* Sets up a table: client 1 creates it; clients sit in the given seats, computer players fill
 * the rest; client 1 (seated) starts it. Returns the table. */
int table_with(const char *rules, int turn_seconds, const uint64_t *seated, int nseated, const char *bot);

/* Plays until every seated client's last state says the game is over. */
void play_out(const uint64_t *seated, int nseated);

/* The game part of a client's last state, as text, for comparisons. */
char *game_text(uint64_t id);

/* The type of the last message the client got ("" before any). */
const char *last_type(uint64_t id);

/* The client creates a table with the default rules; returns its number. */
int create_table(uint64_t id);

/* The lobby's row of a table as a page from `list` shows it, or NULL when it is not listed. */
json_t *listed(uint64_t id, int table);

/* The number of tables the lobby counts, as the client is told. */
json_int_t total_tables(uint64_t id);

/* The event of the last lobby message the client got, and its table in *table when asked. */
const char *last_event(uint64_t id, json_int_t *table);

/* The client connects again and resumes its seat with the token, which must be accepted. */
void resume(uint64_t id, const char *token);

/* Runs a query that counts something in the database, through a connection of its own. */
int count_rows(const char *sql);

/* The same with one text bound to the query's "?". */
int count_rows_with(const char *sql, const char *param);

/* Whether the database's files (the main file and its write-ahead log) hold the text. */
bool database_holds(const char *text);

/* The text of the last error the client got. */
const char *error_of(uint64_t id);

/* The code of the error that answered the client's last request, or "" when none did. */
const char *error_code(uint64_t id);

/* A number of the client's player, as the last welcome or player message showed it. */
json_int_t player_field(uint64_t id, const char *field);

/* The index of the first message of this type the client was sent (of its first 64), or -1. */
int first_of_type(uint64_t id, const char *type);

/* The type of a message ("" for none). */
const char *type_of(json_t *msg);

/* A message's integer field. */
json_int_t int_of(json_t *msg, const char *key);

/* Expects the client's last request to have been refused with an error that says `what`. */
void expect_error(uint64_t id, const char *what);

/* A seat of a client's last state: its name and bot level. */
const char *seat_name(uint64_t id, int seat);

#endif

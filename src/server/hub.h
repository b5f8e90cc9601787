/* The server's game logic, with no network in it: clients (numbered by the network layer),
 * the lobby, tables with seats and secret seat tokens, games, computer players' turns, turn
 * timers, records and ratings. One thread owns a hub; it talks to the world only through the
 * callbacks of srv_hub_io, so tests drive it directly and the network layer (net.c) drives it
 * from its event loop. */
#ifndef GOITA_SERVER_HUB_H
#define GOITA_SERVER_HUB_H

#include <stddef.h>
#include <stdint.h>

#include "game_stats.h"
#include "goita/goita.h"
#include "secret.h"
#include "store.h"

typedef struct srv_hub srv_hub;

/* A computer player's turn to think about: only the seat's view goes out. */
typedef struct srv_think_job {
  int64_t table;
  int version; /* moves played at the table when asked; a late answer is dropped */
  char level[SRV_LEVEL_SIZE];
  uint64_t seed;
  goita_view view;
} srv_think_job;

/* The computer's turn at a Ko shogi table (hub_ks.c): the game so far as a record (Ko shogi
 * hides nothing), replayed by whoever thinks, and the level (ks_levels.h). */
typedef struct srv_ks_think_job {
  int64_t table;
  int version; /* plies played when asked; a late answer is dropped */
  char level[SRV_LEVEL_SIZE];
  char *record; /* malloc'd (ks_record_write): the callee's from the call on, also on failure */
} srv_ks_think_job;

/* A password to hash (register) or to check against its stored hash (login). argon2id takes
 * about 0.1 s, too long for the event loop, so it is done elsewhere and answered through
 * srv_hub_password_done. */
typedef enum srv_password_kind { SRV_PASSWORD_HASH = 1, SRV_PASSWORD_CHECK = 2 } srv_password_kind;

typedef struct srv_password_job {
  uint64_t client;
  uint64_t serial; /* the client's request it answers: a late answer to an older one is dropped */
  int kind;        /* srv_password_kind */
  char password[SRV_PASSWORD_MAX + 1];
  char hash[SRV_PASSWORD_HASH_SIZE]; /* SRV_PASSWORD_CHECK: the stored hash */
} srv_password_job;

typedef struct srv_password_answer {
  uint64_t client, serial;
  int kind;
  bool ok;                            /* HASH: hashed; CHECK: the password matches */
  char hash[SRV_PASSWORD_HASH_SIZE]; /* HASH: the new hash */
} srv_password_answer;

/* Does a password job where it is called (what the network layer's workers run): fills
 * answer, and wipes the job's password. */
void srv_password_work(srv_password_job *job, srv_password_answer *answer);

typedef struct srv_hub_io {
  void *ctx;
  /* Queues a message for a client; the text is only borrowed. */
  void (*send)(void *ctx, uint64_t client, const char *text, size_t len);
  /* Asks for a computer player's move, answered later through srv_hub_bot_move. */
  void (*think)(void *ctx, const srv_think_job *job);
  /* Fills buf with unpredictable bytes (tokens, deal seeds). */
  void (*random)(void *ctx, void *buf, size_t len);
  /* Milliseconds of a monotonic clock. */
  int64_t (*now_ms)(void *ctx);
  /* Hashes or checks a password (the job is only borrowed), answered later through
   * srv_hub_password_done, or at once from inside the call. */
  void (*password)(void *ctx, const srv_password_job *job);
  /* Several servers with a message bus (docs/SERVER.md "Several servers"): publishes a message
   * on a subject (the text is only borrowed); returns 0, or -1 when the bus is unreachable (the
   * message is dropped). NULL for a server without a bus. */
  int (*publish)(void *ctx, const char *subject, const char *text, size_t len);
  /* Writes one line of the operators' log (a takeover, a table lost, a write refused by
   * fencing); the text is only borrowed. NULL: nothing is logged. */
  void (*log)(void *ctx, const char *text);
  /* Saves a move away from the hub's thread (the store thread, store_async.h), answered later
   * through srv_hub_move_saved with the same move and its outcome; returns 0, or -1 when it
   * cannot be queued (out of memory). NULL: the hub saves it on its own store at once. */
  int (*save_move)(void *ctx, const srv_move_write *move);
  /* Saves a finished game away from the hub's thread, as save_move does a move, answered
   * through srv_hub_game_saved; the game's texts go with it (the callee frees them, also when
   * it returns -1). NULL: the hub saves it on its own store at once. */
  int (*save_game)(void *ctx, const srv_game_write *game);
  /* Asks for the computer's move at a Ko shogi table, answered later through
   * srv_hub_ks_bot_move. NULL: the hub thinks at once, on its own thread (tests). */
  void (*ks_think)(void *ctx, const srv_ks_think_job *job);
  /* Saves a finished Ko shogi game away from the hub's thread, answered through
   * srv_hub_ks_game_saved; the record goes with it (the callee frees it, also when it returns
   * -1). NULL: the hub saves it on its own store at once. */
  int (*save_ks_game)(void *ctx, const srv_ks_game_write *game);
  /* Analyses a saved game for the career statistics away from the hub's thread (game_stats.h),
   * answered through srv_hub_game_analysed; the job's rounds go with it (the callee frees them,
   * also when it returns -1). NULL: no statistics are kept. */
  int (*analyse)(void *ctx, const srv_game_job *job);
} srv_hub_io;

typedef struct srv_hub_options {
  int round_pause_ms; /* how long a finished round stays on the table before the next deal */
  const char *stand_in; /* level that moves for a person whose turn timer ran out */
  int max_tables;       /* open tables at once */
  /* Lobby and lifecycle (docs/SERVER.md "Limits" and "Table lifecycle"). */
  int max_tables_per_player;   /* open tables one player may have created; 0: no limit */
  int player_rate_per_second;  /* a player's requests that cost (create, sit, bot, ...) */
  int player_rate_burst;       /* ... and how many may come at once */
  int waiting_table_expiry_ms; /* a waiting table with no person seated is removed after this */
  int seat_grace_ms;           /* a gone person's waiting seat is freed, or playing seat stood in */
  int chat_burst;       /* chat lines a connection may send at once */
  int chat_interval_ms; /* and then one every this many milliseconds */
  int rematch_wait_ms;  /* how long a rematch waits for everyone before it starts with those who asked */
  /* Several servers on one database (srv_store_node): how often this one renews its lease and
   * looks for tables to take over; 0 for a server alone. */
  int lease_renew_ms;
  /* With a bus (io.publish): this server's name, as srv_store_node was given it. */
  const char *node;
  /* Client addresses whose wrong passwords are remembered at once (throttle.h); 0: 4096. */
  int login_addresses;
} srv_hub_options;

void srv_hub_options_default(srv_hub_options *options);

/* Creates a hub over an open store and restores every table that was not over from it: seats,
 * tokens and every move, replayed through the rules. On failure returns -1 with the reason. */
int srv_hub_new(srv_hub **hub, srv_store *store, const srv_hub_io *io, const srv_hub_options *options, char *err,
                size_t errsize);
void srv_hub_free(srv_hub *hub);

/* A client connected. Returns 0, or -1 when memory ran out: the hub does not know the client
 * (its messages are dropped), and the network layer closes the connection, saying "server
 * busy" (the client connects again). */
int srv_hub_connect(srv_hub *hub, uint64_t client);
void srv_hub_disconnect(srv_hub *hub, uint64_t client);
/* Where a client connects from ("203.0.113.7", "2001:db8::1"), said by the network layer right
 * after srv_hub_connect: its logins' wrong passwords count against the address too. A client
 * never given one (or an unreadable one) is counted only per account. */
void srv_hub_client_address(srv_hub *hub, uint64_t client, const char *address);
/* Handles one message from a client; every reply goes through io.send. The text is borrowed
 * only until the hub's first callback: the hub copies it before it sends, publishes or logs
 * anything, so the caller may free it from inside io.send (net.c's receive buffer goes with its
 * session when a send overflows the client's queue). */
void srv_hub_receive(srv_hub *hub, uint64_t client, const char *text, size_t len);
/* A computer player's answer to a think job. */
void srv_hub_bot_move(srv_hub *hub, int64_t table, int version, goita_move move);
/* A move saved, or refused (move->status, move->error), by io.save_move: a saved move is
 * played and announced; a refused one is told to its player. A late answer (the table let go)
 * is dropped. */
void srv_hub_move_saved(srv_hub *hub, const srv_move_write *move);
/* A finished game saved, or refused, by io.save_game: saved, the table is over and everyone is
 * told; refused, the players are told and the hub tries again. The game's texts stay the
 * caller's. */
void srv_hub_game_saved(srv_hub *hub, const srv_game_write *game);
/* The computer's answer to a Ko shogi think job (the move in notation). */
void srv_hub_ks_bot_move(srv_hub *hub, int64_t table, int version, const char *move);
/* A finished Ko shogi game saved, or refused, by io.save_ks_game (its record stays the caller's). */
void srv_hub_ks_game_saved(srv_hub *hub, const srv_ks_game_write *game);
/* A game analysed by io.analyse: its statistics are saved (a failure is logged; the game then
 * has none). */
void srv_hub_game_analysed(srv_hub *hub, const srv_game_stats *stats);
/* The answer to a password job: finishes the client's register or login. */
void srv_hub_password_done(srv_hub *hub, const srv_password_answer *answer);
/* Runs what is due: turn timers, the next deal after a finished round, the lifecycle of tables
 * (expiry, freed seats, stand-ins, abandoned games) and the lobby's events. */
void srv_hub_tick(srv_hub *hub);

/* A message from the bus, on a subject this server listens to: SRV_BUS_LOBBY, which every
 * server hears, or its own, SRV_BUS_NODE followed by its name. */
#define SRV_BUS_LOBBY "goita.lobby"
#define SRV_BUS_NODE "goita.node."
void srv_hub_bus_message(srv_hub *hub, const char *subject, const char *text, size_t len);
/* The bus connected (again), or lost: once connected, the hub asks the others for their lobby
 * rows and sends its clients at other servers' tables there again, so nothing missed while it
 * was away stays missed. */
void srv_hub_bus_state(srv_hub *hub, bool up);

/* Whether another server has started under this one's name (srv_store_node): this one let
 * every table go and serves nothing more; the network layer stops it. */
bool srv_hub_superseded(const srv_hub *hub);

/* Counts for the load test and the status line. */
typedef struct srv_hub_stats {
  int tables, playing, clients;
  int remote_clients; /* clients of other servers at this one's tables, through the bus */
  long moves;
} srv_hub_stats;
void srv_hub_stats_get(const srv_hub *hub, srv_hub_stats *stats);
/* The moves played so far (stats.moves, without the rest of the counting). */
long srv_hub_moves(const srv_hub *hub);

#endif

/* The hub's shared state (struct srv_hub, its tables, seats and clients) and its lookups
 * (hub.c). Every part of the hub works on it; each part's functions are in the part's own
 * header. */
#ifndef GOITA_SERVER_HUB_STATE_H
#define GOITA_SERVER_HUB_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "hub.h"
#include "hub_map.h"
#include "names.h"
#include "protocol.h"
#include "throttle.h"

typedef struct hub_seat {
  int64_t player; /* 0: empty */
  char name[SRV_NAME_SIZE]; /* a computer's is "Computer 2 · expert" (hub_bot_seat_name) */
  char bot[SRV_LEVEL_SIZE]; /* level of a computer player, "" for a person */
  double rating, deviation;
  char token[SRV_TOKEN_HASH_SIZE]; /* the seat token's hash (secret.h): the token itself is never kept */
  uint64_t client; /* the connection acting for the seat, 0 when none */
  int64_t gone_since_ms; /* a person's seat with no connection: since when (0 otherwise) */
  bool stand_in;         /* a computer player moves for its gone holder until they resume */
  int64_t bank_ms;       /* its time bank left (hub_clock.c) */
  int64_t left_player;   /* the person gone for good whose seat a spectator took over, 0 for none */
  bool bot_account;      /* a program's account sits here (docs/SERVER.md "Bots") */
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
  struct {
    int bank_seconds;        /* each person's time bank at the start, 0: none (hub_clock.c) */
    int on_timeout;          /* what is played when a person's time runs out (srv_on_timeout) */
    int64_t turn_started_ms; /* when the turn timer was armed */
  } clock;
  bool take_over; /* a spectator may take over the seat of a person gone for good (hub_do_sit) */
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
  /* A move sent to be saved (hub_table_move) and played once it is (hub_table_move_saved), or
   * the finished game (hub_finish_game, hub_table_game_saved): nothing else is played or
   * changed at the table meanwhile, and nobody sees it before it is durable. */
  bool saving;
  goita_move saving_move;
  uint64_t saving_client; /* who played it, told when it is refused; 0 for a computer player */
  bool saving_timed; /* the move being saved ends a person's timed turn: its clock is charged */
  int64_t saving_arrived_ms; /* when the move being saved arrived */
} hub_table;

typedef struct hub_client {
  uint64_t id;
  int64_t player; /* 0 until it has a player row (hub_client_player) */
  char guest[SRV_TOKEN_HASH_SIZE]; /* after a hello without a token: the new token's hash, until a row is made */
  char name[SRV_NAME_SIZE];
  bool bot_account; /* said hello with a bot account's token (docs/SERVER.md "Bots") */
  bool lobby;     /* gets the table list when it changes */
  int64_t table;  /* the table it sits at or watches, 0 for none */
  int seat;       /* its seat there, -1 when watching */
  int64_t invited;     /* the private table it gave the invite code of (or created, or a bot was challenged to) */
  int64_t ks_table;    /* the Ko shogi table it sits at or watches (hub_ks.c), 0 for none */
  int64_t chat_due_ms; /* its chat rate's token bucket, as the time its debt is paid (hub_chat.c) */
  /* A register or login waiting for its password job (hub_players.c): what it will finish. */
  int password_pending;                /* 0, or the srv_password_kind of the job out */
  uint64_t password_serial;            /* of the job out */
  int64_t pending_player;              /* register: the player; login: the account's player */
  char pending_name[SRV_NAME_SIZE];    /* register: the name claimed */
  char pending_account[SRV_NAME_KEY_SIZE]; /* the account (the name's key, names.h) */
  bool has_address;                    /* the network layer told where it connects from */
  srv_address address;                 /* ... and that address, whose wrong passwords count (throttle.h) */
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
  srv_throttle *address_tries; /* wrong passwords per client address (throttle.h, hub_players.c) */
  struct hub_quick *queue; /* players waiting for a quick match, oldest first (hub_quick.c) */
  struct hub_match **matches; /* duplicate matches being played, room for a few (hub_match.c) */
  int nmatches;
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
  struct hub_ks *ks;   /* the Ko shogi tables (hub_ks.c) */
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

/* Writes a line of the operators' log through io.log (log.h). */
void hub_log(srv_hub *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void hub_new_token(srv_hub *h, char token[SRV_TOKEN_SIZE]);

void hub_utc_now(char out[GOITA_RECORD_TIME_SIZE]);

hub_client *hub_client_get(srv_hub *h, uint64_t id);

hub_table *hub_table_get(srv_hub *h, int64_t id);

#endif

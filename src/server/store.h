/* The server's storage: players and ratings, tables and their seats, every move as it is
 * played, finished games. One small interface with two implementations: SQLite, one file
 * (store_sqlite.c), and PostgreSQL, shared by several servers (store_postgresql.c).
 * Every function returns 0 on success and -1 on failure with a message in the store's error
 * text (srv_store_error), e.g. "database or disk is full": the caller refuses the action it
 * was saving, so what the server holds in memory never runs ahead of what is saved. */
#ifndef GOITA_SERVER_STORE_H
#define GOITA_SERVER_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "goita/goita.h"
#include "game_stats.h"

typedef struct srv_store srv_store;

/* What a write refused by fencing returns (every other failure is -1): the table it was for is
 * served by another server now, in a later ownership epoch (docs/SERVER.md "Ownership"). The
 * caller lets the table go; nothing was written. */
#define SRV_STORE_FENCED (-2)
/* What a lease renewal returns when another server has started under this server's name since
 * it last renewed (srv_store_node): every table of this one is that one's now. */
#define SRV_STORE_SUPERSEDED (-3)

#define SRV_NAME_SIZE 40
#define SRV_TOKEN_SIZE 33 /* 32 hex digits and the terminating zero */
#define SRV_TOKEN_HASH_SIZE 65 /* a token's hash (secret.h): 64 hex digits and the zero */
#define SRV_PASSWORD_HASH_SIZE 128 /* an argon2id string (secret.h) */
#define SRV_LEVEL_SIZE 24

typedef struct srv_player {
  int64_t id;
  char name[SRV_NAME_SIZE];
  char bot[SRV_LEVEL_SIZE]; /* a computer player's level; "" for a person */
  double rating, deviation; /* ratings.h */
  int games;
  bool registered; /* has claimed its name with a password (or is a bot account) */
  bool bot_account; /* a program's account made by a person (docs/SERVER.md "Bots") */
} srv_player;

typedef struct srv_seat_row {
  int64_t player; /* 0 when empty */
  char token[SRV_TOKEN_HASH_SIZE]; /* the hash of the secret that lets its holder act for the seat */
  bool stand_in; /* a computer player moves for the gone person until they resume */
} srv_seat_row;

typedef enum srv_table_status { SRV_WAITING = 0, SRV_PLAYING = 1, SRV_OVER = 2 } srv_table_status;

typedef struct srv_table_row {
  int64_t id;
  char rules[512];    /* rule options as text (goita_rules_format) */
  uint64_t seed;
  int turn_seconds;   /* 0: no turn timer */
  int status;         /* srv_table_status */
  char created[GOITA_RECORD_TIME_SIZE];
  int64_t owner;      /* the player who created it, 0 when unknown */
  srv_seat_row seats[GOITA_MAX_SEATS];
  char invite[SRV_TOKEN_SIZE]; /* a private table's invite code; "" for a table in the lobby */
  /* Several servers: the ownership epoch this server holds the table in, a number that grows at
   * every claim of the table; each write for the table names it and is refused (fenced) once
   * another server has claimed the table since. 0 with a SQLite file. */
  int64_t epoch;
} srv_table_row;

/* Opens the database `db` and brings its schema up to date: a postgresql:// (or postgres://)
 * URI is a PostgreSQL database, anything else the path of a SQLite file (created when needed,
 * in WAL mode). On failure *store may still be set, for its error text: close it. */
int srv_store_open(srv_store **store, const char *db);
/* Whether `db` names a PostgreSQL database. */
bool srv_store_is_postgresql(const char *db);
void srv_store_close(srv_store *store);
/* Caps the database file at about `bytes` (0: no cap beyond the disk's): past it, writes fail
 * as on a full disk ("database or disk is full"). SQLite only: PostgreSQL refuses a cap. */
int srv_store_limit_bytes(srv_store *store, long long bytes);
/* Several servers on one PostgreSQL database (docs/SERVER.md "Several servers" and
 * "Ownership"): names this server and the lease it holds on its tables, which lasts lease_ms of
 * the database's clock unless renewed. From then on the store gives this server only its own
 * tables (claiming those of servers whose lease ran out, each claim a new epoch), gives the
 * tables it creates to it, and writes for a table only in the epoch this server holds it in.
 * When a server of that name holds a live lease, waits until the lease runs out (a server
 * killed and started again), and refuses when it is renewed meanwhile (a live server has that
 * name). A SQLite file serves one server: it refuses. */
int srv_store_node(srv_store *store, const char *name, int lease_ms);
/* Gives up this server's lease (a clean stop): the others take its tables over at once. */
int srv_store_node_release(srv_store *store);
/* Renews this server's lease, claims the open tables of servers whose lease has run out when
 * `claim` is set, then calls fn with every open table this server owns and the epoch it owns
 * it in: those it does not hold in that epoch are to be loaded (srv_store_table_load, and a Ko
 * shogi table's, numbered from SRV_KS_TABLE_BASE up, srv_store_ks_table_load), those it holds
 * and are not named were lost. Returns SRV_STORE_SUPERSEDED when another server started
 * under this one's name. Does nothing without srv_store_node. */
int srv_store_lease_renew(srv_store *store, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch),
                          void *ctx);
/* One open table of this server's, as srv_store_tables_open gives it; *found is false when it
 * is over or another server's now. */
int srv_store_table_load(srv_store *store, int64_t table, srv_table_row *row, bool *found);
/* How a table is named to srv_store_table_owner: by its number, by the hash of one of its seat
 * tokens, or by its invite code. */
typedef enum srv_table_key { SRV_KEY_ID = 0, SRV_KEY_SEAT_TOKEN = 1, SRV_KEY_INVITE = 2 } srv_table_key;
#define SRV_NODE_SIZE 64
/* Several servers: the open table named by key (its number as decimal text, a seat token's
 * hash, or an invite code; a Ko shogi table's by number or invite too) and the server that owns
 * it ("" for none). *found is false when no
 * open table has that key. A SQLite file (one server) refuses. */
int srv_store_table_owner(srv_store *store, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE],
                          bool *found);
/* The last error, for the caller to show. */
const char *srv_store_error(const srv_store *store);
/* How many calls have failed since the store was opened, and whether the last one did (for
 * /metrics and /healthz). */
long long srv_store_failures(const srv_store *store);
bool srv_store_failing(const srv_store *store);

/* Players. A person is found by the hash of a secret player token its browser keeps (one per
 * device it has used), or by its claimed name (its account: the name's key, names.h);
 * computer players by level (one rated player per level). No plain token reaches the store. */
int srv_store_player_by_token(srv_store *store, const char *token_hash, srv_player *out, bool *found);
int srv_store_player_create(srv_store *store, const char *name, const char *token_hash, srv_player *out);
int srv_store_player_rename(srv_store *store, int64_t id, const char *name);
int srv_store_bot_player(srv_store *store, const char *level, srv_player *out);
int srv_store_player_get(srv_store *store, int64_t id, srv_player *out);
/* A further device's token for a player (after a login). */
int srv_store_player_token_add(srv_store *store, int64_t id, const char *token_hash);
/* The player holding an account, with its password hash. */
int srv_store_account(srv_store *store, const char *account, srv_player *out, char password_hash[SRV_PASSWORD_HASH_SIZE],
                      bool *found);
/* Claims a name for a player: its display name, its account (unique) and its password hash. */
int srv_store_player_register(srv_store *store, int64_t id, const char *name, const char *account,
                              const char *password_hash);
/* Every claimed account: its player's id, display name, account and password hash, in id order
 * (names.h: the server stores accounts under their names' keys again when those change). */
int srv_store_accounts(srv_store *store,
                       void (*fn)(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash),
                       void *ctx);
/* The best rated players who have played, best first: at most max, their number in *count. */
int srv_store_leaderboard(srv_store *store, srv_player *rows, int max, int *count);

/* Bot accounts (docs/SERVER.md "Bots"): players that are programs, each made by a registered
 * person, its owner, and known by API tokens stored only as hashes among the player tokens.
 * Creates one with its name claimed (account, as srv_store_player_register, with no password)
 * and its first token. */
int srv_store_bot_account_create(srv_store *store, int64_t owner, const char *name, const char *account,
                                 const char *token_hash, srv_player *out);
/* An owner's bot accounts in the order made: at most max, their number in *count. */
int srv_store_bot_accounts(srv_store *store, int64_t owner, srv_player *rows, int max, int *count);
/* Forgets every token of an owner's bot account and, unless token_hash is NULL, gives it that
 * one instead (a new token revokes the old; NULL revokes all). *found is false, and nothing
 * changes, when the owner has no such bot. */
int srv_store_bot_account_token(srv_store *store, int64_t owner, int64_t bot, const char *token_hash, bool *found);
/* As srv_store_leaderboard, but of the bot accounts only (srv_store_leaderboard leaves them out). */
int srv_store_bot_leaderboard(srv_store *store, srv_player *rows, int max, int *count);

/* Duplicate matches between bots (docs/SERVER.md "Duplicate matches"), each kept as the JSON
 * summary its page shows. Saves a summary: a new match when *id is 0 (then sets *id), else
 * over match *id's. */
int srv_store_match_save(srv_store *store, int64_t *id, const char *summary);
/* A match's summary (malloc'd; NULL when there is no such match). */
int srv_store_match_text(srv_store *store, int64_t id, char **summary);

/* One game's change to one player's rating. */
typedef struct srv_rating_row {
  int64_t game;
  char time[GOITA_RECORD_TIME_SIZE];
  double rating_before, rating_after, deviation_before, deviation_after;
} srv_rating_row;
/* A player's newest rating changes, newest first: at most max, their number in *count. */
int srv_store_rating_history(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count);

/* Tables. */
int srv_store_table_create(srv_store *store, srv_table_row *row); /* sets row->id and row->epoch */
int srv_store_table_update(srv_store *store, const srv_table_row *row); /* status and seats, in row->epoch */
/* Closes a table that had no game to finish (status over), saying why: "expired". */
int srv_store_table_end(srv_store *store, int64_t table, int64_t epoch, const char *reason);
/* Calls fn for every table not over, oldest first. */
int srv_store_tables_open(srv_store *store, void (*fn)(void *ctx, const srv_table_row *row), void *ctx);

/* What a table was created with beside its rules, and what changes of it during its game
 * (docs/SERVER.md "Time controls" and "Seats and reconnection"): each person's time bank, used
 * up first, then the table's turn_seconds afresh at every move (byoyomi); what is played for a
 * person whose time has run out; whether a spectator may take over the seat of a person gone
 * for good, and who left each seat so taken (they lose as leavers, hub_rate_game). Stored
 * beside the table (a table without a row has none of these), rewritten when one changes. */
typedef enum srv_on_timeout { SRV_TIMEOUT_COMPUTER = 0, SRV_TIMEOUT_PASS = 1 } srv_on_timeout;
typedef struct srv_table_options_row {
  int bank_seconds;                    /* each seat's bank at the start, 0: none */
  int on_timeout;                      /* srv_on_timeout */
  bool take_over;                      /* a spectator may take a gone person's seat */
  int64_t bank_ms[GOITA_MAX_SEATS];    /* each seat's bank left */
  int64_t left_player[GOITA_MAX_SEATS]; /* the person who left a seat taken over, 0 for none */
} srv_table_options_row;
/* Saves a table's options row, in the epoch it is owned in. */
int srv_store_table_options_save(srv_store *store, int64_t table, int64_t epoch, const srv_table_options_row *row);
/* A table's options row; *found is false for a table saved without one. */
int srv_store_table_options_load(srv_store *store, int64_t table, srv_table_options_row *row, bool *found);

/* Moves: seq counts from 0 per table; text is the move as in history strings. A stored move is
 * never written over: the same move sent again at its number (its answer lost) is saved once,
 * another is refused. */
int srv_store_move_add(srv_store *store, int64_t table, int64_t epoch, int seq, const char *text);
/* One move to save with srv_store_moves_add, and what became of it. */
typedef struct srv_move_write {
  int64_t table, epoch;
  int seq;
  char text[16];
  int64_t asked_us; /* the caller's own, kept as is (net.c: when the move was sent to be saved) */
  int status;      /* out: as srv_store_move_add returns it */
  char error[256]; /* out: the error text when status is not 0 */
} srv_move_write;
/* Saves the moves of many tables in one transaction, so one flush of the database makes them
 * all durable (group commit). Each move's status is as srv_store_move_add's: a move refused by
 * fencing (SRV_STORE_FENCED) is not written and the others are. Any other failure (the
 * database unreachable or full) writes none: every status is -1 with the error, and so is the
 * return value. */
int srv_store_moves_add(srv_store *store, srv_move_write *moves, int n);
/* Opens another connection to the database `store` is on, for another thread: the same server
 * name among several (srv_store_node, without taking the lease again) and the same size cap.
 * On failure *again may still be set, for its error text: close it. */
int srv_store_open_again(const srv_store *store, srv_store **again);
/* Calls fn with each move of a table in order. */
int srv_store_moves(srv_store *store, int64_t table, void (*fn)(void *ctx, const char *text), void *ctx);

typedef struct srv_game_row {
  int64_t id, table;
  char finished[GOITA_RECORD_TIME_SIZE];
  int nplayers;
  int64_t players[GOITA_MAX_SEATS];
  char names[GOITA_MAX_SEATS][SRV_NAME_SIZE];
  double ratings[GOITA_MAX_SEATS]; /* after the game */
  /* What the game did to each seat's player: rated[s] is set for the one seat of each rated
   * player whose rating, deviation, game count and history row are written (a computer level
   * with two seats on a side is written once; one on two sides not at all). */
  bool rated[GOITA_MAX_SEATS];
  double rating_before[GOITA_MAX_SEATS], deviation_before[GOITA_MAX_SEATS], deviations[GOITA_MAX_SEATS];
  int score[2];                    /* per team */
  char rules[512];                 /* the table's rule options as text */
  char ended[16];                  /* "" when played to its end, "abandoned" when no person was left */
  int64_t epoch;                   /* the table's ownership epoch (srv_table_row) */
} srv_game_row;

/* A finished or abandoned game to save away from the hub's thread (hub.h io.save_game), as
 * srv_store_game_finish or srv_store_game_abandon saves it, and what became of it. */
typedef struct srv_game_write {
  srv_game_row game;             /* game.id is set once saved */
  char *record_json, *histories; /* malloc'd, owned by the write: freed by whoever takes its outcome */
  bool abandoned;
  int status;      /* out: as srv_store_game_finish returns it */
  char error[256]; /* out: the error text when status is not 0 */
} srv_game_write;
/* A finished game: its record (JSON) and history strings, the players' new ratings with their
 * history rows, and the table closed, all in one transaction, in the table's epoch
 * (game->epoch); a table that is over already is refused as fenced. Sets game->id. */
int srv_store_game_finish(srv_store *store, srv_game_row *game, const char *record_json, const char *histories);
/* A game no person plays any more: its record up to the last move, its players with the new
 * ratings of those rated (the people who left it lose, docs/SERVER.md "Ratings"), ended
 * "abandoned", and the table closed, in one transaction. Sets game->id. */
int srv_store_game_abandon(srv_store *store, srv_game_row *game, const char *record_json, const char *histories);
/* The newest finished games with an id below `before` (0: the newest of all), at most max;
 * returns how many through *count. A private table's games are not among them: only their
 * players and those they give the table's invite code may see them (srv_store_game_text). */
int srv_store_games(srv_store *store, int64_t before, srv_game_row *rows, int max, int *count);
/* A finished game's record or history strings (malloc'd; *text is NULL when there is none). The
 * game of a private table is given only with its invite code as key (NULL: no key), as if there
 * were none otherwise, so a stranger cannot tell it exists. */
int srv_store_game_text(srv_store *store, int64_t game, const char *key, bool histories, char **text);

/* Ko shogi (docs/KOSHOGI.md "Online"): finished games and ratings of their own. */
typedef struct srv_ks_game_row {
  int64_t id;                          /* set once saved */
  int64_t players[2];                  /* Black's and White's */
  char names[2][SRV_NAME_SIZE];
  char result[8];                      /* "black", "white" (the winner) or "draw" */
  char end[24];                        /* how it ended (ks_message.h srv_ks_end_name) */
  int moves;                           /* plies played */
  int64_t main_ms, byoyomi_ms;         /* the clock it was played under */
  char invite[SRV_TOKEN_SIZE];         /* a private table's invite code: the key to its record; "" */
  bool rated;                          /* both players' ratings are written, with their history rows */
  double rating_before[2], deviation_before[2];
  double rating_after[2], deviation_after[2];
  int64_t table;                       /* the stored table (srv_ks_table_row) its save closes; 0: none */
  int64_t epoch;                       /* the epoch this server owns that table in: a save refused by
                                          fencing (SRV_STORE_FENCED) writes nothing */
} srv_ks_game_row;
/* A finished Ko shogi game to save away from the hub's thread (hub.h io.save_ks_game). */
typedef struct srv_ks_game_write {
  srv_ks_game_row game;
  int64_t table;   /* the hub's table it was played at */
  char *record;    /* malloc'd (ks_record_write), owned by the write */
  int status;      /* out: as srv_store_ks_game_save returns it */
  char error[256]; /* out */
} srv_ks_game_write;
/* Saves a finished Ko shogi game with its record and, when rated, both players' new Ko shogi
 * ratings (one more game each) and their history rows, in one transaction. Sets game->id. */
int srv_store_ks_game_save(srv_store *store, srv_ks_game_row *game, const char *record);
/* A player's newest Ko shogi rating changes (srv_store_ks_game_save writes them), newest first:
 * at most max, their number in *count; the games are Ko shogi games' numbers. */
int srv_store_ks_rating_history(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count);
/* A player's Ko shogi rating (1500, 350 and 0 games before its first rated game). */
int srv_store_ks_rating(srv_store *store, int64_t player, double *rating, double *deviation, int *games);
/* A finished Ko shogi game's record (malloc'd; *record is NULL when there is none); a private
 * table's only with its invite code as key, as srv_store_game_text. */
int srv_store_ks_game_text(srv_store *store, int64_t game, const char *key, char **record);
/* As srv_store_leaderboard, but by Ko shogi ratings: the players with a rated Ko shogi game
 * (bot accounts left out), rating, deviation and games their Ko shogi ones, best first. */
int srv_store_ks_leaderboard(srv_store *store, srv_player *rows, int max, int *count);
/* A Ko shogi table not over, as stored so that a new server restores it (docs/KOSHOGI.md
 * "Online"): the table itself here, its moves apart (srv_store_ks_move_add). */
typedef struct srv_ks_table_row {
  int64_t id, owner;
  int64_t main_ms, byoyomi_ms;
  char invite[SRV_TOKEN_SIZE];        /* "" for a listed table */
  int64_t players[2];                 /* at Black and White; 0 for an empty seat */
  char names[2][SRV_NAME_SIZE];
  char bots[2][SRV_LEVEL_SIZE];       /* a computer's level, "" for a person */
  int draw_offer;                     /* the side whose draw offer stands, -1 for none */
  int64_t epoch;                      /* the epoch this server owns it in (docs/SERVER.md "Ownership") */
} srv_ks_table_row;
/* Stores a Ko shogi table. Made (id 0): numbered by the database, unique across servers, and
 * owned by this server in epoch 1 (row->id and row->epoch set). Seated or changed: written in the
 * epoch named, as a Goita table's writes are; SRV_STORE_FENCED, writing nothing, when another
 * server owns it now. */
int srv_store_ks_table_save(srv_store *store, srv_ks_table_row *row);
/* Forgets a stored Ko shogi table and its moves (a waiting table let go), in the epoch named
 * (SRV_STORE_FENCED otherwise); a finished game's srv_store_ks_game_save does the same in its own
 * transaction. */
int srv_store_ks_table_close(srv_store *store, int64_t table, int64_t epoch);
/* Stores ply `ply` (from 0) of a Ko shogi table in notation, with both sides' main time left
 * after it (Black's, White's), in the epoch named: SRV_STORE_FENCED when another server owns the
 * table now, or when another move is stored at that ply (a stored move is never written over). */
int srv_store_ks_move_add(srv_store *store, int64_t table, int64_t epoch, int ply, const char *move,
                          const int64_t left_ms[2]);
/* Calls fn for every Ko shogi table this server serves from now, in id order: with several
 * servers, those of its earlier run, of no server and of servers whose lease ran out, each
 * claimed in a new epoch (as srv_store_tables_open); one server alone, every stored one. Their
 * numbers, with the Goita tables', are what srv_store_lease_renew names afterwards. */
int srv_store_ks_tables_open(srv_store *store, void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx);
/* One stored Ko shogi table of this server's (taken over at a lease renewal); *found is false
 * when it is over or another server's. */
int srv_store_ks_table_load(srv_store *store, int64_t table, srv_ks_table_row *row, bool *found);
/* Calls fn for a stored table's moves in order, each with the main times stored with it. */
int srv_store_ks_moves(srv_store *store, int64_t table,
                       void (*fn)(void *ctx, const char *move, const int64_t left_ms[2]), void *ctx);
/* Career statistics (docs/SERVER.md "Career statistics"): one row per game and player, as
 * srv_game_analyse found them; a player in several seats of a game (a computer level) is one
 * row, with its first seat's rounds and points and the moves of all its seats. A game saved
 * again keeps its first rows. */
int srv_store_game_stats_save(srv_store *store, const srv_game_stats *stats);
/* One game of a player's statistics. */
typedef struct srv_stats_row {
  int64_t game;
  char finished[GOITA_RECORD_TIME_SIZE];
  srv_seat_stats stats;
} srv_stats_row;
/* A player's whole career, summed over every game counted. */
typedef struct srv_career {
  long long games, rounds, points, moves, lost;
} srv_career;
/* A player's career and its newest games, newest first (at most max, their number in *count),
 * in one query: the games of listed tables, and with_private those of private tables too (the
 * player asking for its own). */
int srv_store_player_stats(srv_store *store, int64_t player, bool with_private, srv_career *career,
                           srv_stats_row *rows, int max, int *count);

#endif

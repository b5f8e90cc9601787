/* What a storage implementation provides behind store.h: one table of functions per database
 * (store_sqlite.c, store_postgresql.c) and the schema's numbered migrations, written once per
 * dialect side by side (store_schema.c) so that both stores always have the same versions. */
#ifndef GOITA_SERVER_STORE_IMPL_H
#define GOITA_SERVER_STORE_IMPL_H

#include "store.h"

/* The functions of store.h, less open and error, for one database. */
typedef struct srv_store_ops {
  void (*close)(srv_store *store);
  int (*limit_bytes)(srv_store *store, long long bytes);
  int (*node)(srv_store *store, const char *name, int lease_ms);
  int (*node_release)(srv_store *store);
  int (*lease_renew)(srv_store *store, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx);
  int (*table_load)(srv_store *store, int64_t table, srv_table_row *row, bool *found);
  int (*table_owner)(srv_store *store, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE], bool *found);
  int (*player_by_token)(srv_store *store, const char *token_hash, srv_player *out, bool *found);
  int (*player_create)(srv_store *store, const char *name, const char *token_hash, srv_player *out);
  int (*player_rename)(srv_store *store, int64_t id, const char *name);
  int (*bot_player)(srv_store *store, const char *level, srv_player *out);
  int (*player_get)(srv_store *store, int64_t id, srv_player *out);
  int (*player_token_add)(srv_store *store, int64_t id, const char *token_hash);
  int (*account)(srv_store *store, const char *account, srv_player *out, char password_hash[SRV_PASSWORD_HASH_SIZE],
                 bool *found);
  int (*player_register)(srv_store *store, int64_t id, const char *name, const char *account,
                         const char *password_hash);
  int (*leaderboard)(srv_store *store, srv_player *rows, int max, int *count);
  int (*rating_history)(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count);
  int (*table_create)(srv_store *store, srv_table_row *row);
  int (*table_update)(srv_store *store, const srv_table_row *row);
  int (*table_end)(srv_store *store, int64_t table, int64_t epoch, const char *reason);
  int (*tables_open)(srv_store *store, void (*fn)(void *ctx, const srv_table_row *row), void *ctx);
  int (*move_add)(srv_store *store, int64_t table, int64_t epoch, int seq, const char *text);
  int (*moves)(srv_store *store, int64_t table, void (*fn)(void *ctx, const char *text), void *ctx);
  int (*save_game)(srv_store *store, srv_game_row *game, const char *record_json, const char *histories,
                   bool abandoned);
  int (*games)(srv_store *store, int64_t before, srv_game_row *rows, int max, int *count);
  int (*game_text)(srv_store *store, int64_t game, const char *key, bool histories, char **text);
  int (*accounts)(srv_store *store,
                  void (*fn)(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash),
                  void *ctx);
  int (*table_options_save)(srv_store *store, int64_t table, int64_t epoch, const srv_table_options_row *row);
  int (*table_options_load)(srv_store *store, int64_t table, srv_table_options_row *row, bool *found);
  int (*bot_account_create)(srv_store *store, int64_t owner, const char *name, const char *account,
                            const char *token_hash, srv_player *out);
  int (*bot_accounts)(srv_store *store, int64_t owner, srv_player *rows, int max, int *count);
  int (*bot_account_token)(srv_store *store, int64_t owner, int64_t bot, const char *token_hash, bool *found);
  int (*bot_leaderboard)(srv_store *store, srv_player *rows, int max, int *count);
  int (*match_save)(srv_store *store, int64_t *id, const char *summary);
  int (*match_text)(srv_store *store, int64_t id, char **summary);
  /* (stats holds one seat per player: store.c merges a player's seats first) */
  int (*game_stats_save)(srv_store *store, const srv_game_stats *stats);
  int (*player_stats)(srv_store *store, int64_t player, bool with_private, srv_career *career, srv_stats_row *rows,
                      int max, int *count);
  /* NULL: srv_store_moves_add saves the moves one by one (the simulated cluster's store). */
  int (*moves_add)(srv_store *store, srv_move_write *moves, int n);
  int (*open_again)(const srv_store *store, srv_store **again);
  int (*ks_game_save)(srv_store *store, srv_ks_game_row *game, const char *record);
  int (*ks_rating)(srv_store *store, int64_t player, double *rating, double *deviation, int *games);
  int (*ks_game_text)(srv_store *store, int64_t game, const char *key, char **record);
  int (*ks_leaderboard)(srv_store *store, srv_player *rows, int max, int *count);
  int (*ks_table_save)(srv_store *store, srv_ks_table_row *row);
  int (*ks_table_close)(srv_store *store, int64_t table, int64_t epoch);
  int (*ks_move_add)(srv_store *store, int64_t table, int64_t epoch, int ply, const char *move,
                     const int64_t left_ms[2]);
  int (*ks_tables_open)(srv_store *store, void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx);
  int (*ks_moves)(srv_store *store, int64_t table, void (*fn)(void *ctx, const char *move, const int64_t left_ms[2]),
                  void *ctx);
  int (*ks_table_load)(srv_store *store, int64_t table, srv_ks_table_row *row, bool *found);
  int (*ks_rating_history)(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count);
} srv_store_ops;

/* The part every store begins with: its functions, its last error, and the count of calls that
 * failed (for /metrics), kept by store.c. */
struct srv_store {
  const srv_store_ops *ops;
  char error[256];
  long long failures;
  bool failing; /* the last call failed */
  bool down;    /* srv_store_fail_all: every call fails as on an unreachable database */
  long fail_countdown; /* srv_store_fail_call: calls left until the one that fails, 0: none */
  bool fault_fired;    /* the call srv_store_fail_call armed has failed */
};

/* Opens a SQLite file or a PostgreSQL connection; as srv_store_open. */
int srv_store_open_sqlite(srv_store **store, const char *path);
int srv_store_open_postgresql(srv_store **store, const char *conninfo);

/* For the simulation only (tests/test_simulation.c): a store on the shared in-memory SQLite
 * database `name` (every store of the process opened with that name sees the same one, while
 * one of them is open) that serves several servers as PostgreSQL does: srv_store_node, leases
 * measured by db_clock_ms (the database's clock, in milliseconds), claims in a new epoch, every
 * write for a table fenced by its epoch, a stored move never written over. Unlike PostgreSQL's,
 * its srv_store_node never waits: a name whose lease is live is refused at once. */
int srv_store_open_simulated(srv_store **store, const char *name, int64_t (*db_clock_ms)(void *ctx), void *ctx);
/* Fault injection, for any store: while `down`, every call fails (-1) as on an unreachable
 * database, and nothing reaches the database. */
void srv_store_fail_all(srv_store *store, bool down);
/* Fault injection, for the sweep of tests/test_faults.c: the n-th call of store.h from now
 * (counting from 1) fails once, as srv_store_fail_all's do; 0 fails none. Whether that call
 * has come yet: srv_store_fault_fired. */
void srv_store_fail_call(srv_store *store, long n);
bool srv_store_fault_fired(const srv_store *store);

/* A number per seat as stored (table_options.bank_ms, left_player): space-separated; and read
 * back (a missing, malformed or negative number is 0). */
void srv_seat_numbers_format(const int64_t v[GOITA_MAX_SEATS], char *out, size_t size);
void srv_seat_numbers_parse(const char *text, int64_t v[GOITA_MAX_SEATS]);

/* A player's statistics (srv_store_player_stats) in either dialect, given its parameters' names.
 * The totals are window sums over every row of the player's the WHERE keeps, taken before the
 * LIMIT cuts the list to the newest games; the window runs in the list's own order, so the
 * player's index gives the rows in order and nothing is sorted. */
#define PLAYER_STATS_SQL(P1, P2, P3)                                                                                  \
  "SELECT s.game, g.finished, s.rounds, s.points, s.moves, s.lost, COUNT(*) OVER w, SUM(s.rounds) OVER w,"          \
  " SUM(s.points) OVER w, SUM(s.moves) OVER w, SUM(s.lost) OVER w"                                                  \
  " FROM game_stats s JOIN games g ON g.id = s.game WHERE s.player = " P1 " AND (s.listed = 1 OR " P2 " = 1)"     \
  " WINDOW w AS (ORDER BY s.game DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"                    \
  " ORDER BY s.game DESC LIMIT " P3

/* One step of the schema in each dialect: step N brings version N - 1 to version N. */
typedef struct srv_migration {
  const char *sqlite;
  const char *postgresql;
} srv_migration;
extern const srv_migration srv_migrations[];
extern const int srv_migration_count;

#endif

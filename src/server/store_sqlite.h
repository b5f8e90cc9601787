/* Inside the SQLite store: what store_sqlite.c (a SQLite file, one server) shares with
 * store_sqlite_cluster.c (the same store as several servers on one database see it, for the
 * simulation of tests/test_simulation.c). Nothing else includes this. */
#ifndef GOITA_SERVER_STORE_SQLITE_H
#define GOITA_SERVER_STORE_SQLITE_H

#include <sqlite3.h>

#include "store_impl.h"

/* A SQLite store: the common part first, so that a srv_store pointer is one of these. */
typedef struct sqlite_store {
  srv_store base;
  sqlite3 *db;
  char *path;            /* what it was opened with, for srv_store_open_again */
  long long limit_bytes; /* srv_store_limit_bytes's cap, 0 for none */
  /* A simulated cluster's store (srv_store_open_simulated): the database's clock, this
   * server's name ("" until srv_store_node), its lease and the incarnation it took the name in. */
  int64_t (*clock_ms)(void *ctx);
  void *clock_ctx;
  char node[SRV_NODE_SIZE];
  int lease_ms;
  int64_t incarnation;
} sqlite_store;

#define DB(s) (((sqlite_store *)(s))->db)
#define LITE(s) ((sqlite_store *)(s))

/* The columns lite_read_tables reads, in its order. */
#define LITE_TABLE_COLUMNS "id, rules, seed, turn_seconds, status, created, invite, owner, epoch"

/* Sets the error text to "what: SQLite's message"; returns -1. */
int lite_fail(srv_store *s, const char *what);
/* A prepared statement, or NULL with the error set. */
sqlite3_stmt *lite_prepare(srv_store *s, const char *sql);
/* Steps a statement that returns no rows and finalizes it: 0, or -1 with the error (a NULL
 * statement, from a failed lite_prepare, is -1). */
int lite_run(srv_store *s, sqlite3_stmt *st, const char *what);
void lite_copy_text(char *dst, size_t size, const unsigned char *src);
/* BEGIN IMMEDIATE; and COMMIT, or ROLLBACK after a failure (keeping the first error's text). */
int lite_begin(srv_store *s);
int lite_end(srv_store *s, int status);
/* Writes every seat of a table, inside the caller's transaction. */
int lite_write_seats(srv_store *s, const srv_table_row *row);
/* Steps a query for LITE_TABLE_COLUMNS, calls fn with each table and its seats, finalizes it. */
int lite_read_tables(srv_store *s, sqlite3_stmt *st, void (*fn)(void *ctx, const srv_table_row *row), void *ctx);
/* Writes a game's row, its players and their ratings inside the caller's transaction. */
int lite_write_game(srv_store *s, const srv_game_row *g, const char *record_json, const char *histories, bool abandoned,
                    int64_t *game);

/* The functions of store.h that several servers make differently (store_sqlite_cluster.c). */
int sim_node(srv_store *s, const char *name, int lease_ms);
int sim_node_release(srv_store *s);
int sim_lease_renew(srv_store *s, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx);
int sim_table_load(srv_store *s, int64_t table, srv_table_row *row, bool *found);
int sim_table_owner(srv_store *s, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE], bool *found);
int sim_table_update(srv_store *s, const srv_table_row *row);
int sim_table_end(srv_store *s, int64_t table, int64_t epoch, const char *reason);
int sim_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_table_row *row), void *ctx);
int sim_move_add(srv_store *s, int64_t table, int64_t epoch, int seq, const char *text);
int sim_save_game(srv_store *s, srv_game_row *g, const char *record_json, const char *histories, bool abandoned);

#endif

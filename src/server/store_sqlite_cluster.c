/* The SQLite store as several servers on one database see it, for the deterministic simulation
 * of tests/test_simulation.c (srv_store_open_simulated): the same statements, conditions and
 * answers as store_postgresql.c's (docs/SERVER.md "Ownership"), on a shared in-memory database
 * whose clock (db_clock_ms) the simulation drives. Leases are milliseconds of that clock, kept as
 * numbers in nodes.lease_until. Each function names its PostgreSQL counterpart. */
#include <stdio.h>
#include <string.h>

#include "store_sqlite.h"


/* The database's clock now. */
static int64_t db_now(srv_store *s) { return LITE(s)->clock_ms(LITE(s)->clock_ctx); }

/* The servers whose lease has run out by the database's clock (LAPSED); ?9 is now. */
#define LAPSED "(SELECT name FROM nodes WHERE CAST(lease_until AS INTEGER) < ?9)"
/* A write's condition (OWNED): this server owns the table in the epoch named, and it is not
 * over; with no name any open table. ?1 is the table, ?2 the epoch, ?3 the server's name. */
#define OWNED "id = ?1 AND status != 2 AND (?3 = '' OR (node = ?3 AND epoch = ?2))"

/* Binds the OWNED parameters. */
static void bind_owned(srv_store *s, sqlite3_stmt *st, int64_t table, int64_t epoch) {
  if (!st) return;
  sqlite3_bind_int64(st, 1, table);
  sqlite3_bind_int64(st, 2, epoch);
  sqlite3_bind_text(st, 3, LITE(s)->node, -1, SQLITE_TRANSIENT);
}

/* Says a write was refused by fencing (fenced in store_postgresql.c). */
static int fenced(srv_store *s, const char *what, int64_t table, int64_t epoch) {
  snprintf(s->error, sizeof s->error,
           "%s: table %lld is served by another server now (this server's epoch %lld has passed)", what,
           (long long)table, (long long)epoch);
  return SRV_STORE_FENCED;
}

/* Runs an OWNED statement: 0 when it changed a row, SRV_STORE_FENCED when it changed none. */
static int owned_run(srv_store *s, sqlite3_stmt *st, const char *what, int64_t table, int64_t epoch) {
  if (lite_run(s, st, what) != 0) return -1;
  return sqlite3_changes(DB(s)) > 0 ? 0 : fenced(s, what, table, epoch);
}

/* Takes the name when no live server holds it (take_name): a new incarnation. Sets *taken. */
static int take_name(srv_store *s, bool *taken) {
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO nodes (name, lease_until, incarnation) VALUES (?1, ?2 + ?3, 1) "
                                     "ON CONFLICT (name) DO UPDATE SET lease_until = excluded.lease_until, "
                                     "incarnation = nodes.incarnation + 1 "
                                     "WHERE CAST(nodes.lease_until AS INTEGER) < ?2 RETURNING incarnation");
  if (!st) return -1;
  sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(st, 2, db_now(s));
  sqlite3_bind_int(st, 3, LITE(s)->lease_ms);
  const int rc = sqlite3_step(st);
  *taken = rc == SQLITE_ROW;
  if (*taken) LITE(s)->incarnation = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "taking the server's name");
}

/* pg_node, without its wait: a live lease of the name is refused at once (the simulation starts
 * a killed server again later, as often as it is refused). */
int sim_node(srv_store *s, const char *name, int lease_ms) {
  if (!*name || strlen(name) >= sizeof LITE(s)->node) {
    snprintf(s->error, sizeof s->error, "a server's name has 1 to %d bytes", (int)sizeof LITE(s)->node - 1);
    return -1;
  }
  snprintf(LITE(s)->node, sizeof LITE(s)->node, "%s", name);
  LITE(s)->lease_ms = lease_ms;
  bool taken = false;
  if (take_name(s, &taken) != 0) {
    LITE(s)->node[0] = '\0';
    return -1;
  }
  if (taken) return 0;
  LITE(s)->node[0] = '\0';
  snprintf(s->error, sizeof s->error, "a live server is named %s: give this one another --node", name);
  return -1;
}

int sim_node_release(srv_store *s) {
  if (!LITE(s)->node[0]) return 0;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE nodes SET lease_until = ?3 - 1 WHERE name = ?1 AND incarnation = ?2");
  if (st) {
    sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, LITE(s)->incarnation);
    sqlite3_bind_int64(st, 3, db_now(s));
  }
  return lite_run(s, st, "giving up the lease");
}

/* Renews the lease in this server's incarnation (write_lease): none renewed means a newer
 * server took the name. */
static int write_lease(srv_store *s) {
  sqlite3_stmt *st =
      lite_prepare(s, "UPDATE nodes SET lease_until = ?3 + ?4 WHERE name = ?1 AND incarnation = ?2");
  if (st) {
    sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, LITE(s)->incarnation);
    sqlite3_bind_int64(st, 3, db_now(s));
    sqlite3_bind_int(st, 4, LITE(s)->lease_ms);
  }
  if (lite_run(s, st, "renewing the lease") != 0) return -1;
  if (sqlite3_changes(DB(s)) == 1) return 0;
  snprintf(s->error, sizeof s->error, "another server has started under the name %s: this one is replaced",
           LITE(s)->node);
  return SRV_STORE_SUPERSEDED;
}

/* Binds this server's name as ?1 and the database's clock as ?9. */
static sqlite3_stmt *with_node(srv_store *s, const char *sql) {
  sqlite3_stmt *st = lite_prepare(s, sql);
  if (st) {
    sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 9, db_now(s));
  }
  return st;
}

/* Claims the open tables, Goita's and Ko shogi's, of the servers whose lease ran out, in one
 * transaction (one statement in PostgreSQL). */
static int claim_lapsed(srv_store *s) {
  if (lite_begin(s) != 0) return -1;
  int status = lite_run(
      s, with_node(s, "UPDATE tables SET node = ?1, epoch = epoch + 1 WHERE status != 2 AND node IN " LAPSED),
      "claiming the tables");
  if (status == 0)
    status = lite_run(s, with_node(s, "UPDATE ks_tables SET node = ?1, epoch = epoch + 1 WHERE node IN " LAPSED),
                      "claiming the Ko shogi tables");
  return lite_end(s, status);
}

/* pg_lease_renew: renews, claims the open tables of lapsed servers in a new epoch each (when
 * asked), and names every open table of this server with its epoch. */
int sim_lease_renew(srv_store *s, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx) {
  if (!LITE(s)->node[0]) return 0;
  int status = write_lease(s);
  if (status == 0 && claim) status = claim_lapsed(s);
  if (status != 0) return status;
  sqlite3_stmt *st = with_node(s, "SELECT id, epoch FROM tables WHERE status != 2 AND node = ?1 "
                                  "UNION ALL SELECT id, epoch FROM ks_tables WHERE node = ?1 ORDER BY id");
  if (!st) return -1;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) fn(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the tables");
}

static void copy_row(void *ctx, const srv_table_row *row) { *(srv_table_row *)ctx = *row; }

int sim_table_load(srv_store *s, int64_t table, srv_table_row *row, bool *found) {
  sqlite3_stmt *st = with_node(s, "SELECT " LITE_TABLE_COLUMNS " FROM tables WHERE id = ?2 AND status != 2 AND node = ?1");
  if (st) sqlite3_bind_int64(st, 2, table);
  row->id = 0;
  if (lite_read_tables(s, st, copy_row, row) != 0) return -1;
  *found = row->id == table;
  return 0;
}

int sim_table_owner(srv_store *s, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE], bool *found) {
  static const char *const sql[] = {
      ("SELECT id, COALESCE(node, '') FROM tables WHERE id = CAST(?1 AS INTEGER) AND status != 2 "
       "UNION ALL SELECT id, COALESCE(node, '') FROM ks_tables WHERE id = CAST(?1 AS INTEGER)"),
      ("SELECT t.id, COALESCE(t.node, '') FROM seats s JOIN tables t ON t.id = s.table_id "
       "WHERE s.token = ?1 AND t.status != 2"),
      ("SELECT id, COALESCE(node, '') FROM tables WHERE invite = ?1 AND status != 2 "
       "UNION ALL SELECT id, COALESCE(node, '') FROM ks_tables WHERE invite = ?1")};
  if (kind < 0 || kind > SRV_KEY_INVITE) {
    snprintf(s->error, sizeof s->error, "finding a table: no such key");
    return -1;
  }
  sqlite3_stmt *st = lite_prepare(s, sql[kind]);
  if (!st) return -1;
  sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
  const int rc = sqlite3_step(st);
  *found = rc == SQLITE_ROW;
  if (*found) {
    *table = sqlite3_column_int64(st, 0);
    lite_copy_text(node, SRV_NODE_SIZE, sqlite3_column_text(st, 1));
  }
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "finding a table");
}

/* Ends a transaction after an OWNED write: a fenced one is rolled back and says so. */
static int end_owned(srv_store *s, int status) {
  if (status == SRV_STORE_FENCED) {
    char error[sizeof s->error];
    memcpy(error, s->error, sizeof error);
    lite_end(s, -1);
    memcpy(s->error, error, sizeof error);
    return SRV_STORE_FENCED;
  }
  return lite_end(s, status);
}

int sim_table_update(srv_store *s, const srv_table_row *row) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE tables SET status = ?4 WHERE " OWNED);
  bind_owned(s, st, row->id, row->epoch);
  if (st) sqlite3_bind_int(st, 4, row->status);
  int status = owned_run(s, st, "saving a table", row->id, row->epoch);
  if (status == 0) status = lite_write_seats(s, row);
  return end_owned(s, status);
}

int sim_table_end(srv_store *s, int64_t table, int64_t epoch, const char *reason) {
  sqlite3_stmt *st = lite_prepare(s, "UPDATE tables SET status = 2, ended = ?4 WHERE " OWNED);
  bind_owned(s, st, table, epoch);
  if (st) sqlite3_bind_text(st, 4, reason, -1, SQLITE_TRANSIENT);
  return owned_run(s, st, "closing a table", table, epoch);
}

/* pg_tables_open: at start, claims this server's tables of an earlier run, those of no server
 * and those of lapsed servers, each in a new epoch, and gives them. */
int sim_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  if (!LITE(s)->node[0])
    return lite_read_tables(s, lite_prepare(s, "SELECT " LITE_TABLE_COLUMNS " FROM tables WHERE status != 2 ORDER BY id"),
                            fn, ctx);
  if (lite_run(s,
               with_node(s, "UPDATE tables SET node = ?1, epoch = epoch + 1 WHERE status != 2 AND "
                            "(node IS NULL OR node = ?1 OR node IN " LAPSED ")"),
               "claiming the tables") != 0)
    return -1;
  return lite_read_tables(
      s, with_node(s, "SELECT " LITE_TABLE_COLUMNS " FROM tables WHERE status != 2 AND node = ?1 ORDER BY id"), fn, ctx);
}

/* pg_move_add: saved in the epoch this server owns the table in, never over a stored move; the
 * same move again at its number is saved once. */
int sim_move_add(srv_store *s, int64_t table, int64_t epoch, int seq, const char *text) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO moves (table_id, seq, move, node, epoch) "
                                     "SELECT ?1, ?4, ?5, NULLIF(?3, ''), ?2 FROM tables WHERE " OWNED " "
                                     "ON CONFLICT (table_id, seq) DO NOTHING");
  bind_owned(s, st, table, epoch);
  if (st) {
    sqlite3_bind_int(st, 4, seq);
    sqlite3_bind_text(st, 5, text, -1, SQLITE_TRANSIENT);
  }
  int status = lite_run(s, st, "saving a move");
  if (status == 0 && sqlite3_changes(DB(s)) == 1) return lite_end(s, 0);
  /* not saved: another server's epoch, or this move stored already */
  bool owned = false, stored = false, same = false;
  if (status == 0) {
    st = lite_prepare(s, "SELECT (SELECT move FROM moves WHERE table_id = ?1 AND seq = ?4) FROM tables WHERE " OWNED);
    bind_owned(s, st, table, epoch);
    if (st) sqlite3_bind_int(st, 4, seq);
    const int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    owned = rc == SQLITE_ROW;
    stored = owned && sqlite3_column_type(st, 0) != SQLITE_NULL;
    same = stored && strcmp((const char *)sqlite3_column_text(st, 0), text) == 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) status = lite_fail(s, "saving a move");
  }
  if (lite_end(s, status) != 0) return -1;
  if (same) return 0;
  if (stored) {
    snprintf(s->error, sizeof s->error, "saving a move: table %lld has another move stored at number %d",
             (long long)table, seq);
    return SRV_STORE_FENCED;
  }
  if (owned) {
    snprintf(s->error, sizeof s->error, "saving a move: not saved");
    return -1;
  }
  return fenced(s, "saving a move", table, epoch);
}

/* pg_save_game: the table is closed first, in its epoch, so a server that lost it or a game
 * stored already is refused before anything is written. */
int sim_save_game(srv_store *s, srv_game_row *g, const char *record_json, const char *histories, bool abandoned) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE tables SET status = 2, ended = ?4 WHERE " OWNED);
  bind_owned(s, st, g->table, g->epoch);
  if (st) {
    if (abandoned)
      sqlite3_bind_text(st, 4, "abandoned", -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 4);
  }
  int status = owned_run(s, st, "saving a game", g->table, g->epoch);
  int64_t game = 0;
  if (status == 0) status = lite_write_game(s, g, record_json, histories, abandoned, &game);
  if (end_owned(s, status) != 0) return status == SRV_STORE_FENCED ? SRV_STORE_FENCED : -1;
  g->id = game;
  return 0;
}

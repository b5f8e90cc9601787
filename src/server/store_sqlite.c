/* The server's storage in SQLite (WAL mode): one database file, its schema brought up to date
 * on open by the numbered migrations of store_schema.c. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "secret.h"
#include "store_sqlite.h"

static const srv_store_ops sqlite_ops, simulated_ops;


/* Brings the database to the newest schema version; returns 0, or -1 with the error set. */
static int migrate(srv_store *s);

/* goita_token_hash(text): the SQL face of srv_token_hash, for migration 2, which hashes the
 * tokens an older database kept in plain text. */
static void sql_token_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  const unsigned char *token = sqlite3_value_text(argv[0]);
  if (!token) {
    sqlite3_result_null(ctx);
    return;
  }
  char hash[SRV_TOKEN_HASH_SIZE];
  srv_token_hash((const char *)token, hash);
  sqlite3_result_text(ctx, hash, -1, SQLITE_TRANSIENT);
}

int lite_fail(srv_store *s, const char *what) {
  snprintf(s->error, sizeof s->error, "%s: %s", what, sqlite3_errmsg(DB(s)));
  return -1;
}

/* How a connection waits for the other's write to end (the loop's and the store thread's
 * connections share one file): polled every 50 us for the first 10 ms, then every ms, for 5 s
 * in all. SQLite's own busy timeout sleeps 1, 2, 5, 10 ms... between tries, so the loop slept
 * about 8 ms for a store-thread commit that ends in under one. */
#define BUSY_FAST_TRIES 200
#define BUSY_TRIES (BUSY_FAST_TRIES + 4990)

static int lite_busy(void *ctx, int tries) {
  (void)ctx;
  if (tries >= BUSY_TRIES) return 0; /* SQLITE_BUSY: the database is locked */
  const struct timespec pause = {0, tries < BUSY_FAST_TRIES ? 50000 : 1000000};
  nanosleep(&pause, NULL);
  return 1;
}

/* Opens a database (a file, or a URI with SQLITE_OPEN_URI in flags) with the given functions and
 * brings its schema up to date; WAL mode for a file. */
static int lite_open(srv_store **out, const char *path, int flags, const srv_store_ops *ops, bool wal) {
  *out = NULL;
  sqlite_store *lite = calloc(1, sizeof *lite);
  if (!lite) return -1;
  srv_store *s = &lite->base;
  s->ops = ops;
  *out = s; /* also on failure, for the error text; close it */
  lite->path = strdup(path);
  if (!lite->path) {
    snprintf(s->error, sizeof s->error, "%s: out of memory", path);
    return -1;
  }
  if (sqlite3_open_v2(path, &DB(s), flags | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
      SQLITE_OK)
    return lite_fail(s, path);
  sqlite3_busy_handler(DB(s), lite_busy, NULL);
  sqlite3_create_function(DB(s), "goita_token_hash", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_token_hash, NULL,
                          NULL);
  /* WAL with synchronous=NORMAL: a commit survives the process being killed (it is in the
   * log, which the next open replays); only a power cut may lose the last commits. */
  /* secure_delete: what a row held is zeroed when it changes, so the plain tokens an older
   * database kept are gone from the file once migration 2 has hashed them. */
  if ((wal && sqlite3_exec(DB(s), "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL) !=
                  SQLITE_OK) ||
      sqlite3_exec(DB(s), "PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec(DB(s), "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", NULL, NULL,
                   NULL) != SQLITE_OK)
    return lite_fail(s, "creating the schema");
  return migrate(s);
}

int srv_store_open_sqlite(srv_store **out, const char *path) {
  return lite_open(out, path, 0, &sqlite_ops, true);
}

int srv_store_open_simulated(srv_store **out, const char *name, int64_t (*db_clock_ms)(void *ctx), void *ctx) {
  char uri[256];
  snprintf(uri, sizeof uri, "file:%s?mode=memory&cache=shared", name);
  const int status = lite_open(out, uri, SQLITE_OPEN_URI, &simulated_ops, false);
  if (*out) {
    ((sqlite_store *)*out)->clock_ms = db_clock_ms;
    ((sqlite_store *)*out)->clock_ctx = ctx;
  }
  return status;
}

static int lite_limit_bytes(srv_store *s, long long bytes) {
  LITE(s)->limit_bytes = bytes;
  char sql[96];
  const long long page = 4096, pages = bytes > 0 ? (bytes + page - 1) / page : 1073741823;
  snprintf(sql, sizeof sql, "PRAGMA max_page_count=%lld", pages);
  return sqlite3_exec(DB(s), sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : lite_fail(s, "limiting the database size");
}

/* A SQLite file is one server's: several servers need PostgreSQL. */
static int lite_node(srv_store *s, const char *name, int lease_ms) {
  (void)name;
  (void)lease_ms;
  snprintf(s->error, sizeof s->error, "several servers need a PostgreSQL database, not a SQLite file");
  return -1;
}

/* One server owns every table: there is no lease to give up or renew, and no table to load
 * from another server. */
static int lite_node_release(srv_store *s) {
  (void)s;
  return 0;
}

/* (The one server owns every open table, in epoch 0: a hub renewing a lease on a file keeps all.) */
static int lite_lease_renew(srv_store *s, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx) {
  (void)claim;
  sqlite3_stmt *st = lite_prepare(s, "SELECT id FROM tables WHERE status != 2 ORDER BY id");
  if (!st) return -1;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) fn(ctx, sqlite3_column_int64(st, 0), 0);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the tables");
}

static int lite_table_load(srv_store *s, int64_t table, srv_table_row *row, bool *found) {
  (void)table;
  (void)row;
  (void)found;
  return lite_node(s, "", 0);
}

/* Closes the database and frees the store. */
static void lite_close(srv_store *s) {
  sqlite3_close(DB(s));
  free(LITE(s)->path);
  free(s);
}

sqlite3_stmt *lite_prepare(srv_store *s, const char *sql) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(DB(s), sql, -1, &st, NULL) != SQLITE_OK) {
    lite_fail(s, "preparing a statement");
    return NULL;
  }
  return st;
}

/* Returns the schema version the database is at (0 for a new one), or -1. */
static int schema_version(srv_store *s) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT max(version) FROM schema_version");
  if (!st) return -1;
  const int version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  sqlite3_finalize(st);
  return version;
}

static int migrate(srv_store *s) {
  const int newest = srv_migration_count;
  int version = schema_version(s);
  if (version < 0) return lite_fail(s, "reading the schema version");
  if (version > newest) {
    snprintf(s->error, sizeof s->error, "the database is at schema version %d, newer than this server's %d", version,
             newest);
    return -1;
  }
  for (; version < newest; version++) {
    char step[64];
    snprintf(step, sizeof step, "INSERT INTO schema_version VALUES (%d)", version + 1);
    if (sqlite3_exec(DB(s), "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return lite_fail(s, "starting a migration");
    if (sqlite3_exec(DB(s), srv_migrations[version].sqlite, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(DB(s), "DELETE FROM schema_version", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(DB(s), step, NULL, NULL, NULL) != SQLITE_OK) {
      snprintf(step, sizeof step, "migrating the schema to version %d", version + 1);
      lite_fail(s, step);
      sqlite3_exec(DB(s), "ROLLBACK", NULL, NULL, NULL);
      return -1;
    }
    if (sqlite3_exec(DB(s), "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return lite_fail(s, "committing a migration");
    /* the migrated pages go into the main file now, over the old ones (plain tokens) */
    sqlite3_exec(DB(s), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
  }
  return 0;
}

void lite_copy_text(char *dst, size_t size, const unsigned char *src) {
  snprintf(dst, size, "%s", src ? (const char *)src : "");
}

static void read_player(sqlite3_stmt *st, srv_player *p) {
  p->id = sqlite3_column_int64(st, 0);
  lite_copy_text(p->name, sizeof p->name, sqlite3_column_text(st, 1));
  lite_copy_text(p->bot, sizeof p->bot, sqlite3_column_text(st, 2));
  p->rating = sqlite3_column_double(st, 3);
  p->games = sqlite3_column_int(st, 4);
  p->deviation = sqlite3_column_double(st, 5);
  p->registered = sqlite3_column_type(st, 6) != SQLITE_NULL;
  p->bot_account = sqlite3_column_int(st, 7) != 0;
}

#define PLAYER_COLUMNS                                                                                                 \
  "p.id, p.name, p.bot, p.rating, p.games, p.deviation, p.account,"                                                    \
  " EXISTS (SELECT 1 FROM bot_accounts b WHERE b.player = p.id)"

/* Runs a query for at most one player. */
static int one_player(srv_store *s, sqlite3_stmt *st, srv_player *out, bool *found) {
  if (!st) return -1;
  const int rc = sqlite3_step(st);
  *found = rc == SQLITE_ROW;
  if (*found) read_player(st, out);
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a player");
}

static int lite_player_by_token(srv_store *s, const char *token_hash, srv_player *out, bool *found) {
  sqlite3_stmt *st =
      lite_prepare(s, "SELECT " PLAYER_COLUMNS " FROM player_tokens t JOIN players p ON p.id = t.player WHERE t.token = ?");
  if (st) sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
  return one_player(s, st, out, found);
}

static int lite_player_get(srv_store *s, int64_t id, srv_player *out) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.id = ?");
  if (st) sqlite3_bind_int64(st, 1, id);
  bool found = false;
  if (one_player(s, st, out, &found) != 0) return -1;
  if (!found) {
    snprintf(s->error, sizeof s->error, "no player %lld", (long long)id);
    return -1;
  }
  return 0;
}

int lite_run(srv_store *s, sqlite3_stmt *st, const char *what) {
  if (!st) return -1;
  const int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, what);
}

int lite_begin(srv_store *s) {
  return sqlite3_exec(DB(s), "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : lite_fail(s, "starting a transaction");
}

/* Commits, or rolls back after a failure (keeping the first error's text). */
int lite_end(srv_store *s, int status) {
  if (status == 0 && sqlite3_exec(DB(s), "COMMIT", NULL, NULL, NULL) == SQLITE_OK) return 0;
  if (status == 0) lite_fail(s, "committing");
  sqlite3_exec(DB(s), "ROLLBACK", NULL, NULL, NULL);
  return -1;
}

/* Adds a token hash for a player, inside the caller's transaction or alone. */
static int add_token(srv_store *s, int64_t id, const char *token_hash) {
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO player_tokens (token, player) VALUES (?, ?)");
  if (st) {
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, id);
  }
  return lite_run(s, st, "saving a player's token");
}

static int lite_player_create(srv_store *s, const char *name, const char *token_hash, srv_player *out) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO players (name) VALUES (?)");
  if (st) sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
  int status = lite_run(s, st, "saving a player");
  const int64_t id = sqlite3_last_insert_rowid(DB(s));
  if (status == 0) status = add_token(s, id, token_hash);
  if (lite_end(s, status) != 0) return -1;
  return lite_player_get(s, id, out);
}

static int lite_player_token_add(srv_store *s, int64_t id, const char *token_hash) {
  return add_token(s, id, token_hash);
}

static int lite_player_rename(srv_store *s, int64_t id, const char *name) {
  sqlite3_stmt *st = lite_prepare(s, "UPDATE players SET name = ? WHERE id = ?");
  if (st) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, id);
  }
  return lite_run(s, st, "renaming a player");
}

static int lite_account(srv_store *s, const char *account, srv_player *out, char password_hash[SRV_PASSWORD_HASH_SIZE],
                      bool *found) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT " PLAYER_COLUMNS ", p.password FROM players p WHERE p.account = ?");
  if (!st) return -1;
  sqlite3_bind_text(st, 1, account, -1, SQLITE_TRANSIENT);
  const int rc = sqlite3_step(st);
  *found = rc == SQLITE_ROW;
  if (*found) {
    read_player(st, out);
    lite_copy_text(password_hash, SRV_PASSWORD_HASH_SIZE, sqlite3_column_text(st, 8));
  }
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading an account");
}

static int lite_player_register(srv_store *s, int64_t id, const char *name, const char *account,
                              const char *password_hash) {
  sqlite3_stmt *st = lite_prepare(s, "UPDATE players SET name = ?, account = ?, password = ? WHERE id = ?");
  if (st) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, account, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, password_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, id);
  }
  return lite_run(s, st, "saving the name");
}

static int lite_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  *count = 0;
  sqlite3_stmt *st =
      lite_prepare(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.games > 0"
                      " AND p.id NOT IN (SELECT player FROM bot_accounts) ORDER BY p.rating DESC, p.id LIMIT ?");
  if (!st) return -1;
  sqlite3_bind_int(st, 1, max);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) read_player(st, &rows[(*count)++]);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : lite_fail(s, "reading the leaderboard");
}

/* A player's newest rows of a rating history table (Goita's or Ko shogi's: the same columns). */
static int history_rows(srv_store *s, const char *sql, int64_t player, srv_rating_row *rows, int max, int *count) {
  *count = 0;
  sqlite3_stmt *st = lite_prepare(s, sql);
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, player);
  sqlite3_bind_int(st, 2, max);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
    srv_rating_row *r = &rows[(*count)++];
    r->game = sqlite3_column_int64(st, 0);
    lite_copy_text(r->time, sizeof r->time, sqlite3_column_text(st, 1));
    r->rating_before = sqlite3_column_double(st, 2);
    r->rating_after = sqlite3_column_double(st, 3);
    r->deviation_before = sqlite3_column_double(st, 4);
    r->deviation_after = sqlite3_column_double(st, 5);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : lite_fail(s, "reading the rating history");
}

#define HISTORY_COLUMNS "SELECT game, time, rating_before, rating_after, deviation_before, deviation_after FROM "

static int lite_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  return history_rows(s, HISTORY_COLUMNS "rating_history WHERE player = ? ORDER BY game DESC LIMIT ?", player, rows,
                      max, count);
}

static int lite_ks_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  return history_rows(s, HISTORY_COLUMNS "ks_rating_history WHERE player = ? ORDER BY game DESC LIMIT ?", player, rows,
                      max, count);
}

static int lite_bot_player(srv_store *s, const char *level, srv_player *out) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.bot = ?");
  if (st) sqlite3_bind_text(st, 1, level, -1, SQLITE_TRANSIENT);
  bool found = false;
  if (one_player(s, st, out, &found) != 0) return -1;
  if (found) return 0;
  char name[SRV_NAME_SIZE];
  snprintf(name, sizeof name, "Computer · %s", level);
  st = lite_prepare(s, "INSERT INTO players (name, bot) VALUES (?, ?)");
  if (st) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, level, -1, SQLITE_TRANSIENT);
  }
  if (lite_run(s, st, "saving a computer player") != 0) return -1;
  return lite_player_get(s, sqlite3_last_insert_rowid(DB(s)), out);
}

int lite_write_seats(srv_store *s, const srv_table_row *row) {
  for (int i = 0; i < GOITA_MAX_SEATS; i++) {
    sqlite3_stmt *st =
        lite_prepare(s, "INSERT OR REPLACE INTO seats (table_id, seat, player, token, stand_in) VALUES (?, ?, ?, ?, ?)");
    if (st) {
      sqlite3_bind_int64(st, 1, row->id);
      sqlite3_bind_int(st, 2, i);
      if (row->seats[i].player)
        sqlite3_bind_int64(st, 3, row->seats[i].player);
      else
        sqlite3_bind_null(st, 3);
      sqlite3_bind_text(st, 4, row->seats[i].token, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(st, 5, row->seats[i].stand_in);
    }
    if (lite_run(s, st, "saving a seat") != 0) return -1;
  }
  return 0;
}

/* A new table, this server's: in a simulated cluster in epoch 1, as pg_table_create; in a file
 * of one server with no owner, in epoch 0. */
static int lite_table_create(srv_store *s, srv_table_row *row) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO tables (rules, seed, turn_seconds, status, invite, owner, node, epoch) "
                                     "VALUES (?, ?, ?, ?, ?, ?, NULLIF(?, ''), ?)");
  row->epoch = LITE(s)->node[0] ? 1 : 0;
  if (st) {
    sqlite3_bind_text(st, 1, row->rules, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)row->seed);
    sqlite3_bind_int(st, 3, row->turn_seconds);
    sqlite3_bind_int(st, 4, row->status);
    if (row->invite[0])
      sqlite3_bind_text(st, 5, row->invite, -1, SQLITE_TRANSIENT);
    else
      sqlite3_bind_null(st, 5);
    if (row->owner)
      sqlite3_bind_int64(st, 6, row->owner);
    else
      sqlite3_bind_null(st, 6);
    sqlite3_bind_text(st, 7, LITE(s)->node, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 8, row->epoch);
  }
  int status = lite_run(s, st, "saving a table");
  if (status == 0) {
    row->id = sqlite3_last_insert_rowid(DB(s));
    status = lite_write_seats(s, row);
  }
  return lite_end(s, status);
}

static int lite_table_update(srv_store *s, const srv_table_row *row) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE tables SET status = ? WHERE id = ?");
  if (st) {
    sqlite3_bind_int(st, 1, row->status);
    sqlite3_bind_int64(st, 2, row->id);
  }
  int status = lite_run(s, st, "saving a table");
  if (status == 0) status = lite_write_seats(s, row);
  return lite_end(s, status);
}

/* (A SQLite file is one server's: every table is in its epoch 0.) */
static int lite_table_end(srv_store *s, int64_t table, int64_t epoch, const char *reason) {
  (void)epoch;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE tables SET status = 2, ended = ? WHERE id = ?");
  if (st) {
    sqlite3_bind_text(st, 1, reason, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, table);
  }
  return lite_run(s, st, "closing a table");
}

/* Steps a query for tables (the columns of LITE_TABLE_COLUMNS) and calls fn with each, its seats
 * read; finalizes the statement. */
int lite_read_tables(srv_store *s, sqlite3_stmt *st, void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  if (!st) return -1;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    srv_table_row row;
    memset(&row, 0, sizeof row);
    row.id = sqlite3_column_int64(st, 0);
    lite_copy_text(row.rules, sizeof row.rules, sqlite3_column_text(st, 1));
    row.seed = (uint64_t)sqlite3_column_int64(st, 2);
    row.turn_seconds = sqlite3_column_int(st, 3);
    row.status = sqlite3_column_int(st, 4);
    lite_copy_text(row.created, sizeof row.created, sqlite3_column_text(st, 5));
    lite_copy_text(row.invite, sizeof row.invite, sqlite3_column_text(st, 6));
    row.owner = sqlite3_column_int64(st, 7);
    row.epoch = sqlite3_column_int64(st, 8);
    sqlite3_stmt *seats = lite_prepare(s, "SELECT seat, player, token, stand_in FROM seats WHERE table_id = ?");
    if (!seats) break;
    sqlite3_bind_int64(seats, 1, row.id);
    while (sqlite3_step(seats) == SQLITE_ROW) {
      const int i = sqlite3_column_int(seats, 0);
      if (i < 0 || i >= GOITA_MAX_SEATS) continue;
      row.seats[i].player = sqlite3_column_int64(seats, 1);
      lite_copy_text(row.seats[i].token, sizeof row.seats[i].token, sqlite3_column_text(seats, 2));
      row.seats[i].stand_in = sqlite3_column_int(seats, 3) != 0;
    }
    sqlite3_finalize(seats);
    fn(ctx, &row);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the tables");
}

/* Every open table, oldest first. */
static int lite_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  return lite_read_tables(
      s, lite_prepare(s, "SELECT " LITE_TABLE_COLUMNS " FROM tables WHERE status != 2 ORDER BY id"), fn, ctx);
}

static int lite_move_add(srv_store *s, int64_t table, int64_t epoch, int seq, const char *text) {
  (void)epoch;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO moves (table_id, seq, move) VALUES (?, ?, ?)");
  if (st) {
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_int(st, 2, seq);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
  }
  return lite_run(s, st, "saving a move");
}

/* Saves the moves of many tables in one transaction: one commit for them all. */
static int lite_moves_add(srv_store *s, srv_move_write *moves, int n) {
  if (lite_begin(s) != 0) return -1;
  int status = 0;
  for (int i = 0; i < n && status == 0; i++) status = moves[i].status = lite_move_add(s, moves[i].table, moves[i].epoch, moves[i].seq, moves[i].text);
  return lite_end(s, status);
}

/* The same file on a second connection, with the same size cap: SQLite lets one writer at a
 * time in, the other waits (busy timeout). */
static int lite_open_again(const srv_store *s, srv_store **again) {
  if (srv_store_open_sqlite(again, LITE(s)->path) != 0) return -1;
  return LITE(s)->limit_bytes ? lite_limit_bytes(*again, LITE(s)->limit_bytes) : 0;
}

static int lite_accounts(srv_store *s,
                         void (*fn)(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash),
                         void *ctx) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT id, name, account, password FROM players WHERE account IS NOT NULL ORDER BY id");
  if (!st) return -1;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    fn(ctx, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
       sqlite3_column_text(st, 3) ? (const char *)sqlite3_column_text(st, 3) : "");
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the accounts");
}

static int lite_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *text), void *ctx) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT move FROM moves WHERE table_id = ? ORDER BY seq");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, table);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) fn(ctx, (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the moves");
}

/* (A SQLite file is one server's: the row is written in its epoch 0, and the simulated cluster
 * does not fence it: it only follows the moves and seats, which are fenced.) */
static int lite_table_options_save(srv_store *s, int64_t table, int64_t epoch, const srv_table_options_row *row) {
  (void)epoch;
  char banks[GOITA_MAX_SEATS * 24], left[GOITA_MAX_SEATS * 24];
  srv_seat_numbers_format(row->bank_ms, banks, sizeof banks);
  srv_seat_numbers_format(row->left_player, left, sizeof left);
  sqlite3_stmt *st = lite_prepare(s, "INSERT OR REPLACE INTO table_options "
                                     "(table_id, bank_seconds, on_timeout, take_over, bank_ms, left_player) "
                                     "VALUES (?, ?, ?, ?, ?, ?)");
  if (st) {
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_int(st, 2, row->bank_seconds);
    sqlite3_bind_int(st, 3, row->on_timeout);
    sqlite3_bind_int(st, 4, row->take_over);
    sqlite3_bind_text(st, 5, banks, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, left, -1, SQLITE_TRANSIENT);
  }
  return lite_run(s, st, "saving a table's options");
}

static int lite_table_options_load(srv_store *s, int64_t table, srv_table_options_row *row, bool *found) {
  sqlite3_stmt *st = lite_prepare(
      s, "SELECT bank_seconds, on_timeout, take_over, bank_ms, left_player FROM table_options WHERE table_id = ?");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, table);
  memset(row, 0, sizeof *row);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *found = true;
    row->bank_seconds = sqlite3_column_int(st, 0);
    row->on_timeout = sqlite3_column_int(st, 1);
    row->take_over = sqlite3_column_int(st, 2) != 0;
    srv_seat_numbers_parse((const char *)sqlite3_column_text(st, 3), row->bank_ms);
    srv_seat_numbers_parse((const char *)sqlite3_column_text(st, 4), row->left_player);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a table's options");
}

/* Writes what a game did to seat i's player: its new rating and deviation, one more game, and
 * a history row. */
static int write_rating(srv_store *s, const srv_game_row *g, int i, int64_t game) {
  sqlite3_stmt *st = lite_prepare(s, "UPDATE players SET rating = ?, deviation = ?, games = games + 1 WHERE id = ?");
  if (st) {
    sqlite3_bind_double(st, 1, g->ratings[i]);
    sqlite3_bind_double(st, 2, g->deviations[i]);
    sqlite3_bind_int64(st, 3, g->players[i]);
  }
  if (lite_run(s, st, "saving a rating") != 0) return -1;
  st = lite_prepare(s,
               "INSERT INTO rating_history (player, game, rating_before, rating_after, deviation_before, "
               "deviation_after) VALUES (?, ?, ?, ?, ?, ?)");
  if (st) {
    sqlite3_bind_int64(st, 1, g->players[i]);
    sqlite3_bind_int64(st, 2, game);
    sqlite3_bind_double(st, 3, g->rating_before[i]);
    sqlite3_bind_double(st, 4, g->ratings[i]);
    sqlite3_bind_double(st, 5, g->deviation_before[i]);
    sqlite3_bind_double(st, 6, g->deviations[i]);
  }
  return lite_run(s, st, "saving a rating's history");
}

/* Writes a game's row, its players and what it did to their ratings, finished or abandoned
 * (inside the caller's transaction); sets *game to the new game's id. */
int lite_write_game(srv_store *s, const srv_game_row *g, const char *record_json, const char *histories, bool abandoned,
                    int64_t *game) {
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO games (table_id, score0, score1, record, histories, ended) "
                                     "VALUES (?, ?, ?, ?, ?, ?)");
  if (st) {
    sqlite3_bind_int64(st, 1, g->table);
    sqlite3_bind_int(st, 2, g->score[0]);
    sqlite3_bind_int(st, 3, g->score[1]);
    sqlite3_bind_text(st, 4, record_json, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, histories, -1, SQLITE_TRANSIENT);
    if (abandoned)
      sqlite3_bind_text(st, 6, "abandoned", -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 6);
  }
  int status = lite_run(s, st, abandoned ? "saving an abandoned game" : "saving a game");
  *game = sqlite3_last_insert_rowid(DB(s));
  for (int i = 0; i < g->nplayers && status == 0; i++) {
    st = lite_prepare(s, "INSERT INTO game_players (game, seat, player, name, rating_after) VALUES (?, ?, ?, ?, ?)");
    if (st) {
      sqlite3_bind_int64(st, 1, *game);
      sqlite3_bind_int(st, 2, i);
      sqlite3_bind_int64(st, 3, g->players[i]);
      sqlite3_bind_text(st, 4, g->names[i], -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(st, 5, g->ratings[i]);
    }
    status = lite_run(s, st, "saving a game's players");
    if (status == 0 && g->rated[i]) status = write_rating(s, g, i, *game); /* leavers lose, abandoned too */
  }
  return status;
}

/* Saves a game that ended, its players and the table's end, in one transaction: finished or
 * abandoned (marked as such); either way the rated players' ratings and histories are written. */
static int save_game(srv_store *s, srv_game_row *g, const char *record_json, const char *histories, bool abandoned) {
  if (lite_begin(s) != 0) return -1;
  int64_t game = 0;
  int status = lite_write_game(s, g, record_json, histories, abandoned, &game);
  if (status == 0) {
    sqlite3_stmt *st = lite_prepare(s, abandoned ? "UPDATE tables SET status = 2, ended = 'abandoned' WHERE id = ?"
                                                 : "UPDATE tables SET status = 2 WHERE id = ?");
    if (st) sqlite3_bind_int64(st, 1, g->table);
    status = lite_run(s, st, "closing a table");
  }
  if (lite_end(s, status) != 0) return -1;
  g->id = game;
  return 0;
}

/* The games of a page with their players, in one query: a row per seat (one with no seat for
 * a game without players), newest game first. */
static int lite_games(srv_store *s, int64_t before, srv_game_row *rows, int max, int *count) {
  *count = 0;
  sqlite3_stmt *st = lite_prepare(s,
                             "SELECT g.id, g.table_id, g.finished, g.score0, g.score1, g.rules, g.ended, "
                             "p.seat, p.player, p.name, p.rating_after FROM "
                             "(SELECT g.id, g.table_id, g.finished, g.score0, g.score1, t.rules, g.ended FROM games g "
                             "LEFT JOIN tables t ON t.id = g.table_id WHERE g.id < ? AND t.invite IS NULL "
                             "ORDER BY g.id DESC LIMIT ?) g "
                             "LEFT JOIN game_players p ON p.game = g.id ORDER BY g.id DESC, p.seat");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, before > 0 ? before : INT64_MAX);
  sqlite3_bind_int(st, 2, max);
  srv_game_row *r = NULL;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (!r || r->id != sqlite3_column_int64(st, 0)) {
      if (*count == max) break;
      r = &rows[(*count)++];
      memset(r, 0, sizeof *r);
      r->id = sqlite3_column_int64(st, 0);
      r->table = sqlite3_column_int64(st, 1);
      lite_copy_text(r->finished, sizeof r->finished, sqlite3_column_text(st, 2));
      r->score[0] = sqlite3_column_int(st, 3);
      r->score[1] = sqlite3_column_int(st, 4);
      lite_copy_text(r->rules, sizeof r->rules, sqlite3_column_text(st, 5));
      lite_copy_text(r->ended, sizeof r->ended, sqlite3_column_text(st, 6));
    }
    const int i = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);
    if (i < 0 || i >= GOITA_MAX_SEATS) continue;
    r->players[i] = sqlite3_column_int64(st, 8);
    lite_copy_text(r->names[i], sizeof r->names[i], sqlite3_column_text(st, 9));
    r->ratings[i] = sqlite3_column_double(st, 10);
    if (i + 1 > r->nplayers) r->nplayers = i + 1;
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : lite_fail(s, "reading the games");
}

static int lite_game_text(srv_store *s, int64_t game, const char *key, bool histories, char **text) {
  *text = NULL;
  sqlite3_stmt *st = lite_prepare(s, histories ? "SELECT g.histories FROM games g LEFT JOIN tables t ON t.id = g.table_id "
                                                 "WHERE g.id = ? AND (t.invite IS NULL OR t.invite = ?)"
                                               : "SELECT g.record FROM games g LEFT JOIN tables t ON t.id = g.table_id "
                                                 "WHERE g.id = ? AND (t.invite IS NULL OR t.invite = ?)");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, game);
  if (key) sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT); /* unbound: NULL, equal to nothing */
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    *text = strdup(t ? t : "");
  }
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW && !*text) {
    snprintf(s->error, sizeof s->error, "out of memory");
    return -1;
  }
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a game");
}

/* One server owns every table: no other server to find. */
/* Reads the players a bound statement gives, at most max. */
static int some_players(srv_store *s, sqlite3_stmt *st, srv_player *rows, int max, int *count, const char *what) {
  if (!st) return -1;
  int rc = SQLITE_DONE; /* a full list reads no row */
  while (*count < max && (rc = sqlite3_step(st)) == SQLITE_ROW) read_player(st, &rows[(*count)++]);
  if (*count == max) rc = SQLITE_DONE;
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, what);
}

static int lite_bot_account_create(srv_store *s, int64_t owner, const char *name, const char *account,
                                   const char *token_hash, srv_player *out) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO players (name, account) VALUES (?, ?)");
  if (st) {
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, account, -1, SQLITE_TRANSIENT);
  }
  int status = lite_run(s, st, "saving a bot account");
  const int64_t id = sqlite3_last_insert_rowid(DB(s));
  if (status == 0) {
    st = lite_prepare(s, "INSERT INTO bot_accounts (player, owner) VALUES (?, ?)");
    if (st) {
      sqlite3_bind_int64(st, 1, id);
      sqlite3_bind_int64(st, 2, owner);
    }
    status = lite_run(s, st, "saving a bot account");
  }
  if (status == 0) status = add_token(s, id, token_hash);
  if (lite_end(s, status) != 0) return -1;
  return lite_player_get(s, id, out);
}

static int lite_bot_accounts(srv_store *s, int64_t owner, srv_player *rows, int max, int *count) {
  sqlite3_stmt *st = lite_prepare(
      s, "SELECT " PLAYER_COLUMNS " FROM bot_accounts b JOIN players p ON p.id = b.player WHERE b.owner = ? ORDER BY p.id");
  if (st) sqlite3_bind_int64(st, 1, owner);
  return some_players(s, st, rows, max, count, "reading bot accounts");
}

static int lite_bot_account_token(srv_store *s, int64_t owner, int64_t bot, const char *token_hash, bool *found) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "SELECT 1 FROM bot_accounts WHERE player = ? AND owner = ?");
  int status = -1;
  if (st) {
    sqlite3_bind_int64(st, 1, bot);
    sqlite3_bind_int64(st, 2, owner);
    const int rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    status = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a bot account");
    sqlite3_finalize(st);
  }
  if (status == 0 && *found) {
    st = lite_prepare(s, "DELETE FROM player_tokens WHERE player = ?");
    if (st) sqlite3_bind_int64(st, 1, bot);
    status = lite_run(s, st, "revoking a bot's tokens");
    if (status == 0 && token_hash) status = add_token(s, bot, token_hash);
  }
  return lite_end(s, status);
}

static int lite_bot_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT " PLAYER_COLUMNS " FROM bot_accounts b JOIN players p ON p.id = b.player"
                                     " WHERE p.games > 0 ORDER BY p.rating DESC, p.id LIMIT ?");
  if (st) sqlite3_bind_int(st, 1, max);
  return some_players(s, st, rows, max, count, "reading the bot leaderboard");
}

static int lite_match_save(srv_store *s, int64_t *id, const char *summary) {
  sqlite3_stmt *st = lite_prepare(s, *id ? "UPDATE matches SET summary = ? WHERE id = ?" : "INSERT INTO matches (summary) VALUES (?)");
  if (st) {
    sqlite3_bind_text(st, 1, summary, -1, SQLITE_TRANSIENT);
    if (*id) sqlite3_bind_int64(st, 2, *id);
  }
  if (lite_run(s, st, "saving a match") != 0) return -1;
  if (!*id) *id = sqlite3_last_insert_rowid(DB(s));
  return 0;
}

static int lite_match_text(srv_store *s, int64_t id, char **summary) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT summary FROM matches WHERE id = ?");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, id);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) *summary = strdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW && !*summary) {
    snprintf(s->error, sizeof s->error, "out of memory");
    return -1;
  }
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a match");
}

/* The condition of every write for a Ko shogi table (store_postgresql.c's KS_OWNED): this
 * server owns it in the epoch named; with no server's name (a SQLite file) any stored one. ?1
 * is the table, ?2 the epoch, ?3 the server's name. */
#define KS_OWNED "id = ?1 AND (?3 = '' OR (node = ?3 AND epoch = ?2))"

/* A statement over KS_OWNED with its parameters bound (NULL with the error set). */
static sqlite3_stmt *ks_owned_prepare(srv_store *s, const char *sql, int64_t table, int64_t epoch) {
  sqlite3_stmt *st = lite_prepare(s, sql);
  if (!st) return NULL;
  sqlite3_bind_int64(st, 1, table);
  sqlite3_bind_int64(st, 2, epoch);
  sqlite3_bind_text(st, 3, LITE(s)->node, -1, SQLITE_TRANSIENT);
  return st;
}

/* Runs a KS_OWNED write: 0 when it changed a row, SRV_STORE_FENCED when it changed none. */
static int ks_owned_run(srv_store *s, sqlite3_stmt *st, const char *what, int64_t table, int64_t epoch) {
  if (lite_run(s, st, what) != 0) return -1;
  if (sqlite3_changes(DB(s)) > 0) return 0;
  snprintf(s->error, sizeof s->error,
           "%s: table %lld is served by another server now (this server's epoch %lld has passed)", what,
           (long long)table, (long long)epoch);
  return SRV_STORE_FENCED;
}

/* Deletes a stored Ko shogi table's row and moves (schema step 12) in the epoch this server
 * owns it in, inside a transaction (SRV_STORE_FENCED, deleting nothing, when another's). */
static int lite_ks_forget(srv_store *s, int64_t table, int64_t epoch) {
  const int status = ks_owned_run(s, ks_owned_prepare(s, "DELETE FROM ks_tables WHERE " KS_OWNED, table, epoch),
                                  "closing a Ko shogi table", table, epoch);
  if (status != 0) return status;
  sqlite3_stmt *st = lite_prepare(s, "DELETE FROM ks_moves WHERE table_id = ?");
  if (st) sqlite3_bind_int64(st, 1, table);
  return lite_run(s, st, "closing a Ko shogi table's moves");
}

/* Ends a transaction whose write may have been fenced: rolled back, and SRV_STORE_FENCED kept. */
static int lite_end_fenced(srv_store *s, int status) {
  if (status != SRV_STORE_FENCED) return lite_end(s, status);
  lite_end(s, -1);
  return SRV_STORE_FENCED;
}

/* Ko shogi (schema step 10): a finished game and both players' ratings in one transaction. */
static int lite_ks_game_save(srv_store *s, srv_ks_game_row *g, const char *record) {
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "INSERT INTO ks_games (black, white, black_name, white_name, result, ended, moves,"
                                     " main_ms, byoyomi_ms, invite, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (st) {
    sqlite3_bind_int64(st, 1, g->players[0]);
    sqlite3_bind_int64(st, 2, g->players[1]);
    sqlite3_bind_text(st, 3, g->names[0], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, g->names[1], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, g->result, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, g->end, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 7, g->moves);
    sqlite3_bind_int64(st, 8, g->main_ms);
    sqlite3_bind_int64(st, 9, g->byoyomi_ms);
    if (g->invite[0]) sqlite3_bind_text(st, 10, g->invite, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 11, record, -1, SQLITE_TRANSIENT);
  }
  int status = lite_run(s, st, "saving a Ko shogi game");
  const int64_t id = sqlite3_last_insert_rowid(DB(s));
  for (int side = 0; status == 0 && g->rated && side < 2; side++) {
    st = lite_prepare(s, "INSERT INTO ks_ratings (player, rating, deviation, games) VALUES (?, ?, ?, 1)"
                         " ON CONFLICT (player) DO UPDATE SET rating = excluded.rating,"
                         " deviation = excluded.deviation, games = ks_ratings.games + 1");
    if (st) {
      sqlite3_bind_int64(st, 1, g->players[side]);
      sqlite3_bind_double(st, 2, g->rating_after[side]);
      sqlite3_bind_double(st, 3, g->deviation_after[side]);
    }
    status = lite_run(s, st, "saving a Ko shogi rating");
    if (status != 0) break;
    st = lite_prepare(s, "INSERT INTO ks_rating_history (player, game, rating_before, rating_after, deviation_before,"
                         " deviation_after) VALUES (?, ?, ?, ?, ?, ?)");
    if (st) {
      sqlite3_bind_int64(st, 1, g->players[side]);
      sqlite3_bind_int64(st, 2, id);
      sqlite3_bind_double(st, 3, g->rating_before[side]);
      sqlite3_bind_double(st, 4, g->rating_after[side]);
      sqlite3_bind_double(st, 5, g->deviation_before[side]);
      sqlite3_bind_double(st, 6, g->deviation_after[side]);
    }
    status = lite_run(s, st, "saving a Ko shogi rating's history");
  }
  if (status == 0 && g->table) status = lite_ks_forget(s, g->table, g->epoch);
  status = lite_end_fenced(s, status);
  if (status != 0) return status;
  g->id = id;
  return 0;
}

static int lite_ks_rating(srv_store *s, int64_t player, double *rating, double *deviation, int *games) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT rating, deviation, games FROM ks_ratings WHERE player = ?");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, player);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *rating = sqlite3_column_double(st, 0);
    *deviation = sqlite3_column_double(st, 1);
    *games = sqlite3_column_int(st, 2);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a Ko shogi rating");
}

static int lite_ks_game_text(srv_store *s, int64_t game, const char *key, char **record) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT record FROM ks_games WHERE id = ? AND (invite IS NULL OR invite = ?)");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, game);
  sqlite3_bind_text(st, 2, key ? key : "", -1, SQLITE_TRANSIENT);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) *record = strdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW && !*record) {
    snprintf(s->error, sizeof s->error, "out of memory");
    return -1;
  }
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a Ko shogi game");
}

/* PLAYER_COLUMNS' order with the Ko shogi rating, deviation and games in place of Goita's; the
 * last column (bot account) is constant as the WHERE leaves bot accounts out. */
static int lite_ks_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT p.id, p.name, p.bot, k.rating, k.games, k.deviation, p.account, 0"
                                     " FROM ks_ratings k JOIN players p ON p.id = k.player WHERE k.games > 0"
                                     " AND p.id NOT IN (SELECT player FROM bot_accounts) ORDER BY k.rating DESC, p.id LIMIT ?");
  if (st) sqlite3_bind_int(st, 1, max);
  return some_players(s, st, rows, max, count, "reading the Ko shogi leaderboard");
}

/* A game's statistics, a row per player, in one transaction. */
static int lite_game_stats_save(srv_store *s, const srv_game_stats *stats) {
  if (lite_begin(s) != 0) return -1;
  int status = 0;
  for (int i = 0; i < stats->nplayers && status == 0; i++) {
    sqlite3_stmt *st = lite_prepare(s, "INSERT INTO game_stats (game, player, listed, rounds, points, moves, lost) "
                                       "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    if (st) {
      const srv_seat_stats *r = &stats->seats[i];
      sqlite3_bind_int64(st, 1, stats->game);
      sqlite3_bind_int64(st, 2, stats->players[i]);
      sqlite3_bind_int(st, 3, stats->listed);
      sqlite3_bind_int(st, 4, r->rounds);
      sqlite3_bind_int(st, 5, r->points);
      sqlite3_bind_int(st, 6, r->moves);
      sqlite3_bind_int(st, 7, r->lost);
    }
    status = lite_run(s, st, "saving a game's statistics");
  }
  return lite_end(s, status);
}

static int lite_player_stats(srv_store *s, int64_t player, bool with_private, srv_career *career, srv_stats_row *rows,
                             int max, int *count) {
  sqlite3_stmt *st = lite_prepare(s, PLAYER_STATS_SQL("?1", "?2", "?3"));
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, player);
  sqlite3_bind_int(st, 2, with_private);
  sqlite3_bind_int(st, 3, max);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
    srv_stats_row *r = &rows[(*count)++];
    r->game = sqlite3_column_int64(st, 0);
    lite_copy_text(r->finished, sizeof r->finished, sqlite3_column_text(st, 1));
    r->stats.rounds = sqlite3_column_int(st, 2);
    r->stats.points = sqlite3_column_int(st, 3);
    r->stats.moves = sqlite3_column_int(st, 4);
    r->stats.lost = sqlite3_column_int(st, 5);
    *career = (srv_career){sqlite3_column_int64(st, 6), sqlite3_column_int64(st, 7), sqlite3_column_int64(st, 8),
                           sqlite3_column_int64(st, 9), sqlite3_column_int64(st, 10)};
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : lite_fail(s, "reading a player's statistics");
}

static int lite_table_owner(srv_store *s, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE],
                            bool *found) {
  (void)kind;
  (void)key;
  (void)table;
  (void)node;
  (void)found;
  return lite_node(s, "", 0);
}

/* Binds a Ko shogi table's columns from ?4 on (owner, clock, invite, seats, draw offer). */
static void ks_bind_row(sqlite3_stmt *st, const srv_ks_table_row *row) {
  sqlite3_bind_int64(st, 4, row->owner);
  sqlite3_bind_int64(st, 5, row->main_ms);
  sqlite3_bind_int64(st, 6, row->byoyomi_ms);
  sqlite3_bind_text(st, 7, row->invite, -1, SQLITE_TRANSIENT);
  for (int side = 0; side < 2; side++) {
    sqlite3_bind_int64(st, 8 + side, row->players[side]);
    sqlite3_bind_text(st, 10 + side, row->names[side], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 12 + side, row->bots[side], -1, SQLITE_TRANSIENT);
  }
  sqlite3_bind_int(st, 14, row->draw_offer);
}

/* Ko shogi tables not over (schema steps 12 and 13): a new one numbered by ks_table_ids, a
 * stored one written in its epoch. */
static int lite_ks_table_save(srv_store *s, srv_ks_table_row *row) {
  if (row->id) {
    sqlite3_stmt *st = ks_owned_prepare(s,
                                        "UPDATE ks_tables SET owner = ?4, main_ms = ?5, byoyomi_ms = ?6, invite = ?7,"
                                        " black = ?8, white = ?9, black_name = ?10, white_name = ?11, black_bot = ?12,"
                                        " white_bot = ?13, draw_offer = ?14 WHERE " KS_OWNED,
                                        row->id, row->epoch);
    if (st) ks_bind_row(st, row);
    return ks_owned_run(s, st, "saving a Ko shogi table", row->id, row->epoch);
  }
  if (lite_begin(s) != 0) return -1;
  sqlite3_stmt *st = lite_prepare(s, "UPDATE ks_table_ids SET last = last + 1 RETURNING last");
  const int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
  const int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_finalize(st);
  int status = id ? 0 : lite_fail(s, "numbering a Ko shogi table");
  if (status == 0) {
    st = ks_owned_prepare(s,
                          "INSERT INTO ks_tables (id, epoch, node, owner, main_ms, byoyomi_ms, invite, black, white,"
                          " black_name, white_name, black_bot, white_bot, draw_offer)"
                          " VALUES (?1, ?2, NULLIF(?3, ''), ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                          id, 1);
    if (st) ks_bind_row(st, row);
    status = lite_run(s, st, "saving a Ko shogi table");
  }
  if (lite_end(s, status) != 0) return -1;
  row->id = id;
  row->epoch = 1;
  return 0;
}

static int lite_ks_table_close(srv_store *s, int64_t table, int64_t epoch) {
  if (lite_begin(s) != 0) return -1;
  return lite_end_fenced(s, lite_ks_forget(s, table, epoch));
}

/* Stores a Ko shogi move in the epoch this server owns the table in; a stored move is never
 * written over (store_postgresql.c's pg_ks_move_add). */
static int lite_ks_move_add(srv_store *s, int64_t table, int64_t epoch, int ply, const char *move,
                            const int64_t left_ms[2]) {
  sqlite3_stmt *st = ks_owned_prepare(s,
                                      "INSERT INTO ks_moves (table_id, ply, move, black_ms, white_ms)"
                                      " SELECT ?1, ?4, ?5, ?6, ?7 FROM ks_tables WHERE " KS_OWNED
                                      " ON CONFLICT (table_id, ply) DO NOTHING",
                                      table, epoch);
  if (st) {
    sqlite3_bind_int(st, 4, ply);
    sqlite3_bind_text(st, 5, move, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, left_ms[0]);
    sqlite3_bind_int64(st, 7, left_ms[1]);
  }
  if (lite_run(s, st, "saving a Ko shogi move") != 0) return -1;
  if (sqlite3_changes(DB(s)) == 1) return 0;
  st = ks_owned_prepare(s,
                        "SELECT (SELECT move FROM ks_moves WHERE table_id = ?1 AND ply = ?4) = ?5 FROM ks_tables"
                        " WHERE " KS_OWNED,
                        table, epoch);
  if (!st) return -1;
  sqlite3_bind_int(st, 4, ply);
  sqlite3_bind_text(st, 5, move, -1, SQLITE_TRANSIENT);
  const int rc = sqlite3_step(st);
  const bool owned = rc == SQLITE_ROW, stored = owned && sqlite3_column_type(st, 0) != SQLITE_NULL;
  const bool same = stored && sqlite3_column_int(st, 0) == 1;
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return lite_fail(s, "saving a Ko shogi move");
  if (same) return 0;
  if (stored) {
    snprintf(s->error, sizeof s->error, "saving a Ko shogi move: table %lld has another move stored at ply %d",
             (long long)table, ply);
    return SRV_STORE_FENCED;
  }
  if (owned) return lite_fail(s, "saving a Ko shogi move");
  snprintf(s->error, sizeof s->error,
           "saving a Ko shogi move: table %lld is served by another server now (this server's epoch %lld has passed)",
           (long long)table, (long long)epoch);
  return SRV_STORE_FENCED;
}

/* Copies a text column into a fixed field, cut to fit. */
static void lite_text(sqlite3_stmt *st, int column, char *out, size_t size) {
  const unsigned char *text = sqlite3_column_text(st, column);
  snprintf(out, size, "%s", text ? (const char *)text : "");
}

#define LITE_KS_COLUMNS                                                                                          \
  "id, owner, main_ms, byoyomi_ms, invite, black, white, black_name, white_name, black_bot, white_bot, draw_offer, " \
  "epoch"

/* Steps a query for LITE_KS_COLUMNS, calls fn with each table, finalizes it. */
static int ks_read_tables(srv_store *s, sqlite3_stmt *st, void (*fn)(void *ctx, const srv_ks_table_row *row),
                          void *ctx) {
  if (!st) return -1;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    srv_ks_table_row row = {.id = sqlite3_column_int64(st, 0), .owner = sqlite3_column_int64(st, 1),
                            .main_ms = sqlite3_column_int64(st, 2), .byoyomi_ms = sqlite3_column_int64(st, 3),
                            .draw_offer = sqlite3_column_int(st, 11), .epoch = sqlite3_column_int64(st, 12)};
    lite_text(st, 4, row.invite, sizeof row.invite);
    for (int side = 0; side < 2; side++) {
      row.players[side] = sqlite3_column_int64(st, 5 + side);
      lite_text(st, 7 + side, row.names[side], sizeof row.names[side]);
      lite_text(st, 9 + side, row.bots[side], sizeof row.bots[side]);
    }
    fn(ctx, &row);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading the Ko shogi tables");
}

/* Every stored table for a SQLite file; a simulated server's own and those of no server, each
 * claimed in a new epoch (the simulation's servers do not take each other's over). */
static int lite_ks_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx) {
  if (LITE(s)->node[0]) {
    sqlite3_stmt *st = lite_prepare(s, "UPDATE ks_tables SET node = ?1, epoch = epoch + 1 WHERE node IS NULL OR node = ?1");
    if (st) sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
    if (lite_run(s, st, "claiming the Ko shogi tables") != 0) return -1;
  }
  sqlite3_stmt *st = lite_prepare(s, "SELECT " LITE_KS_COLUMNS " FROM ks_tables WHERE ?1 = '' OR node = ?1 ORDER BY id");
  if (st) sqlite3_bind_text(st, 1, LITE(s)->node, -1, SQLITE_TRANSIENT);
  return ks_read_tables(s, st, fn, ctx);
}

static void ks_copy_row(void *ctx, const srv_ks_table_row *row) { *(srv_ks_table_row *)ctx = *row; }

static int lite_ks_table_load(srv_store *s, int64_t table, srv_ks_table_row *row, bool *found) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT " LITE_KS_COLUMNS " FROM ks_tables WHERE id = ?1 AND (?2 = '' OR node = ?2)");
  if (st) {
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_text(st, 2, LITE(s)->node, -1, SQLITE_TRANSIENT);
  }
  row->id = 0;
  if (ks_read_tables(s, st, ks_copy_row, row) != 0) return -1;
  *found = row->id == table;
  return 0;
}

static int lite_ks_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *move, const int64_t left_ms[2]),
                         void *ctx) {
  sqlite3_stmt *st = lite_prepare(s, "SELECT move, black_ms, white_ms FROM ks_moves WHERE table_id = ? ORDER BY ply");
  if (!st) return -1;
  sqlite3_bind_int64(st, 1, table);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const int64_t left_ms[2] = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
    fn(ctx, (const char *)sqlite3_column_text(st, 0), left_ms);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : lite_fail(s, "reading a Ko shogi table's moves");
}

static const srv_store_ops sqlite_ops = {
    lite_close,      lite_limit_bytes, lite_node, lite_node_release, lite_lease_renew, lite_table_load, lite_table_owner, lite_player_by_token, lite_player_create, lite_player_rename,
    lite_bot_player, lite_player_get,  lite_player_token_add, lite_account,      lite_player_register,
    lite_leaderboard, lite_rating_history, lite_table_create, lite_table_update, lite_table_end,
    lite_tables_open, lite_move_add,   lite_moves,           save_game,          lite_games,
    lite_game_text,  lite_accounts,    lite_table_options_save,      lite_table_options_load,
    lite_bot_account_create, lite_bot_accounts, lite_bot_account_token,
    lite_bot_leaderboard, lite_match_save, lite_match_text,
    lite_game_stats_save, lite_player_stats,
    lite_moves_add, lite_open_again, lite_ks_game_save, lite_ks_rating, lite_ks_game_text, lite_ks_leaderboard,
    lite_ks_table_save, lite_ks_table_close, lite_ks_move_add, lite_ks_tables_open, lite_ks_moves, lite_ks_table_load,
    lite_ks_rating_history,
};

/* The simulated cluster (store_sqlite_cluster.c): what several servers do to the tables, as
 * PostgreSQL does it; the rest as a SQLite file. */
static const srv_store_ops simulated_ops = {
    lite_close,      lite_limit_bytes, sim_node, sim_node_release, sim_lease_renew, sim_table_load, sim_table_owner, lite_player_by_token, lite_player_create, lite_player_rename,
    lite_bot_player, lite_player_get,  lite_player_token_add, lite_account,      lite_player_register,
    lite_leaderboard, lite_rating_history, lite_table_create, sim_table_update, sim_table_end,
    sim_tables_open, sim_move_add,   lite_moves,           sim_save_game,          lite_games,
    lite_game_text,  lite_accounts,    lite_table_options_save,      lite_table_options_load,
    lite_bot_account_create, lite_bot_accounts, lite_bot_account_token,
    lite_bot_leaderboard, lite_match_save, lite_match_text,
    lite_game_stats_save, lite_player_stats,
    NULL,           NULL, lite_ks_game_save, lite_ks_rating, lite_ks_game_text, lite_ks_leaderboard,
    lite_ks_table_save, lite_ks_table_close, lite_ks_move_add, lite_ks_tables_open, lite_ks_moves, lite_ks_table_load,
    lite_ks_rating_history,
};

/* The server's storage in PostgreSQL (libpq): one database that several servers may share, its
 * schema brought up to date on open by the numbered migrations of store_schema.c. The
 * connection is one blocking libpq connection; when the database goes away, each call fails
 * with a message saying so, and the next call reconnects by itself. */
#include <libpq-fe.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"

/* A PostgreSQL store: the common part first, so that a srv_store pointer is one of these. */
typedef struct pg_store {
  srv_store base;
  PGconn *conn;
  bool in_transaction;
  char node[64]; /* this server's name among several ("" until srv_store_node) */
  int lease_ms;
  long long incarnation; /* of that name, taken by srv_store_node: a newer one replaced this server */
  bool once;   /* the statement under way is not sent again on a new connection */
  char *conninfo; /* what it was opened with, for srv_store_open_again */
} pg_store;

#define PG(s) ((pg_store *)(s))

/* The key of the advisory lock that lets one server at a time migrate the schema. */
#define MIGRATION_LOCK "7091001"

static const srv_store_ops pg_ops;

/* Sets the error text to "what: PostgreSQL's message", the message's first line only (libpq
 * adds hints on further lines). */
static int fail(srv_store *s, const char *what, const PGresult *r) {
  const char *msg = r ? PQresultErrorMessage(r) : "";
  if (!*msg) msg = PQerrorMessage(PG(s)->conn);
  const int n = (int)strcspn(msg, "\n");
  if (PQstatus(PG(s)->conn) != CONNECTION_OK) {
    snprintf(s->error, sizeof s->error, "%s: the database is unreachable (%.*s)", what, n, msg);
  } else {
    snprintf(s->error, sizeof s->error, "%s: %.*s", what, n, msg);
  }
  return -1;
}

/* Notices ("relation already exists, skipping") are not errors; the store never prints. */
static void ignore_notice(void *arg, const char *message) {
  (void)arg;
  (void)message;
}

/* A server among several: a transaction of its session left open for a lease ends, and the
 * row locks it took are let go. A server paused between two statements of a transaction (a
 * table's row locked by the first) would otherwise hold its tables against the takeover for as
 * long as it sleeps; its transaction fails when it wakes, as any write of a server whose lease
 * ran out may. */
static bool session_setup(srv_store *s) {
  if (!PG(s)->lease_ms) return true;
  char timeout[32];
  snprintf(timeout, sizeof timeout, "%d", PG(s)->lease_ms);
  const char *const params[] = {timeout};
  PGresult *r = PQexecParams(PG(s)->conn, "SELECT set_config('idle_in_transaction_session_timeout', $1, false)", 1,
                             NULL, params, NULL, NULL, 0);
  const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
  if (!ok) fail(s, "setting up the session", r);
  PQclear(r);
  return ok;
}

/* Reconnects when the connection was lost; returns whether it is usable now. */
static bool connected(srv_store *s) {
  if (PQstatus(PG(s)->conn) == CONNECTION_OK) return true;
  PQreset(PG(s)->conn);
  return PQstatus(PG(s)->conn) == CONNECTION_OK && session_setup(s);
}

/* Runs one statement with text parameters (a NULL one is SQL NULL) and returns its result, or
 * NULL with the error set. Outside a transaction, a statement whose connection turns out to be
 * lost is sent once more on a new connection (every such statement of this file may run twice,
 * but for the claim of pg_lease_renew, whose rows would be lost: it sets `once`). */
static PGresult *query(srv_store *s, const char *what, const char *sql, int n, const char *const *params) {
  for (int attempt = 0; attempt < 2; attempt++) {
    /* a transaction lost with its connection is not carried over to a new one */
    if (PG(s)->in_transaction ? PQstatus(PG(s)->conn) != CONNECTION_OK : !connected(s)) {
      fail(s, what, NULL);
      return NULL;
    }
    PGresult *r = PQexecParams(PG(s)->conn, sql, n, NULL, params, NULL, NULL, 0);
    const ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return r;
    fail(s, what, r);
    PQclear(r);
    if (PG(s)->in_transaction || PG(s)->once || PQstatus(PG(s)->conn) == CONNECTION_OK) return NULL;
  }
  return NULL;
}

/* Runs a statement whose rows are not needed. */
static int run(srv_store *s, const char *what, const char *sql, int n, const char *const *params) {
  PGresult *r = query(s, what, sql, n, params);
  PQclear(r);
  return r ? 0 : -1;
}

/* A number as a statement parameter, written into buf. */
static const char *num(char buf[32], long long v) {
  snprintf(buf, 32, "%lld", v);
  return buf;
}

/* A rating as a statement parameter: every digit, so it reads back the same double. */
static const char *real(char buf[32], double v) {
  snprintf(buf, 32, "%.17g", v);
  return buf;
}

/* A column of a result row as a number, a double, or text copied into dst. */
static long long int_at(const PGresult *r, int row, int col) { return strtoll(PQgetvalue(r, row, col), NULL, 10); }

static double real_at(const PGresult *r, int row, int col) { return strtod(PQgetvalue(r, row, col), NULL); }

static void text_at(const PGresult *r, int row, int col, char *dst, size_t size) {
  snprintf(dst, size, "%s", PQgetvalue(r, row, col));
}

/* Starts a transaction: its statements are never sent again on a new connection. */
static int begin(srv_store *s) {
  if (run(s, "starting a transaction", "BEGIN", 0, NULL) != 0) return -1;
  PG(s)->in_transaction = true;
  return 0;
}

/* Commits, or rolls back after a failure (keeping the first error's text). */
static int end(srv_store *s, int status) {
  if (status == 0) status = run(s, "committing", "COMMIT", 0, NULL);
  PG(s)->in_transaction = false;
  if (status == 0) return 0;
  if (PQstatus(PG(s)->conn) == CONNECTION_OK) PQclear(PQexec(PG(s)->conn, "ROLLBACK"));
  return -1;
}

/* Brings the schema to the newest version in one transaction, under an advisory lock so that
 * servers starting together migrate it once; returns 0, or -1 with the error set. */
static int migrate(srv_store *s) {
  if (begin(s) != 0) return -1;
  int status = run(s, "locking the schema", "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", 0, NULL);
  if (status == 0)
    status = run(s, "creating the schema", "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", 0,
                 NULL);
  PGresult *r = status == 0 ? query(s, "reading the schema version", "SELECT max(version) FROM schema_version", 0, NULL)
                            : NULL;
  if (!r) return end(s, -1);
  int version = (int)int_at(r, 0, 0);
  PQclear(r);
  if (version > srv_migration_count) {
    snprintf(s->error, sizeof s->error, "the database is at schema version %d, newer than this server's %d", version,
             srv_migration_count);
    return end(s, -1);
  }
  for (; version < srv_migration_count && status == 0; version++) {
    char what[64], sql[64];
    snprintf(what, sizeof what, "migrating the schema to version %d", version + 1);
    snprintf(sql, sizeof sql, "INSERT INTO schema_version VALUES (%d)", version + 1);
    r = PQexec(PG(s)->conn, srv_migrations[version].postgresql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) status = fail(s, what, r);
    PQclear(r);
    if (status == 0) status = run(s, what, "DELETE FROM schema_version", 0, NULL);
    if (status == 0) status = run(s, what, sql, 0, NULL);
  }
  return end(s, status);
}

int srv_store_open_postgresql(srv_store **out, const char *conninfo) {
  *out = NULL;
  pg_store *pg = calloc(1, sizeof *pg);
  if (!pg) return -1;
  srv_store *s = &pg->base;
  s->ops = &pg_ops;
  *out = s; /* also on failure, for the error text; close it */
  pg->conninfo = strdup(conninfo);
  if (!pg->conninfo) {
    snprintf(s->error, sizeof s->error, "connecting: out of memory");
    return -1;
  }
  /* a database that does not answer is given up after 5 s unless the URI says otherwise, so
   * that a reconnection attempt cannot hold the server's loop for long */
  const char *const keys[] = {"connect_timeout", "dbname", NULL};
  const char *const values[] = {"5", conninfo, NULL};
  pg->conn = PQconnectdbParams(keys, values, 1);
  if (PQstatus(pg->conn) != CONNECTION_OK) return fail(s, "connecting", NULL);
  PQsetNoticeProcessor(pg->conn, ignore_notice, NULL);
  return migrate(s);
}

/* Closes the connection and frees the store. */
static void pg_close(srv_store *s) {
  PQfinish(PG(s)->conn);
  free(PG(s)->conninfo);
  free(s);
}

/* A second connection as the same server: its writes are fenced by the same name and epochs. */
static int pg_open_again(const srv_store *s, srv_store **again) {
  if (srv_store_open_postgresql(again, PG(s)->conninfo) != 0) return -1;
  snprintf(PG(*again)->node, sizeof PG(*again)->node, "%s", PG(s)->node);
  PG(*again)->lease_ms = PG(s)->lease_ms;
  PG(*again)->incarnation = PG(s)->incarnation;
  return session_setup(*again) ? 0 : -1;
}

/* The size of a PostgreSQL database is the server's business (its disk, its quotas). */
static int pg_limit_bytes(srv_store *s, long long bytes) {
  if (bytes == 0) return 0;
  snprintf(s->error, sizeof s->error, "limiting the database size: not available with PostgreSQL");
  return -1;
}

#define PLAYER_COLUMNS                                                                                                 \
  "p.id, p.name, p.bot, p.rating, p.games, p.deviation, p.account,"                                                    \
  " EXISTS (SELECT 1 FROM bot_accounts b WHERE b.player = p.id)"

/* Fills a player from a row of PLAYER_COLUMNS. */
static void read_player(const PGresult *r, int row, srv_player *p) {
  p->id = int_at(r, row, 0);
  text_at(r, row, 1, p->name, sizeof p->name);
  text_at(r, row, 2, p->bot, sizeof p->bot);
  p->rating = real_at(r, row, 3);
  p->games = (int)int_at(r, row, 4);
  p->deviation = real_at(r, row, 5);
  p->registered = !PQgetisnull(r, row, 6);
  p->bot_account = PQgetvalue(r, row, 7)[0] == 't';
}

/* Runs a query for at most one player. */
static int one_player(srv_store *s, const char *sql, const char *param, srv_player *out, bool *found) {
  const char *params[] = {param};
  PGresult *r = query(s, "reading a player", sql, 1, params);
  if (!r) return -1;
  *found = PQntuples(r) > 0;
  if (*found) read_player(r, 0, out);
  PQclear(r);
  return 0;
}

/* The functions of store.h (documented there), from here on each named pg_ and its own. */
static int pg_player_by_token(srv_store *s, const char *token_hash, srv_player *out, bool *found) {
  return one_player(s,
                    "SELECT " PLAYER_COLUMNS " FROM player_tokens t JOIN players p ON p.id = t.player WHERE t.token = $1",
                    token_hash, out, found);
}

static int pg_player_get(srv_store *s, int64_t id, srv_player *out) {
  char b[32];
  bool found = false;
  if (one_player(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.id = $1", num(b, id), out, &found) != 0) return -1;
  if (!found) {
    snprintf(s->error, sizeof s->error, "no player %lld", (long long)id);
    return -1;
  }
  return 0;
}

/* Adds a token hash for a player, inside the caller's transaction or alone. */
static int add_token(srv_store *s, int64_t id, const char *token_hash) {
  char b[32];
  const char *params[] = {token_hash, num(b, id)};
  return run(s, "saving a player's token",
             "INSERT INTO player_tokens (token, player) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING", 2, params);
}

/* Runs an INSERT ... RETURNING id and gives the id. */
static int insert_id(srv_store *s, const char *what, const char *sql, int n, const char *const *params, int64_t *id) {
  PGresult *r = query(s, what, sql, n, params);
  if (!r) return -1;
  *id = PQntuples(r) == 1 ? int_at(r, 0, 0) : 0;
  PQclear(r);
  return 0;
}

static int pg_player_create(srv_store *s, const char *name, const char *token_hash, srv_player *out) {
  if (begin(s) != 0) return -1;
  const char *params[] = {name};
  int64_t id = 0;
  int status = insert_id(s, "saving a player", "INSERT INTO players (name) VALUES ($1) RETURNING id", 1, params, &id);
  if (status == 0) status = add_token(s, id, token_hash);
  if (end(s, status) != 0) return -1;
  return pg_player_get(s, id, out);
}

static int pg_player_token_add(srv_store *s, int64_t id, const char *token_hash) { return add_token(s, id, token_hash); }

static int pg_player_rename(srv_store *s, int64_t id, const char *name) {
  char b[32];
  const char *params[] = {name, num(b, id)};
  return run(s, "renaming a player", "UPDATE players SET name = $1 WHERE id = $2", 2, params);
}

static int pg_account(srv_store *s, const char *account, srv_player *out, char password_hash[SRV_PASSWORD_HASH_SIZE],
                      bool *found) {
  const char *params[] = {account};
  PGresult *r = query(s, "reading an account", "SELECT " PLAYER_COLUMNS ", p.password FROM players p WHERE p.account = $1",
                      1, params);
  if (!r) return -1;
  *found = PQntuples(r) > 0;
  if (*found) {
    read_player(r, 0, out);
    text_at(r, 0, 8, password_hash, SRV_PASSWORD_HASH_SIZE);
  }
  PQclear(r);
  return 0;
}

static int pg_player_register(srv_store *s, int64_t id, const char *name, const char *account,
                              const char *password_hash) {
  char b[32];
  const char *params[] = {name, account, password_hash, num(b, id)};
  return run(s, "saving the name", "UPDATE players SET name = $1, account = $2, password = $3 WHERE id = $4", 4, params);
}

static int pg_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  *count = 0;
  char b[32];
  const char *params[] = {num(b, max)};
  PGresult *r = query(s, "reading the leaderboard",
                      "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.games > 0"
                      " AND p.id NOT IN (SELECT player FROM bot_accounts) ORDER BY p.rating DESC, p.id LIMIT $1",
                      1, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r) && *count < max; i++) read_player(r, i, &rows[(*count)++]);
  PQclear(r);
  return 0;
}

/* A player's newest rows of a rating history table (Goita's or Ko shogi's: the same columns). */
static int history_rows(srv_store *s, const char *sql, int64_t player, srv_rating_row *rows, int max, int *count) {
  *count = 0;
  char b[2][32];
  const char *params[] = {num(b[0], player), num(b[1], max)};
  PGresult *r = query(s, "reading the rating history", sql, 2, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r) && *count < max; i++) {
    srv_rating_row *row = &rows[(*count)++];
    row->game = int_at(r, i, 0);
    text_at(r, i, 1, row->time, sizeof row->time);
    row->rating_before = real_at(r, i, 2);
    row->rating_after = real_at(r, i, 3);
    row->deviation_before = real_at(r, i, 4);
    row->deviation_after = real_at(r, i, 5);
  }
  PQclear(r);
  return 0;
}

#define HISTORY_COLUMNS "SELECT game, time, rating_before, rating_after, deviation_before, deviation_after FROM "

static int pg_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  return history_rows(s, HISTORY_COLUMNS "rating_history WHERE player = $1 ORDER BY game DESC LIMIT $2", player, rows,
                      max, count);
}

static int pg_ks_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  return history_rows(s, HISTORY_COLUMNS "ks_rating_history WHERE player = $1 ORDER BY game DESC LIMIT $2", player,
                      rows, max, count);
}

/* The rated player of a computer level, made on first use; two servers making it at once
 * both end up with the one row. */
static int pg_bot_player(srv_store *s, const char *level, srv_player *out) {
  bool found = false;
  if (one_player(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.bot = $1", level, out, &found) != 0) return -1;
  if (found) return 0;
  char name[SRV_NAME_SIZE];
  snprintf(name, sizeof name, "Computer · %s", level);
  const char *params[] = {name, level};
  if (run(s, "saving a computer player", "INSERT INTO players (name, bot) VALUES ($1, $2) ON CONFLICT (bot) DO NOTHING",
          2, params) != 0)
    return -1;
  if (one_player(s, "SELECT " PLAYER_COLUMNS " FROM players p WHERE p.bot = $1", level, out, &found) != 0) return -1;
  return found ? 0 : fail(s, "saving a computer player", NULL);
}

/* Writes every seat of a table (inserted or replaced), inside the caller's transaction. */
static int write_seats(srv_store *s, const srv_table_row *row) {
  for (int i = 0; i < GOITA_MAX_SEATS; i++) {
    char b[4][32];
    const char *params[] = {num(b[0], row->id), num(b[1], i),
                            row->seats[i].player ? num(b[2], row->seats[i].player) : NULL, row->seats[i].token,
                            num(b[3], row->seats[i].stand_in)};
    if (run(s, "saving a seat",
            "INSERT INTO seats (table_id, seat, player, token, stand_in) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (table_id, seat) DO UPDATE SET player = EXCLUDED.player, token = EXCLUDED.token, "
            "stand_in = EXCLUDED.stand_in",
            5, params) != 0)
      return -1;
  }
  return 0;
}

static int pg_table_create(srv_store *s, srv_table_row *row) {
  if (begin(s) != 0) return -1;
  char b[4][32];
  const char *params[] = {row->rules,
                          num(b[0], (long long)row->seed),
                          num(b[1], row->turn_seconds),
                          num(b[2], row->status),
                          row->invite[0] ? row->invite : NULL,
                          row->owner ? num(b[3], row->owner) : NULL,
                          PG(s)->node[0] ? PG(s)->node : NULL};
  int status = insert_id(s, "saving a table",
                         "INSERT INTO tables (rules, seed, turn_seconds, status, invite, owner, node, epoch) "
                         "VALUES ($1, $2, $3, $4, $5, $6, $7, 1) RETURNING id",
                         7, params, &row->id);
  row->epoch = 1;
  if (status == 0) status = write_seats(s, row);
  return end(s, status);
}

/* The condition of every write for a table: this server owns it in the epoch named, and it is
 * not over. With one server (no name) any open table. $1 is the table, $2 the epoch, $3 the
 * server's name. */
#define OWNED "id = $1::bigint AND status != 2 AND ($3::text = '' OR (node = $3::text AND epoch = $2::bigint))"

/* Says a write was refused by fencing, for the table and epoch it named. */
static int fenced(srv_store *s, const char *what, int64_t table, int64_t epoch) {
  snprintf(s->error, sizeof s->error,
           "%s: table %lld is served by another server now (this server's epoch %lld has passed)", what,
           (long long)table, (long long)epoch);
  return SRV_STORE_FENCED;
}

/* Runs a statement over the OWNED condition and says whether it changed a row: 0, or
 * SRV_STORE_FENCED when the table is not this server's in that epoch any more. */
static int owned_run(srv_store *s, const char *what, const char *sql, int n, const char *const *params,
                     int64_t table, int64_t epoch) {
  PGresult *r = query(s, what, sql, n, params);
  if (!r) return -1;
  const bool changed = strcmp(PQcmdTuples(r), "0") != 0;
  PQclear(r);
  return changed ? 0 : fenced(s, what, table, epoch);
}

/* Saves a table's status and seats, in the epoch it is owned in: the update takes the table's
 * row lock first, so no claim slips in between it and the seats. */
static int pg_table_update(srv_store *s, const srv_table_row *row) {
  if (begin(s) != 0) return -1;
  char b[3][32];
  const char *params[] = {num(b[0], row->id), num(b[1], row->epoch), PG(s)->node, num(b[2], row->status)};
  int status = owned_run(s, "saving a table", "UPDATE tables SET status = $4 WHERE " OWNED, 4, params, row->id,
                         row->epoch);
  if (status == 0) status = write_seats(s, row);
  if (status == SRV_STORE_FENCED) {
    end(s, -1);
    return SRV_STORE_FENCED;
  }
  return end(s, status);
}

static int pg_table_end(srv_store *s, int64_t table, int64_t epoch, const char *reason) {
  char b[2][32];
  const char *params[] = {num(b[0], table), num(b[1], epoch), PG(s)->node, reason};
  return owned_run(s, "closing a table", "UPDATE tables SET status = 2, ended = $4 WHERE " OWNED, 4, params, table,
                   epoch);
}

/* Fills row->seats from the rows of one table's seats. */
static void read_seats(const PGresult *r, srv_table_row *row) {
  for (int j = 0; j < PQntuples(r); j++) {
    const int i = (int)int_at(r, j, 0);
    if (i < 0 || i >= GOITA_MAX_SEATS) continue;
    row->seats[i].player = int_at(r, j, 1);
    text_at(r, j, 2, row->seats[i].token, sizeof row->seats[i].token);
    row->seats[i].stand_in = int_at(r, j, 3) != 0;
  }
}

/* Runs a query for tables (the columns of TABLE_COLUMNS) and calls fn with each, its seats read. */
static int read_tables(srv_store *s, const char *sql, int n, const char *const *params,
                       void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  PGresult *r = query(s, "reading the tables", sql, n, params);
  if (!r) return -1;
  int status = 0;
  for (int i = 0; i < PQntuples(r) && status == 0; i++) {
    srv_table_row row;
    memset(&row, 0, sizeof row);
    row.id = int_at(r, i, 0);
    text_at(r, i, 1, row.rules, sizeof row.rules);
    row.seed = (uint64_t)int_at(r, i, 2);
    row.turn_seconds = (int)int_at(r, i, 3);
    row.status = (int)int_at(r, i, 4);
    text_at(r, i, 5, row.created, sizeof row.created);
    text_at(r, i, 6, row.invite, sizeof row.invite);
    row.owner = int_at(r, i, 7);
    row.epoch = int_at(r, i, 8);
    const char *table[] = {PQgetvalue(r, i, 0)};
    PGresult *seats =
        query(s, "reading the tables", "SELECT seat, player, token, stand_in FROM seats WHERE table_id = $1", 1, table);
    if (!seats) {
      status = -1;
      break;
    }
    read_seats(seats, &row);
    PQclear(seats);
    fn(ctx, &row);
  }
  PQclear(r);
  return status;
}

#define TABLE_COLUMNS "id, rules, seed, turn_seconds, status, created, invite, owner, epoch"
/* The servers whose lease has run out, by the database's clock: the one clock every server
 * reads, so a server whose own clock is off or that was paused cannot think a lease is live. */
#define LAPSED "(SELECT name FROM nodes WHERE lease_until < now())"

/* At start: claims this server's tables of an earlier run, those of no server and those of
 * servers whose lease ran out, each in a new epoch (a paused process of an earlier run is
 * fenced), and gives them. */
static int pg_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  if (!PG(s)->node[0])
    return read_tables(s, "SELECT " TABLE_COLUMNS " FROM tables WHERE status != 2 ORDER BY id", 0, NULL, fn, ctx);
  const char *params[] = {PG(s)->node};
  if (run(s, "claiming the tables",
          "UPDATE tables SET node = $1, epoch = epoch + 1 WHERE status != 2 AND (node IS NULL OR node = $1 OR node IN " LAPSED
          ")",
          1, params) != 0)
    return -1;
  return read_tables(s, "SELECT " TABLE_COLUMNS " FROM tables WHERE status != 2 AND node = $1 ORDER BY id", 1, params,
                     fn, ctx);
}

static void copy_row(void *ctx, const srv_table_row *row) { *(srv_table_row *)ctx = *row; }

static int pg_table_load(srv_store *s, int64_t table, srv_table_row *row, bool *found) {
  char b[32];
  const char *params[] = {num(b, table), PG(s)->node};
  row->id = 0;
  if (read_tables(s, "SELECT " TABLE_COLUMNS " FROM tables WHERE id = $1::bigint AND status != 2 AND node = $2", 2,
                  params, copy_row, row) != 0)
    return -1;
  *found = row->id == table;
  return 0;
}

/* Renews this server's lease, in the incarnation it started in: 0 rows means a newer server
 * took the name. */
static int write_lease(srv_store *s) {
  char b[2][32];
  const char *params[] = {PG(s)->node, num(b[0], PG(s)->lease_ms), num(b[1], PG(s)->incarnation)};
  PGresult *r = query(s, "renewing the lease",
                      "UPDATE nodes SET lease_until = now() + $2 * interval '1 millisecond' "
                      "WHERE name = $1 AND incarnation = $3",
                      3, params);
  if (!r) return -1;
  const bool renewed = strcmp(PQcmdTuples(r), "1") == 0;
  PQclear(r);
  if (renewed) return 0;
  snprintf(s->error, sizeof s->error, "another server has started under the name %s: this one is replaced",
           PG(s)->node);
  return SRV_STORE_SUPERSEDED;
}

/* Takes the name when no live server holds it: a new name, or one whose lease ran out (a new
 * incarnation). Sets *taken. */
static int take_name(srv_store *s, bool *taken) {
  char b[32];
  const char *params[] = {PG(s)->node, num(b, PG(s)->lease_ms)};
  PGresult *r = query(s, "taking the server's name",
                      "INSERT INTO nodes (name, lease_until, incarnation) "
                      "VALUES ($1, now() + $2 * interval '1 millisecond', 1) "
                      "ON CONFLICT (name) DO UPDATE SET lease_until = EXCLUDED.lease_until, "
                      "incarnation = nodes.incarnation + 1 WHERE nodes.lease_until < now() RETURNING incarnation",
                      2, params);
  if (!r) return -1;
  *taken = PQntuples(r) == 1;
  if (*taken) PG(s)->incarnation = int_at(r, 0, 0);
  PQclear(r);
  return 0;
}

/* The live lease of the name, in milliseconds since 1970 (0 when none is live). */
static int live_lease(srv_store *s, long long *until) {
  const char *params[] = {PG(s)->node};
  PGresult *r = query(s, "reading the server's lease",
                      "SELECT (extract(epoch from lease_until) * 1000)::bigint FROM nodes "
                      "WHERE name = $1 AND lease_until >= now()",
                      1, params);
  if (!r) return -1;
  *until = PQntuples(r) == 1 ? int_at(r, 0, 0) : 0;
  PQclear(r);
  return 0;
}

static int pg_node(srv_store *s, const char *name, int lease_ms) {
  if (!*name || strlen(name) >= sizeof PG(s)->node) {
    snprintf(s->error, sizeof s->error, "a server's name has 1 to %d bytes", (int)sizeof PG(s)->node - 1);
    return -1;
  }
  snprintf(PG(s)->node, sizeof PG(s)->node, "%s", name);
  PG(s)->lease_ms = lease_ms;
  if (!session_setup(s)) return -1;
  /* A live lease is a server of this name that still runs, or one killed less than a lease
   * ago: wait for it to run out, and refuse if it is renewed meanwhile. */
  long long first = 0;
  for (int waited_ms = 0;; waited_ms += 100) {
    bool taken = false;
    long long until = 0;
    if (take_name(s, &taken) != 0) return -1;
    if (taken) return 0;
    if (live_lease(s, &until) != 0) return -1;
    if (until && !first) first = until;
    if ((until && until != first) || waited_ms > lease_ms + 2000) {
      PG(s)->node[0] = '\0';
      snprintf(s->error, sizeof s->error,
               "a live server is named %s (it renewed its lease while this one waited): give this one another "
               "--node",
               name);
      return -1;
    }
    nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
  }
}

static int pg_node_release(srv_store *s) {
  if (!PG(s)->node[0]) return 0;
  char b[32];
  const char *params[] = {PG(s)->node, num(b, PG(s)->incarnation)};
  return run(s, "giving up the lease",
             "UPDATE nodes SET lease_until = now() - interval '1 millisecond' WHERE name = $1 AND incarnation = $2", 2,
             params);
}

/* Renews the lease, claims the open tables (Goita's and Ko shogi's) of servers whose lease ran out (when asked: each
 * claim is a new epoch, and the table's row is locked by it, so two servers never both get
 * one), then names every open table of this server with its epoch. A renewal that failed may
 * still have claimed tables (its commit done, the answer lost): the next one names them. A
 * table whose row is locked (its owner's write under way, or left open by a paused owner until
 * session_setup's timeout ends it) is skipped until a later renewal: waiting for the lock would
 * hold this server's loop. */
static int pg_lease_renew(srv_store *s, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx) {
  if (!PG(s)->node[0]) return 0;
  const char *params[] = {PG(s)->node};
  int status = write_lease(s);
  if (status == 0 && claim) {
    PG(s)->once = true;
    status = run(s, "claiming the tables",
                 "WITH ks AS (UPDATE ks_tables SET node = $1, epoch = epoch + 1 WHERE id IN (SELECT id FROM ks_tables "
                 "WHERE node IN " LAPSED " FOR UPDATE SKIP LOCKED)) "
                 "UPDATE tables SET node = $1, epoch = epoch + 1 WHERE id IN (SELECT id FROM tables "
                 "WHERE status != 2 AND node IN " LAPSED " FOR UPDATE SKIP LOCKED)",
                 1, params);
    PG(s)->once = false;
  }
  if (status != 0) return status;
  PGresult *r = query(s, "reading the tables",
                      "SELECT id, epoch FROM tables WHERE status != 2 AND node = $1 "
                      "UNION ALL SELECT id, epoch FROM ks_tables WHERE node = $1 ORDER BY id",
                      1, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r); i++) fn(ctx, int_at(r, i, 0), int_at(r, i, 1));
  PQclear(r);
  return 0;
}

/* Stores one move of a table in the epoch this server owns it in, at most once: insert_sql
 * inserts it unless another server owns the table or a move is stored at that place already,
 * and check_sql then says whether this server owns it and the stored move there is this one
 * (an attempt whose answer was lost: query sends a statement again on a new connection).
 * place names where the move goes ("number 12", "ply 3"). */
static int owned_move_add(srv_store *s, const char *what, const char *insert_sql, int nparams, const char *check_sql,
                          const char *const *params, int64_t table, int64_t epoch, const char *place) {
  PGresult *r = query(s, what, insert_sql, nparams, params);
  if (!r) return -1;
  const bool saved = strcmp(PQcmdTuples(r), "1") == 0;
  PQclear(r);
  if (saved) return 0;
  r = query(s, what, check_sql, 5, params);
  if (!r) return -1;
  const bool owned = PQntuples(r) == 1, stored = owned && !PQgetisnull(r, 0, 0);
  const bool same = stored && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
  PQclear(r);
  if (same) return 0;
  if (stored) {
    snprintf(s->error, sizeof s->error, "%s: table %lld has another move stored at %s", what, (long long)table,
             place);
    return SRV_STORE_FENCED; /* this server's copy is behind the database: it lets the table go */
  }
  if (owned) return fail(s, what, NULL);
  return fenced(s, what, table, epoch);
}

/* Saves a move in the epoch this server owns the table in. The table's row is locked for the
 * statement (FOR SHARE), so a claim waits for it or it sees the claim: a claimer reloading the
 * moves finds every move saved before its epoch. A stored move is never written over. */
static int pg_move_add(srv_store *s, int64_t table, int64_t epoch, int seq, const char *text) {
  char b[3][32], place[32];
  const char *params[] = {num(b[0], table), num(b[1], epoch), PG(s)->node, num(b[2], seq), text};
  snprintf(place, sizeof place, "number %d", seq);
  return owned_move_add(s, "saving a move",
                        "WITH owner AS (SELECT id FROM tables WHERE " OWNED " FOR SHARE) "
                        "INSERT INTO moves (table_id, seq, move, node, epoch) "
                        "SELECT $1::bigint, $4::integer, $5::text, NULLIF($3::text, ''), $2::bigint FROM owner "
                        "ON CONFLICT (table_id, seq) DO NOTHING",
                        5,
                        "SELECT (SELECT move FROM moves WHERE table_id = $1::bigint AND seq = $4::integer) = $5::text "
                        "FROM tables WHERE " OWNED,
                        params, table, epoch, place);
}

/* Saves a table's options row in the epoch the table is owned in (fenced as a move is). */
static int pg_table_options_save(srv_store *s, int64_t table, int64_t epoch, const srv_table_options_row *row) {
  char b[5][32], banks[GOITA_MAX_SEATS * 24], left[GOITA_MAX_SEATS * 24];
  srv_seat_numbers_format(row->bank_ms, banks, sizeof banks);
  srv_seat_numbers_format(row->left_player, left, sizeof left);
  const char *params[] = {num(b[0], table), num(b[1], epoch), PG(s)->node, num(b[2], row->bank_seconds),
                          num(b[3], row->on_timeout), num(b[4], row->take_over), banks, left};
  return owned_run(s, "saving a table's options",
                   "WITH owner AS (SELECT id FROM tables WHERE " OWNED " FOR SHARE) "
                   "INSERT INTO table_options (table_id, bank_seconds, on_timeout, take_over, bank_ms, left_player) "
                   "SELECT id, $4::integer, $5::integer, $6::integer, $7::text, $8::text FROM owner "
                   "ON CONFLICT (table_id) DO UPDATE SET bank_seconds = EXCLUDED.bank_seconds, "
                   "on_timeout = EXCLUDED.on_timeout, take_over = EXCLUDED.take_over, bank_ms = EXCLUDED.bank_ms, "
                   "left_player = EXCLUDED.left_player",
                   8, params, table, epoch);
}

static int pg_table_options_load(srv_store *s, int64_t table, srv_table_options_row *row, bool *found) {
  char b[32];
  const char *params[] = {num(b, table)};
  PGresult *r = query(s, "reading a table's options",
                      "SELECT bank_seconds, on_timeout, take_over, bank_ms, left_player FROM table_options "
                      "WHERE table_id = $1::bigint",
                      1, params);
  if (!r) return -1;
  memset(row, 0, sizeof *row);
  if (PQntuples(r) == 1) {
    *found = true;
    row->bank_seconds = (int)int_at(r, 0, 0);
    row->on_timeout = (int)int_at(r, 0, 1);
    row->take_over = int_at(r, 0, 2) != 0;
    srv_seat_numbers_parse(PQgetvalue(r, 0, 3), row->bank_ms);
    srv_seat_numbers_parse(PQgetvalue(r, 0, 4), row->left_player);
  }
  PQclear(r);
  return 0;
}

/* A PostgreSQL array literal of n texts or numbers, each element quoted (a move's text has
 * no quote or backslash, but the array does not rely on it); malloc'd, NULL when out of memory. */
static char *array_literal(const srv_move_write *moves, int n, int field) {
  const size_t each = sizeof moves->text * 2 + 32;
  char *out = malloc((size_t)n * each + 3), *at = out;
  if (!out) return NULL;
  *at++ = '{';
  for (int i = 0; i < n; i++) {
    if (i) *at++ = ',';
    *at++ = '"';
    char value[32];
    const char *text = field == 0 ? (snprintf(value, sizeof value, "%lld", (long long)moves[i].table), value)
                       : field == 1 ? (snprintf(value, sizeof value, "%lld", (long long)moves[i].epoch), value)
                       : field == 2 ? (snprintf(value, sizeof value, "%d", moves[i].seq), value)
                                    : moves[i].text;
    for (; *text; text++) {
      if (*text == '"' || *text == '\\') *at++ = '\\';
      *at++ = *text;
    }
    *at++ = '"';
  }
  *at++ = '}';
  *at = '\0';
  return out;
}

/* Saves the moves of many tables in one transaction: one statement for them all (one round
 * trip, each table's row locked FOR SHARE as pg_move_add does), one commit, one flush of the
 * WAL. A move that statement did not write (fenced, or stored already by an attempt whose
 * answer was lost) is looked at again by pg_move_add in the same transaction, so each gets the
 * outcome a move saved alone would; a fenced move is only not written, the others commit. */
static int pg_moves_add(srv_store *s, srv_move_write *moves, int n) {
  char *arrays[4] = {NULL, NULL, NULL, NULL};
  for (int f = 0; f < 4; f++)
    if (!(arrays[f] = array_literal(moves, n, f))) {
      for (int g = 0; g < f; g++) free(arrays[g]);
      snprintf(s->error, sizeof s->error, "saving the moves: out of memory");
      return -1;
    }
  int status = begin(s);
  const char *params[] = {arrays[0], arrays[1], arrays[2], arrays[3], PG(s)->node};
  PGresult *r = status != 0 ? NULL
                            : query(s, "saving the moves",
                                    "WITH m AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], "
                                    "$4::text[]) AS m(table_id, epoch, seq, move)), "
                                    "owner AS (SELECT t.id, m.epoch FROM tables t JOIN m ON t.id = m.table_id "
                                    "WHERE t.status != 2 AND ($5::text = '' OR (t.node = $5::text AND t.epoch = m.epoch)) "
                                    "FOR SHARE OF t) "
                                    "INSERT INTO moves (table_id, seq, move, node, epoch) "
                                    "SELECT m.table_id, m.seq, m.move, NULLIF($5::text, ''), m.epoch "
                                    "FROM m JOIN owner ON owner.id = m.table_id AND owner.epoch = m.epoch "
                                    "ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq",
                                    5, params);
  for (int f = 0; f < 4; f++) free(arrays[f]);
  if (status == 0 && !r) status = -1;
  for (int i = 0; i < n && status == 0; i++) {
    bool written = false;
    for (int k = 0; k < PQntuples(r) && !written; k++)
      written = int_at(r, k, 0) == moves[i].table && int_at(r, k, 1) == moves[i].seq;
    if (written) continue;
    moves[i].status = pg_move_add(s, moves[i].table, moves[i].epoch, moves[i].seq, moves[i].text);
    if (moves[i].status == SRV_STORE_FENCED) snprintf(moves[i].error, sizeof moves[i].error, "%s", s->error);
    if (moves[i].status == -1) status = -1;
  }
  PQclear(r);
  return end(s, status);
}

static int pg_accounts(srv_store *s,
                       void (*fn)(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash),
                       void *ctx) {
  PGresult *r = query(s, "reading the accounts",
                      "SELECT id, name, account, COALESCE(password, '') FROM players WHERE account IS NOT NULL ORDER BY id",
                      0, NULL);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r); i++)
    fn(ctx, int_at(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), PQgetvalue(r, i, 3));
  PQclear(r);
  return 0;
}

static int pg_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *text), void *ctx) {
  char b[32];
  const char *params[] = {num(b, table)};
  PGresult *r = query(s, "reading the moves", "SELECT move FROM moves WHERE table_id = $1 ORDER BY seq", 1, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r); i++) fn(ctx, PQgetvalue(r, i, 0));
  PQclear(r);
  return 0;
}

/* Writes what a game did to seat i's player: its new rating and deviation, one more game, and
 * a history row. */
static int write_rating(srv_store *s, const srv_game_row *g, int i, int64_t game) {
  char b[7][32];
  const char *update[] = {real(b[0], g->ratings[i]), real(b[1], g->deviations[i]), num(b[2], g->players[i])};
  if (run(s, "saving a rating", "UPDATE players SET rating = $1, deviation = $2, games = games + 1 WHERE id = $3", 3,
          update) != 0)
    return -1;
  const char *history[] = {num(b[2], g->players[i]),          num(b[3], game),
                           real(b[4], g->rating_before[i]),   real(b[0], g->ratings[i]),
                           real(b[5], g->deviation_before[i]), real(b[1], g->deviations[i])};
  return run(s, "saving a rating's history",
             "INSERT INTO rating_history (player, game, rating_before, rating_after, deviation_before, "
             "deviation_after) VALUES ($1, $2, $3, $4, $5, $6)",
             6, history);
}

/* Saves one seat of a finished game, and what the game did to its player's rating. */
static int write_game_player(srv_store *s, const srv_game_row *g, int i, int64_t game) {
  char b[4][32];
  const char *params[] = {num(b[0], game), num(b[1], i), num(b[2], g->players[i]), g->names[i],
                          real(b[3], g->ratings[i])};
  if (run(s, "saving a game's players",
          "INSERT INTO game_players (game, seat, player, name, rating_after) VALUES ($1, $2, $3, $4, $5)", 5,
          params) != 0)
    return -1;
  return g->rated[i] ? write_rating(s, g, i, game) : 0;
}

/* Saves a game that ended, its players and the table's end, in one transaction: finished
 * or abandoned (marked as such); either way the rated players' histories are written. The table is
 * closed first, in its epoch, so a server that lost it or a game stored already is refused
 * before anything is written. */
static int pg_save_game(srv_store *s, srv_game_row *g, const char *record_json, const char *histories,
                        bool abandoned) {
  if (begin(s) != 0) return -1;
  char b[4][32];
  const char *close[] = {num(b[0], g->table), num(b[3], g->epoch), PG(s)->node, abandoned ? "abandoned" : NULL};
  int status = owned_run(s, "saving a game", "UPDATE tables SET status = 2, ended = $4 WHERE " OWNED, 4, close,
                         g->table, g->epoch);
  const char *params[] = {num(b[0], g->table), num(b[1], g->score[0]), num(b[2], g->score[1]),
                          record_json,         histories,              abandoned ? "abandoned" : NULL};
  int64_t game = 0;
  if (status == 0)
    status = insert_id(s, abandoned ? "saving an abandoned game" : "saving a game",
                       "INSERT INTO games (table_id, score0, score1, record, histories, ended) "
                       "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                       6, params, &game);
  for (int i = 0; i < g->nplayers && status == 0; i++) status = write_game_player(s, g, i, game);
  if (status == SRV_STORE_FENCED) {
    end(s, -1);
    return SRV_STORE_FENCED;
  }
  if (end(s, status) != 0) return -1;
  g->id = game;
  return 0;
}

/* The games of a page with their players, in one query: a row per seat (one with no seat for
 * a game without players), newest game first. $1 is the id the page starts below, $2 its size. */
static int pg_games(srv_store *s, int64_t before, srv_game_row *rows, int max, int *count) {
  *count = 0;
  char b[2][32];
  const char *params[] = {num(b[0], before > 0 ? before : INT64_MAX), num(b[1], max)};
  PGresult *r = query(s, "reading the games",
                      "SELECT g.id, g.table_id, g.finished, g.score0, g.score1, g.rules, g.ended, "
                      "p.seat, p.player, p.name, p.rating_after FROM "
                      "(SELECT g.id, g.table_id, g.finished, g.score0, g.score1, t.rules, g.ended FROM games g "
                      "LEFT JOIN tables t ON t.id = g.table_id WHERE g.id < $1 AND t.invite IS NULL "
                      "ORDER BY g.id DESC LIMIT $2) g "
                      "LEFT JOIN game_players p ON p.game = g.id ORDER BY g.id DESC, p.seat",
                      2, params);
  if (!r) return -1;
  srv_game_row *row = NULL;
  for (int i = 0; i < PQntuples(r); i++) {
    if (!row || row->id != int_at(r, i, 0)) {
      if (*count == max) break;
      row = &rows[(*count)++];
      memset(row, 0, sizeof *row);
      row->id = int_at(r, i, 0);
      row->table = int_at(r, i, 1);
      text_at(r, i, 2, row->finished, sizeof row->finished);
      row->score[0] = (int)int_at(r, i, 3);
      row->score[1] = (int)int_at(r, i, 4);
      text_at(r, i, 5, row->rules, sizeof row->rules);
      text_at(r, i, 6, row->ended, sizeof row->ended);
    }
    const int seat = PQgetisnull(r, i, 7) ? -1 : (int)int_at(r, i, 7);
    if (seat < 0 || seat >= GOITA_MAX_SEATS) continue;
    row->players[seat] = int_at(r, i, 8);
    text_at(r, i, 9, row->names[seat], sizeof row->names[seat]);
    row->ratings[seat] = real_at(r, i, 10);
    if (seat + 1 > row->nplayers) row->nplayers = seat + 1;
  }
  PQclear(r);
  return 0;
}

static int pg_game_text(srv_store *s, int64_t game, const char *key, bool histories, char **text) {
  *text = NULL;
  char b[32];
  const char *params[] = {num(b, game), key}; /* no key: NULL, equal to nothing */
  PGresult *r = query(s, "reading a game",
                      histories ? "SELECT g.histories FROM games g LEFT JOIN tables t ON t.id = g.table_id "
                                  "WHERE g.id = $1 AND (t.invite IS NULL OR t.invite = $2)"
                                : "SELECT g.record FROM games g LEFT JOIN tables t ON t.id = g.table_id "
                                  "WHERE g.id = $1 AND (t.invite IS NULL OR t.invite = $2)",
                      2, params);
  if (!r) return -1;
  int status = 0;
  if (PQntuples(r) > 0 && !(*text = strdup(PQgetvalue(r, 0, 0)))) {
    snprintf(s->error, sizeof s->error, "out of memory");
    status = -1;
  }
  PQclear(r);
  return status;
}

/* An open table (Goita's or Ko shogi's) by number, seat token hash or invite, with its server:
 * one indexed query. */
static int pg_table_owner(srv_store *s, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE],
                          bool *found) {
  static const char *const sql[] = {
      ("SELECT id, COALESCE(node, '') FROM tables WHERE id = $1::bigint AND status != 2 "
       "UNION ALL SELECT id, COALESCE(node, '') FROM ks_tables WHERE id = $1::bigint"),
      ("SELECT t.id, COALESCE(t.node, '') FROM seats s JOIN tables t ON t.id = s.table_id "
       "WHERE s.token = $1 AND t.status != 2"),
      ("SELECT id, COALESCE(node, '') FROM tables WHERE invite = $1 AND status != 2 "
       "UNION ALL SELECT id, COALESCE(node, '') FROM ks_tables WHERE invite = $1")};
  if (kind < 0 || kind > SRV_KEY_INVITE) return fail(s, "finding a table", NULL);
  const char *params[] = {key};
  PGresult *r = query(s, "finding a table", sql[kind], 1, params);
  if (!r) return -1;
  *found = PQntuples(r) > 0;
  if (*found) {
    *table = int_at(r, 0, 0);
    text_at(r, 0, 1, node, SRV_NODE_SIZE);
  }
  PQclear(r);
  return 0;
}

/* Reads the players a query gives, at most max. */
static int some_players(srv_store *s, const char *what, const char *sql, int n, const char *const *params,
                        srv_player *rows, int max, int *count) {
  PGresult *r = query(s, what, sql, n, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r) && *count < max; i++) read_player(r, i, &rows[(*count)++]);
  PQclear(r);
  return 0;
}

static int pg_bot_account_create(srv_store *s, int64_t owner, const char *name, const char *account,
                                 const char *token_hash, srv_player *out) {
  if (begin(s) != 0) return -1;
  const char *params[] = {name, account};
  int64_t id = 0;
  int status = insert_id(s, "saving a bot account", "INSERT INTO players (name, account) VALUES ($1, $2) RETURNING id",
                         2, params, &id);
  char b[32], o[32];
  const char *link[] = {num(b, id), num(o, owner)};
  if (status == 0)
    status = run(s, "saving a bot account", "INSERT INTO bot_accounts (player, owner) VALUES ($1, $2)", 2, link);
  if (status == 0) status = add_token(s, id, token_hash);
  if (end(s, status) != 0) return -1;
  return pg_player_get(s, id, out);
}

static int pg_bot_accounts(srv_store *s, int64_t owner, srv_player *rows, int max, int *count) {
  char b[32];
  const char *params[] = {num(b, owner)};
  return some_players(s, "reading bot accounts",
                      "SELECT " PLAYER_COLUMNS " FROM bot_accounts b JOIN players p ON p.id = b.player"
                      " WHERE b.owner = $1 ORDER BY p.id",
                      1, params, rows, max, count);
}

static int pg_bot_account_token(srv_store *s, int64_t owner, int64_t bot, const char *token_hash, bool *found) {
  if (begin(s) != 0) return -1;
  char b[32], o[32];
  const char *params[] = {num(b, bot), num(o, owner)};
  /* FOR UPDATE: two renewals at once end with one token, not both */
  PGresult *r = query(s, "reading a bot account", "SELECT 1 FROM bot_accounts WHERE player = $1 AND owner = $2 FOR UPDATE",
                      2, params);
  if (!r) return end(s, -1);
  *found = PQntuples(r) > 0;
  PQclear(r);
  int status = 0;
  if (*found) status = run(s, "revoking a bot's tokens", "DELETE FROM player_tokens WHERE player = $1", 1, params);
  if (status == 0 && *found && token_hash) status = add_token(s, bot, token_hash);
  return end(s, status);
}

static int pg_bot_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  char b[32];
  const char *params[] = {num(b, max)};
  return some_players(s, "reading the bot leaderboard",
                      "SELECT " PLAYER_COLUMNS " FROM bot_accounts b JOIN players p ON p.id = b.player"
                      " WHERE p.games > 0 ORDER BY p.rating DESC, p.id LIMIT $1",
                      1, params, rows, max, count);
}

static int pg_match_save(srv_store *s, int64_t *id, const char *summary) {
  char b[32];
  if (*id) {
    const char *params[] = {summary, num(b, *id)};
    return run(s, "saving a match", "UPDATE matches SET summary = $1 WHERE id = $2", 2, params);
  }
  const char *params[] = {summary};
  return insert_id(s, "saving a match", "INSERT INTO matches (summary) VALUES ($1) RETURNING id", 1, params, id);
}

static int pg_match_text(srv_store *s, int64_t id, char **summary) {
  char b[32];
  const char *params[] = {num(b, id)};
  PGresult *r = query(s, "reading a match", "SELECT summary FROM matches WHERE id = $1", 1, params);
  if (!r) return -1;
  if (PQntuples(r) > 0) *summary = strdup(PQgetvalue(r, 0, 0));
  const bool lost = PQntuples(r) > 0 && !*summary;
  PQclear(r);
  if (lost) snprintf(s->error, sizeof s->error, "out of memory");
  return lost ? -1 : 0;
}

/* The condition of every write for a Ko shogi table (OWNED's, schema step 13): this server owns
 * it in the epoch named; with one server (no name) any stored one. */
#define KS_OWNED "id = $1::bigint AND ($3::text = '' OR (node = $3::text AND epoch = $2::bigint))"

/* Deletes a stored Ko shogi table's row and moves (schema step 12) in the epoch this server owns
 * it in, inside a transaction: SRV_STORE_FENCED, deleting nothing, when it is another's now. */
static int pg_ks_forget(srv_store *s, int64_t table, int64_t epoch) {
  char b[2][32];
  const char *params[] = {num(b[0], table), num(b[1], epoch), PG(s)->node};
  const int status = owned_run(s, "closing a Ko shogi table", "DELETE FROM ks_tables WHERE " KS_OWNED, 3, params,
                               table, epoch);
  if (status != 0) return status;
  return run(s, "closing a Ko shogi table's moves", "DELETE FROM ks_moves WHERE table_id = $1", 1, params);
}

/* Ends a transaction whose write may have been fenced: rolled back, and SRV_STORE_FENCED kept. */
static int end_fenced(srv_store *s, int status) {
  if (status != SRV_STORE_FENCED) return end(s, status);
  end(s, -1);
  return SRV_STORE_FENCED;
}

/* Ko shogi (schema steps 10 and 14): a finished game, both players' ratings and their history rows in
 * one transaction. */
static int pg_ks_game_save(srv_store *s, srv_ks_game_row *g, const char *record) {
  if (begin(s) != 0) return -1;
  char b[32], w[32], n[32], m[32], y[32];
  const char *params[] = {num(b, g->players[0]), num(w, g->players[1]), g->names[0], g->names[1], g->result, g->end,
                          num(n, g->moves), num(m, g->main_ms), num(y, g->byoyomi_ms), g->invite[0] ? g->invite : NULL,
                          record};
  int64_t id = 0;
  int status = insert_id(s, "saving a Ko shogi game",
                         "INSERT INTO ks_games (black, white, black_name, white_name, result, ended, moves, main_ms,"
                         " byoyomi_ms, invite, record) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                         11, params, &id);
  for (int side = 0; status == 0 && g->rated && side < 2; side++) {
    char p[32], r[32], d[32];
    const char *rating[] = {num(p, g->players[side]), real(r, g->rating_after[side]), real(d, g->deviation_after[side])};
    status = run(s, "saving a Ko shogi rating",
                 "INSERT INTO ks_ratings (player, rating, deviation, games) VALUES ($1, $2, $3, 1)"
                 " ON CONFLICT (player) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,"
                 " games = ks_ratings.games + 1",
                 3, rating);
    if (status != 0) break;
    char game[32], rb[32], db[32];
    const char *history[] = {rating[0], num(game, id), real(rb, g->rating_before[side]),
                             rating[1], real(db, g->deviation_before[side]), rating[2]};
    status = run(s, "saving a Ko shogi rating's history",
                 "INSERT INTO ks_rating_history (player, game, rating_before, rating_after, deviation_before,"
                 " deviation_after) VALUES ($1, $2, $3, $4, $5, $6)",
                 6, history);
  }
  /* (fenced: a server that lost the table writes neither the game nor the ratings) */
  if (status == 0 && g->table) status = pg_ks_forget(s, g->table, g->epoch);
  status = end_fenced(s, status);
  if (status != 0) return status;
  g->id = id;
  return 0;
}

static int pg_ks_rating(srv_store *s, int64_t player, double *rating, double *deviation, int *games) {
  char b[32];
  const char *params[] = {num(b, player)};
  PGresult *r = query(s, "reading a Ko shogi rating", "SELECT rating, deviation, games FROM ks_ratings WHERE player = $1",
                      1, params);
  if (!r) return -1;
  if (PQntuples(r) > 0) {
    *rating = real_at(r, 0, 0);
    *deviation = real_at(r, 0, 1);
    *games = (int)int_at(r, 0, 2);
  }
  PQclear(r);
  return 0;
}

/* PLAYER_COLUMNS' order with the Ko shogi rating, deviation and games in place of Goita's; the
 * last column (bot account) is constant as the WHERE leaves bot accounts out. */
static int pg_ks_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  char b[32];
  const char *params[] = {num(b, max)};
  return some_players(s, "reading the Ko shogi leaderboard",
                      "SELECT p.id, p.name, p.bot, k.rating, k.games, k.deviation, p.account, false"
                      " FROM ks_ratings k JOIN players p ON p.id = k.player WHERE k.games > 0"
                      " AND p.id NOT IN (SELECT player FROM bot_accounts) ORDER BY k.rating DESC, p.id LIMIT $1",
                      1, params, rows, max, count);
}

/* A game's statistics, a row per player, in one statement. */
static int pg_game_stats_save(srv_store *s, const srv_game_stats *stats) {
  char b[GOITA_MAX_SEATS][7][32];
  const char *params[GOITA_MAX_SEATS * 7];
  char sql[1024] = "INSERT INTO game_stats (game, player, listed, rounds, points, moves, lost) VALUES ";
  size_t len = strlen(sql);
  for (int i = 0; i < stats->nplayers; i++) {
    const srv_seat_stats *r = &stats->seats[i];
    const long long v[7] = {stats->game, stats->players[i], stats->listed, r->rounds, r->points, r->moves, r->lost};
    for (int k = 0; k < 7; k++) params[7 * i + k] = num(b[i][k], v[k]);
    const int p = 7 * i;
    len += (size_t)snprintf(sql + len, sizeof sql - len, "%s($%d, $%d, $%d, $%d, $%d, $%d, $%d)", i ? ", " : "", p + 1,
                            p + 2, p + 3, p + 4, p + 5, p + 6, p + 7);
  }
  snprintf(sql + len, sizeof sql - len, " ON CONFLICT DO NOTHING");
  return run(s, "saving a game's statistics", sql, 7 * stats->nplayers, params);
}

static int pg_player_stats(srv_store *s, int64_t player, bool with_private, srv_career *career, srv_stats_row *rows,
                           int max, int *count) {
  char b[3][32];
  const char *params[] = {num(b[0], player), num(b[1], with_private), num(b[2], max)};
  PGresult *r = query(s, "reading a player's statistics", PLAYER_STATS_SQL("$1", "$2", "$3"), 3, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r) && *count < max; i++) {
    srv_stats_row *row = &rows[(*count)++];
    row->game = int_at(r, i, 0);
    text_at(r, i, 1, row->finished, sizeof row->finished);
    row->stats = (srv_seat_stats){(int)int_at(r, i, 2), (int)int_at(r, i, 3), (int)int_at(r, i, 4), (int)int_at(r, i, 5)};
    *career = (srv_career){int_at(r, i, 6), int_at(r, i, 7), int_at(r, i, 8), int_at(r, i, 9), int_at(r, i, 10)};
  }
  PQclear(r);
  return 0;
}

static int pg_ks_game_text(srv_store *s, int64_t game, const char *key, char **record) {
  char b[32];
  const char *params[] = {num(b, game), key ? key : ""};
  PGresult *r = query(s, "reading a Ko shogi game",
                      "SELECT record FROM ks_games WHERE id = $1 AND (invite IS NULL OR invite = $2)", 2, params);
  if (!r) return -1;
  if (PQntuples(r) > 0) *record = strdup(PQgetvalue(r, 0, 0));
  const bool lost = PQntuples(r) > 0 && !*record;
  PQclear(r);
  if (lost) snprintf(s->error, sizeof s->error, "out of memory");
  return lost ? -1 : 0;
}

/* Ko shogi tables not over (schema steps 12 and 13). A new one is numbered by the database's
 * sequence; a stored one is written in its epoch. */
static int pg_ks_table_save(srv_store *s, srv_ks_table_row *row) {
  char b[9][32];
  const char *params[] = {num(b[0], row->id),         num(b[1], row->epoch),      PG(s)->node,
                          num(b[2], row->owner),      num(b[3], row->main_ms),    num(b[4], row->byoyomi_ms),
                          row->invite,                num(b[5], row->players[0]), num(b[6], row->players[1]),
                          row->names[0],              row->names[1],              row->bots[0],
                          row->bots[1],               num(b[7], row->draw_offer)};
  if (row->id) {
    return owned_run(s, "saving a Ko shogi table",
                     "UPDATE ks_tables SET owner = $4, main_ms = $5, byoyomi_ms = $6, invite = $7, black = $8,"
                     " white = $9, black_name = $10, white_name = $11, black_bot = $12, white_bot = $13,"
                     " draw_offer = $14 WHERE " KS_OWNED,
                     14, params, row->id, row->epoch);
  }
  if (begin(s) != 0) return -1; /* (so that a lost answer does not make it twice) */
  const int status = insert_id(s, "saving a Ko shogi table",
                               "INSERT INTO ks_tables (id, node, epoch, owner, main_ms, byoyomi_ms, invite, black, white,"
                               " black_name, white_name, black_bot, white_bot, draw_offer)"
                               " VALUES (nextval('ks_table_ids'), NULLIF($1::text, ''), 1, $2, $3, $4, $5, $6, $7, $8, $9,"
                               " $10, $11, $12) RETURNING id",
                               12, params + 2, &row->id);
  row->epoch = 1;
  return end(s, status);
}

static int pg_ks_table_close(srv_store *s, int64_t table, int64_t epoch) {
  if (begin(s) != 0) return -1;
  return end_fenced(s, pg_ks_forget(s, table, epoch));
}

/* Stores a Ko shogi move in the epoch this server owns the table in, the table's row locked for
 * the statement as pg_move_add does; a stored move is never written over. */
static int pg_ks_move_add(srv_store *s, int64_t table, int64_t epoch, int ply, const char *move,
                          const int64_t left_ms[2]) {
  char b[5][32], place[32];
  const char *params[] = {num(b[0], table), num(b[1], epoch),        PG(s)->node,          num(b[2], ply),
                          move,             num(b[3], left_ms[0]), num(b[4], left_ms[1])};
  snprintf(place, sizeof place, "ply %d", ply);
  return owned_move_add(s, "saving a Ko shogi move",
                        "WITH owner AS (SELECT id FROM ks_tables WHERE " KS_OWNED " FOR SHARE) "
                        "INSERT INTO ks_moves (table_id, ply, move, black_ms, white_ms) "
                        "SELECT $1::bigint, $4::integer, $5::text, $6::bigint, $7::bigint FROM owner "
                        "ON CONFLICT (table_id, ply) DO NOTHING",
                        7,
                        "SELECT (SELECT move FROM ks_moves WHERE table_id = $1::bigint AND ply = $4::integer) = "
                        "$5::text FROM ks_tables WHERE " KS_OWNED,
                        params, table, epoch, place);
}

#define KS_COLUMNS                                                                                                   \
  "id, owner, main_ms, byoyomi_ms, invite, black, white, black_name, white_name, black_bot, white_bot, draw_offer, " \
  "epoch"

/* Runs a query for Ko shogi tables (the columns of KS_COLUMNS) and calls fn with each. */
static int read_ks_tables(srv_store *s, const char *sql, int n, const char *const *params,
                          void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx) {
  PGresult *r = query(s, "reading the Ko shogi tables", sql, n, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r); i++) {
    srv_ks_table_row row = {.id = int_at(r, i, 0), .owner = int_at(r, i, 1), .main_ms = int_at(r, i, 2),
                            .byoyomi_ms = int_at(r, i, 3), .draw_offer = (int)int_at(r, i, 11),
                            .epoch = int_at(r, i, 12)};
    text_at(r, i, 4, row.invite, sizeof row.invite);
    for (int side = 0; side < 2; side++) {
      row.players[side] = int_at(r, i, 5 + side);
      text_at(r, i, 7 + side, row.names[side], sizeof row.names[side]);
      text_at(r, i, 9 + side, row.bots[side], sizeof row.bots[side]);
    }
    fn(ctx, &row);
  }
  PQclear(r);
  return 0;
}

/* At start: claims this server's Ko shogi tables of an earlier run, those of no server and those
 * of servers whose lease ran out, each in a new epoch, as pg_tables_open does Goita's. */
static int pg_ks_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx) {
  if (!PG(s)->node[0]) return read_ks_tables(s, "SELECT " KS_COLUMNS " FROM ks_tables ORDER BY id", 0, NULL, fn, ctx);
  const char *params[] = {PG(s)->node};
  if (run(s, "claiming the Ko shogi tables",
          "UPDATE ks_tables SET node = $1, epoch = epoch + 1 WHERE node IS NULL OR node = $1 OR node IN " LAPSED, 1,
          params) != 0)
    return -1;
  return read_ks_tables(s, "SELECT " KS_COLUMNS " FROM ks_tables WHERE node = $1 ORDER BY id", 1, params, fn, ctx);
}

static void copy_ks_row(void *ctx, const srv_ks_table_row *row) { *(srv_ks_table_row *)ctx = *row; }

static int pg_ks_table_load(srv_store *s, int64_t table, srv_ks_table_row *row, bool *found) {
  char b[32];
  const char *params[] = {num(b, table), PG(s)->node};
  row->id = 0;
  if (read_ks_tables(s, "SELECT " KS_COLUMNS " FROM ks_tables WHERE id = $1::bigint AND ($2 = '' OR node = $2)",
                     2, params,
                     copy_ks_row, row) != 0)
    return -1;
  *found = row->id == table;
  return 0;
}

static int pg_ks_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *move, const int64_t left_ms[2]),
                       void *ctx) {
  char b[32];
  const char *params[] = {num(b, table)};
  PGresult *r = query(s, "reading a Ko shogi table's moves",
                      "SELECT move, black_ms, white_ms FROM ks_moves WHERE table_id = $1 ORDER BY ply", 1, params);
  if (!r) return -1;
  for (int i = 0; i < PQntuples(r); i++) {
    const int64_t left_ms[2] = {strtoll(PQgetvalue(r, i, 1), NULL, 10), strtoll(PQgetvalue(r, i, 2), NULL, 10)};
    fn(ctx, PQgetvalue(r, i, 0), left_ms);
  }
  PQclear(r);
  return 0;
}

static const srv_store_ops pg_ops = {
    pg_close,       pg_limit_bytes,  pg_node, pg_node_release, pg_lease_renew, pg_table_load,  pg_table_owner,  pg_player_by_token, pg_player_create, pg_player_rename,   pg_bot_player,
    pg_player_get,  pg_player_token_add, pg_account,     pg_player_register, pg_leaderboard,   pg_rating_history,
    pg_table_create, pg_table_update, pg_table_end,      pg_tables_open,   pg_move_add,        pg_moves,
    pg_save_game,   pg_games,        pg_game_text,      pg_accounts,      pg_table_options_save,      pg_table_options_load,
    pg_bot_account_create, pg_bot_accounts, pg_bot_account_token, pg_bot_leaderboard, pg_match_save, pg_match_text,
    pg_game_stats_save, pg_player_stats,
    pg_moves_add,   pg_open_again, pg_ks_game_save, pg_ks_rating, pg_ks_game_text, pg_ks_leaderboard,
    pg_ks_table_save, pg_ks_table_close, pg_ks_move_add, pg_ks_tables_open, pg_ks_moves, pg_ks_table_load,
    pg_ks_rating_history,
};

/* The storage interface (store.h), the same tests for each store: SQLite by default, or the
 * PostgreSQL database named by GOITA_TEST_DB (a postgresql:// URI; tests/cli/store_postgresql.sh
 * starts a real server for it). Each test starts from an empty database. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <time.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "store_impl.h"

static struct {
  char db[512];
  bool postgresql;
  srv_store *store;
} w;

/* Runs SQL on the database behind the store's back (a raw connection of its own kind), and
 * returns the first column of the first row as a number (0 when there is none). */
static long long raw(const char *sql) {
  long long value = 0;
  if (w.postgresql) {
    PGconn *conn = PQconnectdb(w.db);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
              PQresultErrorMessage(r));
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) value = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    PQfinish(conn);
  } else {
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    const int rc = sqlite3_step(st);
    cr_assert(rc == SQLITE_ROW || rc == SQLITE_DONE, "%s: %s", sql, sqlite3_errmsg(db));
    if (rc == SQLITE_ROW) value = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
  }
  return value;
}

/* Removes the SQLite file and its WAL companions. */
static void remove_sqlite(void) {
  const char *suffixes[] = {"", "-wal", "-shm"};
  for (int i = 0; i < 3; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s%s", w.db, suffixes[i]);
    unlink(path);
  }
}

static void open_store(void) {
  cr_assert_eq(srv_store_open(&w.store, w.db), 0, "%s", w.store ? srv_store_error(w.store) : "out of memory");
}

static void setup(void) {
  const char *db = getenv("GOITA_TEST_DB");
  w.postgresql = db && srv_store_is_postgresql(db);
  if (w.postgresql) {
    snprintf(w.db, sizeof w.db, "%s", db);
    raw("SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  } else {
    snprintf(w.db, sizeof w.db, "/tmp/goita-test-store-%d.db", getpid());
    remove_sqlite();
  }
  open_store();
}

static void teardown(void) {
  srv_store_close(w.store);
  w.store = NULL;
  if (!w.postgresql) remove_sqlite();
}

TestSuite(store, .init = setup, .fini = teardown);

Test(store, schema_is_at_the_newest_version_and_reopens_unchanged) {
  cr_expect_eq(raw("SELECT max(version) FROM schema_version"), srv_migration_count);
  cr_expect_eq(raw("SELECT count(*) FROM schema_version"), 1);
  srv_player p;
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "aa11", &p), 0, "%s", srv_store_error(w.store));
  srv_store_close(w.store);
  open_store();
  cr_expect_eq(raw("SELECT max(version) FROM schema_version"), srv_migration_count);
  srv_player again;
  cr_assert_eq(srv_store_player_get(w.store, p.id, &again), 0);
  cr_expect_str_eq(again.name, "Ayu");
}

Test(store, a_newer_schema_is_refused) {
  char sql[64];
  snprintf(sql, sizeof sql, "UPDATE schema_version SET version = %d", srv_migration_count + 1);
  raw(sql);
  srv_store_close(w.store);
  w.store = NULL;
  cr_expect_eq(srv_store_open(&w.store, w.db), -1);
  cr_assert_not_null(w.store);
  cr_expect(strstr(srv_store_error(w.store), "newer than this server's") != NULL, "%s", srv_store_error(w.store));
}

Test(store, players_are_found_by_token_and_account) {
  srv_player p, q;
  bool found = true;
  cr_assert_eq(srv_store_player_by_token(w.store, "nobody", &q, &found), 0);
  cr_expect(!found);
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "hash-one", &p), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(p.id, 0);
  cr_expect_eq(p.rating, 1500);
  cr_expect_eq(p.deviation, 350);
  cr_expect(!p.registered);
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-one", &q, &found), 0);
  cr_expect(found);
  cr_expect_eq(q.id, p.id);
  cr_assert_eq(srv_store_player_rename(w.store, p.id, "Ayumi"), 0);
  cr_assert_eq(srv_store_player_token_add(w.store, p.id, "hash-two"), 0);
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-two", &q, &found), 0);
  cr_expect(found);
  cr_expect_str_eq(q.name, "Ayumi");
  char password[SRV_PASSWORD_HASH_SIZE];
  cr_assert_eq(srv_store_account(w.store, "ayumi", &q, password, &found), 0);
  cr_expect(!found);
  cr_assert_eq(srv_store_player_register(w.store, p.id, "Ayumi", "ayumi", "$argon2id$x"), 0);
  cr_assert_eq(srv_store_account(w.store, "ayumi", &q, password, &found), 0);
  cr_expect(found);
  cr_expect(q.registered);
  cr_expect_str_eq(password, "$argon2id$x");
  srv_player other;
  cr_assert_eq(srv_store_player_create(w.store, "Ken", "hash-three", &other), 0);
  cr_expect_eq(srv_store_player_register(w.store, other.id, "AYUMI", "ayumi", "$argon2id$y"), -1,
               "an account is claimed once");
  cr_expect_eq(srv_store_player_get(w.store, 9999, &q), -1);
  cr_expect_str_eq(srv_store_error(w.store), "no player 9999");
}

/* Bot accounts in either store: made with a token, marked, listed by owner, their tokens
 * replaced or revoked only by their owner, and kept off the people's leaderboard; a duplicate
 * match's summary saved, saved over and read back. */
Test(store, bot_accounts_and_matches) {
  srv_player owner, bot, other, q;
  bool found = false;
  cr_assert_eq(srv_store_player_create(w.store, "Aki", "hash-owner", &owner), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_player_register(w.store, owner.id, "Aki", "aki", "$argon2id$x"), 0);
  cr_assert_eq(srv_store_bot_account_create(w.store, owner.id, "Robo", "robo", "hash-bot-1", &bot), 0, "%s",
               srv_store_error(w.store));
  cr_expect(bot.bot_account && bot.registered);
  cr_expect_str_eq(bot.name, "Robo");
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-bot-1", &q, &found), 0);
  cr_expect(found && q.id == bot.id && q.bot_account);
  cr_assert_eq(srv_store_player_get(w.store, owner.id, &q), 0);
  cr_expect(!q.bot_account, "a person marked as a bot");
  char password[SRV_PASSWORD_HASH_SIZE];
  cr_assert_eq(srv_store_account(w.store, "robo", &q, password, &found), 0);
  cr_expect(found && q.id == bot.id, "the bot's name is not claimed");
  cr_expect_str_eq(password, "", "a bot has a password");
  cr_assert_eq(srv_store_bot_account_create(w.store, owner.id, "Other", "robo", "hash-bot-9", &other), -1,
               "a bot account took a claimed name");

  srv_player rows[4];
  int n = 0;
  cr_assert_eq(srv_store_bot_accounts(w.store, owner.id, rows, 4, &n), 0);
  cr_expect(n == 1 && rows[0].id == bot.id);
  cr_assert_eq(srv_store_bot_accounts(w.store, bot.id, rows, 4, &n), 0);
  cr_expect_eq(n, 0);

  cr_assert_eq(srv_store_bot_account_token(w.store, bot.id, bot.id, "hash-bot-2", &found), 0);
  cr_expect(!found, "a bot renewed a token as its own owner");
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-bot-1", &q, &found), 0);
  cr_expect(found, "a refused renewal revoked the token");
  cr_assert_eq(srv_store_bot_account_token(w.store, owner.id, bot.id, "hash-bot-2", &found), 0);
  cr_expect(found);
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-bot-1", &q, &found), 0);
  cr_expect(!found, "the replaced token still works");
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-bot-2", &q, &found), 0);
  cr_expect(found && q.id == bot.id);
  cr_assert_eq(srv_store_bot_account_token(w.store, owner.id, bot.id, NULL, &found), 0);
  cr_assert_eq(srv_store_player_by_token(w.store, "hash-bot-2", &q, &found), 0);
  cr_expect(!found, "the revoked token still works");

  raw("UPDATE players SET games = 1");
  cr_assert_eq(srv_store_leaderboard(w.store, rows, 4, &n), 0);
  cr_expect(n == 1 && rows[0].id == owner.id, "the people's leaderboard: %d rows", n);
  cr_assert_eq(srv_store_bot_leaderboard(w.store, rows, 4, &n), 0);
  cr_expect(n == 1 && rows[0].id == bot.id, "the bots' leaderboard: %d rows", n);

  int64_t match = 0;
  char *text = NULL;
  cr_assert_eq(srv_store_match_save(w.store, &match, "{\"status\":\"playing\"}"), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(match, 0);
  cr_assert_eq(srv_store_match_save(w.store, &match, "{\"status\":\"over\"}"), 0);
  cr_assert_eq(srv_store_match_text(w.store, match, &text), 0);
  cr_expect_str_eq(text, "{\"status\":\"over\"}");
  free(text);
  cr_assert_eq(srv_store_match_text(w.store, match + 1, &text), 0);
  cr_expect_null(text);
}

/* Ko shogi (schema steps 10 and 14): a finished game with its record, both ratings and their
 * history rows written once rated, and a private table's record given only with its invite code. */
Test(store, ko_shogi_games_and_ratings) {
  srv_player ann, ben;
  cr_assert_eq(srv_store_player_create(w.store, "Ann", "hash-ann", &ann), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_player_create(w.store, "Ben", "hash-ben", &ben), 0);
  double rating, deviation;
  int games = -1;
  cr_assert_eq(srv_store_ks_rating(w.store, ann.id, &rating, &deviation, &games), 0, "%s", srv_store_error(w.store));
  cr_expect(rating == 1500 && deviation == 350 && games == 0, "a newcomer: %g %g %d", rating, deviation, games);
  srv_ks_game_row g = {.players = {ann.id, ben.id}, .names = {"Ann", "Ben"}, .result = "black", .end = "time",
                       .moves = 41, .main_ms = 60000, .byoyomi_ms = 5000, .rated = true,
                       .rating_before = {1500, 1500}, .deviation_before = {350, 350},
                       .rating_after = {1619.03, 1380.97}, .deviation_after = {329.29, 329.29}};
  cr_assert_eq(srv_store_ks_game_save(w.store, &g, "[Result \"1-0\"]\n"), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(g.id, 0);
  const int64_t first = g.id;
  g.rating_before[0] = 1619.03, g.deviation_before[0] = 329.29;
  g.rating_after[0] = 1700;
  snprintf(g.invite, sizeof g.invite, "%s", "0123456789abcdef0123456789abcdef");
  cr_assert_eq(srv_store_ks_game_save(w.store, &g, "private"), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(g.id, first);
  cr_assert_eq(srv_store_ks_rating(w.store, ann.id, &rating, &deviation, &games), 0);
  cr_expect(rating == 1700 && deviation == 329.29 && games == 2, "Ann: %g %g %d", rating, deviation, games);
  cr_expect_eq(raw("SELECT count(*) FROM ks_games WHERE ended = 'time' AND moves = 41 AND byoyomi_ms = 5000"), 2);
  cr_expect_eq(raw("SELECT rating FROM players WHERE id = 1"), 1500, "Goita's rating moved");
  /* each rated game's change to each player's Ko shogi rating, newest first; Goita's history untouched */
  srv_rating_row rows[4];
  int n = -1;
  cr_assert_eq(srv_store_ks_rating_history(w.store, ann.id, rows, 4, &n), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(n, 2, "Ann's history rows: %d", n);
  cr_expect(rows[0].game == g.id && rows[0].rating_before == 1619.03 && rows[0].rating_after == 1700 &&
                rows[0].deviation_before == 329.29 && rows[0].deviation_after == 329.29 && rows[0].time[0],
            "newest: game %lld %g -> %g", (long long)rows[0].game, rows[0].rating_before, rows[0].rating_after);
  cr_expect(rows[1].game == first && rows[1].rating_before == 1500 && rows[1].rating_after == 1619.03 &&
                rows[1].deviation_before == 350,
            "oldest: game %lld %g -> %g", (long long)rows[1].game, rows[1].rating_before, rows[1].rating_after);
  cr_assert_eq(srv_store_ks_rating_history(w.store, ben.id, rows, 1, &n), 0);
  cr_expect(n == 1 && rows[0].game == g.id && rows[0].rating_after == 1380.97, "Ben, one row asked: %d", n);
  cr_assert_eq(srv_store_rating_history(w.store, ann.id, rows, 4, &n), 0);
  cr_expect_eq(n, 0, "a Ko shogi game in Goita's rating history");
  /* the leaderboard: Ko shogi's numbers, best first, in at most max rows; Cy (no Ko shogi game) absent */
  srv_player cy, board[4];
  cr_assert_eq(srv_store_player_create(w.store, "Cy", "hash-cy", &cy), 0);
  cr_assert_eq(srv_store_ks_leaderboard(w.store, board, 4, &n), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(n, 2, "rows: %d", n);
  cr_expect(board[0].id == ann.id && board[0].rating == 1700 && board[0].deviation == 329.29 && board[0].games == 2,
            "first: %s %g %g %d", board[0].name, board[0].rating, board[0].deviation, board[0].games);
  cr_expect(board[1].id == ben.id && board[1].rating == 1380.97 && board[1].games == 2 && !board[1].bot_account,
            "second: %s %g %d", board[1].name, board[1].rating, board[1].games);
  cr_assert_eq(srv_store_ks_leaderboard(w.store, board, 1, &n), 0);
  cr_expect(n == 1 && board[0].id == ann.id, "one row asked: %d", n);
  char *text = NULL;
  cr_assert_eq(srv_store_ks_game_text(w.store, first, NULL, &text), 0);
  cr_expect_str_eq(text, "[Result \"1-0\"]\n");
  free(text);
  cr_assert_eq(srv_store_ks_game_text(w.store, g.id, NULL, &text), 0);
  cr_expect_null(text, "a private game without its key");
  cr_assert_eq(srv_store_ks_game_text(w.store, g.id, "0123456789abcdef0123456789abcdef", &text), 0);
  cr_expect_str_eq(text, "private");
  free(text);
}

/* Stored Ko shogi tables and their moves (a restarted server restores them), closed by the
 * game's save or on their own. */
typedef struct ks_collected {
  srv_ks_table_row tables[4];
  int ntables;
  char moves[8][16];
  int64_t left[8][2];
  int nmoves;
} ks_collected;

static void collect_ks_table(void *ctx, const srv_ks_table_row *row) {
  ks_collected *c = ctx;
  cr_assert_lt(c->ntables, 4);
  c->tables[c->ntables++] = *row;
}

static void collect_ks_move(void *ctx, const char *move, const int64_t left_ms[2]) {
  ks_collected *c = ctx;
  cr_assert_lt(c->nmoves, 8);
  snprintf(c->moves[c->nmoves], sizeof c->moves[0], "%s", move);
  c->left[c->nmoves][0] = left_ms[0];
  c->left[c->nmoves++][1] = left_ms[1];
}

Test(store, ko_shogi_tables_and_moves_come_back_as_stored) {
  srv_player ann, ben;
  cr_assert_eq(srv_store_player_create(w.store, "Ann", "hash-ann", &ann), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_player_create(w.store, "Ben", "hash-ben", &ben), 0);
  srv_ks_table_row t = {.owner = ann.id, .main_ms = 600000, .byoyomi_ms = 30000, .players = {ann.id, 0},
                        .names = {"Ann", ""}, .bots = {"", "ks-club"}, .draw_offer = -1};
  cr_assert_eq(srv_store_ks_table_save(w.store, &t), 0, "%s", srv_store_error(w.store));
  cr_expect(t.id > (INT64_C(1) << 40) && t.epoch == 1, "a new table numbered %lld in epoch %lld", (long long)t.id,
            (long long)t.epoch);
  t.players[1] = ben.id; /* seated: written over */
  snprintf(t.names[1], sizeof t.names[1], "%s", "Ben");
  t.bots[1][0] = '\0';
  t.draw_offer = 1;
  snprintf(t.invite, sizeof t.invite, "%s", "0123456789abcdef0123456789abcdef");
  cr_assert_eq(srv_store_ks_table_save(w.store, &t), 0, "%s", srv_store_error(w.store));
  srv_ks_table_row other = {.owner = ben.id, .main_ms = 60000, .players = {0, ben.id}, .names = {"", "Ben"},
                            .draw_offer = -1};
  cr_assert_eq(srv_store_ks_table_save(w.store, &other), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(other.id, t.id, "numbered in order");
  cr_assert_eq(srv_store_ks_move_add(w.store, t.id, t.epoch, 0, "CUx19f+", (const int64_t[]){593000, 600000}), 0,
               "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_ks_move_add(w.store, t.id, t.epoch, 1, "P10e", (const int64_t[]){593000, 595000}), 0, "%s",
               srv_store_error(w.store));
  cr_expect_eq(srv_store_ks_move_add(w.store, t.id, t.epoch, 1, "P10e", (const int64_t[]){593000, 595000}), 0,
               "the same move stored again (its answer lost) is no error: %s", srv_store_error(w.store));
  cr_expect_eq(srv_store_ks_move_add(w.store, t.id, t.epoch, 1, "P1e", (const int64_t[]){593000, 595000}),
               SRV_STORE_FENCED, "another move written over a stored one");
  ks_collected c = {0};
  cr_assert_eq(srv_store_ks_tables_open(w.store, collect_ks_table, &c), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(c.ntables, 2);
  const srv_ks_table_row *got = &c.tables[0];
  cr_expect(got->id == t.id && got->owner == ann.id && got->main_ms == 600000 && got->byoyomi_ms == 30000 &&
                got->players[0] == ann.id && got->players[1] == ben.id && got->draw_offer == 1,
            "the first table as stored: %lld %lld %lld %lld %d", (long long)got->id, (long long)got->owner,
            (long long)got->players[0], (long long)got->players[1], got->draw_offer);
  cr_expect_str_eq(got->names[1], "Ben");
  cr_expect_str_eq(got->bots[1], "", "the computer's seat taken by Ben");
  cr_expect_str_eq(got->invite, "0123456789abcdef0123456789abcdef");
  cr_expect_eq(c.tables[1].id, other.id, "in id order");
  cr_assert_eq(srv_store_ks_moves(w.store, t.id, collect_ks_move, &c), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(c.nmoves, 2);
  cr_expect(strcmp(c.moves[0], "CUx19f+") == 0 && strcmp(c.moves[1], "P10e") == 0, "moves: %s %s", c.moves[0],
            c.moves[1]);
  cr_expect(c.left[1][0] == 593000 && c.left[1][1] == 595000, "times: %lld %lld", (long long)c.left[1][0],
            (long long)c.left[1][1]);
  /* the second table let go; the first one's game saved, which closes it with its moves */
  cr_assert_eq(srv_store_ks_table_close(w.store, other.id, other.epoch), 0, "%s", srv_store_error(w.store));
  srv_ks_game_row g = {.players = {ann.id, ben.id}, .names = {"Ann", "Ben"}, .result = "white", .end = "resignation",
                       .moves = 2, .main_ms = 600000, .byoyomi_ms = 30000, .table = t.id, .epoch = t.epoch};
  cr_assert_eq(srv_store_ks_game_save(w.store, &g, "record"), 0, "%s", srv_store_error(w.store));
  c = (ks_collected){0};
  cr_assert_eq(srv_store_ks_tables_open(w.store, collect_ks_table, &c), 0);
  cr_expect_eq(c.ntables, 0, "tables left after their close and their game's save");
  cr_expect_eq(raw("SELECT count(*) FROM ks_rating_history"), 0, "an unrated game's save wrote a history row");
  cr_expect_eq(raw("SELECT count(*) FROM ks_moves"), 0, "the game's save kept its table's moves");
}

Test(store, a_computer_level_has_one_player) {
  srv_player a, b;
  cr_assert_eq(srv_store_bot_player(w.store, "expert", &a), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_bot_player(w.store, "expert", &b), 0);
  cr_expect_eq(a.id, b.id);
  cr_expect_str_eq(a.name, "Computer · expert");
  cr_expect_str_eq(a.bot, "expert");
  cr_expect_eq(raw("SELECT count(*) FROM players WHERE bot = 'expert'"), 1);
}

/* A table of four seats, two of them taken. */
static srv_table_row sample_table(int64_t owner) {
  srv_table_row row;
  memset(&row, 0, sizeof row);
  snprintf(row.rules, sizeof row.rules, "target=150");
  row.seed = 0xfedcba9876543210u; /* above INT64_MAX: kept bit for bit */
  row.turn_seconds = 30;
  row.owner = owner;
  row.seats[0].player = owner;
  snprintf(row.seats[0].token, sizeof row.seats[0].token, "seat-hash-0");
  row.seats[2].player = owner;
  row.seats[2].stand_in = true;
  return row;
}

/* Keeps the one open table tables_open gives (and counts them). */
typedef struct found_tables {
  int count;
  srv_table_row last;
} found_tables;

static void collect_table(void *ctx, const srv_table_row *row) {
  found_tables *f = ctx;
  f->count++;
  f->last = *row;
}

Test(store, tables_and_seats_come_back_as_saved) {
  srv_player p;
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "h", &p), 0);
  srv_table_row row = sample_table(p.id);
  snprintf(row.invite, sizeof row.invite, "0123456789abcdef0123456789abcdef");
  cr_assert_eq(srv_store_table_create(w.store, &row), 0, "%s", srv_store_error(w.store));
  cr_expect_gt(row.id, 0);
  found_tables f = {0};
  cr_assert_eq(srv_store_tables_open(w.store, collect_table, &f), 0);
  cr_assert_eq(f.count, 1);
  cr_expect_eq(f.last.id, row.id);
  cr_expect_str_eq(f.last.rules, "target=150");
  cr_expect_eq(f.last.seed, 0xfedcba9876543210u);
  cr_expect_eq(f.last.turn_seconds, 30);
  cr_expect_eq(f.last.status, SRV_WAITING);
  cr_expect_eq(f.last.owner, p.id);
  cr_expect_str_eq(f.last.invite, row.invite);
  cr_expect_eq(strlen(f.last.created), 20, "%s", f.last.created); /* 2026-01-02T03:04:05Z */
  cr_expect_eq(f.last.seats[0].player, p.id);
  cr_expect_str_eq(f.last.seats[0].token, "seat-hash-0");
  cr_expect(f.last.seats[2].stand_in);
  cr_expect_eq(f.last.seats[1].player, 0);
  row.status = SRV_PLAYING;
  row.seats[1].player = p.id;
  row.seats[2].stand_in = false;
  cr_assert_eq(srv_store_table_update(w.store, &row), 0);
  f.count = 0;
  cr_assert_eq(srv_store_tables_open(w.store, collect_table, &f), 0);
  cr_expect_eq(f.last.status, SRV_PLAYING);
  cr_expect_eq(f.last.seats[1].player, p.id);
  cr_expect(!f.last.seats[2].stand_in);
  cr_assert_eq(srv_store_table_end(w.store, row.id, row.epoch, "expired"), 0);
  f.count = 0;
  cr_assert_eq(srv_store_tables_open(w.store, collect_table, &f), 0);
  cr_expect_eq(f.count, 0);
  cr_expect_eq(raw("SELECT count(*) FROM tables WHERE ended = 'expired'"), 1);
}

Test(store, a_tables_options_come_back_as_saved) {
  /* PostgreSQL as one of several servers, so that it fences the row as it fences moves */
  if (w.postgresql) cr_assert_eq(srv_store_node(w.store, "a", 60000), 0, "%s", srv_store_error(w.store));
  srv_table_row table = sample_table(0);
  table.seats[0].player = table.seats[2].player = 0;
  cr_assert_eq(srv_store_table_create(w.store, &table), 0, "%s", srv_store_error(w.store));
  srv_table_options_row back;
  bool found = true;
  cr_assert_eq(srv_store_table_options_load(w.store, table.id, &back, &found), 0, "%s", srv_store_error(w.store));
  cr_expect(!found, "a table saved without options has a row");
  srv_table_options_row row = {.bank_seconds = 300, .on_timeout = SRV_TIMEOUT_PASS, .take_over = true,
                               .bank_ms = {300000, 123456, 0, 299999}, .left_player = {0, 0, 42, 0}};
  cr_assert_eq(srv_store_table_options_save(w.store, table.id, table.epoch, &row), 0, "%s", srv_store_error(w.store));
  row.bank_ms[1] = 1000; /* written over */
  cr_assert_eq(srv_store_table_options_save(w.store, table.id, table.epoch, &row), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_table_options_load(w.store, table.id, &back, &found), 0, "%s", srv_store_error(w.store));
  cr_assert(found);
  cr_expect_eq(back.bank_seconds, 300);
  cr_expect_eq(back.on_timeout, SRV_TIMEOUT_PASS);
  cr_expect(back.take_over);
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    cr_expect_eq(back.bank_ms[s], row.bank_ms[s], "seat %d's bank", s);
    cr_expect_eq(back.left_player[s], row.left_player[s], "seat %d's leaver", s);
  }
  if (!w.postgresql) return;
  /* an epoch the server does not own the table in is refused */
  cr_expect_eq(srv_store_table_options_save(w.store, table.id, table.epoch + 1, &row), SRV_STORE_FENCED);
}

/* Appends each move to a text, space-separated. */
static void collect_move(void *ctx, const char *text) {
  char *all = ctx;
  if (*all) strcat(all, " ");
  strcat(all, text);
}

Test(store, moves_come_back_in_order) {
  srv_table_row row = sample_table(0);
  row.seats[0].player = row.seats[2].player = 0;
  cr_assert_eq(srv_store_table_create(w.store, &row), 0, "%s", srv_store_error(w.store));
  const char *moves[] = {"d1", "p2", "d3", "x", "p4"};
  for (int i = 0; i < 5; i++) cr_assert_eq(srv_store_move_add(w.store, row.id, row.epoch, i, moves[i]), 0);
  char all[64] = "";
  cr_assert_eq(srv_store_moves(w.store, row.id, collect_move, all), 0);
  cr_expect_str_eq(all, "d1 p2 d3 x p4");
  char none[8] = "";
  cr_assert_eq(srv_store_moves(w.store, row.id + 1, collect_move, none), 0);
  cr_expect_str_eq(none, "");
}

/* A batch of moves, one per table given, each the table's move number seq. */
static void batch_of(srv_move_write *moves, const int64_t *tables, int n, int seq, const char *text) {
  memset(moves, 0, (size_t)n * sizeof *moves);
  for (int i = 0; i < n; i++) {
    moves[i].table = tables[i];
    moves[i].seq = seq;
    snprintf(moves[i].text, sizeof moves[i].text, "%s", text);
  }
}

/* The moves of many tables in one transaction (the store thread's group commit): each gets
 * its own outcome, a fenced one is only not written, any other failure writes none. */
Test(store, the_moves_of_many_tables_are_saved_together) {
  int64_t tables[4];
  for (int i = 0; i < 3; i++) {
    srv_table_row row = sample_table(0);
    row.seats[0].player = row.seats[2].player = 0;
    cr_assert_eq(srv_store_table_create(w.store, &row), 0, "%s", srv_store_error(w.store));
    tables[i] = row.id;
  }
  srv_move_write moves[4];
  batch_of(moves, tables, 3, 0, "d1");
  cr_assert_eq(srv_store_moves_add(w.store, moves, 3), 0, "%s", srv_store_error(w.store));
  for (int i = 0; i < 3; i++) {
    cr_expect_eq(moves[i].status, 0, "%s", moves[i].error);
    char all[32] = "";
    cr_assert_eq(srv_store_moves(w.store, tables[i], collect_move, all), 0);
    cr_expect_str_eq(all, "d1");
  }
  tables[3] = tables[2] + 1000; /* no such table */
  batch_of(moves, tables, 4, 1, "p2");
  if (w.postgresql) { /* not this server's table: fenced, and the others saved */
    cr_assert_eq(srv_store_moves_add(w.store, moves, 4), 0, "%s", srv_store_error(w.store));
    cr_expect_eq(moves[3].status, SRV_STORE_FENCED);
    cr_expect(strstr(moves[3].error, "served by another server"), "%s", moves[3].error);
    for (int i = 0; i < 3; i++) cr_expect_eq(moves[i].status, 0, "%s", moves[i].error);
    cr_expect_eq(raw("SELECT count(*) FROM moves"), 6);
    /* a statement that fails (a check the database was given) writes none of the batch */
    raw("ALTER TABLE moves ADD CONSTRAINT short_moves CHECK (length(move) < 8)");
    batch_of(moves, tables, 3, 2, "d3");
    snprintf(moves[1].text, sizeof moves[1].text, "too long a move");
  } /* with SQLite, the move for no table breaks a foreign key: none of the batch is written */
  const int n = w.postgresql ? 3 : 4;
  const long long stored = raw("SELECT count(*) FROM moves");
  cr_expect_eq(srv_store_moves_add(w.store, moves, n), -1);
  for (int i = 0; i < n; i++) {
    cr_expect_eq(moves[i].status, -1, "move %d", i);
    cr_expect_str_eq(moves[i].error, srv_store_error(w.store));
  }
  cr_expect(srv_store_failing(w.store));
  cr_expect_eq(raw("SELECT count(*) FROM moves"), stored, "a failed batch wrote moves");
}

/* The store thread's connection (srv_store_open_again) writes as the same server: in the epochs
 * it owns its tables in, its name on each move. */
Test(store, a_second_connection_writes_as_the_same_server) {
  if (w.postgresql) cr_assert_eq(srv_store_node(w.store, "a", 60000), 0, "%s", srv_store_error(w.store));
  srv_table_row row = sample_table(0);
  row.seats[0].player = row.seats[2].player = 0;
  cr_assert_eq(srv_store_table_create(w.store, &row), 0, "%s", srv_store_error(w.store));
  srv_store *again = NULL;
  cr_assert_eq(srv_store_open_again(w.store, &again), 0, "%s", again ? srv_store_error(again) : "out of memory");
  srv_move_write move;
  batch_of(&move, &row.id, 1, 0, "d1");
  move.epoch = row.epoch;
  cr_assert_eq(srv_store_moves_add(again, &move, 1), 0, "%s", srv_store_error(again));
  char all[32] = "";
  cr_assert_eq(srv_store_moves(w.store, row.id, collect_move, all), 0);
  cr_expect_str_eq(all, "d1", "the first connection does not see the second's move");
  if (w.postgresql) {
    cr_expect_eq(raw("SELECT count(*) FROM moves WHERE node = 'a' AND epoch = 1"), 1, "written under another name");
    batch_of(&move, &row.id, 1, 1, "p2");
    move.epoch = row.epoch + 1; /* an epoch this server does not hold the table in */
    cr_assert_eq(srv_store_moves_add(again, &move, 1), 0);
    cr_expect_eq(move.status, SRV_STORE_FENCED);
  }
  srv_store_close(again);
}

/* A finished game of two people and a computer level on both sides of a four-seat table. */
static srv_game_row sample_game(int64_t table, const srv_player *a, const srv_player *b, const srv_player *bot) {
  srv_game_row g;
  memset(&g, 0, sizeof g);
  g.table = table;
  g.nplayers = 4;
  const srv_player *seated[] = {a, bot, b, bot};
  for (int i = 0; i < 4; i++) {
    g.players[i] = seated[i]->id;
    snprintf(g.names[i], sizeof g.names[i], "%s", seated[i]->name);
    g.rating_before[i] = seated[i]->rating;
    g.deviation_before[i] = seated[i]->deviation;
    g.ratings[i] = i % 2 == 0 ? 1512.25 : 1500;
    g.deviations[i] = i % 2 == 0 ? 300.5 : 350;
  }
  g.rated[0] = g.rated[2] = true;
  g.score[0] = 150;
  g.score[1] = 40;
  snprintf(g.rules, sizeof g.rules, "target=150");
  return g;
}

Test(store, a_finished_game_rates_its_players_and_closes_its_table) {
  srv_player a, b, bot;
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "ha", &a), 0);
  cr_assert_eq(srv_store_player_create(w.store, "Ken", "hb", &b), 0);
  cr_assert_eq(srv_store_bot_player(w.store, "basic", &bot), 0);
  srv_table_row row = sample_table(a.id);
  cr_assert_eq(srv_store_table_create(w.store, &row), 0);
  srv_game_row g = sample_game(row.id, &a, &b, &bot);
  cr_assert_eq(srv_store_game_finish(w.store, &g, "{\"record\":1}", "line one\nline two"), 0, "%s",
               srv_store_error(w.store));
  cr_expect_gt(g.id, 0);
  found_tables f = {0};
  cr_assert_eq(srv_store_tables_open(w.store, collect_table, &f), 0);
  cr_expect_eq(f.count, 0, "the table is closed with its game");
  srv_player after;
  cr_assert_eq(srv_store_player_get(w.store, a.id, &after), 0);
  cr_expect_eq(after.rating, 1512.25);
  cr_expect_eq(after.deviation, 300.5);
  cr_expect_eq(after.games, 1);
  cr_assert_eq(srv_store_player_get(w.store, bot.id, &after), 0);
  cr_expect_eq(after.games, 0, "a level on both sides is not rated");
  srv_rating_row history[4];
  int count = 0;
  cr_assert_eq(srv_store_rating_history(w.store, b.id, history, 4, &count), 0);
  cr_assert_eq(count, 1);
  cr_expect_eq(history[0].game, g.id);
  cr_expect_eq(history[0].rating_before, 1500);
  cr_expect_eq(history[0].rating_after, 1512.25);
  srv_player board[4];
  cr_assert_eq(srv_store_leaderboard(w.store, board, 4, &count), 0);
  cr_assert_eq(count, 2, "only players who have played");
  cr_expect_eq(board[0].id, a.id, "equal ratings: the older player first");
  char *text = NULL;
  cr_assert_eq(srv_store_game_text(w.store, g.id, NULL, false, &text), 0);
  cr_expect_str_eq(text, "{\"record\":1}");
  free(text);
  cr_assert_eq(srv_store_game_text(w.store, g.id, NULL, true, &text), 0);
  cr_expect_str_eq(text, "line one\nline two");
  free(text);
  cr_assert_eq(srv_store_game_text(w.store, g.id + 1, NULL, true, &text), 0);
  cr_expect_null(text);
}

/* An abandoned game writes the ratings the hub gave its rated seats (those who left lose,
 * hub_rate_game), and nobody else's. */
Test(store, an_abandoned_game_writes_only_the_ratings_it_is_given_and_games_are_paged) {
  srv_player a, b, bot;
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "ha", &a), 0);
  cr_assert_eq(srv_store_player_create(w.store, "Ken", "hb", &b), 0);
  cr_assert_eq(srv_store_bot_player(w.store, "basic", &bot), 0);
  int64_t ids[3];
  for (int i = 0; i < 3; i++) {
    srv_table_row row = sample_table(a.id);
    cr_assert_eq(srv_store_table_create(w.store, &row), 0);
    srv_game_row g = sample_game(row.id, &a, &b, &bot);
    memset(g.rated, 0, sizeof g.rated);
    g.rated[0] = i == 0; /* Ayu left the first */
    cr_assert_eq(srv_store_game_abandon(w.store, &g, "{}", ""), 0, "%s", srv_store_error(w.store));
    ids[i] = g.id;
  }
  srv_player after;
  cr_assert_eq(srv_store_player_get(w.store, a.id, &after), 0);
  cr_expect_eq(after.rating, 1512.25);
  cr_expect_eq(after.games, 1);
  cr_expect_eq(raw("SELECT count(*) FROM rating_history"), 1);
  cr_assert_eq(srv_store_player_get(w.store, b.id, &after), 0);
  cr_expect_eq(after.rating, 1500);
  cr_expect_eq(after.games, 0);
  srv_game_row rows[2];
  int count = 0;
  cr_assert_eq(srv_store_games(w.store, 0, rows, 2, &count), 0);
  cr_assert_eq(count, 2);
  cr_expect_eq(rows[0].id, ids[2], "newest first");
  cr_expect_eq(rows[1].id, ids[1]);
  cr_expect_str_eq(rows[0].ended, "abandoned");
  cr_expect_str_eq(rows[0].rules, "target=150");
  cr_expect_eq(rows[0].nplayers, 4);
  cr_expect_str_eq(rows[0].names[1], "Computer · basic");
  cr_expect_eq(rows[0].score[0], 150);
  cr_assert_eq(srv_store_games(w.store, ids[1], rows, 2, &count), 0);
  cr_assert_eq(count, 1);
  cr_expect_eq(rows[0].id, ids[0]);
  cr_expect_eq(raw("SELECT count(*) FROM tables WHERE ended = 'abandoned'"), 3);
}

Test(store, an_unreachable_database_is_named_in_the_error) {
  srv_store *bad = NULL;
  const char *db = w.postgresql ? "postgresql:///goita?host=/nonexistent-goita-socket" : "/nonexistent-goita/x.db";
  cr_expect_eq(srv_store_open(&bad, db), -1);
  cr_assert_not_null(bad);
  cr_expect_neq(srv_store_error(bad)[0], '\0');
  srv_store_close(bad);
}

/* The tables a lease renewal names as this server's, with their epochs. */
typedef struct owned_tables {
  int count;
  int64_t id, epoch; /* the last one */
} owned_tables;

static void collect_owned(void *ctx, int64_t table, int64_t epoch) {
  owned_tables *o = ctx;
  o->count++;
  o->id = table;
  o->epoch = epoch;
}

Test(store, a_table_is_written_only_in_the_epoch_its_server_owns_it_in) {
  if (!w.postgresql) {
    cr_expect_eq(srv_store_node(w.store, "a", 60000), -1, "a SQLite file serves one server");
    cr_expect(strstr(srv_store_error(w.store), "PostgreSQL") != NULL, "%s", srv_store_error(w.store));
    return;
  }
  cr_assert_eq(srv_store_node(w.store, "a", 60000), 0, "%s", srv_store_error(w.store));
  srv_table_row row = sample_table(0);
  row.seats[0].player = row.seats[2].player = 0;
  cr_assert_eq(srv_store_table_create(w.store, &row), 0, "%s", srv_store_error(w.store));
  cr_expect_eq(row.epoch, 1);
  cr_assert_eq(srv_store_move_add(w.store, row.id, row.epoch, 0, "d1"), 0, "%s", srv_store_error(w.store));
  srv_store *b = NULL;
  cr_assert_eq(srv_store_open(&b, w.db), 0);
  cr_assert_eq(srv_store_node(b, "b", 60000), 0, "%s", srv_store_error(b));
  found_tables f = {0};
  cr_assert_eq(srv_store_tables_open(b, collect_table, &f), 0);
  cr_expect_eq(f.count, 0, "a live server's table is not another's");
  owned_tables o = {0};
  cr_assert_eq(srv_store_lease_renew(b, true, collect_owned, &o), 0);
  cr_expect_eq(o.count, 0);
  cr_expect_eq(srv_store_move_add(b, row.id, row.epoch, 1, "p2"), SRV_STORE_FENCED, "a move at another server's table");
  cr_expect(strstr(srv_store_error(b), "served by another server") != NULL, "%s", srv_store_error(b));
  cr_expect(!srv_store_failing(b), "a fenced write is not a failure of the database");
  srv_table_row seated = row;
  seated.seats[0].player = 1;
  cr_expect_eq(srv_store_table_update(b, &seated), SRV_STORE_FENCED, "a seat changed at another server's table");
  /* any server finds the table and its owner by number, seat token or invite */
  char key[32], node[SRV_NODE_SIZE] = "";
  snprintf(key, sizeof key, "%lld", (long long)row.id);
  int64_t id = 0;
  bool found = false;
  cr_assert_eq(srv_store_table_owner(b, SRV_KEY_ID, key, &id, node, &found), 0, "%s", srv_store_error(b));
  cr_expect(found && id == row.id && strcmp(node, "a") == 0, "table %lld of \"%s\"", (long long)id, node);
  cr_assert_eq(srv_store_table_owner(b, SRV_KEY_SEAT_TOKEN, "seat-hash-0", &id, node, &found), 0);
  cr_expect(found && id == row.id && strcmp(node, "a") == 0);
  cr_assert_eq(srv_store_table_owner(b, SRV_KEY_SEAT_TOKEN, "no-such-hash", &id, node, &found), 0);
  cr_expect(!found);
  /* a's lease runs out (it stopped renewing): a renewal that may not claim leaves it alone */
  raw("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'a'");
  cr_assert_eq(srv_store_lease_renew(b, false, collect_owned, &o), 0, "%s", srv_store_error(b));
  cr_expect_eq(o.count, 0, "claimed during a grace");
  /* one that may claims it in a new epoch, and a may write it no more */
  cr_assert_eq(srv_store_lease_renew(b, true, collect_owned, &o), 0, "%s", srv_store_error(b));
  cr_assert_eq(o.count, 1);
  cr_expect_eq(o.id, row.id);
  cr_expect_eq(o.epoch, 2);
  srv_table_row loaded;
  cr_assert_eq(srv_store_table_load(b, row.id, &loaded, &found), 0, "%s", srv_store_error(b));
  cr_assert(found);
  cr_expect_eq(loaded.epoch, 2);
  cr_expect_str_eq(loaded.seats[0].token, "seat-hash-0");
  cr_expect_eq(srv_store_move_add(b, row.id, 2, 1, "p2"), 0, "%s", srv_store_error(b));
  cr_expect_eq(srv_store_move_add(b, row.id, 2, 1, "p2"), 0, "the same move sent again (its answer lost) is saved once");
  cr_expect_eq(srv_store_move_add(b, row.id, 2, 1, "p4"), SRV_STORE_FENCED, "a stored move was written over");
  cr_expect_eq(srv_store_move_add(w.store, row.id, row.epoch, 2, "d3"), SRV_STORE_FENCED,
               "the server that lost its lease wrote a move");
  cr_expect_eq(srv_store_move_add(w.store, row.id, row.epoch, 1, "p4"), SRV_STORE_FENCED,
               "the server that lost its lease wrote over a move");
  cr_expect_eq(srv_store_table_update(w.store, &row), SRV_STORE_FENCED, "the server that lost its lease changed a seat");
  cr_expect_eq(srv_store_table_end(w.store, row.id, row.epoch, "expired"), SRV_STORE_FENCED,
               "the server that lost its lease closed the table");
  srv_game_row game;
  memset(&game, 0, sizeof game);
  game.table = row.id;
  game.epoch = row.epoch;
  cr_expect_eq(srv_store_game_abandon(w.store, &game, "{}", ""), SRV_STORE_FENCED,
               "the server that lost its lease stored an abandoned game");
  cr_expect_eq(raw("SELECT count(*) FROM games"), 0);
  cr_expect_eq(raw("SELECT count(*) FROM tables WHERE status = 2"), 0);
  cr_assert_eq(srv_store_lease_renew(w.store, true, collect_owned, &(owned_tables){0}), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(srv_store_table_owner(w.store, SRV_KEY_ID, key, &id, node, &found), 0);
  cr_expect(found && strcmp(node, "b") == 0, "owned by \"%s\" after the claim", node);
  o.count = 0;
  cr_assert_eq(srv_store_lease_renew(b, true, collect_owned, &o), 0);
  cr_expect(o.count == 1 && o.epoch == 2, "a table is claimed once");
  char all[32] = "";
  cr_assert_eq(srv_store_moves(b, row.id, collect_move, all), 0);
  cr_expect_str_eq(all, "d1 p2");
  cr_expect_eq(raw("SELECT count(*) FROM moves WHERE node = 'b' AND epoch = 2"), 1, "who wrote the move, in which epoch");
  /* b stops cleanly and starts again under its name: its tables come back to it, in a new epoch */
  cr_assert_eq(srv_store_node_release(b), 0);
  srv_store_close(b);
  cr_assert_eq(srv_store_open(&b, w.db), 0);
  cr_assert_eq(srv_store_node(b, "b", 60000), 0, "%s", srv_store_error(b));
  f.count = 0;
  cr_assert_eq(srv_store_tables_open(b, collect_table, &f), 0);
  cr_expect_eq(f.count, 1);
  cr_expect_eq(f.last.epoch, 3);
  /* b's lease runs out in turn and a, woken from a pause, claims the table back: the table is
   * a's again, but what a holds of epoch 1 is stale, and its writes in that epoch are refused */
  raw("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE name = 'b'");
  o.count = 0;
  cr_assert_eq(srv_store_lease_renew(w.store, true, collect_owned, &o), 0, "%s", srv_store_error(w.store));
  cr_expect(o.count == 1 && o.epoch == 4, "%d tables, epoch %lld", o.count, (long long)o.epoch);
  cr_expect_eq(srv_store_move_add(w.store, row.id, row.epoch, 2, "d3"), SRV_STORE_FENCED,
               "a stale copy of a table regained was written");
  cr_expect_eq(srv_store_move_add(w.store, row.id, row.epoch, 1, "p4"), SRV_STORE_FENCED,
               "a stale copy of a table regained wrote over a move");
  cr_expect_eq(srv_store_move_add(w.store, row.id, 4, 2, "d3"), 0, "%s", srv_store_error(w.store));
  srv_store_close(b);
}

/* Renews a store's lease every 100 ms until told to stop: a live server. */
typedef struct renewer {
  srv_store *store;
  volatile bool stop;
} renewer;

static void *renew_lease(void *arg) {
  renewer *r = arg;
  while (!r->stop) {
    srv_store_lease_renew(r->store, false, collect_owned, &(owned_tables){0});
    nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
  }
  return NULL;
}

Test(store, a_second_server_under_a_live_name_is_refused_and_a_restarted_one_replaces_the_old) {
  if (!w.postgresql) return;
  cr_assert_eq(srv_store_node(w.store, "x", 1000), 0, "%s", srv_store_error(w.store));
  srv_store *twin = NULL;
  cr_assert_eq(srv_store_open(&twin, w.db), 0);
  renewer r = {.store = w.store};
  pthread_t thread;
  cr_assert_eq(pthread_create(&thread, NULL, renew_lease, &r), 0);
  cr_expect_eq(srv_store_node(twin, "x", 1000), -1, "a second server took a live server's name");
  cr_expect(strstr(srv_store_error(twin), "live server") != NULL, "%s", srv_store_error(twin));
  r.stop = true;
  pthread_join(thread, NULL);
  /* the first one stops renewing (killed, or paused): the second waits out its lease and takes
   * the name; the first finds it was replaced at its next renewal */
  cr_assert_eq(srv_store_node(twin, "x", 1000), 0, "%s", srv_store_error(twin));
  cr_expect_eq(srv_store_lease_renew(w.store, true, collect_owned, &(owned_tables){0}), SRV_STORE_SUPERSEDED);
  cr_expect(strstr(srv_store_error(w.store), "replaced") != NULL, "%s", srv_store_error(w.store));
  cr_expect_eq(srv_store_lease_renew(twin, true, collect_owned, &(owned_tables){0}), 0, "%s", srv_store_error(twin));
  srv_store_close(twin);
}

Test(store, a_lease_renewal_after_an_outage_names_every_table_of_the_server) {
  const char *stop = getenv("GOITA_TEST_DB_STOP"), *start = getenv("GOITA_TEST_DB_START");
  if (!w.postgresql || !stop || !start) return; /* PostgreSQL only, started by store_postgresql.sh */
  cr_assert_eq(srv_store_node(w.store, "a", 60000), 0, "%s", srv_store_error(w.store));
  srv_table_row row = sample_table(0);
  row.seats[0].player = row.seats[2].player = 0;
  cr_assert_eq(srv_store_table_create(w.store, &row), 0);
  owned_tables o = {0};
  cr_assert_eq(srv_store_lease_renew(w.store, true, collect_owned, &o), 0);
  cr_expect(o.count == 1 && o.id == row.id && o.epoch == row.epoch, "a server's own table, in its epoch");
  /* the database goes away: the renewal fails, saying why */
  cr_assert_eq(system(stop), 0);
  cr_expect_eq(srv_store_lease_renew(w.store, true, collect_owned, &o), -1);
  cr_expect(srv_store_failing(w.store));
  cr_expect(strstr(srv_store_error(w.store), "unreachable") != NULL, "%s", srv_store_error(w.store));
  cr_assert_eq(system(start), 0);
  o.count = 0;
  cr_assert_eq(srv_store_lease_renew(w.store, true, collect_owned, &o), 0, "%s", srv_store_error(w.store));
  cr_expect(o.count == 1 && o.epoch == row.epoch, "the table is still the server's, in the same epoch");
  cr_expect(!srv_store_failing(w.store));
}

/* Saves a finished sample game and its statistics: seat s made s + 1 choices losing 10 * s points
 * in 3 rounds, its side scoring 50 (seats 1 and 3) or 20 (seats 2 and 4). Returns the game. */
static int64_t game_with_stats(const srv_player *a, const srv_player *b, const srv_player *bot, bool listed) {
  srv_table_row row = sample_table(a->id);
  cr_assert_eq(srv_store_table_create(w.store, &row), 0);
  srv_game_row g = sample_game(row.id, a, b, bot);
  cr_assert_eq(srv_store_game_finish(w.store, &g, "{}", ""), 0, "%s", srv_store_error(w.store));
  srv_game_stats stats = {.game = g.id, .listed = listed, .nplayers = 4};
  for (int s = 0; s < 4; s++) {
    stats.players[s] = g.players[s];
    stats.seats[s] = (srv_seat_stats){.rounds = 3, .points = s % 2 ? 20 : 50, .moves = s + 1, .lost = 10 * s};
  }
  cr_assert_eq(srv_store_game_stats_save(w.store, &stats), 0, "%s", srv_store_error(w.store));
  stats.seats[0].lost = 99; /* saved again: the first rows stay */
  cr_assert_eq(srv_store_game_stats_save(w.store, &stats), 0, "%s", srv_store_error(w.store));
  return g.id;
}

/* A player's career sums its games, lists the newest first and cuts the list, counts a private
 * table's game only when asked with_private, and counts a level in two seats once for rounds and
 * points with the choices of both. */
Test(store, career_statistics_sum_a_players_games_newest_first) {
  srv_player a, b, bot;
  cr_assert_eq(srv_store_player_create(w.store, "Ayu", "ha", &a), 0);
  cr_assert_eq(srv_store_player_create(w.store, "Ken", "hb", &b), 0);
  cr_assert_eq(srv_store_bot_player(w.store, "basic", &bot), 0);
  const int64_t first = game_with_stats(&a, &b, &bot, true);
  const int64_t hidden = game_with_stats(&a, &b, &bot, false);
  const int64_t last = game_with_stats(&a, &b, &bot, true);
  srv_career career;
  srv_stats_row rows[2];
  int count = 0;
  cr_assert_eq(srv_store_player_stats(w.store, a.id, false, &career, rows, 2, &count), 0, "%s", srv_store_error(w.store));
  cr_assert_eq(count, 2);
  cr_expect_eq(rows[0].game, last, "not newest first");
  cr_expect_eq(rows[1].game, first, "the private game is listed");
  cr_expect_eq(career.games, 2);
  cr_expect_eq(career.rounds, 6);
  cr_expect_eq(career.points, 100);
  cr_expect_eq(career.moves, 2);
  cr_expect_eq(career.lost, 0, "a row was written over");
  cr_expect_eq(rows[0].stats.moves, 1);
  cr_expect_neq(rows[0].finished[0], '\0', "no time");
  cr_assert_eq(srv_store_player_stats(w.store, a.id, true, &career, rows, 2, &count), 0);
  cr_expect_eq(rows[1].game, hidden, "the private game is not listed to its player");
  cr_assert_eq(srv_store_player_stats(w.store, a.id, true, &career, rows, 1, &count), 0);
  cr_assert_eq(count, 1, "the list is not cut");
  cr_expect_eq(rows[0].game, last);
  cr_expect_eq(career.games, 3, "the whole career is not summed past the list");
  cr_assert_eq(srv_store_player_stats(w.store, bot.id, false, &career, rows, 2, &count), 0);
  cr_expect_eq(career.games, 2, "the level's two seats are two rows");
  cr_expect_eq(career.rounds, 6);
  cr_expect_eq(career.points, 40);
  cr_expect_eq(career.moves, 2 * (2 + 4));
  cr_expect_eq(career.lost, 2 * (10 + 30));
  cr_assert_eq(srv_store_player_stats(w.store, b.id + bot.id + 100, true, &career, rows, 2, &count), 0);
  cr_expect_eq(count, 0);
  cr_expect_eq(career.games, 0);
}

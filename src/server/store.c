/* The storage interface's front: srv_store_open picks the database by the form of its name (a
 * postgresql:// URI or a file path), and every other function goes to that store's own, its
 * outcome counted on the way back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "store_impl.h"

/* Whether a --db value names a PostgreSQL database rather than a SQLite file. */
bool srv_store_is_postgresql(const char *db) {
  return strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0;
}

int srv_store_open(srv_store **store, const char *db) {
  return srv_store_is_postgresql(db) ? srv_store_open_postgresql(store, db) : srv_store_open_sqlite(store, db);
}

void srv_store_close(srv_store *s) {
  if (s) s->ops->close(s);
}

const char *srv_store_error(const srv_store *s) { return s->error; }

long long srv_store_failures(const srv_store *s) { return s->failures; }

bool srv_store_failing(const srv_store *s) { return s->failing; }

void srv_store_fail_all(srv_store *s, bool down) { s->down = down; }

void srv_store_fail_call(srv_store *s, long n) {
  s->fail_countdown = n > 0 ? n : 0;
  s->fault_fired = false;
}

bool srv_store_fault_fired(const srv_store *s) { return s->fault_fired; }

/* Whether fault injection fails this call: the database away, or the one call the countdown of
 * srv_store_fail_call reaches. Then the call fails with the error text saying so, and does not
 * reach the database. */
static bool down(srv_store *s) {
  if (s->fail_countdown > 0 && --s->fail_countdown == 0) {
    s->fault_fired = true;
    snprintf(s->error, sizeof s->error, "the database failed (a fault injected by a test)");
    return true;
  }
  if (s->down) snprintf(s->error, sizeof s->error, "the database is unreachable (a fault injected by the simulation)");
  return s->down;
}

/* Notes a call's outcome and passes it on: a write refused by fencing is the database
 * working as it should, not a failure of it. */
static int counted(srv_store *s, int status) {
  s->failing = status == -1;
  if (status == -1) s->failures++;
  return status;
}

/* The rest of store.h (documented there): each goes to the store's own, its outcome counted. */
int srv_store_limit_bytes(srv_store *s, long long bytes) { return counted(s, down(s) ? -1 : s->ops->limit_bytes(s, bytes)); }

int srv_store_node(srv_store *s, const char *name, int lease_ms) { return counted(s, down(s) ? -1 : s->ops->node(s, name, lease_ms)); }

int srv_store_table_owner(srv_store *s, int kind, const char *key, int64_t *table, char node[SRV_NODE_SIZE],
                          bool *found) {
  *found = false;
  return counted(s, down(s) ? -1 : s->ops->table_owner(s, kind, key, table, node, found));
}

int srv_store_node_release(srv_store *s) { return counted(s, down(s) ? -1 : s->ops->node_release(s)); }

int srv_store_lease_renew(srv_store *s, bool claim, void (*fn)(void *ctx, int64_t table, int64_t epoch), void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->lease_renew(s, claim, fn, ctx));
}

int srv_store_table_load(srv_store *s, int64_t table, srv_table_row *row, bool *found) {
  *found = false;
  return counted(s, down(s) ? -1 : s->ops->table_load(s, table, row, found));
}

int srv_store_player_by_token(srv_store *s, const char *token_hash, srv_player *out, bool *found) {
  return counted(s, down(s) ? -1 : s->ops->player_by_token(s, token_hash, out, found));
}

int srv_store_player_create(srv_store *s, const char *name, const char *token_hash, srv_player *out) {
  return counted(s, down(s) ? -1 : s->ops->player_create(s, name, token_hash, out));
}

int srv_store_player_rename(srv_store *s, int64_t id, const char *name) { return counted(s, down(s) ? -1 : s->ops->player_rename(s, id, name)); }

int srv_store_bot_player(srv_store *s, const char *level, srv_player *out) { return counted(s, down(s) ? -1 : s->ops->bot_player(s, level, out)); }

int srv_store_player_get(srv_store *s, int64_t id, srv_player *out) { return counted(s, down(s) ? -1 : s->ops->player_get(s, id, out)); }

int srv_store_player_token_add(srv_store *s, int64_t id, const char *token_hash) {
  return counted(s, down(s) ? -1 : s->ops->player_token_add(s, id, token_hash));
}

int srv_store_account(srv_store *s, const char *account, srv_player *out, char password_hash[SRV_PASSWORD_HASH_SIZE],
                      bool *found) {
  return counted(s, down(s) ? -1 : s->ops->account(s, account, out, password_hash, found));
}

int srv_store_player_register(srv_store *s, int64_t id, const char *name, const char *account,
                              const char *password_hash) {
  return counted(s, down(s) ? -1 : s->ops->player_register(s, id, name, account, password_hash));
}

int srv_store_accounts(srv_store *s,
                       void (*fn)(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash),
                       void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->accounts(s, fn, ctx));
}

int srv_store_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  return counted(s, down(s) ? -1 : s->ops->leaderboard(s, rows, max, count));
}

int srv_store_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  return counted(s, down(s) ? -1 : s->ops->rating_history(s, player, rows, max, count));
}

int srv_store_table_create(srv_store *s, srv_table_row *row) { return counted(s, down(s) ? -1 : s->ops->table_create(s, row)); }

int srv_store_table_update(srv_store *s, const srv_table_row *row) { return counted(s, down(s) ? -1 : s->ops->table_update(s, row)); }

int srv_store_table_end(srv_store *s, int64_t table, int64_t epoch, const char *reason) {
  return counted(s, down(s) ? -1 : s->ops->table_end(s, table, epoch, reason));
}

int srv_store_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_table_row *row), void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->tables_open(s, fn, ctx));
}

int srv_store_move_add(srv_store *s, int64_t table, int64_t epoch, int seq, const char *text) {
  return counted(s, down(s) ? -1 : s->ops->move_add(s, table, epoch, seq, text));
}

/* Gives every move the outcome of a batch that failed as a whole. */
static int batch_failed(srv_store *s, srv_move_write *moves, int n) {
  for (int i = 0; i < n; i++) {
    moves[i].status = -1;
    snprintf(moves[i].error, sizeof moves[i].error, "%s", s->error);
  }
  return -1;
}

int srv_store_moves_add(srv_store *s, srv_move_write *moves, int n) {
  for (int i = 0; i < n; i++) moves[i].status = 0, moves[i].error[0] = '\0';
  if (n == 0) return 0;
  if (down(s)) return counted(s, batch_failed(s, moves, n));
  if (s->ops->moves_add) return counted(s, s->ops->moves_add(s, moves, n) == -1 ? batch_failed(s, moves, n) : 0);
  int status = 0;
  for (int i = 0; i < n; i++) {
    moves[i].status = s->ops->move_add(s, moves[i].table, moves[i].epoch, moves[i].seq, moves[i].text);
    if (moves[i].status != 0) snprintf(moves[i].error, sizeof moves[i].error, "%s", s->error);
    if (moves[i].status == -1) status = -1;
  }
  return counted(s, status);
}

int srv_store_open_again(const srv_store *s, srv_store **again) {
  *again = NULL;
  if (s->ops->open_again) return s->ops->open_again(s, again);
  snprintf(((srv_store *)s)->error, sizeof s->error, "a second connection is not available with this store");
  return -1;
}

int srv_store_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *text), void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->moves(s, table, fn, ctx));
}

int srv_store_table_options_save(srv_store *s, int64_t table, int64_t epoch, const srv_table_options_row *row) {
  return counted(s, down(s) ? -1 : s->ops->table_options_save(s, table, epoch, row));
}

int srv_store_table_options_load(srv_store *s, int64_t table, srv_table_options_row *row, bool *found) {
  *found = false;
  return counted(s, down(s) ? -1 : s->ops->table_options_load(s, table, row, found));
}

int srv_store_game_finish(srv_store *s, srv_game_row *game, const char *record_json, const char *histories) {
  return counted(s, down(s) ? -1 : s->ops->save_game(s, game, record_json, histories, false));
}

int srv_store_game_abandon(srv_store *s, srv_game_row *game, const char *record_json, const char *histories) {
  return counted(s, down(s) ? -1 : s->ops->save_game(s, game, record_json, histories, true));
}

int srv_store_games(srv_store *s, int64_t before, srv_game_row *rows, int max, int *count) {
  return counted(s, down(s) ? -1 : s->ops->games(s, before, rows, max, count));
}

int srv_store_game_text(srv_store *s, int64_t game, const char *key, bool histories, char **text) {
  return counted(s, down(s) ? -1 : s->ops->game_text(s, game, key, histories, text));
}

void srv_seat_numbers_format(const int64_t v[GOITA_MAX_SEATS], char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < GOITA_MAX_SEATS && len < size; i++) {
    const int n = snprintf(out + len, size - len, "%s%lld", i ? " " : "", (long long)v[i]);
    if (n < 0) break;
    len += (size_t)n;
  }
}

void srv_seat_numbers_parse(const char *text, int64_t v[GOITA_MAX_SEATS]) {
  for (int i = 0; i < GOITA_MAX_SEATS; i++) {
    char *end;
    const long long n = text ? strtoll(text, &end, 10) : 0;
    v[i] = text && end != text && n > 0 ? n : 0;
    text = text && end != text ? end : NULL;
  }
}

int srv_store_bot_account_create(srv_store *s, int64_t owner, const char *name, const char *account,
                                 const char *token_hash, srv_player *out) {
  return counted(s, down(s) ? -1 : s->ops->bot_account_create(s, owner, name, account, token_hash, out));
}

int srv_store_bot_accounts(srv_store *s, int64_t owner, srv_player *rows, int max, int *count) {
  *count = 0;
  return counted(s, down(s) ? -1 : s->ops->bot_accounts(s, owner, rows, max, count));
}

int srv_store_bot_account_token(srv_store *s, int64_t owner, int64_t bot, const char *token_hash, bool *found) {
  *found = false;
  return counted(s, down(s) ? -1 : s->ops->bot_account_token(s, owner, bot, token_hash, found));
}

int srv_store_bot_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  *count = 0;
  return counted(s, down(s) ? -1 : s->ops->bot_leaderboard(s, rows, max, count));
}

int srv_store_match_save(srv_store *s, int64_t *id, const char *summary) {
  return counted(s, down(s) ? -1 : s->ops->match_save(s, id, summary));
}

int srv_store_match_text(srv_store *s, int64_t id, char **summary) {
  *summary = NULL;
  return counted(s, down(s) ? -1 : s->ops->match_text(s, id, summary));
}

/* A store without Ko shogi's functions (none yet: both have them) refuses as a failed call. */
static int no_ks(srv_store *s) {
  snprintf(s->error, sizeof s->error, "this store keeps no Ko shogi games");
  return -1;
}

int srv_store_ks_game_save(srv_store *s, srv_ks_game_row *game, const char *record) {
  return counted(s, down(s) ? -1 : s->ops->ks_game_save ? s->ops->ks_game_save(s, game, record) : no_ks(s));
}

int srv_store_ks_rating(srv_store *s, int64_t player, double *rating, double *deviation, int *games) {
  *rating = SRV_RATING_START;
  *deviation = SRV_DEVIATION_START;
  *games = 0;
  return counted(s, down(s) ? -1 : s->ops->ks_rating ? s->ops->ks_rating(s, player, rating, deviation, games) : no_ks(s));
}

int srv_store_ks_rating_history(srv_store *s, int64_t player, srv_rating_row *rows, int max, int *count) {
  *count = 0;
  return counted(s, down(s)                     ? -1
                    : s->ops->ks_rating_history ? s->ops->ks_rating_history(s, player, rows, max, count)
                                                : no_ks(s));
}

int srv_store_ks_game_text(srv_store *s, int64_t game, const char *key, char **record) {
  *record = NULL;
  return counted(s, down(s) ? -1 : s->ops->ks_game_text ? s->ops->ks_game_text(s, game, key, record) : no_ks(s));
}

int srv_store_ks_leaderboard(srv_store *s, srv_player *rows, int max, int *count) {
  *count = 0;
  return counted(s, down(s) ? -1 : s->ops->ks_leaderboard ? s->ops->ks_leaderboard(s, rows, max, count) : no_ks(s));
}

int srv_store_ks_table_save(srv_store *s, srv_ks_table_row *row) {
  return counted(s, down(s) ? -1 : s->ops->ks_table_save ? s->ops->ks_table_save(s, row) : no_ks(s));
}

int srv_store_ks_table_close(srv_store *s, int64_t table, int64_t epoch) {
  return counted(s, down(s) ? -1 : s->ops->ks_table_close ? s->ops->ks_table_close(s, table, epoch) : no_ks(s));
}

int srv_store_ks_move_add(srv_store *s, int64_t table, int64_t epoch, int ply, const char *move,
                          const int64_t left_ms[2]) {
  return counted(s, down(s)                 ? -1
                    : s->ops->ks_move_add ? s->ops->ks_move_add(s, table, epoch, ply, move, left_ms)
                                          : no_ks(s));
}

int srv_store_ks_table_load(srv_store *s, int64_t table, srv_ks_table_row *row, bool *found) {
  *found = false;
  return counted(s, down(s) ? -1 : s->ops->ks_table_load ? s->ops->ks_table_load(s, table, row, found) : no_ks(s));
}

int srv_store_ks_tables_open(srv_store *s, void (*fn)(void *ctx, const srv_ks_table_row *row), void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->ks_tables_open ? s->ops->ks_tables_open(s, fn, ctx) : no_ks(s));
}

int srv_store_ks_moves(srv_store *s, int64_t table, void (*fn)(void *ctx, const char *move, const int64_t left_ms[2]),
                       void *ctx) {
  return counted(s, down(s) ? -1 : s->ops->ks_moves ? s->ops->ks_moves(s, table, fn, ctx) : no_ks(s));
}

int srv_store_game_stats_save(srv_store *s, const srv_game_stats *stats) {
  srv_game_stats merged = *stats; /* one seat per player, in the order of their first seats */
  merged.nplayers = 0;
  for (int seat = 0; seat < stats->nplayers; seat++) {
    int at = 0;
    while (at < merged.nplayers && merged.players[at] != stats->players[seat]) at++;
    if (at == merged.nplayers) {
      merged.players[at] = stats->players[seat];
      merged.seats[at] = stats->seats[seat];
      merged.nplayers++;
    } else {
      merged.seats[at].moves += stats->seats[seat].moves;
      merged.seats[at].lost += stats->seats[seat].lost;
    }
  }
  return counted(s, down(s) ? -1 : s->ops->game_stats_save(s, &merged));
}

int srv_store_player_stats(srv_store *s, int64_t player, bool with_private, srv_career *career, srv_stats_row *rows,
                           int max, int *count) {
  memset(career, 0, sizeof *career);
  *count = 0;
  return counted(s, down(s) ? -1 : s->ops->player_stats(s, player, with_private, career, rows, max, count));
}

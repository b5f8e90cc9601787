/* A table's game: saving and applying moves, computer players' turns and turn timers, rounds
 * and the next deal, the finished game with its record and ratings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_chat.h"
#include "hub_clock.h"
#include "hub_limits.h"
#include "hub_lobby.h"
#include "hub_map.h"
#include "hub_own.h"
#include "hub_players.h"
#include "hub_send.h"
#include "hub_stats.h"
#include "hub_table.h"
#include "hub_view.h"
#include "ratings.h"

void hub_table_row(const hub_table *t, srv_table_row *row) {
  memset(row, 0, sizeof *row);
  row->id = t->id;
  snprintf(row->rules, sizeof row->rules, "%s", t->rules_text);
  row->seed = t->seed;
  row->turn_seconds = t->turn_seconds;
  row->status = t->status;
  row->owner = t->owner;
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    row->seats[s].player = t->seats[s].player;
    row->seats[s].stand_in = t->seats[s].stand_in;
    memcpy(row->seats[s].token, t->seats[s].token, SRV_TOKEN_HASH_SIZE);
  }
  memcpy(row->invite, t->invite, SRV_TOKEN_SIZE);
  row->epoch = t->epoch;
}

int hub_table_save(srv_hub *h, hub_table *t) {
  srv_table_row row;
  hub_table_row(t, &row);
  return hub_owned(h, t, srv_store_table_update(h->store, &row)) ? -1 : 0;
}

void hub_table_free(hub_table *t) {
  goita_record_free(&t->record);
  hub_chat_free(t);
  free(t->watchers);
  free(t);
}

int hub_table_add(srv_hub *h, hub_table *t) {
  if (h->ntables == h->captables) {
    const int cap = h->captables ? 2 * h->captables : 16;
    hub_table **grown = realloc(h->tables, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    h->tables = grown;
    h->captables = cap;
  }
  if (hub_map_put(&h->table_index, (uint64_t)t->id, (uint64_t)(uintptr_t)t) != 0) return -1;
  /* New tables have the highest id, so this is an append; the loop only guards the order. */
  int at = h->ntables;
  while (at > 0 && h->tables[at - 1]->id > t->id) at--;
  memmove(&h->tables[at + 1], &h->tables[at], (size_t)(h->ntables - at) * sizeof *h->tables);
  h->tables[at] = t;
  h->ntables++;
  hub_index_seats(h, t);
  if (t->invite[0]) hub_map_put(&h->invite_index, hub_token_key(t->invite), (uint64_t)t->id);
  if (t->status != SRV_OVER) hub_count_open(h, t, 1);
  return 0;
}

void hub_table_remove(srv_hub *h, int i) {
  hub_table *t = h->tables[i];
  if (t->status != SRV_OVER) hub_count_open(h, t, -1);
  if (t->announced) { /* listeners are told at the next tick; no memory: they learn it from their next list */
    if (h->nlobby_removed == h->caplobby_removed) {
      const int cap = h->caplobby_removed ? 2 * h->caplobby_removed : 16;
      int64_t *grown = realloc(h->lobby_removed, (size_t)cap * sizeof *grown);
      if (grown) {
        h->lobby_removed = grown;
        h->caplobby_removed = cap;
      }
    }
    if (h->nlobby_removed < h->caplobby_removed) h->lobby_removed[h->nlobby_removed++] = t->id;
  }
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    hub_client *c = t->seats[s].client ? hub_client_get(h, t->seats[s].client) : NULL;
    if (c && c->table == t->id) c->table = 0, c->seat = -1;
  }
  for (int w = 0; w < t->nwatchers; w++) {
    hub_client *c = hub_client_get(h, t->watchers[w]);
    if (c && c->table == t->id) c->table = 0;
  }
  hub_unindex_seats(h, t);
  uint64_t invited;
  if (t->invite[0] && hub_map_get(&h->invite_index, hub_token_key(t->invite), &invited) && invited == (uint64_t)t->id)
    hub_map_del(&h->invite_index, hub_token_key(t->invite));
  hub_map_del(&h->table_index, (uint64_t)t->id);
  memmove(&h->tables[i], &h->tables[i + 1], (size_t)(h->ntables - i - 1) * sizeof *h->tables);
  h->ntables--;
  hub_table_free(t);
}

uint64_t hub_token_key(const char *token) {
  uint64_t key = 0;
  for (int i = 0; i < 16 && token[i]; i++) key = key << 4 | (uint64_t)(token[i] <= '9' ? token[i] - '0' : token[i] - 'a' + 10);
  return key;
}

void hub_index_seats(srv_hub *h, const hub_table *t) {
  for (int s = 0; s < GOITA_MAX_SEATS; s++)
    if (t->seats[s].token[0]) hub_map_put(&h->seat_index, hub_token_key(t->seats[s].token), (uint64_t)t->id);
}

void hub_unindex_seats(srv_hub *h, const hub_table *t) {
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    uint64_t table;
    const uint64_t key = hub_token_key(t->seats[s].token);
    if (t->seats[s].token[0] && hub_map_get(&h->seat_index, key, &table) && table == (uint64_t)t->id)
      hub_map_del(&h->seat_index, key);
  }
}

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
void hub_schedule(srv_hub *h, hub_table *t, bool timed_out) {
  if (t->status != SRV_PLAYING || round_over(t) || t->thinking_version == t->version || t->saving) return;
  const int seat = t->game.round.turn;
  const hub_seat *s = &t->seats[seat];
  if (!s->bot[0] && !s->stand_in && !timed_out) return;
  srv_think_job job;
  memset(&job, 0, sizeof job);
  job.table = t->id;
  job.version = t->version;
  snprintf(job.level, sizeof job.level, "%s", s->bot[0] ? s->bot : h->options.stand_in);
  job.seed = goita_seed_mix(t->seed ^ (uint64_t)t->version);
  goita_game_view(&t->game, seat, &job.view);
  t->thinking_version = t->version;
  t->think_asked_ms = h->io.now_ms(h->io.ctx);
  h->io.think(h->io.ctx, &job);
}

/* Whether the seat to move is a person's with no stand-in: the one kind of turn that is timed. */
static bool person_to_move(const hub_table *t) {
  const hub_seat *s = &t->seats[t->game.round.turn];
  return !s->bot[0] && !s->stand_in;
}

/* Starts the turn timer when a person is to move: the seat's bank and the byoyomi. */
void hub_arm_timer(srv_hub *h, hub_table *t) {
  t->deadline_ms = 0;
  if (t->status != SRV_PLAYING || round_over(t) || !person_to_move(t)) return;
  const int64_t allowance = hub_clock_allowance_ms(t);
  if (allowance < 0) return;
  t->clock.turn_started_ms = h->io.now_ms(h->io.ctx);
  t->deadline_ms = t->clock.turn_started_ms + allowance;
}

void hub_turn_timed_out(srv_hub *h, hub_table *t) {
  t->deadline_ms = 0;
  goita_move pass;
  hub_failure why;
  if (person_to_move(t) && hub_clock_ran_out(h, t, &pass) && hub_table_move(h, t, pass, &why, 0) == 0) return;
  hub_schedule(h, t, true);
}

/* The place of each side at the end (0 first): the winner first, then the others by their
 * scores, equal scores sharing a place. */
static int side_rank(const hub_table *t, int side) {
  const int winner = t->game.winner_side, sides = goita_rules_sides(&t->rules);
  if (side == winner) return 0;
  int rank = 1;
  for (int other = 0; other < sides; other++)
    if (other != winner && other != side && t->game.score[other] > t->game.score[side]) rank++;
  return rank;
}

/* Whether a seat's person has left the game: gone past the seat grace, with a computer standing
 * in, and not back by the game's end; or gone for good, their seat taken over by a spectator. */
static bool left_game(const hub_seat *s) { return s->left_player || (s->player && !s->bot[0] && s->stand_in); }

/* The player a seat's game is rated for: the one who left it when a spectator took it over
 * (they lose as leavers; the one who took it over is not rated), else its holder. */
static int64_t rated_player(const hub_seat *s) { return s->left_player ? s->left_player : s->player; }

void hub_game_players(const hub_table *t, srv_game_row *game) {
  game->nplayers = players_of(t);
  for (int s = 0; s < players_of(t); s++) {
    game->players[s] = rated_player(&t->seats[s]);
    const char *name = t->seats[s].left_player ? t->record.name[s] : t->seats[s].name; /* the name it started with */
    snprintf(game->names[s], sizeof game->names[s], "%.*s", SRV_NAME_SIZE - 1, name);
  }
}

/* Rates the game (ratings.c) into the game's row: each seat's player as stored now (another
 * table may have moved a computer level's rating since it sat down), written once per player.
 * Leaving counts as a loss (docs/SERVER.md "Ratings"): everyone else is rated from the game's
 * order (the score when it ended), and each person who left is rated as if their side had
 * finished below every other, so leaving when behind never saves a rating. */
void hub_rate_game(srv_hub *h, const hub_table *t, srv_game_row *game) {
  srv_rating_seat seats[GOITA_MAX_SEATS], last[GOITA_MAX_SEATS];
  srv_rating_result results[GOITA_MAX_SEATS], lost[GOITA_MAX_SEATS];
  for (int s = 0; s < players_of(t); s++) {
    srv_player p;
    const bool stored = srv_store_player_get(h->store, rated_player(&t->seats[s]), &p) == 0;
    const int side = goita_rules_side_of(&t->rules, s);
    seats[s] = (srv_rating_seat){.entity = rated_player(&t->seats[s]), .side = side, .rank = side_rank(t, side),
                                 .rating = stored ? p.rating : t->seats[s].rating,
                                 .deviation = stored ? p.deviation : t->seats[s].deviation};
  }
  srv_ratings_update(seats, players_of(t), results);
  for (int side = 0; side < goita_rules_sides(&t->rules); side++) {
    bool left = false;
    for (int s = 0; s < players_of(t); s++) left |= seats[s].side == side && left_game(&t->seats[s]);
    if (!left) continue;
    for (int s = 0; s < players_of(t); s++) {
      last[s] = seats[s];
      if (seats[s].side == side) last[s].rank = GOITA_MAX_SEATS; /* below every other side */
    }
    srv_ratings_update(last, players_of(t), lost);
    for (int s = 0; s < players_of(t); s++)
      if (seats[s].side == side && left_game(&t->seats[s])) results[s] = lost[s];
  }
  for (int s = 0; s < players_of(t); s++) {
    bool first = true;
    for (int before = 0; before < s; before++) first &= seats[before].entity != seats[s].entity;
    game->rated[s] = results[s].rated && first;
    game->rating_before[s] = seats[s].rating;
    game->deviation_before[s] = seats[s].deviation;
    game->ratings[s] = results[s].rating;
    game->deviations[s] = results[s].deviation;
  }
}

/* Tells every connection of a player who took part in the game its new rating. */
void hub_announce_ratings(srv_hub *h, const srv_game_row *game) {
  for (int i = 0; i < h->nclients; i++)
    for (int s = 0; s < game->nplayers; s++)
      if (game->rated[s] && h->clients[i].player == game->players[s]) hub_send_player(h, h->clients[i].id, game->players[s]);
}

int hub_record_texts(const hub_table *t, char **json, char **histories) {
  *json = *histories = NULL;
  if (goita_record_write_json(&t->record, json, NULL) != GOITA_OK) return -1;
  size_t cap = 1, len = 0;
  for (int i = 0; i < t->record.nrounds; i++) cap += 1024;
  *histories = malloc(cap);
  if (!*histories) {
    free(*json);
    *json = NULL;
    return -1;
  }
  char *text = *histories;
  text[0] = '\0';
  for (int i = 0; i < t->record.nrounds; i++) {
    const int n = goita_history_format(&t->record.rounds[i].round, text + len, cap - len - 1);
    if (n < 0) break;
    len += (size_t)n;
    text[len++] = '\n';
    text[len] = '\0';
  }
  return 0;
}

/* Adds the round just finished to the record when its adding ran out of memory at the round's
 * end (found by tests/test_faults.c); returns 0, or -1 when memory is still short. */
static int record_catch_up(hub_table *t) {
  if (t->record.nrounds == t->game.round_index) return 0; /* round_index counts the rounds dealt */
  return goita_record_add_round(&t->record, &t->game, NULL, NULL, NULL) == GOITA_OK ? 0 : -1;
}

/* The game is over: the record, its history strings and the new ratings are sent to be saved
 * together (io.save_game, or the store at once); hub_table_game_saved ends the table once they
 * are, or tells the players it is not saved yet and has the hub try again. */
void hub_finish_game(srv_hub *h, hub_table *t) {
  char now[GOITA_RECORD_TIME_SIZE];
  hub_utc_now(now);
  snprintf(t->record.finished, sizeof t->record.finished, "%s", now);
  t->save_retry_ms = 0;
  srv_game_write g;
  memset(&g, 0, sizeof g);
  if (record_catch_up(t) != 0 || hub_record_texts(t, &g.record_json, &g.histories) != 0) {
    hub_table_game_saved(h, t, -1, "out of memory", &g.game, false);
    return;
  }
  g.game.table = t->id;
  g.game.epoch = t->epoch;
  hub_game_players(t, &g.game);
  hub_rate_game(h, t, &g.game);
  g.game.score[0] = t->game.score[0];
  g.game.score[1] = goita_rules_sides(&t->rules) > 1 ? t->game.score[1] : 0;
  if (h->io.save_game) {
    t->saving = true; /* nothing happens at the table until the game is saved */
    if (h->io.save_game(h->io.ctx, &g) == 0) return;
    t->saving = false;
    hub_table_game_saved(h, t, -1, "out of memory", &g.game, false);
    return;
  }
  const int status = srv_store_game_finish(h->store, &g.game, g.record_json, g.histories);
  free(g.record_json);
  free(g.histories);
  hub_table_game_saved(h, t, status, status != 0 ? srv_store_error(h->store) : "", &g.game, false);
}

void hub_table_game_saved(srv_hub *h, hub_table *t, int status, const char *error, const srv_game_row *game,
                          bool announce) {
  t->saving = false;
  if (status == SRV_STORE_FENCED) hub_table_lost(h, t, error);
  if (status == 0) {
    t->status = SRV_OVER;
    t->game_id = game->id;
    for (int s = 0; s < players_of(t); s++) {
      if (t->seats[s].left_player) continue; /* the rating of the one who left */
      t->seats[s].rating = game->ratings[s];
      t->seats[s].deviation = game->deviations[s];
    }
    hub_count_open(h, t, -1);
    hub_lobby_touch(h, t);
    hub_announce_ratings(h, game);
    hub_stats_analyse(h, t, game);
    if (announce) hub_broadcast_state(h, t);
  }
  if (t->status == SRV_OVER || t->lost) return;
  /* Not saved (a full disk, no memory for the record): the players are told, and the hub tries
   * again every few seconds; every move is already saved, so a restart would finish the game too. */
  t->save_retry_ms = h->io.now_ms(h->io.ctx) + 5000;
  char text[512];
  snprintf(text, sizeof text, "the finished game was not saved yet (trying again): %s", error);
  char *msg = srv_message_error(NULL, SRV_ERR_GAME_NOT_SAVED, 0, text);
  for (int s = 0; s < players_of(t) && msg; s++)
    if (t->seats[s].client) hub_send_raw(h, t->seats[s].client, msg, strlen(msg));
  for (int i = 0; i < t->nwatchers && msg; i++) hub_send_raw(h, t->watchers[i], msg, strlen(msg));
  free(msg);
}

/* Deals the next round; one that ends at the deal (teyaku, 5 pawns twice) is finished at once. */
void hub_deal_next(srv_hub *h, hub_table *t, bool live) {
  t->next_round_ms = 0;
  if (!round_over(t) || t->game.over) return;
  if (record_catch_up(t) != 0) { /* the record first: the deal waits for memory */
    t->next_round_ms = h->io.now_ms(h->io.ctx) + 1000;
    return;
  }
  if (goita_game_next_round(&t->game, NULL) != GOITA_OK) return;
  if (live) hub_utc_now(t->round_started);
  if (round_over(t)) hub_round_finished(h, t, live);
}

/* A round is over: it goes into the record; a finished game is saved; otherwise the next round
 * is dealt after the pause (at once when there is none). While restoring (not live) the moves
 * that follow deal it. */
void hub_round_finished(srv_hub *h, hub_table *t, bool live) {
  char now[GOITA_RECORD_TIME_SIZE];
  hub_utc_now(now);
  goita_record_add_round(&t->record, &t->game, live ? t->round_started : NULL, live ? now : NULL, NULL);
  goita_history_format(&t->game.round, t->previous_round, sizeof t->previous_round);
  if (t->game.over) {
    if (live) hub_finish_game(h, t);
  } else if (live) {
    t->next_round_ms = h->io.now_ms(h->io.ctx) + h->options.round_pause_ms;
    if (h->options.round_pause_ms <= 0) hub_deal_next(h, t, true);
  }
}

/* Plays a move at a table (hub_table.h): checked on a copy and sent to be saved; applied and
 * announced by hub_table_move_saved once it is. */
int hub_table_move(srv_hub *h, hub_table *t, goita_move move, hub_failure *why, uint64_t client) {
  if (t->saving) return hub_fail(why, SRV_ERR_MOVE_PENDING, 0, "the table's last move is still being saved");
  if (t->status != SRV_PLAYING) {
    return hub_fail(why, SRV_ERR_NOT_PLAYING, 0, "the game is not being played");
  }
  if (round_over(t)) {
    return hub_fail(why, SRV_ERR_NOT_PLAYING, 0, "the round is over; the next one is about to be dealt");
  }
  goita_game next = t->game;
  goita_error gerr;
  if (goita_game_apply(&next, move, &gerr) != GOITA_OK) {
    return hub_fail(why, SRV_ERR_ILLEGAL_MOVE, 0, "%s", gerr.message);
  }
  srv_move_write w = {.table = t->id, .epoch = t->epoch, .seq = t->version};
  goita_move_format(move, w.text, sizeof w.text);
  t->saving = true;
  t->saving_move = move;
  t->saving_client = client;
  /* the mover's clock stops when the move arrives, not when it is saved; it is charged once the
   * move is saved (a computer's failed move is retried by a deadline too: only a person's turn) */
  t->saving_timed = t->deadline_ms && person_to_move(t);
  t->saving_arrived_ms = h->io.now_ms(h->io.ctx);
  if (h->io.save_move) {
    if (h->io.save_move(h->io.ctx, &w) == 0) return 0;
    t->saving = false;
    return hub_fail(why, SRV_ERR_SERVER_BUSY, 1000, "the move was not saved, so it was not played: out of memory");
  }
  w.status = srv_store_move_add(h->store, w.table, w.epoch, w.seq, w.text);
  hub_table_move_saved(h, t, w.status, w.status != 0 ? srv_store_error(h->store) : "");
  return 0;
}

void hub_table_bot_retry(srv_hub *h, hub_table *t) { t->deadline_ms = h->io.now_ms(h->io.ctx) + 1000; }

void hub_table_move_saved(srv_hub *h, hub_table *t, int status, const char *error) {
  t->saving = false;
  if (status != 0) {
    if (status == SRV_STORE_FENCED) hub_table_lost(h, t, error);
    hub_failure why;
    hub_fail(&why, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "the move was not saved, so it was not played: %s",
             error);
    if (t->saving_client)
      hub_send_failure(h, t->saving_client, "move", &why);
    else
      hub_table_bot_retry(h, t);
    return;
  }
  /* the game has not changed since the move was checked: nothing is played while it is saved */
  if (t->saving_timed) hub_clock_moved(h, t, t->game.round.turn, t->saving_arrived_ms);
  goita_game_apply(&t->game, t->saving_move, NULL);
  t->version++;
  h->moves++;
  if (round_over(t)) hub_round_finished(h, t, true);
  hub_arm_timer(h, t);
  hub_broadcast_state(h, t);
  hub_schedule(h, t, false);
}

/* Copies a string within one table, cut to fit (snprintf from one part of *t to another is
 * flagged by GCC's restrict check at -O1, the sanitized build's level). */
static void copy_cut(char *to, size_t size, const char *from) {
  const size_t n = strnlen(from, size - 1);
  memcpy(to, from, n);
  to[n] = '\0';
}

void hub_record_names(hub_table *t) {
  for (int s = 0; s < players_of(t); s++) {
    copy_cut(t->record.name[s], sizeof t->record.name[s], t->seats[s].name);
    copy_cut(t->record.engine[s], sizeof t->record.engine[s], t->seats[s].bot);
  }
}

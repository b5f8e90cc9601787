/* The server's game logic (hub.h). Every state change is saved before it is applied and
 * announced, so a restarted server finds exactly what its clients last saw. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hub.h"
#include "protocol.h"

typedef struct hub_seat {
  int64_t player; /* 0: empty */
  char name[SRV_NAME_SIZE];
  char bot[SRV_LEVEL_SIZE]; /* level of a computer player, "" for a person */
  double rating;
  char token[SRV_TOKEN_SIZE];
  uint64_t client; /* the connection acting for the seat, 0 when none */
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
  int64_t next_round_ms;  /* when the next round is dealt, 0 when not waiting */
  int64_t save_retry_ms;  /* when to try again to save a finished game the storage refused */
  char previous_round[1024]; /* the last finished round in full, for spectators */
  int64_t game_id;
  uint64_t *watchers;
  int nwatchers, capwatchers;
} hub_table;

typedef struct hub_client {
  uint64_t id;
  int64_t player; /* 0 until hello */
  char name[SRV_NAME_SIZE];
  bool lobby;     /* gets the table list when it changes */
  int64_t table;  /* the table it sits at or watches, 0 for none */
  int seat;       /* its seat there, -1 when watching */
} hub_client;

struct srv_hub {
  srv_store *store;
  srv_hub_io io;
  srv_hub_options options;
  hub_table **tables;
  int ntables, captables;
  hub_client *clients;
  int nclients, capclients;
  long moves;
};

/* A computer player's answer takes well under a second; one missing for this long is lost. */
#define THINK_GIVE_UP_MS 60000

void srv_hub_options_default(srv_hub_options *o) {
  o->round_pause_ms = 4000;
  o->stand_in = "rules";
  o->max_tables = 10000;
}

/* ---- small helpers ---- */

static void send_text(srv_hub *h, uint64_t client, char *text) {
  if (!text) return; /* out of memory: nothing to send */
  h->io.send(h->io.ctx, client, text, strlen(text));
  free(text);
}

static void send_error(srv_hub *h, uint64_t client, const char *request, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void send_error(srv_hub *h, uint64_t client, const char *request, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  send_text(h, client, srv_message_error(request, text));
}

static void send_json(srv_hub *h, uint64_t client, json_t *msg) {
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  send_text(h, client, text);
}

static void new_token(srv_hub *h, char token[SRV_TOKEN_SIZE]) {
  uint8_t bytes[(SRV_TOKEN_SIZE - 1) / 2];
  h->io.random(h->io.ctx, bytes, sizeof bytes);
  for (size_t i = 0; i < sizeof bytes; i++) snprintf(token + 2 * i, 3, "%02x", bytes[i]);
}

static void utc_now(char out[GOITA_RECORD_TIME_SIZE]) {
  const time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, GOITA_RECORD_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static hub_client *client_get(srv_hub *h, uint64_t id) {
  for (int i = 0; i < h->nclients; i++)
    if (h->clients[i].id == id) return &h->clients[i];
  return NULL;
}

static hub_table *table_get(srv_hub *h, int64_t id) {
  for (int i = 0; i < h->ntables; i++)
    if (h->tables[i]->id == id) return h->tables[i];
  return NULL;
}

static int players_of(const hub_table *t) { return t->rules.players; }

static bool round_over(const hub_table *t) { return goita_round_over(&t->game.round); }

/* ---- messages ---- */

static void table_info(const hub_table *t, srv_table_info *info, bool spectator, int64_t now) {
  memset(info, 0, sizeof *info);
  info->id = t->id;
  info->status = t->status;
  info->rules = t->rules_text;
  info->turn_seconds = t->turn_seconds;
  info->seconds_left = t->deadline_ms ? (int)((t->deadline_ms - now + 999) / 1000) : -1;
  if (info->seconds_left < -1) info->seconds_left = 0;
  info->players = players_of(t);
  for (int s = 0; s < players_of(t); s++) {
    if (!t->seats[s].player) continue;
    info->seats[s].name = t->seats[s].name;
    info->seats[s].bot = t->seats[s].bot;
    info->seats[s].rating = t->seats[s].rating;
    info->seats[s].connected = t->seats[s].bot[0] || t->seats[s].client != 0;
  }
  info->game_id = t->game_id;
  info->previous_round = spectator && t->previous_round[0] ? t->previous_round : NULL;
}

/* Sends one client the table as it may see it: a seat's view, or the observer's. */
static void send_state(srv_hub *h, const hub_table *t, uint64_t client, int seat) {
  srv_table_info info;
  table_info(t, &info, seat < 0, h->io.now_ms(h->io.ctx));
  if (t->status == SRV_WAITING) {
    send_text(h, client, srv_message_state(&info, seat, NULL));
    return;
  }
  goita_view view;
  goita_game_view(&t->game, seat < 0 ? GOITA_OBSERVER : seat, &view);
  send_text(h, client, srv_message_state(&info, seat, &view));
}

static void broadcast_state(srv_hub *h, const hub_table *t) {
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].client) send_state(h, t, t->seats[s].client, s);
  for (int i = 0; i < t->nwatchers; i++) send_state(h, t, t->watchers[i], -1);
}

/* Adds what the lobby shows of a table's rules: the rule set's name (or null) and the point
 * scale (docs/RULES.md 10-11). */
static void add_rules_names(json_t *row, const goita_rules *rules) {
  const char *preset = goita_rules_preset(rules);
  json_object_set_new(row, "preset", preset ? json_string(preset) : json_null());
  json_object_set_new(row, "scale", json_string(rules->scale == GOITA_SCALE_ONES ? "ones" : "tens"));
}

static json_t *tables_json(srv_hub *h) {
  json_t *list = json_array();
  for (int i = 0; i < h->ntables; i++) {
    const hub_table *t = h->tables[i];
    if (t->status == SRV_OVER) continue;
    json_t *seats = json_array();
    for (int s = 0; s < players_of(t); s++)
      json_array_append_new(seats, t->seats[s].player ? json_pack("{s:s, s:s}", "name", t->seats[s].name, "bot",
                                                                  t->seats[s].bot)
                                                      : json_null());
    json_t *row = json_pack("{s:I, s:s, s:s, s:i, s:o, s:i}", "id", (json_int_t)t->id, "status",
                            t->status == SRV_PLAYING ? "playing" : "waiting", "rules", t->rules_text, "turn_seconds",
                            t->turn_seconds, "seats", seats, "watchers", t->nwatchers);
    add_rules_names(row, &t->rules);
    json_array_append_new(list, row);
  }
  return json_pack("{s:s, s:o}", "type", "tables", "tables", list);
}

static void broadcast_lobby(srv_hub *h) {
  json_t *msg = NULL;
  char *text = NULL;
  for (int i = 0; i < h->nclients; i++) {
    if (!h->clients[i].lobby) continue;
    if (!text) {
      msg = tables_json(h);
      text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
      json_decref(msg);
      if (!text) return;
    }
    h->io.send(h->io.ctx, h->clients[i].id, text, strlen(text));
  }
  free(text);
}

/* ---- tables ---- */

static void table_row(const hub_table *t, srv_table_row *row) {
  memset(row, 0, sizeof *row);
  row->id = t->id;
  snprintf(row->rules, sizeof row->rules, "%s", t->rules_text);
  row->seed = t->seed;
  row->turn_seconds = t->turn_seconds;
  row->status = t->status;
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    row->seats[s].player = t->seats[s].player;
    memcpy(row->seats[s].token, t->seats[s].token, SRV_TOKEN_SIZE);
  }
}

static void table_free(hub_table *t) {
  goita_record_free(&t->record);
  free(t->watchers);
  free(t);
}

static int table_add(srv_hub *h, hub_table *t) {
  if (h->ntables == h->captables) {
    const int cap = h->captables ? 2 * h->captables : 16;
    hub_table **grown = realloc(h->tables, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    h->tables = grown;
    h->captables = cap;
  }
  h->tables[h->ntables++] = t;
  return 0;
}

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
static void schedule(srv_hub *h, hub_table *t, bool timed_out) {
  if (t->status != SRV_PLAYING || round_over(t) || t->thinking_version == t->version) return;
  const int seat = t->game.round.turn;
  const hub_seat *s = &t->seats[seat];
  if (!s->bot[0] && !timed_out) return;
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

/* Starts the turn timer when a person is to move. */
static void arm_timer(srv_hub *h, hub_table *t) {
  t->deadline_ms = 0;
  if (t->status != SRV_PLAYING || round_over(t) || t->turn_seconds <= 0) return;
  if (t->seats[t->game.round.turn].bot[0]) return;
  t->deadline_ms = h->io.now_ms(h->io.ctx) + (int64_t)t->turn_seconds * 1000;
}

/* Elo over sides (docs/SERVER.md): each side's rating is its players' mean; the winning side
 * beats every other side; each player moves by K times the sum of (result - expected). */
static void new_ratings(const hub_table *t, double out[GOITA_MAX_SEATS]) {
  const double k = 32;
  const int players = players_of(t), sides = goita_rules_sides(&t->rules);
  double side_rating[GOITA_MAX_SEATS] = {0};
  int side_size[GOITA_MAX_SEATS] = {0};
  for (int s = 0; s < players; s++) {
    const int side = goita_rules_side_of(&t->rules, s);
    side_rating[side] += t->seats[s].rating;
    side_size[side]++;
  }
  for (int side = 0; side < sides; side++)
    if (side_size[side]) side_rating[side] /= side_size[side];
  const int winner = t->game.winner_side;
  for (int s = 0; s < players; s++) {
    const int side = goita_rules_side_of(&t->rules, s);
    double change = 0;
    for (int other = 0; other < sides; other++) {
      if (other == side || (side != winner && other != winner)) continue;
      const double expected = 1 / (1 + pow(10, (side_rating[other] - side_rating[side]) / 400));
      change += k * ((side == winner ? 1.0 : 0.0) - expected);
    }
    out[s] = t->seats[s].rating + change;
  }
}

/* The game is over: the record, its history strings and the new ratings are saved together. */
static void finish_game(srv_hub *h, hub_table *t) {
  char now[GOITA_RECORD_TIME_SIZE];
  utc_now(now);
  snprintf(t->record.finished, sizeof t->record.finished, "%s", now);
  char *json = NULL;
  if (goita_record_write_json(&t->record, &json, NULL) != GOITA_OK) return;
  size_t cap = 1, len = 0;
  for (int i = 0; i < t->record.nrounds; i++) cap += 1024;
  char *histories = malloc(cap);
  if (!histories) {
    free(json);
    return;
  }
  histories[0] = '\0';
  for (int i = 0; i < t->record.nrounds; i++) {
    const int n = goita_history_format(&t->record.rounds[i].round, histories + len, cap - len - 1);
    if (n < 0) break;
    len += (size_t)n;
    histories[len++] = '\n';
    histories[len] = '\0';
  }
  srv_game_row game;
  memset(&game, 0, sizeof game);
  game.table = t->id;
  game.nplayers = players_of(t);
  double ratings[GOITA_MAX_SEATS];
  new_ratings(t, ratings);
  for (int s = 0; s < players_of(t); s++) {
    game.players[s] = t->seats[s].player;
    snprintf(game.names[s], sizeof game.names[s], "%s", t->seats[s].name);
    game.ratings[s] = ratings[s];
  }
  game.score[0] = t->game.score[0];
  game.score[1] = goita_rules_sides(&t->rules) > 1 ? t->game.score[1] : 0;
  t->save_retry_ms = 0;
  if (srv_store_game_finish(h->store, &game, json, histories) == 0) {
    t->status = SRV_OVER;
    t->game_id = game.id;
    for (int s = 0; s < players_of(t); s++) t->seats[s].rating = ratings[s];
  }
  free(json);
  free(histories);
  if (t->status == SRV_OVER) return;
  /* Not saved (a full disk): the players are told, and the hub tries again every few seconds;
   * every move is already saved, so a restart would finish the game too. */
  t->save_retry_ms = h->io.now_ms(h->io.ctx) + 5000;
  char text[512];
  snprintf(text, sizeof text, "the finished game was not saved yet (trying again): %s", srv_store_error(h->store));
  char *msg = srv_message_error(NULL, text);
  for (int s = 0; s < players_of(t) && msg; s++)
    if (t->seats[s].client) h->io.send(h->io.ctx, t->seats[s].client, msg, strlen(msg));
  for (int i = 0; i < t->nwatchers && msg; i++) h->io.send(h->io.ctx, t->watchers[i], msg, strlen(msg));
  free(msg);
}

static void round_finished(srv_hub *h, hub_table *t, bool live);

/* Deals the next round; one that ends at the deal (teyaku, 5 pawns twice) is finished at once. */
static void deal_next(srv_hub *h, hub_table *t, bool live) {
  t->next_round_ms = 0;
  if (!round_over(t) || t->game.over || goita_game_next_round(&t->game, NULL) != GOITA_OK) return;
  if (live) utc_now(t->round_started);
  if (round_over(t)) round_finished(h, t, live);
}

/* A round is over: it goes into the record; a finished game is saved; otherwise the next round
 * is dealt after the pause (at once when there is none). While restoring (not live) the moves
 * that follow deal it. */
static void round_finished(srv_hub *h, hub_table *t, bool live) {
  char now[GOITA_RECORD_TIME_SIZE];
  utc_now(now);
  goita_record_add_round(&t->record, &t->game, live ? t->round_started : NULL, live ? now : NULL, NULL);
  goita_history_format(&t->game.round, t->previous_round, sizeof t->previous_round);
  if (t->game.over) {
    if (live) finish_game(h, t);
  } else if (live) {
    t->next_round_ms = h->io.now_ms(h->io.ctx) + h->options.round_pause_ms;
    if (h->options.round_pause_ms <= 0) deal_next(h, t, true);
  }
}

/* Plays a move at a table: checked on a copy, saved, then applied and announced. Returns 0, or
 * -1 with the reason in err. */
static int table_move(srv_hub *h, hub_table *t, goita_move move, char *err, size_t errsize) {
  if (t->status != SRV_PLAYING) {
    snprintf(err, errsize, "the game is not being played");
    return -1;
  }
  if (round_over(t)) {
    snprintf(err, errsize, "the round is over; the next one is about to be dealt");
    return -1;
  }
  goita_game next = t->game;
  goita_error gerr;
  if (goita_game_apply(&next, move, &gerr) != GOITA_OK) {
    snprintf(err, errsize, "%s", gerr.message);
    return -1;
  }
  char text[16];
  goita_move_format(move, text, sizeof text);
  if (srv_store_move_add(h->store, t->id, t->version, text) != 0) {
    snprintf(err, errsize, "the move was not saved, so it was not played: %s", srv_store_error(h->store));
    return -1;
  }
  t->game = next;
  t->version++;
  h->moves++;
  if (round_over(t)) round_finished(h, t, true);
  arm_timer(h, t);
  broadcast_state(h, t);
  if (t->status == SRV_OVER) broadcast_lobby(h);
  schedule(h, t, false);
  return 0;
}

/* ---- restoring from the store ---- */

typedef struct restore_ctx {
  srv_hub *h;
  hub_table *t;
  int failed;
  char *err;
  size_t errsize;
} restore_ctx;

static void restore_move(void *arg, const char *text) {
  restore_ctx *c = arg;
  hub_table *t = c->t;
  if (c->failed) return;
  goita_move move;
  goita_error gerr;
  while (round_over(t) && !t->game.over) deal_next(c->h, t, false);
  if (goita_move_parse(text, strlen(text), &move) != GOITA_OK || goita_game_apply(&t->game, move, &gerr) != GOITA_OK) {
    snprintf(c->err, c->errsize, "table %lld, move %d \"%s\" does not replay", (long long)t->id, t->version, text);
    c->failed = 1;
    return;
  }
  t->version++;
  if (round_over(t)) round_finished(c->h, t, false);
}

static int seat_from_store(srv_hub *h, hub_seat *seat, const srv_seat_row *row) {
  memset(seat, 0, sizeof *seat);
  memcpy(seat->token, row->token, SRV_TOKEN_SIZE);
  seat->player = row->player;
  if (!row->player) return 0;
  srv_player p;
  if (srv_store_player_get(h->store, row->player, &p) != 0) return -1;
  snprintf(seat->name, sizeof seat->name, "%s", p.name);
  snprintf(seat->bot, sizeof seat->bot, "%s", p.bot);
  seat->rating = p.rating;
  return 0;
}

static void record_names(hub_table *t) {
  for (int s = 0; s < players_of(t); s++) {
    snprintf(t->record.name[s], sizeof t->record.name[s], "%s", t->seats[s].name);
    snprintf(t->record.engine[s], sizeof t->record.engine[s], "%s", t->seats[s].bot);
  }
}

static void restore_table(void *arg, const srv_table_row *row) {
  restore_ctx *c = arg;
  if (c->failed) return;
  hub_table *t = calloc(1, sizeof *t);
  if (!t) {
    c->failed = 1;
    snprintf(c->err, c->errsize, "out of memory");
    return;
  }
  t->id = row->id;
  t->seed = row->seed;
  t->turn_seconds = row->turn_seconds;
  t->status = row->status;
  t->thinking_version = -1;
  snprintf(t->rules_text, sizeof t->rules_text, "%s", row->rules);
  goita_error gerr;
  goita_rules_default(&t->rules);
  if (goita_rules_parse(&t->rules, t->rules_text, &gerr) != GOITA_OK) {
    snprintf(c->err, c->errsize, "table %lld: rules \"%s\": %s", (long long)t->id, t->rules_text, gerr.message);
    c->failed = 1;
    table_free(t);
    return;
  }
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    if (seat_from_store(c->h, &t->seats[s], &row->seats[s]) != 0) {
      snprintf(c->err, c->errsize, "table %lld: %s", (long long)t->id, srv_store_error(c->h->store));
      c->failed = 1;
      table_free(t);
      return;
    }
  }
  if (t->status == SRV_PLAYING) {
    goita_game_start(&t->game, &t->rules, t->seed, NULL);
    goita_record_init(&t->record, &t->game);
    record_names(t);
    c->t = t;
    if (srv_store_moves(c->h->store, t->id, restore_move, c) != 0 && !c->failed) {
      snprintf(c->err, c->errsize, "%s", srv_store_error(c->h->store));
      c->failed = 1;
    }
    if (c->failed) {
      table_free(t);
      return;
    }
    if (round_over(t) && !t->game.over) deal_next(c->h, t, true); /* the round that had ended */
    arm_timer(c->h, t);

  }
  if (table_add(c->h, t) != 0) {
    table_free(t);
    c->failed = 1;
    snprintf(c->err, c->errsize, "out of memory");
  }
}

int srv_hub_new(srv_hub **out, srv_store *store, const srv_hub_io *io, const srv_hub_options *options, char *err,
                size_t errsize) {
  *out = NULL;
  srv_hub *h = calloc(1, sizeof *h);
  if (!h) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  h->store = store;
  h->io = *io;
  if (options)
    h->options = *options;
  else
    srv_hub_options_default(&h->options);
  restore_ctx c = {.h = h, .err = err, .errsize = errsize};
  if (srv_store_tables_open(store, restore_table, &c) != 0 && !c.failed) {
    snprintf(err, errsize, "%s", srv_store_error(store));
    c.failed = 1;
  }
  if (c.failed) {
    srv_hub_free(h);
    return -1;
  }
  /* a game whose last move was saved but whose end was not is finished now */
  for (int i = 0; i < h->ntables; i++)
    if (h->tables[i]->status == SRV_PLAYING && h->tables[i]->game.over) finish_game(h, h->tables[i]);
  for (int i = 0; i < h->ntables; i++) schedule(h, h->tables[i], false);
  *out = h;
  return 0;
}

void srv_hub_free(srv_hub *h) {
  if (!h) return;
  for (int i = 0; i < h->ntables; i++) table_free(h->tables[i]);
  free(h->tables);
  free(h->clients);
  free(h);
}

/* ---- clients ---- */

void srv_hub_connect(srv_hub *h, uint64_t id) {
  if (h->nclients == h->capclients) {
    const int cap = h->capclients ? 2 * h->capclients : 64;
    hub_client *grown = realloc(h->clients, (size_t)cap * sizeof *grown);
    if (!grown) return; /* the client gets no replies; the network layer will drop it */
    h->clients = grown;
    h->capclients = cap;
  }
  h->clients[h->nclients++] = (hub_client){.id = id, .seat = -1};
}

static void stop_watching(hub_table *t, uint64_t client) {
  for (int i = 0; i < t->nwatchers; i++)
    if (t->watchers[i] == client) {
      t->watchers[i] = t->watchers[--t->nwatchers];
      return;
    }
}

/* Detaches a client from its table (the seat is kept for its token). */
static void detach(srv_hub *h, hub_client *c) {
  hub_table *t = c->table ? table_get(h, c->table) : NULL;
  if (t && c->seat >= 0) {
    if (t->seats[c->seat].client == c->id) t->seats[c->seat].client = 0;
    broadcast_state(h, t); /* the others see the seat disconnected */
  } else if (t) {
    stop_watching(t, c->id);
  }
  c->table = 0;
  c->seat = -1;
}

void srv_hub_disconnect(srv_hub *h, uint64_t id) {
  hub_client *c = client_get(h, id);
  if (!c) return;
  detach(h, c);
  *c = h->clients[--h->nclients];
}

/* ---- requests ---- */

static void do_hello(srv_hub *h, hub_client *c, const srv_request *r) {
  srv_player p;
  char token[SRV_TOKEN_SIZE] = "";
  if (r->token[0]) {
    bool found = false;
    if (srv_store_player_by_token(h->store, r->token, &p, &found) != 0) {
      send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
      return;
    }
    if (!found) {
      send_error(h, c->id, "hello", "unknown player_token: say hello without one to be a new player");
      return;
    }
    memcpy(token, r->token, sizeof token);
    if (r->name[0] && strcmp(r->name, p.name) != 0) {
      if (srv_store_player_rename(h->store, p.id, r->name) != 0) {
        send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
        return;
      }
      snprintf(p.name, sizeof p.name, "%s", r->name);
    }
  } else {
    new_token(h, token);
    char name[SRV_NAME_SIZE];
    snprintf(name, sizeof name, "%s", r->name[0] ? r->name : "Player");
    if (srv_store_player_create(h->store, name, token, &p) != 0) {
      send_error(h, c->id, "hello", "%s", srv_store_error(h->store));
      return;
    }
  }
  c->player = p.id;
  snprintf(c->name, sizeof c->name, "%s", p.name);
  send_json(h, c->id,
            json_pack("{s:s, s:{s:I, s:s, s:i, s:i}, s:s}", "type", "welcome", "player", "id", (json_int_t)p.id, "name",
                      p.name, "rating", (int)(p.rating + 0.5), "games", p.games, "player_token", token));
}

static hub_table *waiting_table(srv_hub *h, hub_client *c, const char *request, int64_t id, int seat) {
  hub_table *t = table_get(h, id);
  if (!t) {
    send_error(h, c->id, request, "no table %lld", (long long)id);
    return NULL;
  }
  if (t->status != SRV_WAITING) {
    send_error(h, c->id, request, "table %lld has started", (long long)id);
    return NULL;
  }
  if (seat >= players_of(t)) {
    send_error(h, c->id, request, "table %lld has seats 0 to %d", (long long)id, players_of(t) - 1);
    return NULL;
  }
  if (seat >= 0 && t->seats[seat].player) {
    send_error(h, c->id, request, "seat %d is taken", seat);
    return NULL;
  }
  return t;
}

static bool save_table(srv_hub *h, hub_client *c, const char *request, const hub_table *t) {
  srv_table_row row;
  table_row(t, &row);
  if (srv_store_table_update(h->store, &row) == 0) return true;
  send_error(h, c->id, request, "not saved: %s", srv_store_error(h->store));
  return false;
}

static void do_create(srv_hub *h, hub_client *c, const srv_request *r) {
  int open = 0;
  for (int i = 0; i < h->ntables; i++) open += h->tables[i]->status != SRV_OVER;
  if (open >= h->options.max_tables) {
    send_error(h, c->id, "create", "the server has %d open tables, its most", open);
    return;
  }
  hub_table *t = calloc(1, sizeof *t);
  if (!t) {
    send_error(h, c->id, "create", "out of memory");
    return;
  }
  goita_rules_default(&t->rules);
  goita_error gerr;
  if ((r->rules[0] && goita_rules_parse(&t->rules, r->rules, &gerr) != GOITA_OK) ||
      goita_rules_validate(&t->rules, &gerr) != GOITA_OK) {
    send_error(h, c->id, "create", "rules: %s", gerr.message);
    free(t);
    return;
  }
  goita_rules_format(&t->rules, t->rules_text, sizeof t->rules_text);
  h->io.random(h->io.ctx, &t->seed, sizeof t->seed);
  t->seed &= (UINT64_C(1) << 62) - 1; /* kept positive as an SQLite integer */
  t->turn_seconds = r->turn_seconds;
  t->status = SRV_WAITING;
  t->thinking_version = -1;
  for (int s = 0; s < GOITA_MAX_SEATS; s++) new_token(h, t->seats[s].token);
  srv_table_row row;
  table_row(t, &row);
  if (srv_store_table_create(h->store, &row) != 0 || (t->id = row.id, table_add(h, t) != 0)) {
    send_error(h, c->id, "create", "not saved: %s", srv_store_error(h->store));
    free(t);
    return;
  }
  send_json(h, c->id, json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)t->id));
  broadcast_lobby(h);
}

static void take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat) {
  if (c->table && (c->table != t->id || c->seat != seat)) detach(h, c);
  hub_seat *s = &t->seats[seat];
  if (s->client && s->client != c->id) { /* the seat moves to the newer connection */
    hub_client *old = client_get(h, s->client);
    if (old) {
      send_error(h, old->id, NULL, "your seat at table %lld was taken back from another connection", (long long)t->id);
      old->table = 0;
      old->seat = -1;
    }
  }
  s->client = c->id;
  c->table = t->id;
  c->seat = seat;
  send_json(h, c->id, json_pack("{s:s, s:I, s:i, s:s}", "type", "seated", "table", (json_int_t)t->id, "seat", seat,
                                "seat_token", s->token));
  broadcast_state(h, t);
}

static void do_sit(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "sit", r->table, r->seat);
  if (!t) return;
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].player == c->player && !t->seats[s].bot[0]) {
      send_error(h, c->id, "sit", "you already sit at this table, in seat %d", s);
      return;
    }
  hub_seat *seat = &t->seats[r->seat];
  seat->player = c->player;
  snprintf(seat->name, sizeof seat->name, "%s", c->name);
  seat->bot[0] = '\0';
  srv_player p;
  seat->rating = srv_store_player_get(h->store, c->player, &p) == 0 ? p.rating : 1500;
  if (!save_table(h, c, "sit", t)) {
    memset(seat->name, 0, sizeof seat->name);
    seat->player = 0;
    return;
  }
  take_seat(h, c, t, r->seat);
  broadcast_lobby(h);
}

static void do_resume(srv_hub *h, hub_client *c, const srv_request *r) {
  for (int i = 0; i < h->ntables; i++) {
    hub_table *t = h->tables[i];
    for (int s = 0; s < players_of(t); s++)
      if (t->seats[s].player && !t->seats[s].bot[0] && strcmp(t->seats[s].token, r->token) == 0) {
        take_seat(h, c, t, s);
        return;
      }
  }
  send_error(h, c->id, "resume", "no seat has this seat_token (the game may be over)");
}

static void do_leave(srv_hub *h, hub_client *c) {
  hub_table *t = c->table ? table_get(h, c->table) : NULL;
  if (!t) {
    send_error(h, c->id, "leave", "you are not at a table");
    return;
  }
  if (c->seat >= 0 && t->status == SRV_WAITING) {
    hub_seat old = t->seats[c->seat];
    hub_seat *s = &t->seats[c->seat];
    memset(s, 0, sizeof *s);
    new_token(h, s->token); /* the old token no longer opens the seat */
    if (!save_table(h, c, "leave", t)) {
      *s = old;
      return;
    }
    c->table = 0;
    c->seat = -1;
    broadcast_state(h, t);
    broadcast_lobby(h);
  } else {
    detach(h, c); /* a seat in a game is kept: its token brings its holder back */
  }
  send_json(h, c->id, json_pack("{s:s}", "type", "left"));
}

static void do_bot(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "bot", r->table, r->seat);
  if (!t) return;
  srv_player p;
  if (srv_store_bot_player(h->store, r->level, &p) != 0) {
    send_error(h, c->id, "bot", "%s", srv_store_error(h->store));
    return;
  }
  hub_seat *s = &t->seats[r->seat];
  s->player = p.id;
  snprintf(s->name, sizeof s->name, "%s", p.name);
  snprintf(s->bot, sizeof s->bot, "%s", r->level);
  s->rating = p.rating;
  if (!save_table(h, c, "bot", t)) {
    memset(s->name, 0, sizeof s->name);
    memset(s->bot, 0, sizeof s->bot);
    s->player = 0;
    return;
  }
  broadcast_state(h, t);
  broadcast_lobby(h);
}

static void do_start(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = waiting_table(h, c, "start", r->table, -1);
  if (!t) return;
  if (c->table != t->id || c->seat < 0) {
    send_error(h, c->id, "start", "only a player seated at table %lld can start it", (long long)t->id);
    return;
  }
  for (int s = 0; s < players_of(t); s++)
    if (!t->seats[s].player) {
      send_error(h, c->id, "start", "seat %d is empty: sit someone there or a computer player", s);
      return;
    }
  goita_game game;
  goita_error gerr;
  if (goita_game_start(&game, &t->rules, t->seed, &gerr) != GOITA_OK) {
    send_error(h, c->id, "start", "%s", gerr.message);
    return;
  }
  /* A draw that assigns seats (RULES.md 7) moves the players, in their joining order (the
   * seats they chose), to the seats it gives; their tokens go with them. */
  hub_seat moved[GOITA_MAX_SEATS];
  memcpy(moved, t->seats, sizeof moved);
  for (int p = 0; p < players_of(t); p++) {
    const int to = game.draw.seat_of[p];
    if (to >= 0 && to < players_of(t)) moved[to] = t->seats[p];
  }
  hub_seat before[GOITA_MAX_SEATS];
  memcpy(before, t->seats, sizeof before);
  memcpy(t->seats, moved, sizeof moved);
  t->status = SRV_PLAYING;
  if (!save_table(h, c, "start", t)) {
    memcpy(t->seats, before, sizeof t->seats);
    t->status = SRV_WAITING;
    return;
  }
  t->game = game;
  goita_record_init(&t->record, &t->game);
  record_names(t);
  utc_now(t->round_started);
  snprintf(t->record.started, sizeof t->record.started, "%s", t->round_started);
  if (round_over(t)) round_finished(h, t, true); /* ended at the deal */
  for (int i = 0; i < h->nclients; i++) { /* seated clients follow their seats */
    hub_client *cl = &h->clients[i];
    if (cl->table != t->id || cl->seat < 0) continue;
    for (int s = 0; s < players_of(t); s++)
      if (t->seats[s].client == cl->id) cl->seat = s;
  }
  arm_timer(h, t);
  broadcast_state(h, t);
  broadcast_lobby(h);
  schedule(h, t, false);
}

static void do_move(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = table_get(h, r->table);
  if (!t || c->table != r->table || c->seat < 0) {
    send_error(h, c->id, "move", "you do not sit at table %lld", (long long)r->table);
    return;
  }
  if (r->move.seat != c->seat) {
    send_error(h, c->id, "move", "you are seat %d; \"%s\" is a move of seat %d", c->seat + 1, r->move_text,
               r->move.seat + 1);
    return;
  }
  char err[256];
  if (table_move(h, t, r->move, err, sizeof err) != 0) send_error(h, c->id, "move", "%s", err);
}

static void do_watch(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = table_get(h, r->table);
  if (!t) {
    send_error(h, c->id, "watch", "no table %lld", (long long)r->table);
    return;
  }
  if (c->table) detach(h, c);
  if (t->nwatchers == t->capwatchers) {
    const int cap = t->capwatchers ? 2 * t->capwatchers : 4;
    uint64_t *grown = realloc(t->watchers, (size_t)cap * sizeof *grown);
    if (!grown) {
      send_error(h, c->id, "watch", "out of memory");
      return;
    }
    t->watchers = grown;
    t->capwatchers = cap;
  }
  t->watchers[t->nwatchers++] = c->id;
  c->table = t->id;
  c->seat = -1;
  send_state(h, t, c->id, -1);
}

static void do_games(srv_hub *h, hub_client *c) {
  srv_game_row rows[50];
  int n = 0;
  if (srv_store_games(h->store, rows, 50, &n) != 0) {
    send_error(h, c->id, "games", "%s", srv_store_error(h->store));
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++) {
    json_t *names = json_array();
    for (int s = 0; s < rows[i].nplayers; s++) json_array_append_new(names, json_string(rows[i].names[s]));
    json_t *row = json_pack("{s:I, s:s, s:o, s:[i,i]}", "id", (json_int_t)rows[i].id, "finished", rows[i].finished,
                            "names", names, "score", rows[i].score[0], rows[i].score[1]);
    goita_rules rules;
    if (goita_rules_parse(&rules, rows[i].rules, NULL) == GOITA_OK) add_rules_names(row, &rules);
    json_array_append_new(list, row);
  }
  send_json(h, c->id, json_pack("{s:s, s:o}", "type", "games", "games", list));
}

static const char *const request_names[] = {"hello", "list", "create", "sit",   "resume", "leave",
                                            "bot",   "start", "move",  "watch", "games",  "ping"};

void srv_hub_receive(srv_hub *h, uint64_t id, const char *text, size_t len) {
  hub_client *c = client_get(h, id);
  if (!c) return;
  srv_request r;
  char err[256];
  if (srv_request_parse(text, len, &r, err, sizeof err) != 0) {
    send_error(h, id, r.type >= 0 ? request_names[r.type] : NULL, "%s", err);
    return;
  }
  const bool needs_player = r.type == SRV_CREATE || r.type == SRV_SIT;
  if (needs_player && !c->player) {
    send_error(h, id, request_names[r.type], "say hello first");
    return;
  }
  switch (r.type) {
  case SRV_HELLO:
    do_hello(h, c, &r);
    break;
  case SRV_LIST:
    c->lobby = true;
    send_json(h, id, tables_json(h));
    break;
  case SRV_CREATE:
    do_create(h, c, &r);
    break;
  case SRV_SIT:
    do_sit(h, c, &r);
    break;
  case SRV_RESUME:
    do_resume(h, c, &r);
    break;
  case SRV_LEAVE:
    do_leave(h, c);
    break;
  case SRV_BOT:
    do_bot(h, c, &r);
    break;
  case SRV_START:
    do_start(h, c, &r);
    break;
  case SRV_MOVE:
    do_move(h, c, &r);
    break;
  case SRV_WATCH:
    do_watch(h, c, &r);
    break;
  case SRV_GAMES:
    do_games(h, c);
    break;
  default:
    send_json(h, id, json_pack("{s:s}", "type", "pong"));
    break;
  }
}

void srv_hub_bot_move(srv_hub *h, int64_t table, int version, goita_move move) {
  hub_table *t = table_get(h, table);
  if (!t || t->version != version || t->thinking_version != version) return; /* late: the game moved on */
  t->thinking_version = -1;
  char err[256];
  if (table_move(h, t, move, err, sizeof err) != 0) {
    /* a computer player's move that fails (storage full) is asked for again on the next tick */
    t->deadline_ms = h->io.now_ms(h->io.ctx) + 1000;
  }
}

/* A finished table nobody sits at or watches any more is dropped from memory (its game is
 * saved). */
static bool abandoned(const hub_table *t) {
  if (t->status != SRV_OVER || t->nwatchers) return false;
  for (int s = 0; s < GOITA_MAX_SEATS; s++)
    if (t->seats[s].client) return false;
  return true;
}

void srv_hub_tick(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  for (int i = 0; i < h->ntables; i++) {
    hub_table *t = h->tables[i];
    if (abandoned(t)) {
      for (int c = 0; c < h->nclients; c++)
        if (h->clients[c].table == t->id) h->clients[c].table = 0;
      table_free(t);
      h->tables[i--] = h->tables[--h->ntables];
      continue;
    }
    if (t->status != SRV_PLAYING) continue;
    if (t->save_retry_ms && now >= t->save_retry_ms) {
      finish_game(h, t);
      if (t->status == SRV_OVER) {
        broadcast_state(h, t);
        broadcast_lobby(h);
      }
    } else if (t->next_round_ms && now >= t->next_round_ms) {
      deal_next(h, t, true);
      arm_timer(h, t);
      broadcast_state(h, t);
      schedule(h, t, false);
    } else if (t->thinking_version == t->version && now - t->think_asked_ms > THINK_GIVE_UP_MS) {
      t->thinking_version = -1; /* no answer came: ask again */
      schedule(h, t, !t->seats[t->game.round.turn].bot[0]);
    } else if (t->deadline_ms && now >= t->deadline_ms && t->thinking_version != t->version) {
      t->deadline_ms = 0;
      schedule(h, t, true);
    }
  }
}

void srv_hub_stats_get(const srv_hub *h, srv_hub_stats *s) {
  memset(s, 0, sizeof *s);
  s->clients = h->nclients;
  s->moves = h->moves;
  for (int i = 0; i < h->ntables; i++) {
    s->tables += h->tables[i]->status != SRV_OVER;
    s->playing += h->tables[i]->status == SRV_PLAYING;
  }
}

/* Duplicate matches (docs/SERVER.md "Duplicate matches"): a named match between a bot account
 * and another bot account or a computer level, on seeded deals each played twice with the
 * seats swapped, so that the luck of the deal cancels and what is left is how well each plays.
 * A game is one scored round of two-player Goita (players=2,target=1), so a game's score is a
 * round's points. The games are played one after another at listed tables (anyone may watch
 * and, once a game is over, download its record), each bot seated
 * through its connection here (a bot plays one table at a time). After each game the summary
 * (every game's points and the mean difference per round with its standard error) is saved
 * for its page, /matches/ID.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_match.h"
#include "hub_players.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"

#define MATCH_RULES "players=2,target=1"
#define MATCH_TURN_SECONDS 30
#define MATCHES_AT_ONCE 8
/* A bot not connected (or busy at another table) this long ends its match as failed. */
#define BOT_WAIT_MS 600000

typedef struct competitor {
  int64_t player; /* a bot account, or 0 for a level */
  char level[SRV_LEVEL_SIZE];
  char name[SRV_NAME_SIZE];
} competitor;

typedef struct hub_match {
  int64_t id;
  char name[SRV_NAME_SIZE];
  competitor side[2]; /* A and B */
  int deals;
  uint64_t seeds[SRV_MATCH_MAX_DEALS]; /* each deal's, drawn apart: one shown tells nothing of the next */
  int games;     /* games finished */
  int64_t table; /* the game being played, 0 between games */
  int64_t waiting_since_ms;
  int points[2 * SRV_MATCH_MAX_DEALS][2]; /* each game's points, of A and of B */
  int64_t game_ids[2 * SRV_MATCH_MAX_DEALS];
  const char *status; /* "playing", "over" or "failed" */
  char why[128];      /* why it failed */
} hub_match;

static json_t *competitor_json(const competitor *c) {
  json_t *o = json_pack("{s:s}", "name", c->name);
  if (c->player) {
    json_object_set_new(o, "player", json_integer(c->player));
    json_object_set_new(o, "bot_account", json_true());
  } else {
    json_object_set_new(o, "level", json_string(c->level));
  }
  return o;
}

/* Adds the result so far: per deal whose two games are played, the difference of A's points
 * and B's per round (the mean of its two games), and over the deals their mean and its
 * standard error (the deals' standard deviation over the square root of their number). */
static void add_result(json_t *summary, const hub_match *m) {
  const int n = m->games / 2;
  double sum = 0, squares = 0;
  for (int d = 0; d < n; d++) {
    const double diff = ((m->points[2 * d][0] - m->points[2 * d][1]) + (m->points[2 * d + 1][0] - m->points[2 * d + 1][1])) / 2.0;
    sum += diff;
    squares += diff * diff;
  }
  json_t *result = json_pack("{s:i}", "deals", n);
  if (n > 0) json_object_set_new(result, "mean", json_real(sum / n));
  if (n > 1) {
    const double mean = sum / n, variance = (squares - n * mean * mean) / (n - 1);
    json_object_set_new(result, "stderr", json_real(sqrt(variance > 0 ? variance : 0) / sqrt(n)));
  }
  json_object_set_new(summary, "result", result);
}

/* The match as its page shows it. */
static char *summary_text(const hub_match *m) {
  json_t *games = json_array();
  for (int g = 0; g < m->games; g++) {
    json_t *row = json_pack("{s:i, s:b, s:I, s:i, s:i}", "deal", g / 2 + 1, "swapped", g % 2 == 1, "game",
                            (json_int_t)m->game_ids[g], "a", m->points[g][0], "b", m->points[g][1]);
    /* a deal's seed only once both its games are over: it tells the hands of either */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seeds[g / 2]); /* as text, as in records */
    if (row && g < m->games / 2 * 2) json_object_set_new(row, "seed", json_string(seed));
    json_array_append_new(games, row);
  }
  json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:o, s:o, s:s, s:o}", "id", (json_int_t)m->id, "name", m->name, "rules",
                        MATCH_RULES, "deals", m->deals, "a", competitor_json(&m->side[0]), "b",
                        competitor_json(&m->side[1]), "status", m->status, "games", games);
  if (!o) return NULL;
  if (m->table) json_object_set_new(o, "table", json_integer(m->table));
  if (m->why[0]) json_object_set_new(o, "why", json_string(m->why));
  add_result(o, m);
  char *text = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  return text;
}

/* Saves the summary; the match goes on whether or not the store took it (the next game's
 * summary is saved whole again). */
static int save(srv_hub *h, hub_match *m) {
  char *text = summary_text(m);
  const int status = text ? srv_store_match_save(h->store, &m->id, text) : -1;
  if (status != 0) hub_log(h, "match %lld not saved: %s", (long long)m->id, text ? srv_store_error(h->store) : "out of memory");
  free(text);
  return status;
}

/* A bot's connection here that is at no table, or NULL. */
static hub_client *free_connection(srv_hub *h, int64_t player) {
  for (int i = 0; i < h->nclients; i++)
    if (h->clients[i].player == player && !h->clients[i].node[0] && !h->clients[i].table) return &h->clients[i];
  return NULL;
}

static void fail(srv_hub *h, hub_match *m, const char *why) {
  m->status = "failed";
  m->table = 0;
  snprintf(m->why, sizeof m->why, "%s", why);
  save(h, m);
}

/* Starts the match's next game once every bot in it has a free connection: A in the first seat
 * of a deal's first game, B in its second. */
static void start_game(srv_hub *h, hub_match *m, int64_t now) {
  hub_client *conn[2] = {NULL, NULL};
  for (int w = 0; w < 2; w++)
    if (m->side[w].player && !(conn[w] = free_connection(h, m->side[w].player))) {
      if (!m->waiting_since_ms) m->waiting_since_ms = now;
      if (now - m->waiting_since_ms > BOT_WAIT_MS) fail(h, m, "a bot was not connected, or busy, for 10 minutes");
      return;
    }
  m->waiting_since_ms = 0;
  hub_failure why;
  hub_table *t = hub_table_create_seeded(h, 0, MATCH_RULES, MATCH_TURN_SECONDS, false, &m->seeds[m->games / 2], &why);
  if (!t) return; /* a full server or a failing store: tried again at the next tick */
  char tokens[2][SRV_TOKEN_SIZE];
  for (int seat = 0; seat < 2; seat++) {
    const int w = (seat + m->games) % 2; /* who sits here: swapped in a deal's second game */
    if (conn[w])
      hub_seat_person(h, &t->seats[seat], conn[w], tokens[seat]);
    else if (hub_seat_bot(h, &t->seats[seat], seat, m->side[w].level) != 0)
      return; /* the store failed: the empty table expires; tried again at the next tick */
  }
  if (hub_table_save(h, t) != 0) return;
  for (int seat = 0; seat < 2; seat++) {
    const int w = (seat + m->games) % 2;
    if (conn[w]) hub_take_seat(h, conn[w], t, seat, tokens[seat]);
  }
  if (hub_table_start(h, t, &why) != 0) return;
  m->table = t->id;
  save(h, m);
}

/* Notes the points of a game that ended; true when the match goes on. */
static bool game_ended(srv_hub *h, hub_match *m) {
  hub_table *t = hub_table_get(h, m->table);
  if (!t) {
    fail(h, m, "its table was lost");
    return false;
  }
  if (t->status != SRV_OVER) return true;
  if (!t->game.over) {
    fail(h, m, "a game was abandoned");
    return false;
  }
  const int swapped = m->games % 2; /* A sat in seat 1 */
  m->points[m->games][0] = t->game.score[swapped];
  m->points[m->games][1] = t->game.score[1 - swapped];
  m->game_ids[m->games] = t->game_id;
  m->games++;
  m->table = 0;
  if (m->games == 2 * m->deals) m->status = "over";
  save(h, m);
  return m->games < 2 * m->deals;
}

void hub_match_tick(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  for (int i = 0; i < h->nmatches; i++) {
    hub_match *m = h->matches[i];
    bool going = true;
    if (m->table) going = game_ended(h, m);
    if (going && !m->table) {
      start_game(h, m, now);
      going = strcmp(m->status, "playing") == 0;
    }
    if (!going) {
      free(m);
      h->matches[i--] = h->matches[--h->nmatches];
    }
  }
}

void hub_matches_free(srv_hub *h) {
  for (int i = 0; i < h->nmatches; i++) free(h->matches[i]);
  free(h->matches);
}

/* Fills a competitor from a bot account's id; false after sending the error. */
static bool bot_competitor(srv_hub *h, hub_client *c, int64_t player, competitor *out) {
  srv_player p;
  if (srv_store_player_get(h->store, player, &p) != 0 || !p.bot_account) {
    hub_send_error(h, c->id, "match_create", SRV_ERR_MATCH_INVALID, "player %lld is not a bot account", (long long)player);
    return false;
  }
  out->player = p.id;
  snprintf(out->name, sizeof out->name, "%s", p.name);
  return true;
}

void hub_do_match_create(srv_hub *h, hub_client *c, const srv_request *r) {
  srv_player me;
  if (srv_store_player_get(h->store, c->player, &me) != 0 || !me.registered || me.bot_account) {
    hub_send_error(h, c->id, "match_create", SRV_ERR_NOT_REGISTERED, "claim a name (register) before you make matches");
    return;
  }
  if (!r->opponent == !r->level[0]) {
    hub_send_error(h, c->id, "match_create", SRV_ERR_MATCH_INVALID,
                   "name the bot's opponent: another bot account (opponent) or a level (level), one of them");
    return;
  }
  if (r->opponent == r->player) {
    hub_send_error(h, c->id, "match_create", SRV_ERR_MATCH_INVALID, "a bot cannot play a match against itself");
    return;
  }
  if (h->nmatches >= MATCHES_AT_ONCE) {
    hub_send_error_retry(h, c->id, "match_create", SRV_ERR_SERVER_BUSY, HUB_RETRY_FULL_MS,
                         "the server plays %d matches, its most at once", MATCHES_AT_ONCE);
    return;
  }
  if (!h->matches && !(h->matches = calloc(MATCHES_AT_ONCE, sizeof *h->matches))) {
    hub_send_error_retry(h, c->id, "match_create", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  hub_match *m = calloc(1, sizeof *m);
  if (!m) {
    hub_send_error_retry(h, c->id, "match_create", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  hub_trim_name(r->name, m->name);
  if (!bot_competitor(h, c, r->player, &m->side[0]) ||
      (r->opponent && !bot_competitor(h, c, r->opponent, &m->side[1]))) {
    free(m);
    return;
  }
  if (!r->opponent) {
    snprintf(m->side[1].level, sizeof m->side[1].level, "%s", r->level);
    snprintf(m->side[1].name, sizeof m->side[1].name, "Computer · %s", r->level);
  }
  m->deals = r->deals;
  h->io.random(h->io.ctx, m->seeds, (size_t)m->deals * sizeof m->seeds[0]);
  for (int d = 0; d < m->deals; d++) m->seeds[d] &= (UINT64_C(1) << 62) - 1; /* as a table's */
  m->status = "playing";
  if (save(h, m) != 0) {
    free(m);
    hub_send_error_retry(h, c->id, "match_create", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  h->matches[h->nmatches++] = m;
  hub_send_json(h, c->id, json_pack("{s:s, s:I}", "type", "match_created", "match", (json_int_t)m->id));
}

void hub_do_match(srv_hub *h, hub_client *c, const srv_request *r) {
  char *text = NULL;
  if (srv_store_match_text(h->store, r->match, &text) != 0) {
    hub_send_error_retry(h, c->id, "match", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return;
  }
  json_t *summary = text ? json_loads(text, 0, NULL) : NULL;
  free(text);
  if (!summary) {
    hub_send_error(h, c->id, "match", SRV_ERR_MATCH_UNKNOWN, "no match %lld", (long long)r->match);
    return;
  }
  hub_send_json(h, c->id, json_pack("{s:s, s:o}", "type", "match", "match", summary));
}

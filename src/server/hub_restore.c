/* Starting a hub: every table that was not over comes back from the store, its moves
 * replayed through the rules. With several servers on one database, the same restore takes
 * over the tables of a server whose lease ran out (hub_own.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_invite.h"
#include "hub_ks.h"
#include "hub_lifecycle.h"
#include "hub_lobby.h"
#include "hub_options.h"
#include "hub_players.h"
#include "hub_restore.h"
#include "hub_route.h"
#include "hub_table.h"

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
  while (round_over(t) && !t->game.over) hub_deal_next(c->h, t, false);
  if (goita_move_parse(text, strlen(text), &move) != GOITA_OK || goita_game_apply(&t->game, move, &gerr) != GOITA_OK) {
    snprintf(c->err, c->errsize, "table %lld, move %d \"%s\" does not replay", (long long)t->id, t->version, text);
    c->failed = 1;
    return;
  }
  t->version++;
  if (round_over(t)) hub_round_finished(c->h, t, false);
}

static int seat_from_store(srv_hub *h, hub_seat *seat, int index, const srv_seat_row *row) {
  memset(seat, 0, sizeof *seat);
  memcpy(seat->token, row->token, SRV_TOKEN_HASH_SIZE);
  seat->player = row->player;
  if (!row->player) return 0;
  srv_player p;
  if (srv_store_player_get(h->store, row->player, &p) != 0) return -1;
  snprintf(seat->name, sizeof seat->name, "%s", p.name);
  snprintf(seat->bot, sizeof seat->bot, "%s", p.bot);
  seat->bot_account = p.bot_account;
  if (seat->bot[0]) hub_bot_seat_name(seat, index);
  seat->rating = p.rating;
  seat->deviation = p.deviation;
  seat->stand_in = row->stand_in;
  /* Every connection went with the old process: a person's grace period starts now. */
  if (!p.bot[0]) {
    const int64_t now = h->io.now_ms(h->io.ctx);
    seat->gone_since_ms = now ? now : 1; /* 0 means "not gone" */
  }
  return 0;
}

hub_table *hub_restore_table(srv_hub *h, const srv_table_row *row, char *err, size_t errsize) {
  hub_table *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  t->id = row->id;
  t->epoch = row->epoch;
  t->seed = row->seed;
  t->turn_seconds = row->turn_seconds;
  t->status = row->status;
  t->owner = row->owner;
  t->thinking_version = -1;
  snprintf(t->rules_text, sizeof t->rules_text, "%s", row->rules);
  memcpy(t->invite, row->invite, SRV_TOKEN_SIZE);
  t->announced = hub_table_listed(t); /* no listener yet: the first list shows it */
  goita_error gerr;
  goita_rules_default(&t->rules);
  if (goita_rules_parse(&t->rules, t->rules_text, &gerr) != GOITA_OK) {
    snprintf(err, errsize, "table %lld: rules \"%s\": %s", (long long)t->id, t->rules_text, gerr.message);
    hub_table_free(t);
    return NULL;
  }
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    if (seat_from_store(h, &t->seats[s], s, &row->seats[s]) != 0) {
      snprintf(err, errsize, "table %lld: %s", (long long)t->id, srv_store_error(h->store));
      hub_table_free(t);
      return NULL;
    }
  }
  if (hub_options_restore(h, t) != 0) {
    snprintf(err, errsize, "table %lld: %s", (long long)t->id, srv_store_error(h->store));
    hub_table_free(t);
    return NULL;
  }
  if (t->status == SRV_PLAYING) {
    goita_game_start(&t->game, &t->rules, t->seed, NULL);
    goita_record_init(&t->record, &t->game);
    hub_record_names(t);
    /* a first round that ended at the deal (a teyaku, both partners with 5 pawns) was recorded
     * when the game started, before any move; the moves that follow deal the next */
    if (round_over(t)) hub_round_finished(h, t, false);
    restore_ctx c = {.h = h, .t = t, .err = err, .errsize = errsize};
    if (srv_store_moves(h->store, t->id, restore_move, &c) != 0 && !c.failed) {
      snprintf(err, errsize, "%s", srv_store_error(h->store));
      c.failed = 1;
    }
    if (c.failed) {
      hub_table_free(t);
      return NULL;
    }
    if (round_over(t) && !t->game.over) hub_deal_next(h, t, true); /* the round that had ended */
    hub_arm_timer(h, t);
  }
  if (t->status == SRV_WAITING && !hub_has_person(t)) t->empty_since_ms = h->io.now_ms(h->io.ctx);
  if (hub_table_add(h, t) != 0) {
    hub_table_free(t);
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  return t;
}

/* Restores one table of srv_store_tables_open at start; the first failure stops the start. */
static void restore_at_start(void *arg, const srv_table_row *row) {
  restore_ctx *c = arg;
  if (c->failed) return;
  if (!hub_restore_table(c->h, row, c->err, c->errsize)) c->failed = 1;
}

void hub_take_over(srv_hub *h, hub_table *t) {
  if (t->status == SRV_PLAYING && t->game.over) hub_finish_game(h, t);
  hub_schedule(h, t, false);
  hub_lobby_remote_forget(h, t->id); /* the lobby's row of it is this server's now */
  hub_lobby_touch(h, t);
  hub_route_table_here(h, t);
}

int srv_hub_new(srv_hub **out, srv_store *store, const srv_hub_io *io, const srv_hub_options *options, char *err,
                size_t errsize) {
  *out = NULL;
  srv_json_setup();
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
  if (hub_login_throttle_new(h) != 0) {
    snprintf(err, errsize, "out of memory");
    srv_hub_free(h);
    return -1;
  }
  hub_accounts_rekey(h);
  restore_ctx c = {.h = h, .err = err, .errsize = errsize};
  if (srv_store_tables_open(store, restore_at_start, &c) != 0 && !c.failed) {
    snprintf(err, errsize, "%s", srv_store_error(store));
    c.failed = 1;
  }
  if (!c.failed && hub_ks_restore(h, err, errsize) != 0) c.failed = 1;
  if (c.failed) {
    srv_hub_free(h);
    return -1;
  }
  /* a game whose last move was saved but whose end was not is finished now */
  for (int i = 0; i < h->ntables; i++)
    if (h->tables[i]->status == SRV_PLAYING && h->tables[i]->game.over) hub_finish_game(h, h->tables[i]);
  for (int i = 0; i < h->ntables; i++) hub_schedule(h, h->tables[i], false);
  h->lease_ok_ms = h->io.now_ms(h->io.ctx); /* srv_store_node or the last renewal took it just now */
  *out = h;
  return 0;
}

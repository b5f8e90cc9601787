/* The life of a table once its people go away (docs/SERVER.md "Table lifecycle"): a waiting
 * table nobody sits at expires; a gone person's waiting seat is freed; a gone person's seat in a
 * game gets a computer stand-in until they come back with the seat token; a game no person plays
 * any more ends as abandoned. All of it runs from srv_hub_tick on the hub's clock, and what it
 * decides is saved, so a restarted server finds it as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_lifecycle.h"
#include "hub_limits.h"
#include "hub_lobby.h"
#include "hub_own.h"
#include "hub_table.h"
#include "hub_view.h"

static bool is_person(const hub_seat *s) { return s->player && !s->bot[0]; }

bool hub_has_person(const hub_table *t) {
  for (int s = 0; s < players_of(t); s++)
    if (is_person(&t->seats[s]) && !t->seats[s].stand_in) return true;
  return false;
}

/* Whether the seat's holder has been gone for the whole grace period. */
static bool gone_too_long(const srv_hub *h, const hub_seat *s, int64_t now) {
  return is_person(s) && !s->client && s->gone_since_ms && now - s->gone_since_ms >= h->options.seat_grace_ms;
}

void hub_seat_gone(srv_hub *h, hub_table *t, int seat) {
  hub_seat *s = &t->seats[seat];
  if (!is_person(s) || s->gone_since_ms) return;
  const int64_t now = h->io.now_ms(h->io.ctx);
  s->gone_since_ms = now ? now : 1; /* 0 means "not gone" */
}

int hub_free_seat(srv_hub *h, hub_table *t, int seat) {
  const hub_seat old = t->seats[seat];
  hub_unindex_seats(h, t);
  memset(&t->seats[seat], 0, sizeof t->seats[seat]); /* with its token's hash: the old token no longer opens it */
  const int status = hub_table_save(h, t);
  if (status != 0) t->seats[seat] = old;
  hub_index_seats(h, t);
  if (status != 0) return -1;
  if (!hub_has_person(t) && !t->empty_since_ms) t->empty_since_ms = h->io.now_ms(h->io.ctx);
  hub_lobby_touch(h, t);
  return 0;
}

void hub_stand_in_stop(srv_hub *h, hub_table *t, int seat) {
  t->seats[seat].stand_in = false;
  hub_table_save(h, t); /* if this fails, a restart would only put the stand-in back until the next resume */
  if (t->status != SRV_PLAYING || round_over(t) || t->game.round.turn != seat) return;
  if (t->thinking_version == t->version) t->thinking_version = -1; /* the stand-in's answer is dropped */
  hub_arm_timer(h, t);
}

/* A waiting table nobody sits at has gone unused too long: it is closed and leaves the lobby. */
static void expire(srv_hub *h, hub_table *t) {
  if (hub_owned(h, t, srv_store_table_end(h->store, t->id, t->epoch, "expired")) != 0) return; /* tried again at the next tick */
  t->status = SRV_OVER;
  hub_count_open(h, t, -1);
  hub_lobby_touch(h, t);
  hub_broadcast_state(h, t); /* watchers see it over */
}

/* A game with no person left in it ends as abandoned: its record up to the last move is saved,
 * it is rated from the score as it stands, every person in it having left (so losing: they
 * are rated below every other side, hub_rate_game), and the table leaves the lobby. */
static void abandon(srv_hub *h, hub_table *t) {
  char now[GOITA_RECORD_TIME_SIZE];
  hub_utc_now(now);
  if (!round_over(t)) goita_record_add_round(&t->record, &t->game, t->round_started, NULL, NULL);
  snprintf(t->record.finished, sizeof t->record.finished, "%s", now);
  char *json = NULL, *histories = NULL;
  if (hub_record_texts(t, &json, &histories) != 0) return; /* out of memory: tried again at the next tick */
  srv_game_row game;
  memset(&game, 0, sizeof game);
  game.table = t->id;
  game.epoch = t->epoch;
  hub_game_players(t, &game);
  hub_rate_game(h, t, &game);
  game.score[0] = t->game.score[0];
  game.score[1] = goita_rules_sides(&t->rules) > 1 ? t->game.score[1] : 0;
  const int status = hub_owned(h, t, srv_store_game_abandon(h->store, &game, json, histories));
  free(json);
  free(histories);
  if (status != 0) return;
  t->status = SRV_OVER;
  t->game_id = game.id;
  for (int s = 0; s < players_of(t); s++) {
    t->seats[s].rating = game.ratings[s];
    t->seats[s].deviation = game.deviations[s];
  }
  hub_announce_ratings(h, &game);
  t->deadline_ms = t->next_round_ms = 0;
  t->thinking_version = -1; /* a computer player's late answer is dropped */
  hub_count_open(h, t, -1);
  hub_lobby_touch(h, t);
  hub_broadcast_state(h, t);
}

/* Puts computer stand-ins in the seats of people gone past the grace period, or ends the game
 * when no person is left. */
static void playing_tick(srv_hub *h, hub_table *t, int64_t now) {
  bool stood = false;
  for (int s = 0; s < players_of(t); s++)
    if (gone_too_long(h, &t->seats[s], now) && !t->seats[s].stand_in) t->seats[s].stand_in = stood = true;
  if (!hub_has_person(t)) {
    abandon(h, t);
    return;
  }
  if (!stood) return;
  hub_table_save(h, t); /* if this fails, a restart finds the seat gone and stands it in again */
  if (!round_over(t) && t->seats[t->game.round.turn].stand_in) {
    t->deadline_ms = 0; /* the stand-in moves at once, whatever the turn timer */
    hub_schedule(h, t, false);
  }
  hub_broadcast_state(h, t); /* the others see the seat stood in */
}

void hub_lifecycle_tick(srv_hub *h, hub_table *t, int64_t now) {
  if (t->status == SRV_PLAYING && !t->save_retry_ms && !t->saving) { /* a move or game being saved ends first */
    playing_tick(h, t, now);
  } else if (t->status == SRV_WAITING) {
    bool freed = false;
    for (int s = 0; s < players_of(t); s++)
      if (gone_too_long(h, &t->seats[s], now) && hub_free_seat(h, t, s) == 0) freed = true;
    if (freed) hub_broadcast_state(h, t);
    if (!hub_has_person(t) && t->empty_since_ms && now - t->empty_since_ms >= h->options.waiting_table_expiry_ms)
      expire(h, t);
  }
}

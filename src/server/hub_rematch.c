/* Rematches (docs/SERVER.md, "Rematch"): after a game, the players seated at it ask for the
 * same seats again. When every person at the table has asked, a new table with the same rules,
 * timer and privacy is made with everyone in the same seat (computer players too) and its game
 * starts. A rematch not everyone asked for starts when the wait (rematch_wait_ms from the first
 * ask) is over, with computer players in the seats of those who did not ask or are gone. */
#include <stdio.h>
#include <string.h>

#include "hub_clock.h"
#include "hub_limits.h"
#include "hub_rematch.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"
#include "hub_view.h"

#define REMATCH_LEVEL "expert" /* of the computer player that takes the seat of someone who did not ask */

/* Whether a seat's player takes part in the rematch: a computer player, or a person who asked
 * and is still at the table. */
static bool comes_along(const hub_table *t, int s) {
  return t->seats[s].bot[0] || (t->rematch.asked[s] && t->seats[s].client);
}

/* Who owns the rematch (max_tables_per_player): the first person coming along with room for one
 * more open table, so one player at the limit does not hold up the others; when none has room,
 * the first person coming along, and the table is refused. */
static int64_t rematch_owner(srv_hub *h, const hub_table *old) {
  int64_t first = 0;
  for (int s = 0; s < players_of(old); s++) {
    const int64_t player = old->seats[s].player;
    if (old->seats[s].bot[0] || !comes_along(old, s)) continue;
    if (hub_table_room(h, player)) return player;
    if (!first) first = player;
  }
  return first;
}

/* Makes the rematch of a finished table and starts it. Returns 0, or -1 with the reason. */
static int make_rematch(srv_hub *h, hub_table *old, hub_failure *why) {
  hub_table *t =
      hub_table_create(h, rematch_owner(h, old), old->rules_text, old->turn_seconds, old->invite[0] != 0, why);
  if (!t) return -1;
  t->take_over = old->take_over;
  hub_clock_setup(h, t, old->clock.bank_seconds, old->clock.on_timeout); /* saves the options */
  char tokens[GOITA_MAX_SEATS][SRV_TOKEN_SIZE];
  for (int s = 0; s < players_of(old); s++) {
    const hub_seat *was = &old->seats[s];
    hub_client *c = was->bot[0] ? NULL : hub_client_get(h, was->client);
    if (c && comes_along(old, s))
      hub_seat_person(h, &t->seats[s], c, tokens[s]);
    else if (hub_seat_bot(h, &t->seats[s], s, was->bot[0] ? was->bot : REMATCH_LEVEL) != 0) {
      return hub_fail_store(h, why, "");
    }
  }
  if (hub_table_save(h, t) != 0) {
    hub_fail_store(h, why, "not saved");
    for (int s = 0; s < GOITA_MAX_SEATS; s++) t->seats[s].player = 0; /* the table is left empty, as saved */
    return -1;
  }
  old->rematch.table = t->id;
  old->rematch.deadline_ms = 0;
  for (int s = 0; s < players_of(old); s++) {
    hub_client *c = old->seats[s].bot[0] ? NULL : hub_client_get(h, old->seats[s].client);
    if (!c || !comes_along(old, s)) continue;
    c->invited = t->id;
    hub_take_seat(h, c, t, s, tokens[s]); /* leaves the old table, which the others there see */
  }
  hub_broadcast_state(h, old);
  return hub_table_start(h, t, why);
}

/* Makes a table's rematch, telling those who asked when it cannot be made. */
static void rematch_now(srv_hub *h, hub_table *old) {
  bool asked[GOITA_MAX_SEATS];
  uint64_t clients[GOITA_MAX_SEATS];
  for (int s = 0; s < players_of(old); s++) {
    asked[s] = !old->seats[s].bot[0] && comes_along(old, s);
    clients[s] = old->seats[s].client;
  }
  hub_failure why;
  if (make_rematch(h, old, &why) == 0) return;
  old->rematch.deadline_ms = 0;
  memset(old->rematch.asked, 0, sizeof old->rematch.asked);
  for (int s = 0; s < players_of(old); s++)
    if (asked[s]) hub_send_error_retry(h, clients[s], "rematch", why.code, why.retry_ms, "no rematch: %s", why.text);
  hub_broadcast_state(h, old);
}

/* rematch: a seated player's ask for the same seats again; the table's state shows who asked. */
void hub_do_rematch(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t || c->table != r->table || c->seat < 0) {
    hub_send_error(h, c->id, "rematch", SRV_ERR_NOT_SEATED, "you do not sit at table %lld", (long long)r->table);
    return;
  }
  if (t->status != SRV_OVER) {
    hub_send_error(h, c->id, "rematch", SRV_ERR_GAME_NOT_OVER, "the game at table %lld is not over", (long long)t->id);
    return;
  }
  if (t->rematch.table) {
    hub_send_error(h, c->id, "rematch", SRV_ERR_REMATCH_STARTED, "the rematch has started without you, at table %lld",
                   (long long)t->rematch.table);
    return;
  }
  t->rematch.asked[c->seat] = true;
  if (!t->rematch.deadline_ms) t->rematch.deadline_ms = h->io.now_ms(h->io.ctx) + h->options.rematch_wait_ms;
  bool everyone = true;
  for (int s = 0; s < players_of(t); s++) everyone &= comes_along(t, s);
  if (everyone)
    rematch_now(h, t);
  else
    hub_broadcast_state(h, t);
}

/* Makes the rematches whose wait is over, if someone who asked is still at the table. */
void hub_rematch_tick(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  for (int i = 0; i < h->ntables; i++) {
    hub_table *t = h->tables[i];
    if (!t->rematch.deadline_ms || now < t->rematch.deadline_ms) continue;
    bool anyone = false;
    for (int s = 0; s < players_of(t); s++) anyone |= !t->seats[s].bot[0] && comes_along(t, s);
    if (anyone) {
      rematch_now(h, t);
    } else {
      t->rematch.deadline_ms = 0;
      memset(t->rematch.asked, 0, sizeof t->rematch.asked);
      hub_broadcast_state(h, t);
    }
  }
}

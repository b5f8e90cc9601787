/* The quick-match queue (docs/SERVER.md, "Quick match"): players who asked for the same rules
 * wait together; as soon as there are enough of them for a table they are seated at a new one
 * and the game starts. When the wait one of them chose is over, those waiting with it are
 * seated with computer players in the other seats. A group never grows past a table's seats,
 * so every change is told to at most three others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_limits.h"
#include "hub_quick.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"

#define QUICK_WAIT_SECONDS 30   /* when the request does not say */
#define QUICK_LEVEL "expert"    /* of the computer players, when the request does not say */

struct hub_quick {
  uint64_t client;
  int64_t player;
  char rules[512]; /* as goita_rules_format writes them, so equal rules are equal text */
  int players;     /* seats at a table of these rules */
  int64_t fill_ms; /* when computer players fill the seats nobody took */
  char level[SRV_LEVEL_SIZE];
};

void hub_quick_free(srv_hub *h) {
  free(h->queue);
  h->queue = NULL;
  h->nqueue = h->capqueue = 0;
}

/* Tells everyone waiting for these rules where they are: {"type":"queued","position" (from 1),
 * "waiting" (with these rules), "players" (a table's seats), "seconds_left" (until computer
 * players fill the table)}. */
static void announce(srv_hub *h, const char *rules) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  int waiting = 0;
  int64_t fill = INT64_MAX;
  for (int i = 0; i < h->nqueue; i++)
    if (strcmp(h->queue[i].rules, rules) == 0) {
      waiting++;
      if (h->queue[i].fill_ms < fill) fill = h->queue[i].fill_ms;
    }
  const int seconds = fill > now ? (int)((fill - now + 999) / 1000) : 0;
  for (int i = 0, position = 0; i < h->nqueue; i++) {
    const struct hub_quick *q = &h->queue[i];
    if (strcmp(q->rules, rules) != 0) continue;
    hub_send_json(h, q->client, json_pack("{s:s, s:i, s:i, s:i, s:i}", "type", "queued", "position", ++position,
                                          "waiting", waiting, "players", q->players, "seconds_left", seconds));
  }
}

/* Takes entry i out of the queue (the others keep their order). */
static void remove_at(srv_hub *h, int i) {
  memmove(&h->queue[i], &h->queue[i + 1], (size_t)(h->nqueue - i - 1) * sizeof *h->queue);
  h->nqueue--;
}

/* Seats a group at a new table: the people in the order they came, computer players of a level
 * in the seats left, and starts the game. Returns 0, or -1 with the reason in why. */
static int seat_group(srv_hub *h, const struct hub_quick *group, int n, const char *level, hub_failure *why) {
  /* The table is the first one's with room for one more open table (max_tables_per_player), so
   * one player at the limit does not hold up the others; when none has room, it fails. */
  int64_t owner = group[0].player;
  for (int k = 0; k < n; k++)
    if (hub_table_room(h, group[k].player)) {
      owner = group[k].player;
      break;
    }
  hub_table *t = hub_table_create(h, owner, group[0].rules, 0, false, why);
  if (!t) return -1;
  char tokens[GOITA_MAX_SEATS][SRV_TOKEN_SIZE];
  for (int s = 0; s < players_of(t); s++) {
    hub_client *c = s < n ? hub_client_get(h, group[s].client) : NULL;
    if (c) {
      hub_seat_person(h, &t->seats[s], c, tokens[s]);
    } else if (hub_seat_bot(h, &t->seats[s], s, level) != 0) {
      return hub_fail_store(h, why, "");
    }
  }
  if (hub_table_save(h, t) != 0) {
    hub_fail_store(h, why, "not saved");
    for (int s = 0; s < GOITA_MAX_SEATS; s++) t->seats[s].player = 0; /* the table is left empty, as saved */
    return -1;
  }
  for (int s = 0; s < n; s++) {
    hub_client *c = hub_client_get(h, group[s].client);
    if (c) hub_take_seat(h, c, t, s, tokens[s]);
  }
  return hub_table_start(h, t, why);
}

/* Seats every group that is complete or whose wait (any member's) is over, oldest first. */
static void match(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  for (int i = 0; i < h->nqueue; i++) {
    struct hub_quick group[GOITA_MAX_SEATS];
    int n = 0;
    const char *level = NULL;
    for (int j = i; j < h->nqueue && n < h->queue[i].players; j++) {
      if (strcmp(h->queue[j].rules, h->queue[i].rules) != 0) continue;
      group[n++] = h->queue[j];
      if (!level && h->queue[j].fill_ms <= now) level = h->queue[j].level;
    }
    if (n < h->queue[i].players && !level) continue;
    hub_failure why;
    char chosen[SRV_LEVEL_SIZE];
    snprintf(chosen, sizeof chosen, "%s", level ? level : group[0].level);
    for (int k = 0; k < n; k++) /* out of the queue first: seating them may send anything */
      for (int j = 0; j < h->nqueue; j++)
        if (h->queue[j].client == group[k].client) remove_at(h, j);
    if (seat_group(h, group, n, chosen, &why) != 0)
      for (int k = 0; k < n; k++)
        hub_send_error_retry(h, group[k].client, "quick", why.code, why.retry_ms, "no table for the quick match: %s",
                             why.text);
    i = -1; /* the queue changed: look again from the oldest */
  }
}

/* quick: waits for others with the same rules (a second quick replaces the first, and a player
 * waits in one place only). */
void hub_do_quick(srv_hub *h, hub_client *c, const srv_request *r) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_error gerr;
  if ((r->rules[0] && goita_rules_parse(&rules, r->rules, &gerr) != GOITA_OK) ||
      goita_rules_validate(&rules, &gerr) != GOITA_OK) {
    hub_send_error(h, c->id, "quick", SRV_ERR_RULES_INVALID, "rules: %s", gerr.message);
    return;
  }
  for (int i = 0; i < h->nqueue; i++) {
    if (h->queue[i].player != c->player) continue;
    const struct hub_quick old = h->queue[i];
    remove_at(h, i--);
    if (old.client != c->id)
      hub_send_error(h, old.client, "quick", SRV_ERR_QUEUE_MOVED,
                     "your place in the quick-match queue moved to another connection");
    announce(h, old.rules);
  }
  if (h->nqueue == h->capqueue) {
    const int cap = h->capqueue ? 2 * h->capqueue : 16;
    struct hub_quick *grown = realloc(h->queue, (size_t)cap * sizeof *grown);
    if (!grown) {
      hub_send_error_retry(h, c->id, "quick", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
      return;
    }
    h->queue = grown;
    h->capqueue = cap;
  }
  struct hub_quick *q = &h->queue[h->nqueue++];
  memset(q, 0, sizeof *q);
  q->client = c->id;
  q->player = c->player;
  goita_rules_format(&rules, q->rules, sizeof q->rules);
  q->players = rules.players;
  const int wait = r->wait_seconds >= 0 ? r->wait_seconds : QUICK_WAIT_SECONDS;
  q->fill_ms = h->io.now_ms(h->io.ctx) + (int64_t)wait * 1000;
  snprintf(q->level, sizeof q->level, "%s", r->level[0] ? r->level : QUICK_LEVEL);
  char rules_text[512];
  snprintf(rules_text, sizeof rules_text, "%s", q->rules);
  match(h);
  announce(h, rules_text);
}

/* Takes a client's place out of the queue (a cancel, a disconnect); returns whether it had one. */
bool hub_quick_forget(srv_hub *h, uint64_t client) {
  for (int i = 0; i < h->nqueue; i++) {
    if (h->queue[i].client != client) continue;
    char rules[512];
    snprintf(rules, sizeof rules, "%s", h->queue[i].rules);
    remove_at(h, i);
    announce(h, rules);
    return true;
  }
  return false;
}

/* quick_cancel: out of the queue, answered {"type":"quick_cancelled"}. */
void hub_do_quick_cancel(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  if (!hub_quick_forget(h, c->id)) {
    hub_send_error(h, c->id, "quick_cancel", SRV_ERR_NOT_QUEUED, "you are not in the quick-match queue");
    return;
  }
  hub_send_json(h, c->id, json_pack("{s:s}", "type", "quick_cancelled"));
}

void hub_quick_tick(srv_hub *h) {
  if (h->nqueue) match(h);
}

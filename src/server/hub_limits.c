/* Per-player limits inside the hub (docs/SERVER.md "Per-player limits"): how many open tables a player
 * may have created, and a token bucket for the requests that cost the server work for others.
 * Both are per player, not per connection, so a player's many sockets share them; the network
 * layer limits each connection besides. A guest has no player row until it acts (hub_players.c):
 * until then its bucket is keyed on its pending identity, the hash of the token its hello was
 * given, which only that connection holds, and the row inherits the bucket. Time comes from
 * the hub's clock, so tests use a fake. */
#include <stdio.h>
#include <stdlib.h>

#include "hub_limits.h"
#include "hub_map.h"
#include "hub_send.h"
#include "hub_table.h"

/* The key of a guest's bucket: its pending token's hash with the top bit set, which no player id
 * has. */
static uint64_t guest_key(const char guest[SRV_TOKEN_HASH_SIZE]) { return hub_token_key(guest) | UINT64_C(1) << 63; }

/* Whose request bucket a client draws from: its player's id, or before a guest has a player row
 * its guest key; 0 before hello. */
static int64_t rate_key(const hub_client *c) {
  if (c->player) return c->player;
  return c->guest[0] ? (int64_t)guest_key(c->guest) : 0;
}

void hub_rate_adopt(srv_hub *h, const char guest[SRV_TOKEN_HASH_SIZE], int64_t player) {
  const uint64_t key = guest_key(guest);
  uint64_t ptr;
  if (!hub_map_get(&h->player_index, key, &ptr)) return;
  hub_map_del(&h->player_index, key);
  /* A row found by the guest's token may have a bucket already (another connection's): that one counts. */
  const uint64_t key_of_player = (uint64_t)player;
  if (hub_map_get(&h->player_index, key_of_player, NULL) || hub_map_put(&h->player_index, key_of_player, ptr) != 0)
    free((hub_player *)(uintptr_t)ptr);
}

bool hub_table_room(srv_hub *h, int64_t player) {
  const int most = h->options.max_tables_per_player;
  if (!player || most <= 0) return true;
  const hub_player *p = hub_player_get(h, player);
  return !p || p->open_tables < most;
}

hub_player *hub_player_get(srv_hub *h, int64_t player) {
  if (!player) return NULL;
  uint64_t ptr;
  if (hub_map_get(&h->player_index, (uint64_t)player, &ptr)) return (hub_player *)(uintptr_t)ptr;
  hub_player *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->tokens_milli = (int64_t)h->options.player_rate_burst * 1000;
  p->refilled_ms = h->io.now_ms(h->io.ctx);
  if (hub_map_put(&h->player_index, (uint64_t)player, (uint64_t)(uintptr_t)p) != 0) {
    free(p);
    return NULL;
  }
  return p;
}

/* Adds what has dripped into the bucket since it was last filled, up to the burst. */
static void refill(const srv_hub *h, hub_player *p, int64_t now) {
  const int64_t full = (int64_t)h->options.player_rate_burst * 1000;
  if (now > p->refilled_ms) p->tokens_milli += (now - p->refilled_ms) * h->options.player_rate_per_second;
  if (p->tokens_milli > full) p->tokens_milli = full;
  p->refilled_ms = now;
}

bool hub_rate_take(srv_hub *h, hub_client *c, const char *request) {
  const int rate = h->options.player_rate_per_second;
  hub_player *p = rate > 0 ? hub_player_get(h, rate_key(c)) : NULL;
  if (!p) return true; /* no limit set, or before hello: the network layer's limit applies */
  refill(h, p, h->io.now_ms(h->io.ctx));
  if (p->tokens_milli >= 1000) {
    p->tokens_milli -= 1000;
    return true;
  }
  const int64_t wait_ms = (1000 - p->tokens_milli + rate - 1) / rate;
  hub_send_error_retry(h, c->id, request, SRV_ERR_RATE_LIMITED, wait_ms,
                       "too many requests: at most %d a second (%d at once); try again in %.1f s", rate,
                       h->options.player_rate_burst, (double)wait_ms / 1000);
  return false;
}

void hub_count_open(srv_hub *h, hub_table *t, int delta) {
  h->open_tables += delta;
  if (!t->invite[0]) h->listed_tables += delta;
  hub_player *p = hub_player_get(h, t->owner);
  if (p) p->open_tables += delta;
}

void hub_players_prune(srv_hub *h) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  uint64_t *idle = malloc(h->player_index.count * sizeof *idle + 1);
  if (!idle) return;
  size_t n = 0;
  for (size_t i = 0; i < h->player_index.cap; i++) {
    if (!h->player_index.entries[i].used) continue;
    hub_player *p = (hub_player *)(uintptr_t)h->player_index.entries[i].value;
    refill(h, p, now);
    if (p->open_tables == 0 && p->tokens_milli >= (int64_t)h->options.player_rate_burst * 1000) {
      idle[n++] = h->player_index.entries[i].key;
      free(p);
    }
  }
  for (size_t i = 0; i < n; i++) hub_map_del(&h->player_index, idle[i]);
  free(idle);
}

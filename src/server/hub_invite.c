/* Private tables (docs/SERVER.md, "Private tables"): left out of the lobby, found only by their
 * invite code, which only the table's creator is given and which is then shown to everyone at
 * the table so they can pass it on. The code is 128 bits from io.random, so it cannot be
 * guessed; it is kept with the table and survives a restart. */
#include <string.h>

#include "hub_invite.h"
#include "hub_map.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "hub_table.h"

/* Whether the lobby lists a table: one not over and not private. */
bool hub_table_listed(const hub_table *t) { return t->status != SRV_OVER && !t->invite[0]; }

/* Whether a client may watch a table or sit at it by its number: a listed table (or one over),
 * or a private one it gave the invite code of or whose seat its player holds. */
bool hub_table_open_to(const hub_table *t, const hub_client *c) {
  if (!t->invite[0] || c->invited == t->id) return true;
  for (int s = 0; s < players_of(t); s++)
    if (c->player && t->seats[s].player == c->player && !t->seats[s].bot[0]) return true;
  return false;
}

/* join: the table whose invite code this is, watched (`joined`, then its state); from then on
 * the client may sit there like at a listed table. A wrong code says no more than that. */
void hub_do_join(srv_hub *h, hub_client *c, const srv_request *r) {
  uint64_t id;
  hub_table *t = hub_map_get(&h->invite_index, hub_token_key(r->invite), &id) ? hub_table_get(h, (int64_t)id) : NULL;
  if (!t || strcmp(t->invite, r->invite) != 0 || t->status == SRV_OVER) {
    hub_send_error(h, c->id, "join", SRV_ERR_INVITE_UNKNOWN, "no open table has this invite code");
    return;
  }
  c->invited = t->id;
  hub_send_json(h, c->id, json_pack("{s:s, s:I}", "type", "joined", "table", (json_int_t)t->id));
  hub_watch(h, c, t, "join");
}

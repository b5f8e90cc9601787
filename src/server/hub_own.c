/* Several servers on one database: which tables this server owns (docs/SERVER.md "Ownership").
 * A server owns a table in an epoch, a number the database raises at every claim; each write
 * for the table names that epoch and is refused (fenced) once another server has claimed it.
 * So a server paused past its lease, or cut off from the database, can never write over what
 * the next owner wrote: its first write, or its next lease renewal, finds the table lost, and
 * the table is let go here. Tables are only ever taken from the database, never from memory:
 * a table regained is restored from its stored moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_ks.h"
#include "hub_own.h"
#include "hub_restore.h"
#include "hub_send.h"
#include "hub_table.h"

int hub_owned(srv_hub *h, hub_table *t, int status) {
  if (status == SRV_STORE_FENCED) hub_table_lost(h, t, srv_store_error(h->store));
  return status;
}

void hub_table_lost(srv_hub *h, hub_table *t, const char *why) {
  if (t->lost) return;
  t->lost = true;
  h->nlost++;
  hub_log(h, "table %lld lost (epoch %lld): %s", (long long)t->id, (long long)t->epoch, why);
}

/* (its browser resumes its seat, or watches again, through whichever server it is connected to) */
void hub_send_moved(srv_hub *h, uint64_t client, int64_t table, const char *node) {
  char text[256];
  if (node[0])
    snprintf(text, sizeof text, "table %lld is served by server %s now: you are being sent there", (long long)table,
             node);
  else
    snprintf(text, sizeof text, "table %lld is served by another server now: you are being sent there",
             (long long)table);
  hub_send_json(h, client,
                json_pack("{s:s, s:I, s:s?, s:s}", "type", "moved", "table", (json_int_t)table, "node",
                          node[0] ? node : NULL, "error", text));
}

void hub_owner_now(srv_hub *h, int64_t table, char node[SRV_NODE_SIZE]) {
  char key[24];
  snprintf(key, sizeof key, "%lld", (long long)table);
  int64_t id = 0;
  bool found = false;
  node[0] = '\0';
  if (srv_store_table_owner(h->store, SRV_KEY_ID, key, &id, node, &found) != 0 || !found) node[0] = '\0';
  if (h->options.node && strcmp(node, h->options.node) == 0) node[0] = '\0';
}

void hub_drop_lost(srv_hub *h) {
  if (!h->nlost) return;
  for (int i = h->ntables - 1; i >= 0; i--) {
    hub_table *t = h->tables[i];
    if (!t->lost) continue;
    char node[SRV_NODE_SIZE];
    hub_owner_now(h, t->id, node);
    for (int s = 0; s < GOITA_MAX_SEATS; s++)
      if (t->seats[s].client) hub_send_moved(h, t->seats[s].client, t->id, node);
    for (int w = 0; w < t->nwatchers; w++) hub_send_moved(h, t->watchers[w], t->id, node);
    hub_log(h, "table %lld let go%s%s", (long long)t->id, node[0] ? ": served by " : "", node);
    t->lost = false; /* hub_table_remove counts it as any other table */
    hub_table_remove(h, i); /* its clients leave it, its lobby row goes, a late answer finds no table */
    /* the lobby here gets the new owner's row of it (this server ignored it while it held it) */
    if (node[0] && hub_bus_on(h)) hub_bus_publish(h, node, json_pack("{s:s, s:s}", "kind", "sync", "node", h->options.node));
  }
  hub_ks_drop_lost(h);
  h->nlost = 0;
}

/* The open tables this server owns, as the lease renewal names them. */
typedef struct owned_list {
  int64_t *ids, *epochs;
  int n, cap;
  bool out_of_memory;
} owned_list;

static void add_owned(void *ctx, int64_t table, int64_t epoch) {
  owned_list *l = ctx;
  if (l->n == l->cap) {
    const int cap = l->cap ? 2 * l->cap : 64;
    int64_t *ids = realloc(l->ids, (size_t)cap * sizeof *ids);
    if (ids) l->ids = ids;
    int64_t *epochs = ids ? realloc(l->epochs, (size_t)cap * sizeof *epochs) : NULL;
    if (!epochs) {
      l->out_of_memory = true;
      return;
    }
    l->epochs = epochs;
    l->cap = cap;
  }
  l->ids[l->n] = table;
  l->epochs[l->n++] = epoch;
}

/* The position of a table in the list (it is in id order), or -1. */
static int owned_find(const owned_list *l, int64_t id) {
  int lo = 0, hi = l->n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (l->ids[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < l->n && l->ids[lo] == id ? lo : -1;
}

/* Brings what this server holds in line with what it owns: a held table it does not own in the
 * same epoch is lost (another server claimed it; or this one claimed it again, and what it holds
 * may be behind the database); an owned table it does not hold is restored from the database. */
static void reconcile(srv_hub *h, const owned_list *l) {
  for (int i = 0; i < h->ntables; i++) {
    hub_table *t = h->tables[i];
    if (t->lost || t->status == SRV_OVER) continue; /* (a finished table stays for its rematch) */
    /* A write in flight on the store thread may have changed the table's row before this list
     * was read (a finished game closes it) and its answer is not heard yet: that write is fenced
     * itself, and its answer says whether the table is still this server's. */
    if (t->saving) continue;
    const int at = owned_find(l, t->id);
    if (at < 0)
      hub_table_lost(h, t, "the database names another server as its owner");
    else if (l->epochs[at] != t->epoch)
      hub_table_lost(h, t, "claimed again in a later epoch: restored from the database");
  }
  hub_drop_lost(h);
  int goita = 0; /* (Ko shogi's tables are numbered above Goita's, at the end of the list) */
  while (goita < l->n && l->ids[goita] < SRV_KS_TABLE_BASE) goita++;
  for (int k = 0; k < goita; k++) {
    if (hub_table_get(h, l->ids[k])) continue;
    srv_table_row row;
    bool found = false;
    char err[256];
    if (srv_store_table_load(h->store, l->ids[k], &row, &found) != 0 || !found) continue; /* next renewal */
    hub_table *t = hub_restore_table(h, &row, err, sizeof err);
    if (!t) {
      hub_log(h, "table %lld not taken over: %s", (long long)l->ids[k], err);
      continue;
    }
    hub_log(h, "table %lld taken over (epoch %lld, %d moves)", (long long)t->id, (long long)t->epoch, t->version);
    hub_take_over(h, t);
  }
  hub_ks_reconcile(h, l->ids + goita, l->epochs + goita, l->n - goita);
}

/* Another server started under this one's name: every table is its now. */
static void superseded(srv_hub *h) {
  if (h->superseded) return;
  h->superseded = true;
  hub_log(h, "%s: every table is let go, and this server stops", srv_store_error(h->store));
  for (int i = 0; i < h->ntables; i++)
    if (h->tables[i]->status != SRV_OVER) hub_table_lost(h, h->tables[i], "this server was replaced");
  hub_ks_reconcile(h, NULL, NULL, 0); /* (it owns none) */
  hub_drop_lost(h);
}

void hub_lease_tick(srv_hub *h, int64_t now) {
  if (!h->options.lease_renew_ms || h->superseded || now < h->lease_renew_at_ms) return;
  h->lease_renew_at_ms = now + h->options.lease_renew_ms;
  const int64_t lease_ms = 3 * (int64_t)h->options.lease_renew_ms;
  /* Not renewed for a lease (paused, or the database away): the others may have taken this
   * server's tables, and they could not renew theirs either; none of theirs is claimed until
   * each live one has had a lease's time to renew. */
  if (h->lease_ok_ms && now - h->lease_ok_ms > lease_ms && now + lease_ms > h->claim_after_ms) {
    h->claim_after_ms = now + lease_ms;
    hub_log(h, "lease not renewed for %lld ms: this server's tables are checked, and no other server's is taken over "
               "for %lld ms",
            (long long)(now - h->lease_ok_ms), (long long)lease_ms);
  }
  /* (no claim in a renewal right after a failed one: the others get their time to renew too) */
  const bool claim = !h->lease_failing && now >= h->claim_after_ms;
  owned_list l = {0};
  const int status = srv_store_lease_renew(h->store, claim, add_owned, &l);
  if (status == SRV_STORE_SUPERSEDED) {
    superseded(h);
  } else if (status != 0 || l.out_of_memory) {
    if (!h->lease_failing) hub_log(h, "lease not renewed: %s", l.out_of_memory ? "out of memory" : srv_store_error(h->store));
    h->lease_failing = true;
  } else {
    if (h->lease_failing) {
      /* the database was away: every lease may have run out by its clock meanwhile, and the live
       * servers renew theirs within a renewal period of its return */
      if (now + lease_ms > h->claim_after_ms) h->claim_after_ms = now + lease_ms;
      hub_log(h, "lease renewed again: no other server's table is taken over for %lld ms", (long long)lease_ms);
    }
    h->lease_failing = false;
    h->lease_ok_ms = now;
    reconcile(h, &l);
  }
  free(l.ids);
  free(l.epochs);
}

bool srv_hub_superseded(const srv_hub *h) { return h->superseded; }

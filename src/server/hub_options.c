/* A table's options row (hub_options.h): saved from the table, read back into it. */
#include <string.h>

#include "hub_options.h"
#include "hub_own.h"

/* Whether a table differs from one created with none of these options: only such a one has a
 * row. */
static bool has_options(const hub_table *t) {
  if (t->clock.bank_seconds > 0 || t->clock.on_timeout != SRV_TIMEOUT_COMPUTER || t->take_over) return true;
  for (int s = 0; s < GOITA_MAX_SEATS; s++)
    if (t->seats[s].left_player) return true;
  return false;
}

int hub_options_save(srv_hub *h, hub_table *t) {
  if (!has_options(t)) return 0;
  srv_table_options_row row;
  memset(&row, 0, sizeof row);
  row.bank_seconds = t->clock.bank_seconds;
  row.on_timeout = t->clock.on_timeout;
  row.take_over = t->take_over;
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    row.bank_ms[s] = t->seats[s].bank_ms;
    row.left_player[s] = t->seats[s].left_player;
  }
  if (hub_owned(h, t, srv_store_table_options_save(h->store, t->id, t->epoch, &row)) == 0) return 0;
  hub_log(h, "table %lld: its options were not saved: %s", (long long)t->id, srv_store_error(h->store));
  return -1;
}

int hub_options_restore(srv_hub *h, hub_table *t) {
  srv_table_options_row row;
  bool found;
  if (srv_store_table_options_load(h->store, t->id, &row, &found) != 0) return -1;
  if (!found) return 0;
  t->clock.bank_seconds = row.bank_seconds;
  t->clock.on_timeout = row.on_timeout == SRV_TIMEOUT_PASS ? SRV_TIMEOUT_PASS : SRV_TIMEOUT_COMPUTER;
  t->take_over = row.take_over;
  for (int s = 0; s < GOITA_MAX_SEATS; s++) {
    t->seats[s].bank_ms = row.bank_ms[s];
    t->seats[s].left_player = row.left_player[s];
  }
  return 0;
}

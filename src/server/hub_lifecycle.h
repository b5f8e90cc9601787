/* Table lifecycle (hub_lifecycle.c): freed seats, stand-ins, expired and abandoned tables. */
#ifndef GOITA_SERVER_HUB_LIFECYCLE_H
#define GOITA_SERVER_HUB_LIFECYCLE_H

#include "hub_state.h"

/* Empties a waiting table's seat, token hash and all (the old token no longer opens it), and
 * saves it; returns 0, or -1 (the seat unchanged) when the store refuses. */
int hub_free_seat(srv_hub *h, hub_table *t, int seat);

/* A person's seat lost its connection: its grace period starts. */
void hub_seat_gone(srv_hub *h, hub_table *t, int seat);

/* Whether a person (not a computer or a stand-in) is seated at the table. */
bool hub_has_person(const hub_table *t);

/* Frees waiting seats, puts in stand-ins, expires and abandons tables whose time has come. */
void hub_lifecycle_tick(srv_hub *h, hub_table *t, int64_t now);

/* A seat's holder is back: its stand-in stops at once. */
void hub_stand_in_stop(srv_hub *h, hub_table *t, int seat);

#endif

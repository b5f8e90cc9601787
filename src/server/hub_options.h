/* What a table was created with beside its rules, and what of it changes during its game: its
 * time control and banks (hub_clock.c), whether a spectator may take over a gone person's seat
 * and who left the seats taken over (hub_table_seat.c). Saved in one row beside the table
 * (srv_table_options_row), read back by a restored table. */
#ifndef GOITA_SERVER_HUB_OPTIONS_H
#define GOITA_SERVER_HUB_OPTIONS_H

#include "hub_state.h"

/* Saves a table's options row when it has anything to say; returns 0, or -1 with the store's
 * error (logged: the table keeps them in memory all the same, a restart finds them as last
 * saved). */
int hub_options_save(srv_hub *h, hub_table *t);

/* A restored table's options as saved (none when it had none); returns 0, or -1 with the
 * store's error. */
int hub_options_restore(srv_hub *h, hub_table *t);

#endif

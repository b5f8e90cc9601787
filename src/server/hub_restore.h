/* Tables restored from the store (hub_restore.c): at start and after a takeover. */
#ifndef GOITA_SERVER_HUB_RESTORE_H
#define GOITA_SERVER_HUB_RESTORE_H

#include "hub_state.h"

/* Restores one table from its row (hub_restore.c): its seats, and its moves replayed. Returns
 * the table added, or NULL with the reason in err. */
hub_table *hub_restore_table(srv_hub *h, const srv_table_row *row, char *err, size_t errsize);

/* Sets a table restored after a takeover going: a finished game saved, its computer players
 * asked, its lobby row, and the clients here that were at it sent to it. */
void hub_take_over(srv_hub *h, hub_table *t);

#endif

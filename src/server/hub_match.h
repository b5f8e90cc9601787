/* Duplicate matches between bots (hub_match.c, docs/SERVER.md "Duplicate matches"). */
#ifndef GOITA_SERVER_HUB_MATCH_H
#define GOITA_SERVER_HUB_MATCH_H

#include "hub_state.h"

/* Notes the games of matches that ended and starts each match's next game once its bots are
 * free. */
void hub_match_tick(srv_hub *h);

/* Frees every match (the hub is going). */
void hub_matches_free(srv_hub *h);

#endif

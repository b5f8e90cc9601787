/* What a Ko shogi table sends to everyone at it, players and spectators alike (Ko shogi hides
 * nothing): the position, the moves, both clocks as the server's clock has them, the standing
 * draw offer and the end (docs/KOSHOGI.md "Online"). */
#ifndef GOITA_SERVER_KS_MESSAGE_H
#define GOITA_SERVER_KS_MESSAGE_H

#include "ks_table.h"

/* {"type":"ks_table","table":ID,"position":...,"move_number":N,"to_move":"black","moves":[...],
 *  "clock":{"main_ms":M,"byoyomi_ms":B,"running":"black"|null,"black":{"main_ms":..,"byoyomi_ms":..},
 *  "white":{...}},"draw_offer":"white"|null,"result":null|"black"|"white"|"draw","end":null|"..."}
 * with each side's time left at now; a client counts the running side down from there until the
 * next message. Returns a new string (free it), NULL when out of memory. */
char *srv_ks_message_table(const srv_ks_table *table, int64_t id, int64_t now);
/* The same message as JSON, for a caller that adds to it (the hub: seats, invite, rematch);
 * NULL when out of memory. */
struct json_t;
struct json_t *srv_ks_message_json(const srv_ks_table *table, int64_t id, int64_t now);

/* The wire's name of how a game ended ("time", "resignation", "agreement", or the rules' own:
 * "defeat", "self_defeat", "repetition", "perpetual_check", "no_moves"); NULL while it goes on. */
const char *srv_ks_end_name(const srv_ks_table *table);

/* The table's game as a record (ks_record_write) that says how it ended also when the board did
 * not decide it: [Termination "time"], "agreement", or "resignation" on either side's turn.
 * Returns a new string (free it), NULL when out of memory. */
char *srv_ks_record(const srv_ks_table *table, const char *black, const char *white);

#endif

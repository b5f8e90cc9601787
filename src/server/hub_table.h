/* The table service: create, seat, start, move, finish (hub_table_seat.c seats and starts,
 * hub_table.c plays and finishes). The request handlers, quick match, rematch, restore, invites
 * and the bus call into it; it calls none of them (tests/cli/hub_layers.sh). */
#ifndef GOITA_SERVER_HUB_TABLE_H
#define GOITA_SERVER_HUB_TABLE_H

#include "hub_send.h"
#include "hub_state.h"

/* Indexes a table's seat tokens (at its creation, restore, or after a token changes), or drops
 * them (before it is freed or a token changes). */
void hub_index_seats(srv_hub *h, const hub_table *t);

/* The first 16 hex digits of a seat token's hash or of an invite code as a number: both are
 * random, so it is a fine key. */
uint64_t hub_token_key(const char *token);

void hub_unindex_seats(srv_hub *h, const hub_table *t);

void hub_table_row(const hub_table *t, srv_table_row *row);

void hub_table_free(hub_table *t);

/* Adds a table (in id order) and indexes it; returns -1 when out of memory. */
int hub_table_add(srv_hub *h, hub_table *t);

/* Removes the table at position i from memory, with its indexes. */
void hub_table_remove(srv_hub *h, int i);

/* Saves a table's status and seats; returns 0, or -1 with the store's error (the table is
 * marked lost when fencing refused the write). */
int hub_table_save(srv_hub *h, hub_table *t);

/* Asks a computer player to move when one is to move: a bot's seat, or a person's whose turn
 * timer ran out (stand_in). */
void hub_schedule(srv_hub *h, hub_table *t, bool timed_out);

/* Starts the turn timer when a person is to move: the seat's bank and the byoyomi. */
void hub_arm_timer(srv_hub *h, hub_table *t);

/* The turn timer of the seat to move ran out: a person's bank is emptied and the table's choice
 * is played (hub_clock.h); anything else to move (a computer's retried move) is asked again. */
void hub_turn_timed_out(srv_hub *h, hub_table *t);

/* Writes a table's record as JSON and its rounds as history strings, one a line (both
 * malloc'd); returns 0, or -1 when out of memory. */
int hub_record_texts(const hub_table *t, char **json, char **histories);

/* Fills a game's row with its seats' players and names: a seat taken over by a spectator is
 * the game of the person who left it, under the name they started with. */
void hub_game_players(const hub_table *t, srv_game_row *game);

/* Rates a game that ended, finished or abandoned, into its row; leavers lose (hub_table.c). */
void hub_rate_game(srv_hub *h, const hub_table *t, srv_game_row *game);

/* Tells every connection of a rated player of the game its new rating. */
void hub_announce_ratings(srv_hub *h, const srv_game_row *game);

/* The game is over: the record, its history strings and the new ratings are sent to be saved
 * together (io.save_game, or the store at once). */
void hub_finish_game(srv_hub *h, hub_table *t);
/* The outcome of saving the table's finished game (status as srv_store_game_finish's, error its
 * text): saved, the table is over, the players' new ratings told and, when announce is set,
 * its state broadcast (a caller that broadcasts next does not set it); refused, the players are
 * told and it is tried again in 5 s, or the table is lost when fenced. */
void hub_table_game_saved(srv_hub *h, hub_table *t, int status, const char *error, const srv_game_row *game,
                          bool announce);

/* Deals the next round; one that ends at the deal (teyaku, 5 pawns twice) is finished at once. */
void hub_deal_next(srv_hub *h, hub_table *t, bool live);

/* A round is over: it goes into the record; a finished game is saved; otherwise the next round
 * is dealt after the pause (at once when there is none). While restoring (not live) the moves
 * that follow deal it. */
void hub_round_finished(srv_hub *h, hub_table *t, bool live);

/* Plays a move at a table: checked on a copy and sent to be saved (io.save_move, or the
 * store at once); hub_table_move_saved applies and announces it once it is saved. Returns 0
 * (sent), or -1 with the reason in why (refused; nothing changed). client is the player's
 * connection, told if saving fails; 0 for a computer player. */
int hub_table_move(srv_hub *h, hub_table *t, goita_move move, hub_failure *why, uint64_t client);
/* The outcome of saving the table's move (status as srv_store_move_add's, error its text):
 * saved, the move is played, announced and the next turn asked for; refused, the player is told
 * (a computer player is asked again, hub_table_bot_retry) and a fenced table is lost. */
void hub_table_move_saved(srv_hub *h, hub_table *t, int status, const char *error);
/* A computer player's move that could not be played (storage full) is asked for again on the
 * next tick after a second. */
void hub_table_bot_retry(srv_hub *h, hub_table *t);

/* Detaches a client from its table (the seat is kept for its token). */
void hub_detach(srv_hub *h, hub_client *c);

/* Makes a new table, saved, added to the hub and announced to the lobby (when listed): rules as
 * option text ("" for the default), a private one with an invite code, owned by a player (0:
 * none) who must have room for it (hub_table_room). Returns it, or NULL with the reason in why. */
hub_table *hub_table_create(srv_hub *h, int64_t owner, const char *rules, int turn_seconds, bool private_table,
                            hub_failure *why);
/* hub_table_create with the seed of its deals given (its 62 low bits; NULL: a random one), so
 * that a duplicate match deals the same hands at its two tables (hub_match.c). */
hub_table *hub_table_create_seeded(srv_hub *h, int64_t owner, const char *rules, int turn_seconds, bool private_table,
                                   const uint64_t *seed, hub_failure *why);

/* Puts a client's player in a seat (not saved, no client bound) with a new seat token: the
 * seat keeps its hash, token receives the token itself for the `seated` reply. */
void hub_seat_person(srv_hub *h, hub_seat *seat, const hub_client *c, char token[SRV_TOKEN_SIZE]);

/* Puts a computer player of a level in seat number index (named after it; not saved); returns
 * -1 when the store fails. */
int hub_seat_bot(srv_hub *h, hub_seat *seat, int index, const char *level);

/* Binds a client to its seat at a table: the seat's token hash is indexed for resume, a
 * stand-in there stops, the client gets `seated` with the seat token (the one it was given or
 * showed), the table its state and the client the table's chat. */
void hub_take_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, const char *token);

/* Starts the game at a table whose seats are all filled: saved, dealt and announced. Returns 0,
 * or -1 with the reason in why (nothing changed). */
int hub_table_start(srv_hub *h, hub_table *t, hub_failure *why);

/* A spectator takes over the seat of a person gone for good (a computer stands in for them) at
 * a table created with take_over: the seat is theirs with a new token and the seat's bank, the
 * stand-in gives way, and the game stays rated for the one who left (a loss, hub_rate_game).
 * Returns 0, or -1 with the reason in why (nothing changed). */
int hub_take_over_seat(srv_hub *h, hub_client *c, hub_table *t, int seat, hub_failure *why);

/* Makes a client a spectator of a table (its state and chat sent); request names the request
 * for an error. */
void hub_watch(srv_hub *h, hub_client *c, hub_table *t, const char *request);

/* Writes the seats' names and computer levels into the table's record. */
void hub_record_names(hub_table *t);

#endif

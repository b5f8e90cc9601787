/* The requests a client may send (docs/SERVER.md "Messages"), one row each and nowhere else: the
 * parser (protocol.c), the hub's dispatch (hub.c) and the bus's routing (hub_route.c) each
 * expand the columns they need.
 *
 *   X(ID, "name", COST, PLAYER, ENTERS, ROUTE, handler, (fields))
 *
 * COST:   requests taken from the sender's bucket (hub_limits.c): 1 for those that cost the
 *         server work for others (a save, a broadcast, a page of rows, a password hash); moves
 *         are paced by the game, chat lines by their own bucket (hub_chat.c), pings and hellos
 *         by the network layer's.
 * PLAYER: 1 when the sender needs a player row first (a guest's is made on its first such).
 * ENTERS: 1 when the request takes its client to a table (away from the one it was at).
 * ROUTE:  which server serves it when several share a bus (hub_route.c), a srv_route:
 *         HERE (the server it came to), TABLE (the owner of the "table" field's table),
 *         SEAT_TOKEN / INVITE (the owner of the table that token opens), AT (the server of the
 *         table the client is at), MATCHMAKER (the one server keeping the quick-match queue).
 * fields: name, kind (protocol.c's field_kind), required; NO_FIELDS for none. */
#ifndef GOITA_SERVER_REQUESTS_H
#define GOITA_SERVER_REQUESTS_H

/* clang-format off */
#define SRV_REQUESTS(X)                                                                                        \
  X(HELLO,        "hello",        0, 0, 0, HERE,       hub_do_hello,                                            \
    ({"name", F_NAME, false}, {"player_token", F_TOKEN, false}))                                                \
  X(LIST,         "list",         1, 0, 0, HERE,       hub_do_list,                                             \
    ({"after", F_CURSOR, false}, {"limit", F_LIMIT, false}))                                                    \
  X(CREATE,       "create",       1, 1, 0, HERE,       hub_do_create,                                           \
    ({"rules", F_TEXT, false}, {"turn_seconds", F_SECONDS, false}, {"private", F_PRIVATE, false},               \
     {"sit", F_SIT, false}, {"bank_seconds", F_BANK, false}, {"on_timeout", F_ON_TIMEOUT, false},               \
     {"take_over", F_TAKE_OVER, false}))                                                                        \
  X(SIT,          "sit",          1, 1, 1, TABLE,      hub_do_sit,                                              \
    ({"table", F_TABLE, true}, {"seat", F_SEAT, true}))                                                         \
  X(RESUME,       "resume",       1, 0, 1, SEAT_TOKEN, hub_do_resume, ({"seat_token", F_TOKEN, true}))          \
  X(LEAVE,        "leave",        1, 0, 0, AT,         hub_do_leave, (NO_FIELDS))                               \
  X(BOT,          "bot",          1, 0, 0, TABLE,      hub_do_bot,                                              \
    ({"table", F_TABLE, true}, {"seat", F_SEAT, true}, {"level", F_LEVEL, true}))                               \
  X(START,        "start",        1, 0, 0, TABLE,      hub_do_start, ({"table", F_TABLE, true}))                \
  X(MOVE,         "move",         0, 0, 0, TABLE,      hub_do_move,                                             \
    ({"table", F_TABLE, true}, {"move", F_MOVE, true}))                                                         \
  X(WATCH,        "watch",        1, 0, 1, TABLE,      hub_do_watch, ({"table", F_TABLE, true}))                \
  X(GAMES,        "games",        1, 0, 0, HERE,       hub_do_games,                                            \
    ({"before", F_CURSOR, false}, {"limit", F_LIMIT, false}))                                                   \
  X(PING,         "ping",         0, 0, 0, HERE,       hub_do_ping, (NO_FIELDS))                                \
  X(REGISTER,     "register",     1, 0, 0, HERE,       hub_do_register,                                         \
    ({"name", F_NAME, true}, {"password", F_PASSWORD, true}))                                                   \
  X(LOGIN,        "login",        1, 0, 0, HERE,       hub_do_login,                                            \
    ({"name", F_NAME, true}, {"password", F_PASSWORD, true}))                                                   \
  X(LEADERBOARD,  "leaderboard",  1, 0, 0, HERE,       hub_do_leaderboard, (NO_FIELDS))                         \
  X(HISTORY,      "history",      1, 0, 0, HERE,       hub_do_history, ({"player", F_PLAYER, true}))            \
  X(JOIN,         "join",         1, 0, 1, INVITE,     hub_do_join, ({"invite", F_INVITE, true}))               \
  X(QUICK,        "quick",        1, 1, 0, MATCHMAKER, hub_do_quick,                                            \
    ({"rules", F_TEXT, false}, {"wait_seconds", F_WAIT, false}, {"level", F_LEVEL, false}))                     \
  X(QUICK_CANCEL, "quick_cancel", 1, 0, 0, MATCHMAKER, hub_do_quick_cancel, (NO_FIELDS))                        \
  X(REMATCH,      "rematch",      1, 0, 0, TABLE,      hub_do_rematch, ({"table", F_TABLE, true}))              \
  X(CHAT,         "chat",         0, 1, 0, TABLE,      hub_do_chat,                                             \
    ({"table", F_TABLE, true}, {"text", F_CHAT, true}))                                                   \
  X(BOT_CREATE,   "bot_create",   1, 1, 0, HERE,       hub_do_bot_create, ({"name", F_NAME, true}))             \
  X(BOTS,         "bots",         1, 1, 0, HERE,       hub_do_bots, (NO_FIELDS))                                \
  X(BOT_TOKEN,    "bot_token",    1, 1, 0, HERE,       hub_do_bot_token, ({"bot", F_PLAYER, true}))             \
  X(BOT_REVOKE,   "bot_revoke",   1, 1, 0, HERE,       hub_do_bot_revoke, ({"bot", F_PLAYER, true}))            \
  X(BOT_LEADERBOARD, "bot_leaderboard", 1, 0, 0, HERE, hub_do_bot_leaderboard, (NO_FIELDS))                            \
  X(MATCH_CREATE, "match_create", 1, 1, 0, HERE,       hub_do_match_create,                                     \
    ({"name", F_NAME, true}, {"bot", F_PLAYER, true}, {"opponent", F_OPPONENT, false},                          \
     {"level", F_LEVEL, false}, {"deals", F_DEALS, true}))                                                      \
  X(MATCH,        "match",        1, 0, 0, HERE,       hub_do_match, ({"match", F_MATCH, true}))                              \
  X(CHALLENGE,    "challenge",    1, 1, 0, HERE,       hub_do_challenge,                                        \
    ({"bot", F_PLAYER, true}, {"rules", F_TEXT, false}, {"turn_seconds", F_SECONDS, false}))                    \
  X(CHALLENGE_DECLINE, "challenge_decline", 1, 0, 0, HERE, hub_do_challenge_decline, ({"table", F_TABLE, true})) \
  X(STATS,        "stats",        1, 0, 0, HERE,       hub_do_stats, ({"player", F_PLAYER, true})) \
  KS_REQUESTS(X)

/* Ko shogi tables (hub_ks.c, docs/SERVER.md "Ko shogi"): made on the server asked (HERE), then
 * served by the server that owns them (TABLE, INVITE) as Goita's are; their numbers from
 * SRV_KS_TABLE_BASE up, apart from Goita's. */
#define KS_REQUESTS(X)                                                                                         \
  X(KS_CREATE,    "ks_create",    1, 1, 0, HERE,       hub_do_ks_create,                                        \
    ({"main_minutes", F_KS_MAIN, false}, {"byoyomi_seconds", F_KS_BYOYOMI, false}, {"side", F_KS_SIDE, false},  \
     {"level", F_KS_LEVEL, false}, {"private", F_PRIVATE, false}))                                              \
  X(KS_SIT,       "ks_sit",       1, 1, 0, TABLE,      hub_do_ks_sit,                                           \
    ({"table", F_TABLE, true}, {"side", F_KS_SIDE, true}))                                                      \
  X(KS_WATCH,     "ks_watch",     1, 0, 0, TABLE,      hub_do_ks_watch, ({"table", F_TABLE, true}))             \
  X(KS_JOIN,      "ks_join",      1, 0, 0, INVITE,     hub_do_ks_join, ({"invite", F_INVITE, true}))            \
  X(KS_MOVE,      "ks_move",      0, 0, 0, TABLE,      hub_do_ks_move,                                          \
    ({"table", F_TABLE, true}, {"move", F_KS_MOVE, true}))                                                      \
  X(KS_RESIGN,    "ks_resign",    1, 0, 0, TABLE,      hub_do_ks_resign, ({"table", F_TABLE, true}))            \
  X(KS_DRAW,      "ks_draw",      1, 0, 0, TABLE,      hub_do_ks_draw,                                          \
    ({"table", F_TABLE, true}, {"answer", F_KS_DRAW, true}))                                                    \
  X(KS_REMATCH,   "ks_rematch",   1, 0, 0, TABLE,      hub_do_ks_rematch, ({"table", F_TABLE, true}))         \
  X(KS_LEADERBOARD, "ks_leaderboard", 1, 0, 0, HERE,   hub_do_ks_leaderboard, (NO_FIELDS))                   \
  X(KS_HISTORY,   "ks_history",   1, 0, 0, HERE,       hub_do_ks_history, ({"player", F_PLAYER, true}))
/* clang-format on */

/* Where a request is served when several servers share a bus (the ROUTE column). */
typedef enum srv_route {
  SRV_ROUTE_HERE,
  SRV_ROUTE_TABLE,
  SRV_ROUTE_SEAT_TOKEN,
  SRV_ROUTE_INVITE,
  SRV_ROUTE_AT,
  SRV_ROUTE_MATCHMAKER
} srv_route;

#endif

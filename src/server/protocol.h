/* The messages between the browser and the server (docs/SERVER.md): JSON objects with a "type".
 * Requests are validated strictly: unknown fields, wrong types, values out of range and
 * oversized messages are errors that say which field and why. Replies to a seat are built from
 * that seat's view and nothing else. */
#ifndef GOITA_SERVER_PROTOCOL_H
#define GOITA_SERVER_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "goita/goita.h"
#include "requests.h"
#include "secret.h"
#include "store.h"

/* The largest message a client may send. */
#define SRV_MAX_REQUEST 4096

/* The most rows a page of tables or games may ask for (`limit`), and how many come unasked. */
#define SRV_MAX_PAGE 200
#define SRV_DEFAULT_PAGE 50

/* SRV_HELLO, SRV_LIST, ...: one per row of the request table (requests.h). */
typedef enum srv_request_type {
#define SRV_REQUEST_ENUM(id, ...) SRV_##id,
  SRV_REQUESTS(SRV_REQUEST_ENUM)
#undef SRV_REQUEST_ENUM
  SRV_REQUEST_COUNT
} srv_request_type;

/* A request type's name on the wire ("hello"), or NULL for one out of range. */
const char *srv_request_name(int type);

/* The most deals a duplicate match may have (each is played twice). */
#define SRV_MATCH_MAX_DEALS 100

/* A Ko shogi table's clock (ks_create): at most this main time and byoyomi. */
#define SRV_KS_MAIN_MINUTES_MAX 180
#define SRV_KS_BYOYOMI_SECONDS_MAX 300

/* A chat line: at most this many characters (Unicode code points), so at most four times as
 * many bytes of UTF-8. */
#define SRV_CHAT_CHARS 200
#define SRV_CHAT_SIZE (4 * SRV_CHAT_CHARS + 1)

typedef struct srv_request {
  int type;
  char name[SRV_NAME_SIZE];
  char token[SRV_TOKEN_SIZE]; /* player_token (hello) or seat_token (resume) */
  char rules[512];
  int turn_seconds;
  int64_t table;
  int seat;
  char level[SRV_LEVEL_SIZE];
  goita_move move;
  char move_text[16];
  int64_t cursor; /* list: tables after this id; games: games before this id (0: from the start) */
  int limit;      /* rows in a page, 0 when not given */
  char password[SRV_PASSWORD_MAX + 1];
  int64_t player;
  bool private_table;           /* create: "private": true */
  bool sit_down;                /* create: "sit": true seats the creator in the first seat */
  char invite[SRV_TOKEN_SIZE];  /* join */
  int wait_seconds;             /* quick: -1 when not given */
  char text[SRV_CHAT_SIZE];     /* chat */
  int bank_seconds;             /* create: each person's time bank, 0 for none */
  int on_timeout;               /* create: srv_on_timeout */
  bool take_over;               /* create: a spectator may take over a gone person's seat */
  int64_t opponent;             /* match_create: the other bot account, 0 when a level plays */
  int deals;                    /* match_create */
  int64_t match;                /* match */
  struct {                      /* Ko shogi requests (ks_*) */
    int main_minutes;           /* ks_create: -1 when not given */
    int byoyomi_seconds;        /* ks_create: -1 when not given */
    int side;                   /* ks_create, ks_sit: KS_BLACK or KS_WHITE, -1 when not given */
    int draw;                   /* ks_draw: srv_ks_draw_answer */
    char move[64];              /* ks_move: the move in notation (KS_MOVE_TEXT), checked by the table */
  } ks;
} srv_request;

/* ks_draw's answer field. */
typedef enum srv_ks_draw_answer { SRV_KS_DRAW_OFFER = 0, SRV_KS_DRAW_ACCEPT, SRV_KS_DRAW_DECLINE } srv_ks_draw_answer;

/* Reads one request. On error returns -1 with the reason in err, e.g.
 * "field \"seat\": expected an integer from 0 to 3", or SRV_PARSE_NOMEM when memory ran out
 * while reading it (the text may be right). */
#define SRV_PARSE_NOMEM (-2)
int srv_request_parse(const char *text, size_t len, srv_request *req, char *err, size_t errsize);

/* jansson's allocations, made through the server's own functions once srv_json_setup has run
 * (srv_hub_new runs it), so that a failed one is seen: jansson 2.14 goes on after some failures
 * without saying so (its lexer drops the byte it had no room for; json_dumps leaves out an
 * object's key), which would make a good request look bad or send a client broken JSON. */
void srv_json_setup(void);
struct json_t;
/* How many of jansson's allocations have failed in this thread since it started. */
unsigned long srv_json_failures(void);
/* json_dumps(msg, flags), but NULL when memory ran out on the way; msg may be NULL (then NULL).
 * The text is malloc'd. */
char *srv_json_text(const struct json_t *msg, size_t flags);

/* What a state message says about a table besides the view. */
typedef struct srv_table_info {
  int64_t id;
  int status; /* srv_table_status */
  const char *rules;
  int turn_seconds;
  int seconds_left; /* of the turn timer, -1 when none runs */
  int bank_seconds; /* each person's time bank at the start, 0: none */
  int on_timeout;   /* srv_on_timeout */
  bool take_over;   /* a spectator may take over a gone person's seat */
  int players;
  struct {
    const char *name; /* NULL: empty seat */
    const char *bot;  /* level, or "" for a person */
    double rating;
    int connected;
    int stand_in; /* a computer player moves for the gone person until they resume */
    int bank_left; /* seconds of its time bank left at the start of its turn (with a bank) */
    bool bot_account; /* a program's account (docs/SERVER.md "Bots") */
  } seats[GOITA_MAX_SEATS];
  int64_t game_id;                /* once the game is over and saved */
  const char *previous_round;     /* for spectators: the last finished round in full, or NULL */
  const char *invite;             /* a private table's invite code, NULL for a listed table */
  struct {
    bool asked[GOITA_MAX_SEATS]; /* seats whose players asked for a rematch */
    int seconds_left;            /* until the rematch starts with those who asked; -1: none asked */
    int64_t table;               /* the rematch's table once it exists, else 0 */
  } rematch;
} srv_table_info;

/* The state message for one viewer (a seat, or -1 for a spectator): table information and,
 * once the game has started, what
 * the view holds (own hand, rows with unseen pieces as 0, history with unseen as x, scores,
 * legal moves when it is the viewer's turn). Returns a malloc'd string or NULL. */
char *srv_message_state(const srv_table_info *table, int seat, const goita_view *view);

/* The errors a client may be sent, each with a stable code that programs act on (the browser
 * keeps or drops a seat token by it, and translates by it); the text is for people. retry:
 * whether the error says when to try again (retry_ms). docs/SERVER.md "Errors" lists them all. */
/* clang-format off */
#define SRV_ERRORS(X)                                                                                          \
  X(BAD_REQUEST,      "bad_request",      0, "not JSON, an unknown type or field, a field out of range, a binary or too long message: the text says which") \
  X(RATE_LIMITED,     "rate_limited",     1, "too many requests, messages or chat lines in a short time")      \
  X(SERVER_BUSY,      "server_busy",      1, "the server is out of memory or has its most open tables")        \
  X(STORAGE_FAILED,   "storage_failed",   1, "the database failed or refused a read or write (nothing changed)") \
  X(SERVER_UNAVAILABLE, "server_unavailable", 1, "the server serving the table (or the quick-match queue) is not reachable now") \
  X(LINK_LOST,        "link_lost",        0, "this server lost its link to the server of your table: you are sent there again when it is back") \
  X(HELLO_FIRST,      "hello_first",      0, "the request needs a player: say hello first")                    \
  X(TABLE_UNKNOWN,    "table_unknown",    0, "no open table has this number")                                  \
  X(TABLE_PRIVATE,    "table_private",    0, "the table is private: join it with its invite code")             \
  X(TABLE_STARTED,    "table_started",    0, "the table's game has started: its seats are taken")              \
  X(INVITE_UNKNOWN,   "invite_unknown",   0, "no open table has this invite code")                             \
  X(SEAT_UNKNOWN,     "seat_unknown",     0, "no seat has this seat token (the game may be over): the token is worthless") \
  X(SEAT_INVALID,     "seat_invalid",     0, "the table has fewer seats")                                      \
  X(SEAT_TAKEN,       "seat_taken",       0, "someone sits in that seat")                                      \
  X(ALREADY_SEATED,   "already_seated",   0, "you sit at this table already")                                  \
  X(SEAT_TAKEN_BACK,  "seat_taken_back",  0, "your seat was taken back by its token from another connection")  \
  X(NOT_SEATED,       "not_seated",       0, "the request is for a player seated at the table")                \
  X(NOT_AT_TABLE,     "not_at_table",     0, "you neither sit at nor watch that table")                        \
  X(WRONG_SEAT,       "wrong_seat",       0, "the move is another seat's")                                     \
  X(ILLEGAL_MOVE,     "illegal_move",     0, "the rules refuse the move: the text says why")                   \
  X(NOT_PLAYING,      "not_playing",      0, "no round is being played at the table (not started, between rounds, or over)") \
  X(SEATS_EMPTY,      "seats_empty",      0, "the game cannot start with an empty seat")                       \
  X(RULES_INVALID,    "rules_invalid",    0, "the rule options are not valid: the text says which")            \
  X(TOO_MANY_TABLES,  "too_many_tables",  0, "you have the most open tables a player may have")                \
  X(GAME_NOT_OVER,    "game_not_over",    0, "a rematch is asked after the game is over")                      \
  X(REMATCH_STARTED,  "rematch_started",  0, "the rematch started without you")                                \
  X(NAME_RESERVED,    "name_reserved",    0, "the name is kept for computer players, guests or the server's operators")                          \
  X(NAME_TAKEN,       "name_taken",       0, "another player registered the name")                             \
  X(ALREADY_REGISTERED, "already_registered", 0, "you have claimed a name already")                            \
  X(PASSWORD_COMMON,  "password_common",  0, "the password is one of the most common ones")                    \
  X(LOGIN_FAILED,     "login_failed",     0, "wrong name or password")                                         \
  X(LOGIN_THROTTLED,  "login_throttled",  1, "too many wrong passwords for the name, or from your address, lately")                    \
  X(REQUEST_PENDING,  "request_pending",  0, "your last register or login is still being checked")             \
  X(PLAYER_UNKNOWN,   "player_unknown",   0, "no player has this number")                                      \
  X(NOT_QUEUED,       "not_queued",       0, "you are not in the quick-match queue")                           \
  X(QUEUE_MOVED,      "queue_moved",      0, "your place in the quick-match queue moved to another connection") \
  X(QUEUE_LOST,       "queue_lost",       0, "your place in the quick-match queue was given up (its server went away): ask again") \
  X(GAME_NOT_SAVED,   "game_not_saved",   0, "the finished game is not saved yet: the server keeps trying") \
  X(DRAW_NOT_OFFERED, "draw_not_offered", 0, "your opponent has no draw offer standing to answer") \
  X(MESSAGE_LOST,     "message_lost",     0, "the server ran out of memory for a message to you: resume or watch to see the table again") \
  X(NOT_REGISTERED,   "not_registered",   0, "only a person who has claimed a name (not a guest, not a bot) may do this") \
  X(TOO_MANY_BOTS,    "too_many_bots",    0, "you have the most bot accounts a person may have")               \
  X(BOT_UNKNOWN,      "bot_unknown",      0, "you own no bot account with this number")                        \
  X(BOT_REVOKED,      "bot_revoked",      0, "the bot's token was revoked or replaced: say hello again with a valid one") \
  X(MATCH_UNKNOWN,    "match_unknown",    0, "no duplicate match has this number")                             \
  X(MATCH_INVALID,    "match_invalid",    0, "a match is between a bot account and another bot account or a level: the text says what is wrong") \
  X(BOT_BUSY,         "bot_busy",         0, "the bot is not connected here, or plays at another table: challenge it later") \
  X(NOT_CHALLENGED,   "not_challenged",   0, "no challenge to you waits at that table") \
  X(MOVE_PENDING,     "move_pending",     0, "the table's last move is still being saved: the new state follows")
/* clang-format on */

typedef enum srv_error {
  SRV_ERROR_NONE, /* no error: never sent */
#define SRV_ERROR_ENUM(id, ...) SRV_ERR_##id,
  SRV_ERRORS(SRV_ERROR_ENUM)
#undef SRV_ERROR_ENUM
  SRV_ERROR_COUNT
} srv_error;

/* An error's code on the wire ("seat_unknown"), NULL for SRV_ERROR_NONE or one out of range. */
const char *srv_error_code(int error);
/* What an error means (its row's text), NULL out of range. */
const char *srv_error_meaning(int error);
/* Whether the error says when to try again (retry_ms). */
bool srv_error_retries(int error);

/* {"type":"error","code":...,"error":...,"retry_ms":...}; `request` names the request type when
 * known; retry_ms is left out when 0. */
char *srv_message_error(const char *request, srv_error code, int64_t retry_ms, const char *text);

#endif

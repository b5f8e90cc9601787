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
#include "secret.h"
#include "store.h"

/* The largest message a client may send. */
#define SRV_MAX_REQUEST 4096

/* The most rows a page of tables or games may ask for (`limit`), and how many come unasked. */
#define SRV_MAX_PAGE 200
#define SRV_DEFAULT_PAGE 50

typedef enum srv_request_type {
  SRV_HELLO,  /* name, player_token: who I am (a new player when there is no token) */
  SRV_LIST,   /* after, limit: a page of the open tables, and their changes from now on */
  SRV_CREATE, /* rules, turn_seconds, private, sit: a new table */
  SRV_SIT,    /* table, seat */
  SRV_RESUME, /* seat_token: take back a seat after a reload or a lost connection */
  SRV_LEAVE,  /* leave the seat (before the game starts) or stop watching */
  SRV_BOT,    /* table, seat, level: a computer player in a seat */
  SRV_START,  /* table */
  SRV_MOVE,   /* table, move */
  SRV_WATCH,  /* table */
  SRV_GAMES,  /* before, limit: a page of the finished games, newest first */
  SRV_PING,
  SRV_REGISTER,    /* name, password: claim a name for this player */
  SRV_LOGIN,       /* name, password: be the player who claimed the name (another device) */
  SRV_LEADERBOARD, /* the best rated players */
  SRV_HISTORY,     /* player: a player's newest rating changes */
  SRV_JOIN,         /* invite: watch a private table, and be let sit at it */
  SRV_QUICK,        /* rules, wait_seconds, level: wait for a quick match */
  SRV_QUICK_CANCEL, /* leave the quick-match queue */
  SRV_REMATCH,      /* table: the same seats again at a new table, after a game */
  SRV_CHAT          /* table, text: a line to everyone at the table */
} srv_request_type;

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
} srv_request;

/* Reads one request. On error returns -1 with the reason in err, e.g.
 * "field \"seat\": expected an integer from 0 to 3". */
int srv_request_parse(const char *text, size_t len, srv_request *req, char *err, size_t errsize);

/* What a state message says about a table besides the view. */
typedef struct srv_table_info {
  int64_t id;
  int status; /* srv_table_status */
  const char *rules;
  int turn_seconds;
  int seconds_left; /* of the turn timer, -1 when none runs */
  int players;
  struct {
    const char *name; /* NULL: empty seat */
    const char *bot;  /* level, or "" for a person */
    double rating;
    int connected;
    int stand_in; /* a computer player moves for the gone person until they resume */
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

/* {"type":"error","error":...}; `request` names the request type when known. */
char *srv_message_error(const char *request, const char *text);

#endif

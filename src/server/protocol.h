/* The messages between the browser and the server (docs/SERVER.md): JSON objects with a "type".
 * Requests are validated strictly: unknown fields, wrong types, values out of range and
 * oversized messages are errors that say which field and why. Replies to a seat are built from
 * that seat's view and nothing else. */
#ifndef GOITA_SERVER_PROTOCOL_H
#define GOITA_SERVER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "goita/goita.h"
#include "store.h"

/* The largest message a client may send. */
#define SRV_MAX_REQUEST 4096

/* The most rows a page of tables or games may ask for (`limit`), and how many come unasked. */
#define SRV_MAX_PAGE 200
#define SRV_DEFAULT_PAGE 50

typedef enum srv_request_type {
  SRV_HELLO,  /* name, player_token: who I am (a new player when there is no token) */
  SRV_LIST,   /* after, limit: a page of the open tables, and their changes from now on */
  SRV_CREATE, /* rules, turn_seconds: a new table */
  SRV_SIT,    /* table, seat */
  SRV_RESUME, /* seat_token: take back a seat after a reload or a lost connection */
  SRV_LEAVE,  /* leave the seat (before the game starts) or stop watching */
  SRV_BOT,    /* table, seat, level: a computer player in a seat */
  SRV_START,  /* table */
  SRV_MOVE,   /* table, move */
  SRV_WATCH,  /* table */
  SRV_GAMES,  /* before, limit: a page of the finished games, newest first */
  SRV_PING
} srv_request_type;

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
} srv_table_info;

/* The state message for one viewer (a seat, or -1 for a spectator): table information and,
 * once the game has started, what
 * the view holds (own hand, rows with unseen pieces as 0, history with unseen as x, scores,
 * legal moves when it is the viewer's turn). Returns a malloc'd string or NULL. */
char *srv_message_state(const srv_table_info *table, int seat, const goita_view *view);

/* {"type":"error","error":...}; `request` names the request type when known. */
char *srv_message_error(const char *request, const char *text);

#endif

/* goita bot: the reference client of a bot account (docs/SERVER.md "Bots"). It connects to a
 * goita server's WebSocket (libwebsockets in client mode), says hello with the bot's token,
 * takes a free seat at a waiting table (a given one, or the first in the lobby a person waits
 * at), and answers each decision it is asked with a level's move or an engine's
 * (docs/PROTOCOL.md). It sees only what the server sends its seat: the view is read back from
 * the state's history string, as the seat sees it. */
#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct bot_opts {
  const char *server, *token, *player, *engine;
  uint64_t table, games, seed;
} bot_opts;

typedef struct bot_client {
  const bot_opts *o;
  goita_player *player; /* --player's level, NULL with --engine */
  cli_engine engine;
  bool engine_started;
  char engine_rules[GOITA_RULES_TEXT_SIZE]; /* the rules the engine was started with */
  struct lws *wsi;
  char *in; /* a message being put together from its fragments */
  size_t in_len, in_cap;
  char *out[16]; /* messages waiting for the socket, oldest first */
  int nout;
  int64_t table; /* where it sits, 0 when nowhere (or where it asked to) */
  int seat;
  bool asked;    /* a sit is out and not answered */
  char answered[1024]; /* the history it last moved at: a state sent again asks nothing new */
  uint64_t games;
  uint64_t seed;
  int status; /* the exit status once done */
  bool done;
} bot_client;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

static void finish(bot_client *b, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void finish(bot_client *b, int status, const char *fmt, ...) {
  if (b->done) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(status ? stderr : stdout, "goita bot: ");
  vfprintf(status ? stderr : stdout, fmt, ap);
  fprintf(status ? stderr : stdout, "\n");
  va_end(ap);
  fflush(stdout);
  b->status = status;
  b->done = true;
}

/* Queues a message (taking it) and asks to be told when the socket can take it. */
static void send_json(bot_client *b, json_t *msg) {
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  if (!text || b->nout == (int)(sizeof b->out / sizeof b->out[0])) {
    free(text);
    finish(b, 1, "out of memory, or the server does not read");
    return;
  }
  b->out[b->nout++] = text;
  lws_callback_on_writable(b->wsi);
}

/* Whether a lobby row is a table to sit at: waiting, with a free seat and a person (not a
 * computer, not a bot) already seated, or the table --table names. Sets *seat to the free seat. */
static bool worth_sitting(const bot_client *b, json_t *row, int *seat) {
  const json_int_t id = json_integer_value(json_object_get(row, "id"));
  const char *status = json_string_value(json_object_get(row, "status"));
  if (!status || strcmp(status, "waiting") != 0) return false;
  if (b->o->table && (uint64_t)id != b->o->table) return false;
  json_t *seats = json_object_get(row, "seats");
  bool person = false;
  *seat = -1;
  for (size_t s = 0; s < json_array_size(seats); s++) {
    json_t *who = json_array_get(seats, s);
    const char *level = json_string_value(json_object_get(who, "bot"));
    if (json_is_null(who)) {
      if (*seat < 0) *seat = (int)s;
    } else if (!json_is_true(json_object_get(who, "bot_account")) && !(level && *level)) {
      person = true;
    }
  }
  return *seat >= 0 && (person || b->o->table);
}

static void consider(bot_client *b, json_t *row) {
  int seat;
  if (b->table || b->asked || !worth_sitting(b, row, &seat)) return;
  const json_int_t id = json_integer_value(json_object_get(row, "id"));
  b->asked = true;
  b->table = id;
  send_json(b, json_pack("{s:s, s:I, s:i}", "type", "sit", "table", id, "seat", seat));
}

/* The bot's move at the state's position: the level's or the engine's choice from the seat's
 * view, read back from its history string. */
static bool choose(bot_client *b, json_t *state, json_t *game, goita_move *move) {
  const char *rules_text = json_string_value(json_object_get(state, "rules"));
  const char *history = json_string_value(json_object_get(game, "history"));
  goita_rules rules;
  goita_error err;
  if (!rules_text || !history || goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) {
    finish(b, 1, "the server's state has no rules or history this client reads");
    return false;
  }
  goita_view view;
  if (goita_history_parse_view(&view, &rules, history, b->seat, &err) != GOITA_OK) {
    finish(b, 1, "the state's history \"%s\" does not read: %s", history, err.message);
    return false;
  }
  json_t *scores = json_object_get(game, "scores");
  for (size_t side = 0; side < json_array_size(scores) && side < GOITA_MAX_SEATS; side++)
    view.score[side] = (int16_t)json_integer_value(json_array_get(scores, side));
  b->seed = b->seed * 6364136223846793005u + 1442695040888963407u;
  if (b->player) {
    goita_player_seed(b->player, b->seed);
    if (goita_player_choose(b->player, &view, move, NULL) != GOITA_OK) {
      finish(b, 1, "the level chose no move at %s", history);
      return false;
    }
    return true;
  }
  if (b->engine_started && strcmp(b->engine_rules, rules_text) != 0) { /* a table under other rules */
    cli_engine_stop(&b->engine);
    b->engine_started = false;
  }
  if (!b->engine_started) {
    if (!cli_engine_start(&b->engine, b->o->engine, &rules, 10000)) {
      finish(b, 1, "--engine: %s", b->engine.why);
      return false;
    }
    b->engine_started = true;
    snprintf(b->engine_rules, sizeof b->engine_rules, "%s", rules_text);
  }
  if (!cli_engine_move(&b->engine, &view, b->seed, move)) {
    finish(b, 1, "--engine: %s", b->engine.why);
    return false;
  }
  return true;
}

static void on_state(bot_client *b, json_t *msg) {
  if (json_integer_value(json_object_get(msg, "table")) != b->table) return;
  const char *status = json_string_value(json_object_get(msg, "status"));
  if (status && strcmp(status, "over") == 0) {
    b->games++;
    printf("goita bot: game over at table %lld (game %lld)\n", (long long)b->table,
           (long long)json_integer_value(json_object_get(msg, "game_id")));
    fflush(stdout);
    b->table = 0;
    b->answered[0] = '\0';
    send_json(b, json_pack("{s:s}", "type", "leave"));
    if (b->o->games && b->games >= b->o->games)
      finish(b, 0, "played %llu games", (unsigned long long)b->games);
    else
      send_json(b, json_pack("{s:s}", "type", "list"));
    return;
  }
  json_t *game = json_object_get(msg, "game");
  json_t *legal = json_object_get(game, "legal");
  const char *history = json_string_value(json_object_get(game, "history"));
  if (!json_array_size(legal) || !history || strcmp(history, b->answered) == 0) return;
  goita_move move;
  if (!choose(b, msg, game, &move)) return;
  char token[16];
  goita_move_format(move, token, sizeof token);
  snprintf(b->answered, sizeof b->answered, "%s", history);
  send_json(b, json_pack("{s:s, s:I, s:s}", "type", "move", "table", (json_int_t)b->table, "move", token));
}

static void on_error(bot_client *b, json_t *msg) {
  const char *code = json_string_value(json_object_get(msg, "code"));
  const char *request = json_string_value(json_object_get(msg, "request"));
  const char *text = json_string_value(json_object_get(msg, "error"));
  fprintf(stderr, "goita bot: the server refused %s: %s\n", request ? request : "a request", text ? text : "");
  if (!code || strcmp(code, "bot_revoked") == 0 || strcmp(code, "hello_first") == 0) {
    finish(b, 1, "the bot's token no longer works");
  } else if (request && strcmp(request, "sit") == 0) { /* someone was quicker: look again */
    b->asked = false;
    b->table = 0;
    send_json(b, json_pack("{s:s}", "type", "list"));
  }
}

static void on_message(bot_client *b, const char *text, size_t len) {
  json_t *msg = json_loadb(text, len, 0, NULL);
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (!type) {
    json_decref(msg);
    return;
  }
  if (strcmp(type, "welcome") == 0) {
    json_t *me = json_object_get(msg, "player");
    if (!json_is_true(json_object_get(me, "bot_account"))) {
      finish(b, 1, "this token is not a bot account's (its owner makes one with bot_create)");
    } else {
      printf("goita bot: playing as %s\n", json_string_value(json_object_get(me, "name")));
      fflush(stdout);
      send_json(b, json_pack("{s:s}", "type", "list"));
    }
  } else if (strcmp(type, "tables") == 0) {
    json_t *rows = json_object_get(msg, "tables");
    for (size_t i = 0; i < json_array_size(rows); i++) consider(b, json_array_get(rows, i));
  } else if (strcmp(type, "lobby") == 0) {
    consider(b, json_object_get(msg, "table"));
  } else if (strcmp(type, "challenge") == 0) { /* accepted when free, else declined */
    const json_int_t table = json_integer_value(json_object_get(msg, "table"));
    printf("goita bot: challenged by %s at table %lld\n", json_string_value(json_object_get(msg, "from")), (long long)table);
    fflush(stdout);
    if (b->table || b->asked) {
      send_json(b, json_pack("{s:s, s:I}", "type", "challenge_decline", "table", table));
    } else {
      b->asked = true;
      b->table = table;
      send_json(b, json_pack("{s:s, s:I, s:O}", "type", "sit", "table", table, "seat", json_object_get(msg, "seat")));
    }
  } else if (strcmp(type, "seated") == 0) {
    b->asked = false;
    b->table = json_integer_value(json_object_get(msg, "table"));
    b->seat = (int)json_integer_value(json_object_get(msg, "seat"));
    printf("goita bot: seated at table %lld, seat %d\n", (long long)b->table, b->seat + 1);
    fflush(stdout);
  } else if (strcmp(type, "state") == 0) {
    on_state(b, msg);
  } else if (strcmp(type, "error") == 0) {
    on_error(b, msg);
  }
  json_decref(msg);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  (void)user;
  bot_client *b = lws_context_user(lws_get_context(wsi));
  switch (reason) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED:
    send_json(b, json_pack("{s:s, s:s}", "type", "hello", "player_token", b->o->token));
    break;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    if (b->in_len + len + 1 > b->in_cap) {
      const size_t cap = (b->in_len + len + 1) * 2;
      char *grown = realloc(b->in, cap);
      if (!grown) {
        finish(b, 1, "out of memory");
        return -1;
      }
      b->in = grown;
      b->in_cap = cap;
    }
    memcpy(b->in + b->in_len, in, len);
    b->in_len += len;
    if (lws_is_final_fragment(wsi)) {
      on_message(b, b->in, b->in_len);
      b->in_len = 0;
    }
    break;
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    if (b->nout > 0) {
      const size_t n = strlen(b->out[0]);
      unsigned char *buf = malloc(LWS_PRE + n);
      if (!buf) return -1;
      memcpy(buf + LWS_PRE, b->out[0], n);
      const int wrote = lws_write(wsi, buf + LWS_PRE, n, LWS_WRITE_TEXT);
      free(buf);
      free(b->out[0]);
      memmove(b->out, b->out + 1, (size_t)--b->nout * sizeof b->out[0]);
      if (wrote < (int)n) return -1;
      if (b->nout) lws_callback_on_writable(wsi);
    }
    break;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    finish(b, 1, "cannot connect to %s: %s", b->o->server, in ? (const char *)in : "no reason given");
    b->wsi = NULL;
    break;
  case LWS_CALLBACK_CLIENT_CLOSED:
    finish(b, 1, "the server closed the connection");
    b->wsi = NULL;
    break;
  default:
    break;
  }
  return 0;
}

static const struct lws_protocols protocols[] = {
    {"goita", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Connects and serves until done; returns the exit status. */
static int run(bot_client *b) {
  char url[512];
  snprintf(url, sizeof url, "%s", b->o->server);
  const char *scheme, *address, *rest;
  int port;
  if (lws_parse_uri(url, &scheme, &address, &port, &rest) != 0 || !*address) {
    fprintf(stderr, "goita bot: --server \"%s\": expected a URL such as ws://localhost:8080/\n", b->o->server);
    return 2;
  }
  const bool tls = strcmp(scheme, "wss") == 0 || strcmp(scheme, "https") == 0;
  if (!tls && strcmp(scheme, "ws") != 0 && strcmp(scheme, "http") != 0) {
    fprintf(stderr, "goita bot: --server \"%s\": the scheme must be ws, wss, http or https\n", b->o->server);
    return 2;
  }
  char path[512];
  snprintf(path, sizeof path, "/%s", rest);
  lws_set_log_level(LLL_ERR, NULL);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = protocols;
  info.user = b;
  if (tls) info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
  struct lws_context *ctx = lws_create_context(&info);
  if (!ctx) {
    fprintf(stderr, "goita bot: cannot start the WebSocket client\n");
    return 1;
  }
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = ctx;
  ci.address = address;
  ci.port = port;
  ci.path = path;
  ci.host = address;
  ci.protocol = "goita";
  ci.ssl_connection = tls ? LCCSCF_USE_SSL : 0;
  ci.pwsi = &b->wsi;
  if (!lws_client_connect_via_info(&ci)) finish(b, 1, "cannot connect to %s", b->o->server);
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  while (!b->done && !interrupted && lws_service(ctx, 250) >= 0) {
  }
  /* What was queued before the end (the `leave` after the last game) goes out first: the
   * server then hears the bot leave its table, not only its connection drop. */
  for (int waits = 0; b->wsi && b->nout > 0 && waits < 8 && lws_service(ctx, 250) >= 0; waits++) {
  }
  if (interrupted) finish(b, 0, "stopped after %llu games", (unsigned long long)b->games);
  lws_context_destroy(ctx);
  return b->status;
}

int cmd_bot(int argc, char **argv) {
  bot_opts o = {.server = NULL, .token = NULL, .player = "expert", .engine = NULL, .seed = 1};
  bool player_given = false;
  const cli_option options[] = {
      {"--server", CLI_TEXT, "URL", &o.server, "the server's address: ws://HOST:PORT/ (or wss://, http://, https://)",
       .fallback = "required"},
      {"--token", CLI_TEXT, "T", &o.token, "the bot account's token (bot_create gives it, docs/SERVER.md \"Bots\")",
       .fallback = "required"},
      {.name = "--player", .kind = CLI_TEXT, .value = "SPEC", .target = &o.player,
       .help = "the level that chooses the bot's moves, with parameters", .given = &player_given},
      {"--engine", CLI_TEXT, "COMMAND", &o.engine,
       "instead of a level, a program speaking docs/PROTOCOL.md, run with sh -c", .fallback = "none"},
      {"--table", CLI_UINT, "N", &o.table, "sit only at this table (a free seat of it)", .hi = UINT64_MAX / 2,
       .fallback = "the first waiting table a person sits at"},
      {"--games", CLI_UINT, "N", &o.games, "stop after this many games", .hi = 1000000, .fallback = "never"},
      {"--seed", CLI_UINT, "S", &o.seed, "the seed of the level's choices", .hi = UINT64_MAX},
  };
  const cli_command c = {
      .program = "goita",
      .name = "bot",
      .about = "Plays on a goita server as a bot account: says hello with the bot's token, sits at a free seat\n"
               "of a waiting table (the one --table names, or the first a person waits at in the lobby) and\n"
               "answers every decision with the level's move, or the engine's. It sees only its seat's view.\n"
               "It accepts people's challenges while free, and plays the duplicate matches it is entered in.\n",
      .notes = "A registered person makes the bot account and its token over the WebSocket (bot_create,\n"
               "docs/SERVER.md \"Bots\"). SPEC as for goita watch (docs/PLAYERS.md).\n",
      .examples = "goita bot --server ws://localhost:8080/ --token T\n"
                  "goita bot --server wss://goita.example/ --token T --engine ./ai --games 9",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (!o.server) return cli_usage_error(&c, "--server is required");
  if (!o.token) return cli_usage_error(&c, "--token is required");
  if (o.engine && player_given) return cli_usage_error(&c, "give --player or --engine, not both");
  bot_client b;
  memset(&b, 0, sizeof b);
  b.o = &o;
  b.seed = o.seed;
  if (!o.engine) {
    goita_error err;
    if (goita_player_new(&b.player, o.player, &err) != GOITA_OK) {
      fprintf(stderr, "goita bot: --player \"%s\": %s\n", o.player, err.message);
      return 2;
    }
  }
  const int status = run(&b);
  if (b.engine_started) cli_engine_stop(&b.engine);
  if (b.player) goita_player_free(b.player);
  for (int i = 0; i < b.nout; i++) free(b.out[i]);
  free(b.in);
  return status;
}

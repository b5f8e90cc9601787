/* The network side of goita serve (serve.h): libwebsockets serves the static browser client,
 * record downloads (/records/ID.json, /records/ID.txt) and the "goita" WebSocket protocol, on
 * connections that net_listen.c accepts. Each connection is held to the limits of
 * srv_net_limits (docs/SERVER.md, "Limits"). Everything runs on the event-loop thread except
 * the computer players (bots.c), whose answers come back through lws_cancel_service. */
#include <errno.h>
#include <libwebsockets.h>
#include <linux/sockios.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "analyst.h"
#include "bots.h"
#include "ks_bots.h"
#include "bus.h"
#include "log.h"
#include "net_handshake.h"
#include "net_health.h"
#include "net_listen.h"
#include "net_metrics.h"
#include "protocol.h"
#include "serve.h"
#include "store_async.h"

#define TICK_MS 100
/* The exact solver's budget per position of a finished game analysed for the career statistics:
 * about half a second at most (docs/SERVER.md "Career statistics"). */
/* A connection whose messages are refused for going over its rate is closed when the refused
 * ones, less FLOOD_DRAIN times the rate per second, add up to FLOOD_SECONDS seconds' worth of
 * the rate: a client sending 5 times the rate is closed after about 3 s, one going over now
 * and then only loses those messages. */
#define FLOOD_DRAIN 2
#define FLOOD_SECONDS 6
/* A client closed for flooding or reading too slowly that does not take the close frame either
 * is cut off after this long. */
#define SLOW_CLOSE_S 2

typedef struct out_msg {
  struct out_msg *next;
  size_t len;
  unsigned char data[]; /* LWS_PRE bytes of room for the frame header, then the text */
} out_msg;

typedef struct session {
  struct lws *wsi;
  uint64_t id;
  out_msg *head, *tail;
  size_t queued;
  const char *closing; /* why it is being closed: sent as the close reason once its queue is out */
  char *rx;
  size_t rx_len;   /* kept of the message being received (at most SRV_MAX_REQUEST) */
  size_t rx_total; /* received of it */
  bool rx_too_long;
  int64_t rate_at;      /* ms of the last refill of the two buckets below */
  int64_t tokens;       /* messages allowed now, in thousandths */
  int64_t refused_debt; /* refused messages not yet forgiven, in thousandths */
} session;

typedef struct server {
  lws_sorted_usec_list_t tick; /* first: the tick callback finds the server from it */
  struct lws_context *context;
  srv_store *store;
  srv_hub *hub;
  srv_bots *bots;
  srv_ks_bots *ks_bots; /* the computer at Ko shogi tables */
  srv_store_async *saver; /* the store thread: every move and finished game is saved there */
  srv_analyst *analyst;   /* the analysis thread: finished games' career statistics */
  srv_bus *bus; /* NULL without --bus */
  srv_listener *listener;
  srv_net_limits limits;
  srv_metrics metrics; /* for /metrics */
  srv_health health;   /* for /healthz and the log */
  char full[128]; /* the 503 text for connections over the cap */
  session **slots; /* a client id is (generation << 32 | slot) */
  uint32_t *generations;
  uint32_t nslots, capslots;
  bool forwarded_for; /* --forwarded-for: a client's address is the proxy's last X-Forwarded-For entry */
} server;

static volatile sig_atomic_t stopping;
static struct lws_context *signal_context;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
  if (signal_context) lws_cancel_service(signal_context);
}

/* ---- clients by id ---- */

static uint64_t slot_take(server *s, session *ss) {
  uint32_t slot = 0;
  while (slot < s->nslots && s->slots[slot]) slot++;
  if (slot == s->nslots) {
    if (s->nslots == s->capslots) {
      const uint32_t cap = s->capslots ? 2 * s->capslots : 256;
      session **slots = realloc(s->slots, cap * sizeof *slots);
      if (!slots) return 0;
      s->slots = slots;
      uint32_t *gens = realloc(s->generations, cap * sizeof *gens);
      if (!gens) return 0;
      s->generations = gens;
      s->capslots = cap;
    }
    s->generations[s->nslots] = 0;
    s->slots[s->nslots++] = NULL;
  }
  s->slots[slot] = ss;
  s->generations[slot]++;
  return (uint64_t)s->generations[slot] << 32 | slot;
}

static session *slot_find(server *s, uint64_t id) {
  const uint32_t slot = (uint32_t)id;
  if (slot >= s->nslots || s->generations[slot] != (uint32_t)(id >> 32)) return NULL;
  return s->slots[slot];
}

static void slot_release(server *s, uint64_t id) {
  const uint32_t slot = (uint32_t)id;
  if (slot < s->nslots && s->generations[slot] == (uint32_t)(id >> 32)) s->slots[slot] = NULL;
}

/* ---- sending ---- */

static void session_free(session *ss);

/* Drops what waits to be sent to a client. */
static void queue_drop(session *ss) {
  while (ss->head) {
    out_msg *m = ss->head;
    ss->head = m->next;
    free(m);
  }
  ss->tail = NULL;
  ss->queued = 0;
}

/* Bytes written to the connection's socket that its reader has not taken yet. */
static size_t unacknowledged(struct lws *wsi) {
  int n = 0;
  if (ioctl(lws_get_socket_fd(wsi), SIOCOUTQ, &n) != 0 || n < 0) return 0;
  return (size_t)n;
}

/* Queues text for a client, or when its unsent bytes (queued here and waiting in the kernel)
 * would pass the cap, drops its queue and closes it as too slow: it has stopped reading. */
static void queue_text(server *s, session *ss, const char *text, size_t len) {
  if (ss->closing) return;
  if (ss->queued + len + unacknowledged(ss->wsi) > s->limits.max_queued_bytes) {
    queue_drop(ss); /* not its receive buffer: the hub may be inside srv_hub_receive with it (hub.h) */
    ss->closing = "too slow"; /* the close frame goes at its next writable callback... */
    lws_callback_on_writable(ss->wsi);
    lws_set_timeout(ss->wsi, PENDING_TIMEOUT_USER_OK, SLOW_CLOSE_S); /* ...or it is cut off */
    return;
  }
  out_msg *m = malloc(sizeof *m + LWS_PRE + len);
  if (!m) return;
  m->next = NULL;
  m->len = len;
  memcpy(m->data + LWS_PRE, text, len);
  if (ss->tail)
    ss->tail->next = m;
  else
    ss->head = m;
  ss->tail = m;
  ss->queued += len;
  lws_callback_on_writable(ss->wsi);
}

static void hub_send(void *ctx, uint64_t client, const char *text, size_t len) {
  session *ss = slot_find(ctx, client);
  if (ss) queue_text(ctx, ss, text, len);
}

static void hub_think(void *ctx, const srv_think_job *job) {
  server *s = ctx;
  srv_bots_submit(s->bots, job);
}

static void hub_ks_think(void *ctx, const srv_ks_think_job *job) {
  server *s = ctx;
  srv_ks_bots_submit(s->ks_bots, job); /* lost for memory: the hub asks again after a while */
}

static int hub_save_ks_game(void *ctx, const srv_ks_game_write *game) {
  server *s = ctx;
  if (srv_store_async_submit_ks_game(s->saver, game) == 0) return 0;
  free(game->record);
  return -1;
}

static void hub_password(void *ctx, const srv_password_job *job) {
  server *s = ctx;
  srv_bots_submit_password(s->bots, job);
}

static int hub_save_move(void *ctx, const srv_move_write *move) {
  server *s = ctx;
  srv_move_write timed = *move;
  timed.asked_us = lws_now_usecs();
  return srv_store_async_submit(s->saver, &timed);
}

static int hub_save_game(void *ctx, const srv_game_write *game) {
  server *s = ctx;
  if (srv_store_async_submit_game(s->saver, game) == 0) return 0;
  free(game->record_json);
  free(game->histories);
  return -1;
}

static int hub_analyse(void *ctx, const srv_game_job *job) {
  server *s = ctx;
  if (s->analyst) return srv_analyst_submit(s->analyst, job);
  srv_game_job dropped = *job; /* stopping: the game goes without statistics */
  srv_game_job_free(&dropped);
  return -1;
}

/* Hands the analysis thread's statistics to the hub, which saves them. */
static void collect_analyses(server *s) {
  srv_game_stats stats;
  while (srv_analyst_collect(s->analyst, &stats)) srv_hub_game_analysed(s->hub, &stats);
}

static void hub_random(void *ctx, void *buf, size_t len) {
  (void)ctx;
  unsigned char *p = buf;
  while (len > 0) {
    const ssize_t n = getrandom(p, len, 0);
    if (n <= 0) continue; /* interrupted: try again */
    p += n;
    len -= (size_t)n;
  }
}

static void hub_log_line(void *ctx, const char *text) {
  (void)ctx;
  srv_log("%s", text);
}

static int64_t hub_now(void *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The wall clock in ms, for the times /healthz shows. */
static int64_t wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void wake_loop(void *ctx) {
  server *s = ctx;
  lws_cancel_service(s->context);
}

static void collect_bot_moves(server *s) {
  srv_bot_answer answers[64];
  int n;
  while ((n = srv_bots_collect(s->bots, answers, 64)) > 0)
    for (int i = 0; i < n; i++) {
      if (answers[i].password)
        srv_hub_password_done(s->hub, &answers[i].pw);
      else
        srv_hub_bot_move(s->hub, answers[i].table, answers[i].version, answers[i].move);
    }
  srv_ks_answer ks[16];
  while ((n = srv_ks_bots_collect(s->ks_bots, ks, 16)) > 0)
    for (int i = 0; i < n; i++) srv_hub_ks_bot_move(s->hub, ks[i].table, ks[i].version, ks[i].move);
}

/* Hands the store thread's outcomes to the hub: a saved move is played and broadcast now, the
 * end of its time from arrival to broadcast. */
static void collect_saved_moves(server *s) {
  srv_move_write saved[64];
  int n;
  while ((n = srv_store_async_collect(s->saver, saved, 64)) > 0)
    for (int i = 0; i < n; i++) {
      srv_health_db_writer(&s->health, saved[i].status != -1, wall_now());
      const long moves = srv_hub_moves(s->hub);
      srv_hub_move_saved(s->hub, &saved[i]);
      if (srv_hub_moves(s->hub) != moves)
        srv_metrics_move(&s->metrics, (double)(lws_now_usecs() - saved[i].asked_us) / 1e6);
    }
  srv_game_write game;
  while (srv_store_async_collect_game(s->saver, &game)) {
    srv_health_db_writer(&s->health, game.status != -1, wall_now());
    srv_hub_game_saved(s->hub, &game);
    free(game.record_json);
    free(game.histories);
  }
  srv_ks_game_write ks;
  while (srv_store_async_collect_ks_game(s->saver, &ks)) {
    srv_health_db_writer(&s->health, ks.status != -1, wall_now());
    srv_hub_ks_game_saved(s->hub, &ks);
    free(ks.record);
  }
}

/* The hub's publish callback: the bus, or nothing once it is closed (at the end). */
static int hub_publish(void *ctx, const char *subject, const char *text, size_t len) {
  server *s = ctx;
  return s->bus ? srv_bus_publish(s->bus, subject, text, len) : -1;
}

/* Takes what the message bus received, and its connection's changes, on the loop's thread. */
static void collect_bus_events(server *s) {
  srv_bus_event e;
  while (srv_bus_next(s->bus, &e)) {
    if (e.kind == SRV_BUS_MESSAGE) {
      srv_hub_bus_message(s->hub, e.subject, e.data, e.len);
    } else {
      srv_health_bus(&s->health, e.kind == SRV_BUS_UP, srv_bus_error(s->bus), wall_now());
      srv_hub_bus_state(s->hub, e.kind == SRV_BUS_UP);
    }
    srv_bus_event_free(&e);
  }
}

static void on_tick(lws_sorted_usec_list_t *sul) {
  server *s = (server *)sul;
  srv_hub_tick(s->hub);
  if (srv_hub_superseded(s->hub)) { /* another server runs under this one's name: this one stops */
    stopping = 1;
    return;
  }
  srv_health_db_check(&s->health, s->store, hub_now(NULL), wall_now());
  lws_sul_schedule(s->context, 0, &s->tick, on_tick, TICK_MS * LWS_US_PER_MS);
}

/* ---- the goita WebSocket protocol ---- */

/* Frees what a session holds: its queue and its partial message. */
static void session_free(session *ss) {
  queue_drop(ss);
  free(ss->rx);
  ss->rx = NULL;
}

/* Takes a message from the connection's token bucket. Returns 0 when it may go to the hub, 1
 * when it is refused for going over the rate, -1 when the connection floods and is to be closed. */
static int take_token(const server *s, session *ss) {
  const int64_t now = hub_now(NULL), rate = s->limits.rate_per_second, elapsed = now - ss->rate_at;
  ss->rate_at = now;
  ss->tokens += elapsed * rate;
  if (ss->tokens > (int64_t)s->limits.rate_burst * 1000) ss->tokens = (int64_t)s->limits.rate_burst * 1000;
  ss->refused_debt -= elapsed * rate * FLOOD_DRAIN;
  if (ss->refused_debt < 0) ss->refused_debt = 0;
  if (ss->tokens >= 1000) {
    ss->tokens -= 1000;
    return 0;
  }
  ss->refused_debt += 1000;
  return ss->refused_debt > FLOOD_SECONDS * rate * 1000 ? -1 : 1;
}

/* Sends the client an error message. */
static void send_error(server *s, session *ss, srv_error code, int64_t retry_ms, const char *why) {
  char *text = srv_message_error(NULL, code, retry_ms, why);
  if (text) queue_text(s, ss, text, strlen(text));
  free(text);
}

/* Takes a piece of a message; a whole one goes to the hub unless it is binary, too long or over
 * the rate. Returns -1 when the connection is to be closed at once (the reason is set). */
static int receive(server *s, session *ss, struct lws *wsi, const void *in, size_t len) {
  if (ss->closing) return 0; /* read and dropped, so that the close does not reset the connection */
  ss->rx_total += len;
  if (ss->rx_total + lws_remaining_packet_payload(wsi) > s->limits.max_message_bytes) {
    char why[96];
    const int n = snprintf(why, sizeof why, "message too big: at most %zu bytes", s->limits.max_message_bytes);
    lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)why, (size_t)n);
    return -1;
  }
  if (lws_frame_is_binary(wsi)) ss->rx_too_long = true; /* refused below, like an oversized one */
  if (!ss->rx_too_long) {
    if (ss->rx_len + len > SRV_MAX_REQUEST) {
      ss->rx_too_long = true;
    } else {
      char *grown = realloc(ss->rx, ss->rx_len + len + 1);
      if (!grown) {
        ss->rx_too_long = true;
      } else {
        ss->rx = grown;
        memcpy(ss->rx + ss->rx_len, in, len);
        ss->rx_len += len;
      }
    }
  }
  if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0) return 0;
  const bool too_long = ss->rx_too_long;
  const size_t rx_len = ss->rx_len;
  ss->rx_len = ss->rx_total = 0;
  ss->rx_too_long = false;
  const int rate = take_token(s, ss);
  if (rate < 0) { /* closed once the answers and errors already queued are out */
    ss->closing = "too many messages";
    lws_callback_on_writable(wsi);
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, SLOW_CLOSE_S);
    return 0;
  }
  if (rate > 0) {
    char why[128];
    snprintf(why, sizeof why, "too many messages: at most %d a second (bursts of %d); this one was dropped",
             s->limits.rate_per_second, s->limits.rate_burst);
    /* a token comes back every 1000 / rate ms */
    send_error(s, ss, SRV_ERR_RATE_LIMITED, (1000 + s->limits.rate_per_second - 1) / s->limits.rate_per_second, why);
  } else if (too_long) {
    send_error(s, ss, SRV_ERR_BAD_REQUEST, 0,
               lws_frame_is_binary(wsi) ? "binary messages are not accepted: send JSON text"
                                        : "message too long: at most 4096 bytes");
  } else {
    /* a move is timed from here to its broadcast once saved (collect_saved_moves) */
    srv_hub_receive(s->hub, ss->id, ss->rx ? ss->rx : "", rx_len);
  }
  return 0;
}

/* Tells the hub where a new client connects from: the peer's address, or behind a proxy
 * (--forwarded-for) the last X-Forwarded-For entry, which the proxy itself added (entries
 * before it come from the client and prove nothing). */
static void tell_address(server *s, struct lws *wsi, uint64_t client) {
  char address[256] = "";
  if (s->forwarded_for) {
    if (lws_hdr_copy(wsi, address, sizeof address, WSI_TOKEN_X_FORWARDED_FOR) <= 0) return;
    const char *last = strrchr(address, ',');
    srv_hub_client_address(s->hub, client, last ? last + 1 : address);
    return;
  }
  lws_get_peer_simple(wsi, address, sizeof address);
  srv_hub_client_address(s->hub, client, address);
}

static int callback_goita(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  server *s = lws_context_user(lws_get_context(wsi));
  session *ss = user;
  switch (reason) {
  case LWS_CALLBACK_ESTABLISHED:
    memset(ss, 0, sizeof *ss);
    ss->wsi = wsi;
    ss->id = slot_take(s, ss);
    if (!ss->id) return -1;
    ss->rate_at = hub_now(NULL);
    ss->tokens = (int64_t)s->limits.rate_burst * 1000;
    if (srv_hub_connect(s->hub, ss->id) != 0) { /* out of memory: closed once the hub's error is out */
      ss->closing = "server busy";
      lws_callback_on_writable(wsi);
      break;
    }
    tell_address(s, wsi, ss->id);
    break;
  case LWS_CALLBACK_RECEIVE:
    return receive(s, ss, wsi, in, len);
  case LWS_CALLBACK_SERVER_WRITEABLE: {
    out_msg *m = ss->head;
    if (!m && ss->closing) {
      lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)ss->closing, strlen(ss->closing));
      return -1;
    }
    /* As many queued messages as the socket takes now, not one a callback: a client sent a
     * state and a table list in one turn of the loop gets both in it (docs/BENCHMARKS.md). */
    while ((m = ss->head) != NULL) {
      if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len) return -1;
      ss->head = m->next;
      if (!ss->head) ss->tail = NULL;
      ss->queued -= m->len;
      free(m);
      if (lws_send_pipe_choked(wsi)) break;
    }
    if (ss->head || ss->closing) lws_callback_on_writable(wsi);
    break;
  }
  case LWS_CALLBACK_CLOSED:
    if (ss->id) {
      srv_hub_disconnect(s->hub, ss->id);
      slot_release(s, ss->id);
    }
    session_free(ss);
    break;
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    if (s && s->hub) {
      if (s->saver) collect_saved_moves(s);
      if (s->analyst) collect_analyses(s);
      collect_bot_moves(s);
    }
    if (s && s->hub && s->bus) collect_bus_events(s);
    break;
  default:
    break;
  }
  return 0;
}

/* ---- record downloads: /records/ID.json and /records/ID.txt ---- */

typedef struct download {
  char *body;
  size_t len, sent;
} download;

/* Sends the headers of a reply whose body is d->body, then the body as the connection can take
 * it (callback_records' WRITEABLE). */
static int start_body(struct lws *wsi, download *d, unsigned status, const char *type, const char *disposition) {
  d->len = strlen(d->body);
  d->sent = 0;
  unsigned char headers[LWS_PRE + 1024], *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
  if (lws_add_http_common_headers(wsi, status, type, (lws_filepos_t)d->len, &p, end) ||
      (disposition && lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                                  (const unsigned char *)disposition, (int)strlen(disposition), &p,
                                                  end)) ||
      lws_finalize_write_http_header(wsi, start, &p, end))
    return -1;
  lws_callback_on_writable(wsi);
  return 0;
}

/* Answers 404 with what to ask for instead; -1 when the connection is then to close. */
static int not_found(struct lws *wsi, const char *why) {
  lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, why);
  return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A finished Ko shogi game's record: /records/ks-ID.txt (docs/KOSHOGI.md "Online"). */
static int start_ks_download(server *s, struct lws *wsi, download *d, const char *path) {
  long long id = 0;
  char ext[8] = "";
  if (sscanf(path, "/ks-%lld.%7s", &id, ext) != 2 || id <= 0 || strcmp(ext, "txt") != 0) {
    return not_found(wsi, "use /records/ks-ID.txt");
  }
  char arg[SRV_TOKEN_SIZE + 8]; /* ?key=INVITE, as a Goita record's */
  const char *key = lws_get_urlarg_by_name(wsi, "key=", arg, (int)sizeof arg);
  if (srv_store_ks_game_text(s->store, id, key, &d->body) != 0 || !d->body) {
    return not_found(wsi, "no such finished Ko shogi game");
  }
  char disposition[64];
  snprintf(disposition, sizeof disposition, "inline; filename=\"koshogi-game-%lld.txt\"", id);
  return start_body(wsi, d, HTTP_STATUS_OK, "text/plain; charset=utf-8", disposition);
}

static int start_download(server *s, struct lws *wsi, download *d, const char *path) {
  if (strncmp(path, "/ks-", 4) == 0) return start_ks_download(s, wsi, d, path);
  long long id = 0;
  char ext[8] = "";
  if (sscanf(path, "/%lld.%7s", &id, ext) != 2 || id <= 0 || (strcmp(ext, "json") != 0 && strcmp(ext, "txt") != 0)) {
    return not_found(wsi, "use /records/ID.json or /records/ID.txt");
  }
  const bool histories = strcmp(ext, "txt") == 0;
  char arg[SRV_TOKEN_SIZE + 8]; /* ?key=INVITE: a private table's games are given only with its code */
  const char *key = lws_get_urlarg_by_name(wsi, "key=", arg, (int)sizeof arg); /* the value, within arg */
  if (srv_store_game_text(s->store, id, key, histories, &d->body) != 0 || !d->body) {
    return not_found(wsi, "no such finished game");
  }
  char disposition[64];
  snprintf(disposition, sizeof disposition, "attachment; filename=\"goita-game-%lld.%s\"", id, ext);
  return start_body(wsi, d, HTTP_STATUS_OK, histories ? "text/plain; charset=utf-8" : "application/json", disposition);
}

/* A duplicate match's page (docs/SERVER.md "Duplicate matches"): /matches/ID.json, its summary
 * as saved after each game. */
static int start_match(server *s, struct lws *wsi, download *d, const char *path) {
  long long id = 0;
  char ext[8] = "";
  if (sscanf(path, "/%lld.%7s", &id, ext) != 2 || id <= 0 || strcmp(ext, "json") != 0) {
    return not_found(wsi, "use /matches/ID.json");
  }
  if (srv_store_match_text(s->store, id, &d->body) != 0 || !d->body) {
    return not_found(wsi, "no such match");
  }
  return start_body(wsi, d, HTTP_STATUS_OK, "application/json", NULL);
}

/* /healthz and /metrics for the operators (net_metrics.c), a match's page or a record download. */
static int start_reply(server *s, struct lws *wsi, download *d, const char *path) {
  char uri[64] = "";
  lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
  unsigned status = HTTP_STATUS_OK;
  if (strcmp(uri, "/healthz") == 0) {
    srv_health_db_check(&s->health, s->store, hub_now(NULL), wall_now()); /* as of this request */
    d->body = srv_health_text(&s->health, &status);
  } else if (strcmp(uri, "/metrics") == 0) {
    srv_bots_stats bots;
    srv_bots_stats_get(s->bots, &bots);
    d->body = srv_metrics_text(&s->metrics, s->hub, s->store, s->saver ? srv_store_async_failures(s->saver) : 0,
                               &s->health, s->bus, &bots);
  } else if (strncmp(uri, "/matches/", 9) == 0) {
    return start_match(s, wsi, d, path);
  } else
    return start_download(s, wsi, d, path);
  if (!d->body) return -1;
  return start_body(wsi, d, status, "text/plain; version=0.0.4; charset=utf-8", NULL);
}

static int callback_records(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  server *s = lws_context_user(lws_get_context(wsi));
  download *d = user;
  switch (reason) {
  case LWS_CALLBACK_HTTP:
    memset(d, 0, sizeof *d);
    return start_reply(s, wsi, d, in ? (const char *)in : "");
  case LWS_CALLBACK_HTTP_WRITEABLE: {
    if (!d->body) break;
    enum { CHUNK = 16384 };
    unsigned char buf[LWS_PRE + CHUNK];
    const size_t n = d->len - d->sent < CHUNK ? d->len - d->sent : CHUNK;
    memcpy(buf + LWS_PRE, d->body + d->sent, n);
    const bool last = d->sent + n == d->len;
    if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n) return -1;
    d->sent += n;
    if (!last) {
      lws_callback_on_writable(wsi);
      break;
    }
    free(d->body);
    d->body = NULL;
    if (lws_http_transaction_completed(wsi)) return -1;
    break;
  }
  case LWS_CALLBACK_CLOSED_HTTP:
    free(d->body);
    d->body = NULL;
    break;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ---- HTTP before anything else: the connection cap and the WebSocket upgrade checks ---- */

static int callback_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  server *s = lws_context_user(lws_get_context(wsi));
  switch (reason) {
  case LWS_CALLBACK_FILTER_HTTP_CONNECTION: /* a plain request: a page, a file or a record */
    if (srv_listener_over_cap(s->listener, wsi)) {
      srv_http_reply(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE, s->full);
      return 1;
    }
    break;
  case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: { /* 1: answered here, so refused */
    const char *why = s->full;
    unsigned status = HTTP_STATUS_SERVICE_UNAVAILABLE;
    if (!srv_listener_over_cap(s->listener, wsi)) status = srv_upgrade_refusal(wsi, &s->limits, &why);
    if (status == 0) break;
    return srv_http_reply(wsi, status, why) == 0 ? 1 : -1;
  }
  case LWS_CALLBACK_WSI_DESTROY:
    srv_listener_forget(s->listener, wsi);
    break;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"http", callback_http, 0, 0, 0, NULL, 0},
    {"goita", callback_goita, sizeof(session), SRV_MAX_REQUEST, 0, NULL, 0},
    {"records", callback_records, sizeof(download), 0, 0, NULL, 0},
    {SRV_LISTEN_PROTOCOL, srv_listener_callback, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

void srv_net_limits_default(srv_net_limits *l) {
  memset(l, 0, sizeof *l);
  l->max_connections = 2000;
  l->max_message_bytes = 8192;
  l->rate_per_second = 20;
  l->rate_burst = 40;
  l->max_queued_bytes = 1u << 20;
}

/* Checks that the TLS files can be read, for a clearer error than libwebsockets' own. */
static int check_tls_files(const srv_serve_options *o, char *err, size_t errsize) {
  if (!o->tls_cert != !o->tls_key) {
    snprintf(err, errsize, "TLS needs both a certificate (--tls-cert) and its key (--tls-key)");
    return -1;
  }
  const char *files[] = {o->tls_cert, o->tls_key};
  for (int i = 0; i < 2; i++)
    if (files[i] && access(files[i], R_OK) != 0) {
      snprintf(err, errsize, "cannot read TLS %s %s: %s", i ? "key" : "certificate", files[i], strerror(errno));
      return -1;
    }
  return 0;
}

/* The database as messages name it: a SQLite path, or just "PostgreSQL", since a URI may hold a
 * password. */
static const char *shown_db(const char *db) { return srv_store_is_postgresql(db) ? "PostgreSQL" : db; }

/* On PostgreSQL, names this server to the store and has the hub renew its lease three times
 * per lease; a SQLite file refuses a name given with --node. */
static int join_cluster(srv_store *store, const srv_serve_options *o, srv_hub_options *hub) {
  if (!srv_store_is_postgresql(o->db_path)) return o->node ? srv_store_node(store, o->node, o->lease_ms) : 0;
  hub->lease_renew_ms = o->lease_ms / 3;
  return srv_store_node(store, o->node ? o->node : "goita", o->lease_ms);
}

/* A server's name goes into the bus's subjects (goita.node.NAME), where a dot, a space or a
 * wildcard would mean something else. */
static bool subject_safe(const char *name) {
  for (const char *p = name; *p; p++)
    if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') && *p != '-' && *p != '_')
      return false;
  return *name != '\0';
}

/* The operators' log line of a server that listens now: where, on which database, under which
 * name, on which bus. */
static void log_start(const server *s, const srv_serve_options *o, bool tls) {
  char bus[300] = "no bus";
  if (s->bus) snprintf(bus, sizeof bus, "bus %s", srv_bus_address(s->bus));
  char lease[32] = "";
  if (srv_store_is_postgresql(o->db_path)) snprintf(lease, sizeof lease, " (lease %d s)", o->lease_ms / 1000);
  srv_log("listening on %s://%s:%d/, database %s, node %s%s, %s", tls ? "https" : "http", o->host, o->port,
          shown_db(o->db_path), o->node ? o->node : "goita", lease, bus);
}

/* Connects to the message bus of --bus, listening to the lobby's subject and this server's own. */
static int open_bus(server *s, const srv_serve_options *o, char *err, size_t errsize) {
  if (!o->bus) return 0;
  const char *node = o->node ? o->node : "goita";
  if (!srv_store_is_postgresql(o->db_path)) {
    snprintf(err, errsize, "--bus needs a PostgreSQL database: a SQLite file serves one server");
    return -1;
  }
  if (!subject_safe(node)) {
    snprintf(err, errsize, "--node %s: with --bus a server's name has only letters, digits, - and _", node);
    return -1;
  }
  char own[96];
  snprintf(own, sizeof own, "goita.node.%s", node);
  const char *subjects[] = {"goita.lobby", own};
  return srv_bus_open(&s->bus, o->bus, node, subjects, 2, wake_loop, s, err, errsize);
}

/* The security headers of every HTTP answer: libwebsockets' "best practices" set, with one
 * word added to its Content-Security-Policy: 'wasm-unsafe-eval' lets the page's worker compile
 * the WebAssembly build of the library (web/worker.js); it allows no evaluation of script
 * text. */
static const struct lws_protocol_vhost_options security_headers[] = {
    {&security_headers[1], NULL, "content-security-policy:",
     "default-src 'none'; img-src 'self' data: ; script-src 'self' 'wasm-unsafe-eval'; font-src 'self'; "
     "style-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self';"},
    {&security_headers[2], NULL, "x-content-type-options:", "nosniff"},
    {&security_headers[3], NULL, "x-xss-protection:", "1; mode=block"},
    {&security_headers[4], NULL, "x-frame-options:", "deny"},
    {NULL, NULL, "referrer-policy:", "no-referrer"}};

/* The WebAssembly module of web/wasm/, a type libwebsockets does not know. */
static const struct lws_protocol_vhost_options wasm_type = {NULL, NULL, ".wasm", "application/wasm"};

int srv_serve(const srv_serve_options *o, char *err, size_t errsize) {
  server s;
  memset(&s, 0, sizeof s);
  s.limits = o->limits;
  s.forwarded_for = o->forwarded_for;
  snprintf(s.full, sizeof s.full, "server full: at most %d connections; try again later\n", o->limits.max_connections);
  const bool tls = o->tls_cert != NULL;
  if (check_tls_files(o, err, errsize) != 0 ||
      srv_listener_open(&s.listener, o->host, o->port, o->limits.max_connections, tls, err, errsize) != 0)
    return -1;
  srv_hub_options hub = o->hub;
  if (srv_store_open(&s.store, o->db_path) != 0 || join_cluster(s.store, o, &hub) != 0) {
    snprintf(err, errsize, "database %s: %s", shown_db(o->db_path), s.store ? srv_store_error(s.store) : "out of memory");
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  lws_set_log_level(LLL_ERR, NULL);
  static struct lws_http_mount records_mount, site_mount, health_mount, metrics_mount, matches_mount;
  memset(&records_mount, 0, sizeof records_mount);
  records_mount.mountpoint = "/records";
  records_mount.mountpoint_len = (unsigned char)strlen("/records");
  records_mount.origin = "records";
  records_mount.origin_protocol = LWSMPRO_CALLBACK;
  records_mount.protocol = "records";
  /* /healthz and /metrics go to the same callback, which tells them apart by the path */
  health_mount = metrics_mount = records_mount;
  health_mount.mountpoint = "/healthz";
  health_mount.mountpoint_len = (unsigned char)strlen("/healthz");
  metrics_mount.mountpoint = "/metrics";
  metrics_mount.mountpoint_len = (unsigned char)strlen("/metrics");
  matches_mount = records_mount;
  matches_mount.mountpoint = "/matches";
  matches_mount.mountpoint_len = (unsigned char)strlen("/matches");
  health_mount.mount_next = &metrics_mount;
  metrics_mount.mount_next = &matches_mount;
  matches_mount.mount_next = &records_mount;
  memset(&site_mount, 0, sizeof site_mount);
  site_mount.mount_next = &health_mount;
  site_mount.mountpoint = "/";
  site_mount.mountpoint_len = 1;
  site_mount.origin = o->web_dir;
  site_mount.def = "index.html";
  site_mount.origin_protocol = LWSMPRO_FILE;
  site_mount.extra_mimetypes = &wasm_type;

  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN_SERVER; /* net_listen.c accepts */
  info.protocols = protocols;
  info.mounts = &site_mount;
  info.user = &s;
  info.headers = security_headers;
  if (tls) {
    info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    info.ssl_cert_filepath = o->tls_cert;
    info.ssl_private_key_filepath = o->tls_key;
    info.alpn = "http/1.1"; /* HTTP/2 would carry WebSockets past the upgrade checks */
  }
  s.context = lws_create_context(&info);
  struct lws_vhost *vhost = s.context ? lws_get_vhost_by_name(s.context, "default") : NULL;
  if (!vhost || srv_listener_attach(s.listener, vhost, err, errsize) != 0) {
    if (!vhost && tls)
      snprintf(err, errsize, "cannot start TLS with %s and %s (a PEM certificate and its private key?)", o->tls_cert,
               o->tls_key);
    else if (!vhost)
      snprintf(err, errsize, "cannot start the web server");
    if (s.context) lws_context_destroy(s.context);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  if (srv_bots_start(&s.bots, o->bot_threads, wake_loop, &s) != 0 || srv_ks_bots_start(&s.ks_bots, wake_loop, &s) != 0) {
    srv_bots_stop(s.bots);
    snprintf(err, errsize, "cannot start the computer players' threads");
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  srv_store *writer = NULL;
  if (srv_store_open_again(s.store, &writer) != 0 || srv_store_async_start(&s.saver, writer, wake_loop, &s) != 0) {
    snprintf(err, errsize, "cannot start the store thread: %s", writer ? srv_store_error(writer) : "out of memory");
    srv_store_close(writer);
    srv_bots_stop(s.bots);
    srv_ks_bots_stop(s.ks_bots);
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  if (o->analysis_nodes && srv_analyst_start(&s.analyst, o->analysis_nodes, wake_loop, &s) != 0) {
    snprintf(err, errsize, "cannot start the analysis thread");
    srv_store_async_stop(s.saver);
    srv_bots_stop(s.bots);
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  if (o->bus) hub.node = o->node ? o->node : "goita";
  srv_log_node(o->node);
  const srv_hub_io io = {&s, hub_send, hub_think, hub_random, hub_now, hub_password, o->bus ? hub_publish : NULL,
                         hub_log_line, hub_save_move, hub_save_game, hub_ks_think, hub_save_ks_game,
                         o->analysis_nodes ? hub_analyse : NULL};
  if (srv_hub_new(&s.hub, s.store, &io, &hub, err, errsize) != 0) {
    srv_analyst_stop(s.analyst);
    srv_store_async_stop(s.saver);
    srv_bots_stop(s.bots);
    srv_ks_bots_stop(s.ks_bots);
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  if (open_bus(&s, o, err, errsize) != 0) {
    srv_analyst_stop(s.analyst);
    srv_store_async_stop(s.saver);
    srv_bots_stop(s.bots);
    srv_ks_bots_stop(s.ks_bots);
    lws_context_destroy(s.context);
    srv_hub_free(s.hub);
    srv_store_close(s.store);
    srv_listener_close(s.listener);
    return -1;
  }
  signal_context = s.context;
  stopping = 0;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  printf("goita serve: %s://%s:%d/ (database %s)\n", tls ? "https" : "http", o->host, o->port, shown_db(o->db_path));
  fflush(stdout);
  srv_health_init(&s.health, o->bus != NULL, wall_now());
  log_start(&s, o, tls);
  lws_sul_schedule(s.context, 0, &s.tick, on_tick, TICK_MS * LWS_US_PER_MS);
  while (!stopping && lws_service(s.context, 0) >= 0) {
  }
  srv_log("stopping");
  signal_context = NULL;
  const bool superseded = srv_hub_superseded(s.hub);
  /* the moves queued are saved before the lease goes (their players were not told: a restart
   * or the next owner finds them played) */
  srv_store_async_stop(s.saver);
  s.saver = NULL;
  srv_analyst_stop(s.analyst); /* games not analysed yet go without statistics */
  s.analyst = NULL;
  /* a clean stop gives up the lease: the other servers take the tables over at once */
  if (!superseded) srv_store_node_release(s.store);
  srv_bots_stop(s.bots); /* before the hub: no answer arrives after it is gone */
  srv_ks_bots_stop(s.ks_bots);
  srv_bus_close(s.bus);
  s.bus = NULL;
  lws_context_destroy(s.context); /* closes every connection (their CLOSED callbacks use the hub) */
  srv_hub_free(s.hub);
  srv_store_close(s.store);
  srv_listener_close(s.listener);
  free(s.slots);
  free(s.generations);
  if (superseded) {
    snprintf(err, errsize, "another server started under the name %s: this one stopped", o->node ? o->node : "goita");
    return -1;
  }
  return 0;
}

/* The network side of goita serve (serve.h): libwebsockets serves the static browser client,
 * record downloads (/records/ID.json, /records/ID.txt) and the "goita" WebSocket protocol.
 * Everything runs on the event-loop thread except the computer players (bots.c), whose answers
 * come back through lws_cancel_service. */
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "bots.h"
#include "protocol.h"
#include "serve.h"

/* A client whose unsent messages pile up past this is too slow to follow the game: closed. */
#define MAX_QUEUED_BYTES (4u << 20)
#define TICK_MS 100

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
  bool closing;
  char *rx;
  size_t rx_len;
  bool rx_too_long;
} session;

typedef struct server {
  lws_sorted_usec_list_t tick; /* first: the tick callback finds the server from it */
  struct lws_context *context;
  srv_store *store;
  srv_hub *hub;
  srv_bots *bots;
  session **slots; /* a client id is (generation << 32 | slot) */
  uint32_t *generations;
  uint32_t nslots, capslots;
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

static void queue_text(session *ss, const char *text, size_t len) {
  if (ss->closing) return;
  if (ss->queued + len > MAX_QUEUED_BYTES) {
    ss->closing = true; /* closed at its next writable callback */
    lws_callback_on_writable(ss->wsi);
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
  if (ss) queue_text(ss, text, len);
}

static void hub_think(void *ctx, const srv_think_job *job) {
  server *s = ctx;
  srv_bots_submit(s->bots, job);
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

static int64_t hub_now(void *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
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
    for (int i = 0; i < n; i++) srv_hub_bot_move(s->hub, answers[i].table, answers[i].version, answers[i].move);
}

static void on_tick(lws_sorted_usec_list_t *sul) {
  server *s = (server *)sul;
  srv_hub_tick(s->hub);
  lws_sul_schedule(s->context, 0, &s->tick, on_tick, TICK_MS * LWS_US_PER_MS);
}

/* ---- the goita WebSocket protocol ---- */

static void session_free(session *ss) {
  while (ss->head) {
    out_msg *m = ss->head;
    ss->head = m->next;
    free(m);
  }
  ss->tail = NULL;
  free(ss->rx);
  ss->rx = NULL;
}

static void receive(server *s, session *ss, struct lws *wsi, const void *in, size_t len) {
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
  if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0) return;
  if (ss->rx_too_long) {
    char *text = srv_message_error(NULL, lws_frame_is_binary(wsi)
                                             ? "binary messages are not accepted: send JSON text"
                                             : "message too long: at most 4096 bytes");
    if (text) queue_text(ss, text, strlen(text));
    free(text);
  } else {
    srv_hub_receive(s->hub, ss->id, ss->rx ? ss->rx : "", ss->rx_len);
  }
  ss->rx_len = 0;
  ss->rx_too_long = false;
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
    srv_hub_connect(s->hub, ss->id);
    break;
  case LWS_CALLBACK_RECEIVE:
    receive(s, ss, wsi, in, len);
    break;
  case LWS_CALLBACK_SERVER_WRITEABLE: {
    if (ss->closing) {
      lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)"too slow", 8);
      return -1;
    }
    /* As many queued messages as the socket takes now, not one a callback: a client sent a
     * state and a table list in one turn of the loop gets both in it (docs/BENCHMARKS.md). */
    out_msg *m;
    while ((m = ss->head) != NULL) {
      if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len) return -1;
      ss->head = m->next;
      if (!ss->head) ss->tail = NULL;
      ss->queued -= m->len;
      free(m);
      if (lws_send_pipe_choked(wsi)) break;
    }
    if (ss->head) lws_callback_on_writable(wsi);
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
    if (s && s->hub) collect_bot_moves(s);
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

static int start_download(server *s, struct lws *wsi, download *d, const char *path) {
  long long id = 0;
  char ext[8] = "";
  if (sscanf(path, "/%lld.%7s", &id, ext) != 2 || id <= 0 || (strcmp(ext, "json") != 0 && strcmp(ext, "txt") != 0)) {
    lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "use /records/ID.json or /records/ID.txt");
    return lws_http_transaction_completed(wsi) ? -1 : 0;
  }
  const bool histories = strcmp(ext, "txt") == 0;
  if (srv_store_game_text(s->store, id, histories, &d->body) != 0 || !d->body) {
    lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "no such finished game");
    return lws_http_transaction_completed(wsi) ? -1 : 0;
  }
  d->len = strlen(d->body);
  d->sent = 0;
  unsigned char headers[LWS_PRE + 1024], *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
  char disposition[64];
  snprintf(disposition, sizeof disposition, "attachment; filename=\"goita-game-%lld.%s\"", id, ext);
  if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, histories ? "text/plain; charset=utf-8" : "application/json",
                                  (lws_filepos_t)d->len, &p, end) ||
      lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:", (unsigned char *)disposition,
                                  (int)strlen(disposition), &p, end) ||
      lws_finalize_write_http_header(wsi, start, &p, end))
    return -1;
  lws_callback_on_writable(wsi);
  return 0;
}

static int callback_records(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  server *s = lws_context_user(lws_get_context(wsi));
  download *d = user;
  switch (reason) {
  case LWS_CALLBACK_HTTP:
    memset(d, 0, sizeof *d);
    return start_download(s, wsi, d, in ? (const char *)in : "");
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

static const struct lws_protocols protocols[] = {
    {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
    {"goita", callback_goita, sizeof(session), SRV_MAX_REQUEST, 0, NULL, 0},
    {"records", callback_records, sizeof(download), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

int srv_serve(const srv_serve_options *o, char *err, size_t errsize) {
  server s;
  memset(&s, 0, sizeof s);
  if (srv_store_open(&s.store, o->db_path) != 0) {
    snprintf(err, errsize, "database %s: %s", o->db_path, s.store ? srv_store_error(s.store) : "out of memory");
    srv_store_close(s.store);
    return -1;
  }
  lws_set_log_level(LLL_ERR, NULL);
  static struct lws_http_mount records_mount, site_mount;
  memset(&records_mount, 0, sizeof records_mount);
  records_mount.mountpoint = "/records";
  records_mount.mountpoint_len = (unsigned char)strlen("/records");
  records_mount.origin = "records";
  records_mount.origin_protocol = LWSMPRO_CALLBACK;
  records_mount.protocol = "records";
  memset(&site_mount, 0, sizeof site_mount);
  site_mount.mount_next = &records_mount;
  site_mount.mountpoint = "/";
  site_mount.mountpoint_len = 1;
  site_mount.origin = o->web_dir;
  site_mount.def = "index.html";
  site_mount.origin_protocol = LWSMPRO_FILE;

  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = o->port;
  info.iface = o->host;
  info.protocols = protocols;
  info.mounts = &site_mount;
  info.user = &s;
  info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
  s.context = lws_create_context(&info);
  if (!s.context) {
    snprintf(err, errsize, "cannot listen on %s port %d (in use, or not an address of this machine?)", o->host,
             o->port);
    srv_store_close(s.store);
    return -1;
  }
  if (srv_bots_start(&s.bots, o->bot_threads, wake_loop, &s) != 0) {
    snprintf(err, errsize, "cannot start the computer players' threads");
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    return -1;
  }
  const srv_hub_io io = {&s, hub_send, hub_think, hub_random, hub_now};
  if (srv_hub_new(&s.hub, s.store, &io, &o->hub, err, errsize) != 0) {
    srv_bots_stop(s.bots);
    lws_context_destroy(s.context);
    srv_store_close(s.store);
    return -1;
  }
  signal_context = s.context;
  stopping = 0;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  printf("goita serve: http://%s:%d/ (database %s)\n", o->host, o->port, o->db_path);
  fflush(stdout);
  lws_sul_schedule(s.context, 0, &s.tick, on_tick, TICK_MS * LWS_US_PER_MS);
  while (!stopping && lws_service(s.context, 0) >= 0) {
  }
  signal_context = NULL;
  srv_bots_stop(s.bots); /* before the hub: no answer arrives after it is gone */
  lws_context_destroy(s.context); /* closes every connection (their CLOSED callbacks use the hub) */
  srv_hub_free(s.hub);
  srv_store_close(s.store);
  free(s.slots);
  free(s.generations);
  return 0;
}

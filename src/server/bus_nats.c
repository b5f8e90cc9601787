/* The message bus over NATS (bus.h), with the C client cnats (Debian libnats-dev). cnats
 * connects, reconnects and delivers on threads of its own; this file hands everything to the
 * event loop through one locked queue and a wake call, so nothing else runs off the loop. */
#include <nats/nats.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus.h"

#define MAX_SUBJECTS 4
/* How often the client tries a server that is away, and how soon it calls a silent one dead. */
#define RECONNECT_WAIT_MS 250
#define PING_INTERVAL_MS 2000
#define CONNECT_TIMEOUT_MS 2000
#define CLOSE_WAIT_MS 2000

typedef struct event_node {
  srv_bus_event event;
  struct event_node *next;
} event_node;

struct srv_bus {
  natsConnection *nc;
  natsOptions *opts;
  natsSubscription *subs[MAX_SUBJECTS];
  int nsubs;
  char url[256];
  char shown[256]; /* the url as messages show it, without a user or password */
  pthread_mutex_t lock; /* the queue and the count of errors */
  event_node *head, *tail;
  long long errors;
  void (*wake)(void *ctx);
  void *ctx;
  char error[512]; /* the loop thread's own: written by srv_bus_next and srv_bus_publish */
};

bool srv_bus_url_valid(const char *url) {
  const char *rest = strncmp(url, "nats://", 7) == 0 ? url + 7 : NULL;
  if (!rest || !*rest || strlen(url) >= 256) return false;
  const char *colon = strrchr(rest, ':');
  if (!colon || colon == rest) return false;
  char *end;
  const long port = strtol(colon + 1, &end, 10);
  return *end == '\0' && end != colon + 1 && port >= 1 && port <= 65535;
}

/* Queues an event for the loop and wakes it (from a cnats thread). */
static void push(srv_bus *b, int kind, const char *subject, const char *data, size_t len) {
  event_node *n = calloc(1, sizeof *n);
  if (!n) return;
  n->event.kind = kind;
  if (kind == SRV_BUS_MESSAGE) {
    n->event.subject = strdup(subject);
    n->event.data = malloc(len + 1);
    if (!n->event.subject || !n->event.data) {
      srv_bus_event_free(&n->event);
      free(n);
      return;
    }
    memcpy(n->event.data, data, len);
    n->event.data[len] = '\0';
    n->event.len = len;
  }
  pthread_mutex_lock(&b->lock);
  if (kind == SRV_BUS_DOWN) b->errors++;
  if (b->tail)
    b->tail->next = n;
  else
    b->head = n;
  b->tail = n;
  pthread_mutex_unlock(&b->lock);
  b->wake(b->ctx);
}

/* cnats' callbacks, on its threads: a message, the connection up (again), the connection lost. */
static void on_message(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure) {
  (void)nc;
  (void)sub;
  push(closure, SRV_BUS_MESSAGE, natsMsg_GetSubject(msg), natsMsg_GetData(msg), (size_t)natsMsg_GetDataLength(msg));
  natsMsg_Destroy(msg);
}

static void on_up(natsConnection *nc, void *closure) {
  (void)nc;
  push(closure, SRV_BUS_UP, NULL, NULL, 0);
}

static void on_down(natsConnection *nc, void *closure) {
  (void)nc;
  push(closure, SRV_BUS_DOWN, NULL, NULL, 0);
}

/* The client's options: retry for ever, also before the first connection. */
static natsStatus make_options(srv_bus *b, const char *url, const char *name) {
  natsStatus st = natsOptions_Create(&b->opts);
  if (st == NATS_OK) st = natsOptions_SetURL(b->opts, url);
  if (st == NATS_OK) st = natsOptions_SetName(b->opts, name);
  if (st == NATS_OK) st = natsOptions_SetMaxReconnect(b->opts, -1);
  if (st == NATS_OK) st = natsOptions_SetReconnectWait(b->opts, RECONNECT_WAIT_MS);
  if (st == NATS_OK) st = natsOptions_SetPingInterval(b->opts, PING_INTERVAL_MS);
  if (st == NATS_OK) st = natsOptions_SetMaxPingsOut(b->opts, 2);
  if (st == NATS_OK) st = natsOptions_SetTimeout(b->opts, CONNECT_TIMEOUT_MS);
  if (st == NATS_OK) st = natsOptions_SetSendAsap(b->opts, true); /* a move's state goes out at once */
  if (st == NATS_OK) st = natsOptions_SetReconnectBufSize(b->opts, 0); /* nothing is held for later */
  if (st == NATS_OK) st = natsOptions_SetDisconnectedCB(b->opts, on_down, b);
  if (st == NATS_OK) st = natsOptions_SetReconnectedCB(b->opts, on_up, b);
  if (st == NATS_OK) st = natsOptions_SetRetryOnFailedConnect(b->opts, true, on_up, b);
  return st;
}

int srv_bus_open(srv_bus **bus, const char *url, const char *name, const char *const *subjects, int nsubjects,
                 void (*wake)(void *ctx), void *ctx, char *err, size_t errsize) {
  *bus = NULL;
  if (!srv_bus_url_valid(url)) {
    snprintf(err, errsize, "--bus %s: expected nats://HOST:PORT", url);
    return -1;
  }
  srv_bus *b = calloc(1, sizeof *b);
  if (!b || nsubjects > MAX_SUBJECTS) {
    free(b);
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  pthread_mutex_init(&b->lock, NULL);
  b->wake = wake;
  b->ctx = ctx;
  snprintf(b->url, sizeof b->url, "%s", url);
  const char *at = strrchr(url, '@');
  snprintf(b->shown, sizeof b->shown, "nats://%s", at ? at + 1 : url + 7);
  snprintf(b->error, sizeof b->error, "not connected to %s yet", b->shown);
  natsStatus st = make_options(b, url, name);
  if (st == NATS_OK) {
    st = natsConnection_Connect(&b->nc, b->opts);
    if (st == NATS_NOT_YET_CONNECTED) st = NATS_OK; /* it keeps trying: on_up says when it is in */
    else if (st == NATS_OK) push(b, SRV_BUS_UP, NULL, NULL, 0);
  }
  for (int i = 0; st == NATS_OK && i < nsubjects; i++) {
    st = natsConnection_Subscribe(&b->subs[i], b->nc, subjects[i], on_message, b);
    if (st == NATS_OK) b->nsubs++;
  }
  if (st != NATS_OK) {
    snprintf(err, errsize, "message bus %s: %s", b->shown, natsStatus_GetText(st));
    srv_bus_close(b);
    return -1;
  }
  *bus = b;
  return 0;
}

bool srv_bus_connected(const srv_bus *b) {
  return b && b->nc && natsConnection_Status(b->nc) == NATS_CONN_STATUS_CONNECTED;
}

int srv_bus_publish(srv_bus *b, const char *subject, const char *data, size_t len) {
  natsStatus st = NATS_CONNECTION_CLOSED;
  if (srv_bus_connected(b)) st = natsConnection_Publish(b->nc, subject, data, (int)len);
  if (st == NATS_OK) return 0;
  pthread_mutex_lock(&b->lock);
  b->errors++;
  pthread_mutex_unlock(&b->lock);
  snprintf(b->error, sizeof b->error, "no connection to %s (%s)", b->shown, natsStatus_GetText(st));
  return -1;
}

bool srv_bus_next(srv_bus *b, srv_bus_event *event) {
  pthread_mutex_lock(&b->lock);
  event_node *n = b->head;
  if (n) {
    b->head = n->next;
    if (!b->head) b->tail = NULL;
  }
  pthread_mutex_unlock(&b->lock);
  if (!n) return false;
  *event = n->event;
  free(n);
  if (event->kind == SRV_BUS_DOWN) snprintf(b->error, sizeof b->error, "lost the connection to %s", b->shown);
  if (event->kind == SRV_BUS_UP) b->error[0] = '\0';
  return true;
}

void srv_bus_event_free(srv_bus_event *event) {
  free(event->subject);
  free(event->data);
  event->subject = event->data = NULL;
}

long long srv_bus_errors(const srv_bus *b) {
  pthread_mutex_t *lock = (pthread_mutex_t *)&b->lock;
  pthread_mutex_lock(lock);
  const long long n = b->errors;
  pthread_mutex_unlock(lock);
  return n;
}

const char *srv_bus_address(const srv_bus *b) { return b->shown; }

const char *srv_bus_error(const srv_bus *b) {
  if (srv_bus_connected(b)) return "";
  return b->error[0] ? b->error : "not connected";
}

void srv_bus_close(srv_bus *b) {
  if (!b) return;
  if (b->nc) natsConnection_Close(b->nc);
  for (int i = 0; i < b->nsubs; i++) natsSubscription_Destroy(b->subs[i]);
  natsConnection_Destroy(b->nc);
  natsOptions_Destroy(b->opts);
  /* cnats calls back from threads of its own, also after the close (the disconnection): once
   * they have all ended, nothing can touch b any more. A server has one bus, closed at its end. */
  nats_CloseAndWait(CLOSE_WAIT_MS);
  srv_bus_event e;
  while (srv_bus_next(b, &e)) srv_bus_event_free(&e);
  pthread_mutex_destroy(&b->lock);
  free(b);
}

/* goita serve: the browser client and a WebSocket endpoint on one port (libwebsockets), the
 * hub on the event-loop thread, computer players on worker threads, storage in SQLite. */
#ifndef GOITA_SERVER_SERVE_H
#define GOITA_SERVER_SERVE_H

#include <stddef.h>

#include "hub.h"

#define SRV_MAX_ORIGINS 16

/* What one connection, and all of them together, may cost the server (docs/SERVER.md,
 * "Limits"). Each has a goita serve option; srv_net_limits_default gives the defaults. */
typedef struct srv_net_limits {
  int max_connections;        /* open connections at once; more get HTTP 503 */
  size_t max_message_bytes;   /* a bigger message closes its connection with 1009 */
  int rate_per_second;        /* messages a connection may send a second, on average... */
  int rate_burst;             /* ...and at once; more get an error, a flood is closed with 1008 */
  size_t max_queued_bytes;    /* unsent bytes a connection may hold before it is closed as too slow */
  const char *allow_origins[SRV_MAX_ORIGINS]; /* browser origins allowed to open the WebSocket */
  int nallow_origins;         /* 0: only the page's own origin (the Host header) */
} srv_net_limits;

void srv_net_limits_default(srv_net_limits *limits);

typedef struct srv_serve_options {
  const char *host;    /* interface to listen on; "127.0.0.1" by default */
  int port;
  const char *db_path;
  const char *web_dir; /* the static files of the browser client */
  int bot_threads;
  /* The exact solver's node budget for each finished game's analysis (the players' career
   * statistics, docs/SERVER.md "Career statistics"); 0: no analysis and no statistics. */
  uint64_t analysis_nodes;
  srv_hub_options hub;
  srv_net_limits limits;
  const char *tls_cert, *tls_key; /* PEM files: serve https and wss; NULL for plain http */
  /* On PostgreSQL: this server's name among those sharing the database (NULL: "goita"), and
   * how long its lease on its tables lasts unless renewed (docs/SERVER.md "Several servers"). */
  const char *node;
  int lease_ms;
  /* The message bus between them (nats://HOST:PORT), NULL for none. */
  const char *bus;
  /* Behind a proxy: a client's address is the last one in X-Forwarded-For (the one the proxy
   * added), not the proxy's own. */
  bool forwarded_for;
} srv_serve_options;

/* Runs the server until SIGINT or SIGTERM. Writes one line to stdout when it listens
 * ("goita serve: http://HOST:PORT/ ..."). Returns 0 after a clean stop, -1 with the reason in
 * err when it cannot start. */
int srv_serve(const srv_serve_options *options, char *err, size_t errsize);

#endif

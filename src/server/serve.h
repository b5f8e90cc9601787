/* goita serve: the browser client and a WebSocket endpoint on one port (libwebsockets), the
 * hub on the event-loop thread, computer players on worker threads, storage in SQLite. */
#ifndef GOITA_SERVER_SERVE_H
#define GOITA_SERVER_SERVE_H

#include <stddef.h>

#include "hub.h"

typedef struct srv_serve_options {
  const char *host;    /* interface to listen on; "127.0.0.1" by default */
  int port;
  const char *db_path;
  const char *web_dir; /* the static files of the browser client */
  int bot_threads;
  srv_hub_options hub;
} srv_serve_options;

/* Runs the server until SIGINT or SIGTERM. Writes one line to stdout when it listens
 * ("goita serve: http://HOST:PORT/ ..."). Returns 0 after a clean stop, -1 with the reason in
 * err when it cannot start. */
int srv_serve(const srv_serve_options *options, char *err, size_t errsize);

#endif

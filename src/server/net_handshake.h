/* What goita serve checks before an HTTP connection becomes a WebSocket session, and how it
 * says no: only the "goita" protocol name, and only allowed browser origins (docs/SERVER.md,
 * "Deployment"). */
#ifndef GOITA_SERVER_NET_HANDSHAKE_H
#define GOITA_SERVER_NET_HANDSHAKE_H

#include <libwebsockets.h>

#include "serve.h"

/* Checks a WebSocket upgrade request on wsi: it must ask for the "goita" protocol, and its
 * Origin, when it has one, must be allowed by limits (by default, the same host and port as
 * its Host header). Returns 0 when it may go on, else the HTTP status to refuse it with and its
 * reason in *why. */
unsigned srv_upgrade_refusal(struct lws *wsi, const srv_net_limits *limits, const char **why);

/* Answers the HTTP request on wsi with status and text as text/plain. Returns 0, or -1 when it
 * could not be written (the connection should then be closed). */
int srv_http_reply(struct lws *wsi, unsigned status, const char *text);

#endif

/* The listening socket of goita serve, accepted by us rather than by libwebsockets so that
 * the server decides what happens when connections or file descriptors run out: a connection
 * cap answered with HTTP 503, and no busy loop when accept fails with EMFILE or ENFILE
 * (libwebsockets 4.1 logs and retries such a failure at once, forever). Each accepted socket
 * is handed to libwebsockets, which serves HTTP, WebSocket and TLS on it. */
#ifndef GOITA_SERVER_NET_LISTEN_H
#define GOITA_SERVER_NET_LISTEN_H

#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>

/* The name of the libwebsockets protocol whose callback is srv_listener_callback. */
#define SRV_LISTEN_PROTOCOL "goita-listen"

typedef struct srv_listener srv_listener;

/* Opens a listening TCP socket on host (an address) and port for at most max_connections
 * connections at once; tls says whether they speak TLS (a refusal is then a plain close).
 * Returns 0, or -1 with the reason in err. */
int srv_listener_open(srv_listener **listener, const char *host, int port, int max_connections, bool tls,
                      char *err, size_t errsize);

/* Puts the socket into vhost's event loop; from then on connections are accepted. Returns 0 or
 * -1 with the reason in err. */
int srv_listener_attach(srv_listener *listener, struct lws_vhost *vhost, char *err, size_t errsize);

/* The callback of the SRV_LISTEN_PROTOCOL protocol: accepts what is waiting. */
int srv_listener_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);

/* Tells the listener that wsi is being destroyed (LWS_CALLBACK_WSI_DESTROY, which reaches the
 * vhost's first protocol for every connection): an accepted connection frees its place. */
void srv_listener_forget(srv_listener *listener, struct lws *wsi);

/* Whether wsi was accepted over the cap, so that its request must get HTTP 503. */
bool srv_listener_over_cap(const srv_listener *listener, const struct lws *wsi);

/* Closes the socket (after the context that used it is destroyed). */
void srv_listener_close(srv_listener *listener);

#endif

/* A small WebSocket client for the load generator (RFC 6455, the subset goita serve needs):
 * one non-blocking TCP connection, the HTTP upgrade with a protocol name, masked text frames
 * out, text frames (fragmented or not), pings and closes in. No extensions, no TLS. The
 * caller owns the epoll set; the connection adds and changes its own registration. */
#ifndef GOITA_LOADGEN_WS_H
#define GOITA_LOADGEN_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef enum ws_state {
  WS_IDLE,      /* not connected yet */
  WS_HANDSHAKE, /* connecting, or waiting for the 101 reply */
  WS_OPEN,
  WS_CLOSED
} ws_state;

/* Where to connect and how to introduce itself; shared by every connection of a run. */
typedef struct ws_target {
  struct sockaddr_storage addr;
  socklen_t addrlen;
  char request[512]; /* the upgrade request up to its key header (filled by ws_target_init) */
} ws_target;

typedef struct ws_conn {
  int fd;
  int epfd;
  ws_state state;
  bool want_out;           /* EPOLLOUT is registered: bytes wait in out */
  void *epoll_data;        /* what epoll reports for this connection */
  char *in;                /* bytes received and not yet parsed */
  size_t in_len, in_cap;
  char *msg;               /* a fragmented message being put together */
  size_t msg_len, msg_cap;
  char *out;               /* bytes to send from out_off */
  size_t out_len, out_off, out_cap;
  uint64_t mask_state;     /* for the frame masks */
  int close_code;          /* the server's close code, 0 when none came */
  char close_reason[80];   /* its reason, or what went wrong */
} ws_conn;

/* Called for each complete text message; text is NUL-terminated and may be modified. */
typedef void (*ws_message_fn)(void *user, ws_conn *c, char *text, size_t len);

/* Resolves host and port and prepares the upgrade request for path with the given protocol
 * name and Origin header. Returns 0, or -1 with why filled. */
int ws_target_init(ws_target *t, const char *host, const char *port, const char *path, const char *protocol,
                   const char *origin, char *why, size_t size);

/* Starts connecting c (a zeroed ws_conn) to t and registers it with epfd, reporting data.
 * Returns 0, or -1 with c->close_reason filled. */
int ws_connect(ws_conn *c, const ws_target *t, int epfd, void *data, uint64_t seed);

/* Sends one text message (queued when the socket is full). Returns 0, or -1 when c is closed. */
int ws_send_text(ws_conn *c, const char *text, size_t len);

/* Handles the events epoll reported for c: writes what waits, reads and calls fn for each
 * complete message. Returns 0 while c stays usable, -1 once it is closed (the reason is in
 * c->close_code and c->close_reason). */
int ws_handle(ws_conn *c, uint32_t events, ws_message_fn fn, void *user);

/* Bytes waiting to be sent. */
size_t ws_pending(const ws_conn *c);

/* Closes the socket and frees the buffers; c may be connected again after zeroing. */
void ws_close(ws_conn *c);

#endif

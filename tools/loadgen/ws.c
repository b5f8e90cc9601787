/* The load generator's WebSocket client (ws.h). It trusts the server it measures: the 101
 * reply is checked by its status line only, not by Sec-WebSocket-Accept. */
#include "ws.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

enum { OP_CONT = 0, OP_TEXT = 1, OP_BINARY = 2, OP_CLOSE = 8, OP_PING = 9, OP_PONG = 10 };

/* Returns the next number of a splitmix64 sequence, for masks and keys. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Grows a buffer to hold at least need bytes; returns 0, or -1 when memory runs out. */
static int reserve(char **buf, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t cap2 = *cap ? *cap : 4096;
  while (cap2 < need) cap2 *= 2;
  char *grown = realloc(*buf, cap2);
  if (!grown) return -1;
  *buf = grown;
  *cap = cap2;
  return 0;
}

/* Marks c closed with a reason and closes its socket; returns -1 for the caller to pass on. */
static int fail(ws_conn *c, const char *why) {
  if (c->state != WS_CLOSED && why) snprintf(c->close_reason, sizeof c->close_reason, "%s", why);
  c->state = WS_CLOSED;
  if (c->fd >= 0) close(c->fd); /* closing also removes it from the epoll set */
  c->fd = -1;
  return -1;
}

/* Registers EPOLLOUT only while bytes wait, so an idle connection costs no wake-ups. */
static void watch_out(ws_conn *c, bool want) {
  if (c->want_out == want || c->fd < 0) return;
  struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0u), .data.ptr = c->epoll_data};
  epoll_ctl(c->epfd, EPOLL_CTL_MOD, c->fd, &ev);
  c->want_out = want;
}

/* Writes as much of the queued output as the socket takes. Returns 0, or -1 on an error. */
static int flush_out(ws_conn *c) {
  while (c->out_off < c->out_len) {
    const ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) return fail(c, strerror(errno));
    c->out_off += (size_t)n;
  }
  if (c->out_off == c->out_len) c->out_off = c->out_len = 0;
  watch_out(c, c->out_len > 0);
  return 0;
}

/* Appends bytes to the output queue. Returns 0, or -1 when memory runs out. */
static int queue(ws_conn *c, const void *data, size_t len) {
  if (c->out_off > 0 && c->out_off == c->out_len) c->out_off = c->out_len = 0;
  if (reserve(&c->out, &c->out_cap, c->out_len + len) != 0) return fail(c, "out of memory");
  memcpy(c->out + c->out_len, data, len);
  c->out_len += len;
  return 0;
}

/* Queues one masked frame (a client must mask every frame it sends). */
static int queue_frame(ws_conn *c, int opcode, const char *payload, size_t len) {
  unsigned char head[14];
  size_t h = 0;
  head[h++] = (unsigned char)(0x80 | opcode);
  if (len < 126) {
    head[h++] = (unsigned char)(0x80 | len);
  } else if (len <= 0xffff) {
    head[h++] = 0x80 | 126;
    head[h++] = (unsigned char)(len >> 8);
    head[h++] = (unsigned char)len;
  } else {
    head[h++] = 0x80 | 127;
    for (int i = 7; i >= 0; i--) head[h++] = (unsigned char)((uint64_t)len >> (8 * i));
  }
  const uint32_t mask = (uint32_t)next_random(&c->mask_state);
  unsigned char key[4] = {(unsigned char)mask, (unsigned char)(mask >> 8), (unsigned char)(mask >> 16),
                          (unsigned char)(mask >> 24)};
  memcpy(head + h, key, 4);
  h += 4;
  if (queue(c, head, h) != 0) return -1;
  if (reserve(&c->out, &c->out_cap, c->out_len + len) != 0) return fail(c, "out of memory");
  unsigned char *p = (unsigned char *)c->out + c->out_len;
  for (size_t i = 0; i < len; i++) p[i] = (unsigned char)payload[i] ^ key[i & 3];
  c->out_len += len;
  return 0;
}

int ws_target_init(ws_target *t, const char *host, const char *port, const char *path, const char *protocol,
                   const char *origin, char *why, size_t size) {
  memset(t, 0, sizeof *t);
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
  const int rc = getaddrinfo(host, port, &hints, &res);
  if (rc != 0) {
    snprintf(why, size, "%s port %s: %s", host, port, gai_strerror(rc));
    return -1;
  }
  memcpy(&t->addr, res->ai_addr, res->ai_addrlen);
  t->addrlen = res->ai_addrlen;
  freeaddrinfo(res);
  const int n = snprintf(t->request, sizeof t->request,
                         "GET %s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: %s\r\nOrigin: %s\r\n"
                         "Sec-WebSocket-Key: ",
                         path, host, port, protocol, origin);
  if (n < 0 || (size_t)n >= sizeof t->request) {
    snprintf(why, size, "the upgrade request is too long");
    return -1;
  }
  return 0;
}

int ws_connect(ws_conn *c, const ws_target *t, int epfd, void *data, uint64_t seed) {
  c->fd = -1;
  c->epfd = epfd;
  c->epoll_data = data;
  c->mask_state = seed;
  c->state = WS_HANDSHAKE;
  c->fd = socket(t->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) return fail(c, strerror(errno));
  const int one = 1; /* small messages go out at once: latency is what is measured */
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (const struct sockaddr *)&t->addr, t->addrlen) != 0 && errno != EINPROGRESS)
    return fail(c, strerror(errno));
  /* The key is 16 random bytes in base64: 22 characters and "==". */
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char key[32];
  uint64_t r = next_random(&c->mask_state), r2 = next_random(&c->mask_state);
  for (int i = 0; i < 22; i++) {
    key[i] = b64[(i < 11 ? r : r2) & 63];
    if (i < 11) r >>= 6; else r2 >>= 6;
  }
  key[21] = b64[(r2 & 3) << 4]; /* the last character holds 2 bits: the rest must be zero */
  memcpy(key + 22, "==\r\n\r\n", 7);
  if (queue(c, t->request, strlen(t->request)) != 0 || queue(c, key, strlen(key)) != 0) return -1;
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = data};
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) != 0) return fail(c, strerror(errno));
  c->want_out = true;
  return 0;
}

int ws_send_text(ws_conn *c, const char *text, size_t len) {
  if (c->state != WS_OPEN) return -1;
  const bool was_empty = c->out_len == c->out_off;
  if (queue_frame(c, OP_TEXT, text, len) != 0) return -1;
  return was_empty ? flush_out(c) : 0; /* otherwise EPOLLOUT is already awaited */
}

size_t ws_pending(const ws_conn *c) { return c->out_len - c->out_off; }

/* Reads the 101 reply once it is complete. Returns the bytes it took (the frames after it
 * stay in the input), 0 while it is incomplete, -1 when the server refused. */
static long take_handshake(ws_conn *c) {
  const char *end = NULL;
  for (size_t i = 0; i + 3 < c->in_len; i++)
    if (memcmp(c->in + i, "\r\n\r\n", 4) == 0) {
      end = c->in + i + 4;
      break;
    }
  if (!end) return c->in_len > 16384 ? fail(c, "no end to the HTTP reply") : 0;
  if (strncmp(c->in, "HTTP/1.1 101", 12) != 0) {
    const char *eol = memchr(c->in, '\r', (size_t)(end - c->in));
    char line[80];
    snprintf(line, sizeof line, "refused: %.*s", (int)(eol - c->in), c->in);
    return fail(c, line);
  }
  c->state = WS_OPEN;
  return end - c->in;
}

/* Handles one complete frame (header already read): a text message piece, a ping, a close.
 * Returns 0, or -1 once the connection is closed. */
static int take_frame(ws_conn *c, int fin, int opcode, char *payload, size_t len, ws_message_fn fn, void *user) {
  switch (opcode) {
  case OP_TEXT:
  case OP_BINARY:
  case OP_CONT:
    if (opcode != OP_CONT) c->msg_len = 0;
    if (fin && opcode != OP_CONT) { /* the usual case: the whole message in one frame */
      const char keep = payload[len];
      payload[len] = '\0';
      fn(user, c, payload, len);
      payload[len] = keep;
      return c->state == WS_CLOSED ? -1 : 0;
    }
    if (reserve(&c->msg, &c->msg_cap, c->msg_len + len + 1) != 0) return fail(c, "out of memory");
    memcpy(c->msg + c->msg_len, payload, len);
    c->msg_len += len;
    if (fin) {
      c->msg[c->msg_len] = '\0';
      fn(user, c, c->msg, c->msg_len);
      c->msg_len = 0;
    }
    return c->state == WS_CLOSED ? -1 : 0;
  case OP_PING:
    return queue_frame(c, OP_PONG, payload, len) == 0 ? flush_out(c) : -1;
  case OP_CLOSE:
    c->close_code = len >= 2 ? ((unsigned char)payload[0] << 8 | (unsigned char)payload[1]) : 1005;
    snprintf(c->close_reason, sizeof c->close_reason, "closed by the server (%d %.*s)", c->close_code,
             len > 2 ? (int)(len - 2 < 60 ? len - 2 : 60) : 0, payload + 2);
    return fail(c, NULL);
  default:
    return 0; /* a pong */
  }
}

/* Parses the complete frames in the input and calls fn for each message. Returns 0, or -1
 * once the connection is closed. */
static int take_frames(ws_conn *c, ws_message_fn fn, void *user) {
  size_t pos = 0;
  while (c->state == WS_OPEN && c->in_len - pos >= 2) {
    const unsigned char *p = (const unsigned char *)c->in + pos;
    const size_t avail = c->in_len - pos;
    uint64_t len = p[1] & 0x7f;
    size_t head = 2;
    if (len == 126) {
      if (avail < 4) break;
      len = (uint64_t)p[2] << 8 | p[3];
      head = 4;
    } else if (len == 127) {
      if (avail < 10) break;
      len = 0;
      for (int i = 0; i < 8; i++) len = len << 8 | p[2 + i];
      head = 10;
    }
    if (p[1] & 0x80) return fail(c, "a masked frame from the server");
    if (len > ((uint64_t)1 << 30)) return fail(c, "a frame over 1 GiB");
    if (avail - head < len) {
      if (reserve(&c->in, &c->in_cap, pos + head + (size_t)len + 1) != 0) return fail(c, "out of memory");
      break;
    }
    if (reserve(&c->in, &c->in_cap, c->in_len + 1) != 0) return fail(c, "out of memory"); /* room for a NUL */
    p = (const unsigned char *)c->in + pos;
    if (take_frame(c, p[0] >> 7, p[0] & 0x0f, c->in + pos + head, (size_t)len, fn, user) != 0) return -1;
    pos += head + (size_t)len;
  }
  memmove(c->in, c->in + pos, c->in_len - pos);
  c->in_len -= pos;
  return 0;
}

int ws_handle(ws_conn *c, uint32_t events, ws_message_fn fn, void *user) {
  if (c->state == WS_CLOSED) return -1;
  if ((events & EPOLLOUT) && flush_out(c) != 0) return -1;
  if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP))) return 0;
  for (;;) {
    if (reserve(&c->in, &c->in_cap, c->in_len + 65536) != 0) return fail(c, "out of memory");
    const ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (n == 0) return fail(c, "the server closed the connection without a close frame");
    if (n < 0) return fail(c, strerror(errno));
    c->in_len += (size_t)n;
    if (c->state == WS_HANDSHAKE) {
      const long used = take_handshake(c);
      if (used < 0) return -1;
      if (used == 0) continue;
      memmove(c->in, c->in + used, c->in_len - (size_t)used);
      c->in_len -= (size_t)used;
    }
    if (take_frames(c, fn, user) != 0) return -1;
  }
}

void ws_close(ws_conn *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  c->state = WS_CLOSED;
  free(c->in);
  free(c->msg);
  free(c->out);
  c->in = c->msg = c->out = NULL;
  c->in_len = c->in_cap = c->msg_len = c->msg_cap = c->out_len = c->out_off = c->out_cap = 0;
}

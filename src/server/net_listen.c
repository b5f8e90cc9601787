/* The listening socket of goita serve (net_listen.h): accept, the connection cap, and what
 * happens when the process runs out of file descriptors. */
#define _GNU_SOURCE /* accept4: an accepted socket is non-blocking and close-on-exec at once */
#include "net_listen.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Connections accepted per wake-up at most, so that a flood of them cannot starve the open ones. */
#define ACCEPT_BATCH 64
/* How long the listener sleeps when no descriptor is left even to refuse a connection. */
#define PAUSE_MS 100
/* "Out of file descriptors" is written at most once in this many seconds. */
#define LOG_EVERY_S 60

struct srv_listener {
  lws_sorted_usec_list_t resume; /* first: on_resume finds the listener from it */
  int fd;
  int spare; /* kept open to accept-and-refuse when no descriptor is left; -1 while used up */
  struct lws_vhost *vhost;
  struct lws *wsi; /* the listening socket in libwebsockets' event loop */
  int max_connections;
  int overflow; /* connections past the cap kept long enough to be answered 503 by libwebsockets */
  int open;
  bool tls, paused;
  time_t logged;
  char full[128];
  char admitted, over_cap; /* their addresses mark accepted connections (lws opaque user data) */
};

int srv_listener_open(srv_listener **out, const char *host, int port, int max_connections, bool tls, char *err,
                      size_t errsize) {
  *out = NULL;
  srv_listener *l = calloc(1, sizeof *l);
  if (!l) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  l->fd = l->spare = -1;
  l->max_connections = max_connections;
  l->overflow = max_connections / 8 + 16;
  l->tls = tls;
  snprintf(l->full, sizeof l->full, "server full: at most %d connections; try again later\n", max_connections);
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  const struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_family = AF_UNSPEC,
                                 .ai_socktype = SOCK_STREAM};
  struct addrinfo *found = NULL;
  const int gai = getaddrinfo(host, service, &hints, &found);
  if (gai != 0) {
    snprintf(err, errsize, "cannot listen on %s port %d: %s", host, port, gai_strerror(gai));
    free(l);
    return -1;
  }
  int why = 0;
  for (const struct addrinfo *a = found; a && l->fd < 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      why = errno;
      continue;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); /* restart while old connections linger */
    if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0) {
      why = errno;
      close(fd);
      continue;
    }
    l->fd = fd;
  }
  freeaddrinfo(found);
  if (l->fd < 0) {
    snprintf(err, errsize, "cannot listen on %s port %d: %s", host, port, strerror(why));
    free(l);
    return -1;
  }
  l->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
  *out = l;
  return 0;
}

int srv_listener_attach(srv_listener *l, struct lws_vhost *vhost, char *err, size_t errsize) {
  lws_sock_file_fd_type desc;
  desc.filefd = l->fd;
  l->vhost = vhost;
  l->wsi = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, desc, SRV_LISTEN_PROTOCOL, NULL);
  if (!l->wsi) {
    snprintf(err, errsize, "cannot watch the listening socket");
    return -1;
  }
  lws_set_opaque_user_data(l->wsi, l);
  return 0;
}

/* Answers a connection that libwebsockets will not see with a plain-text 503 (a plain close on a
 * TLS port, where no text can be sent without a handshake), and closes it. */
static void refuse(const srv_listener *l, int fd, const char *why) {
  if (!l->tls) {
    char request[4096]; /* read what has come, so that closing does not reset the connection */
    for (int i = 0; i < 4 && recv(fd, request, sizeof request, MSG_DONTWAIT) > 0; i++) {
    }
    char reply[512];
    const int n = snprintf(reply, sizeof reply,
                           "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                           "Content-Length: %zu\r\nConnection: close\r\nRetry-After: 10\r\n\r\n%s",
                           strlen(why), why);
    if (send(fd, reply, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
      /* the client is gone already: nothing to tell */
    }
  }
  close(fd);
}

/* Hands an accepted socket to libwebsockets, marked as within the cap or over it; past the
 * cap and its overflow it is refused here. */
static void admit(srv_listener *l, int fd) {
  void *mark = &l->admitted;
  if (l->open >= l->max_connections) mark = &l->over_cap;
  if (l->open >= l->max_connections + l->overflow) {
    refuse(l, fd, l->full);
    return;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* moves are small and wanted now */
  lws_sock_file_fd_type desc;
  desc.sockfd = fd;
  struct lws *wsi = lws_adopt_descriptor_vhost(
      l->vhost, (lws_adoption_type)(LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP | (l->tls ? LWS_ADOPT_ALLOW_SSL : 0)), desc,
      NULL, NULL);
  if (!wsi) return; /* libwebsockets closed it */
  lws_set_opaque_user_data(wsi, mark);
  l->open++;
}

/* Writes the out-of-descriptors line unless it was written in the last LOG_EVERY_S seconds. */
static void log_exhausted(srv_listener *l, int error) {
  const time_t now = time(NULL);
  if (l->logged && now - l->logged < LOG_EVERY_S) return;
  l->logged = now;
  fprintf(stderr,
          "goita serve: out of file descriptors (accept: %s): new connections are refused until some close "
          "(raise ulimit -n or LimitNOFILE, or lower --max-connections)\n",
          strerror(error));
}

/* Starts listening again after a pause, with the spare descriptor back if one is free. */
static void on_resume(lws_sorted_usec_list_t *sul) {
  srv_listener *l = (srv_listener *)sul;
  if (l->spare < 0) l->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
  l->paused = false;
  lws_rx_flow_control(l->wsi, 1);
}

/* Stops polling the listening socket for PAUSE_MS: its waiting connections would make every
 * poll return at once while no accept can succeed. */
static void pause_accepting(srv_listener *l) {
  if (l->paused) return;
  l->paused = true;
  lws_rx_flow_control(l->wsi, 0);
  lws_sul_schedule(lws_get_context(l->wsi), 0, &l->resume, on_resume, PAUSE_MS * LWS_US_PER_MS);
}

/* With no descriptor left, frees the spare one to accept the next waiting connection and
 * refuse it, then takes the spare back. Returns false when there was nothing to refuse or no
 * spare to do it with. */
static bool refuse_with_spare(srv_listener *l) {
  if (l->spare < 0) return false;
  close(l->spare);
  const int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd >= 0) refuse(l, fd, "server busy: out of file descriptors; try again later\n");
  l->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
  return fd >= 0 && l->spare >= 0;
}

/* Accepts the connections waiting, up to ACCEPT_BATCH. */
static void accept_waiting(srv_listener *l) {
  for (int i = 0; i < ACCEPT_BATCH && !l->paused; i++) {
    const int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      admit(l, fd);
      continue;
    }
    const int error = errno;
    if (error == EAGAIN || error == EWOULDBLOCK) return;
    if (error == EMFILE || error == ENFILE) {
      log_exhausted(l, error);
      if (!refuse_with_spare(l)) pause_accepting(l);
    } else if (error == ENOBUFS || error == ENOMEM) {
      log_exhausted(l, error);
      pause_accepting(l);
    }
    /* anything else (ECONNABORTED, EPROTO, EINTR...) concerns that one connection: go on */
  }
}

int srv_listener_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  srv_listener *l = lws_get_opaque_user_data(wsi);
  switch (reason) {
  case LWS_CALLBACK_RAW_RX_FILE:
    if (l) accept_waiting(l);
    break;
  case LWS_CALLBACK_RAW_CLOSE_FILE:
    if (l) { /* libwebsockets closes the descriptor itself */
      lws_sul_cancel(&l->resume);
      l->fd = -1;
      l->wsi = NULL;
    }
    break;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

void srv_listener_forget(srv_listener *l, struct lws *wsi) {
  const void *mark = lws_get_opaque_user_data(wsi);
  if (!l || (mark != &l->admitted && mark != &l->over_cap)) return;
  lws_set_opaque_user_data(wsi, NULL);
  l->open--;
}

bool srv_listener_over_cap(const srv_listener *l, const struct lws *wsi) {
  return l && lws_get_opaque_user_data(wsi) == &l->over_cap;
}

void srv_listener_close(srv_listener *l) {
  if (!l) return;
  if (l->fd >= 0) close(l->fd);
  if (l->spare >= 0) close(l->spare);
  free(l);
}

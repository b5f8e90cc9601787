/* Sending to clients: a text, a JSON message, an error with its code (protocol.h SRV_ERRORS),
 * to a client of this server through io.send or to one of another server over the bus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_bus.h"
#include "hub_send.h"

void hub_send_raw(srv_hub *h, uint64_t client, const char *text, size_t len) {
  if (client & HUB_REMOTE_ID_BIT)
    hub_bus_send(h, client, text, len);
  else
    h->io.send(h->io.ctx, client, text, len);
}

void hub_send_text(srv_hub *h, uint64_t client, char *text) {
  if (!text) { /* out of memory for the message: the client is told, by a text that needs none */
    static const char lost[] = "{\"type\":\"error\",\"code\":\"message_lost\",\"error\":\"the server ran out of memory "
                               "for a message to you: resume or watch to see the table again\"}";
    hub_send_raw(h, client, lost, sizeof lost - 1);
    return;
  }
  hub_send_raw(h, client, text, strlen(text));
  free(text);
}

static void send_error_v(srv_hub *h, uint64_t client, const char *request, srv_error code, int64_t retry_ms,
                         const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

static void send_error_v(srv_hub *h, uint64_t client, const char *request, srv_error code, int64_t retry_ms,
                         const char *fmt, va_list ap) {
  char text[512];
  vsnprintf(text, sizeof text, fmt, ap);
  hub_send_text(h, client, srv_message_error(request, code, retry_ms, text));
}

void hub_send_error(srv_hub *h, uint64_t client, const char *request, srv_error code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  send_error_v(h, client, request, code, 0, fmt, ap);
  va_end(ap);
}

void hub_send_error_retry(srv_hub *h, uint64_t client, const char *request, srv_error code, int64_t retry_ms,
                          const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  send_error_v(h, client, request, code, retry_ms, fmt, ap);
  va_end(ap);
}

int hub_fail(hub_failure *f, srv_error code, int64_t retry_ms, const char *fmt, ...) {
  f->code = code;
  f->retry_ms = retry_ms;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->text, sizeof f->text, fmt, ap);
  va_end(ap);
  return -1;
}

int hub_fail_store(srv_hub *h, hub_failure *f, const char *prefix) {
  return hub_fail(f, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s%s%s", prefix, prefix[0] ? ": " : "",
                  srv_store_error(h->store));
}

void hub_send_failure(srv_hub *h, uint64_t client, const char *request, const hub_failure *f) {
  hub_send_text(h, client, srv_message_error(request, f->code, f->retry_ms, f->text));
}

void hub_send_json(srv_hub *h, uint64_t client, json_t *msg) {
  char *text = srv_json_text(msg, JSON_COMPACT);
  json_decref(msg);
  hub_send_text(h, client, text);
}

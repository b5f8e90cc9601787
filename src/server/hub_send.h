/* Sending to clients (hub_send.c): texts, JSON messages, errors with their codes, and the
 * failures of the table service as errors. */
#ifndef GOITA_SERVER_HUB_SEND_H
#define GOITA_SERVER_HUB_SEND_H

#include "hub_state.h"

void hub_send_text(srv_hub *h, uint64_t client, char *text);

/* Sends a client an error: its code (protocol.h SRV_ERRORS), the request it answers (NULL:
 * none) and a text for people. An error whose code says when to try again is sent with
 * hub_send_error_retry and its retry_ms. */
void hub_send_error(srv_hub *h, uint64_t client, const char *request, srv_error code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

void hub_send_error_retry(srv_hub *h, uint64_t client, const char *request, srv_error code, int64_t retry_ms,
                          const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* When to try again after the database failed (it may be back), after running out of memory,
 * or with the server at its most open tables. */
#define HUB_RETRY_STORE_MS 2000
#define HUB_RETRY_MEMORY_MS 1000
#define HUB_RETRY_FULL_MS 10000

/* Why a call of the table service failed, as the error to send. */
typedef struct hub_failure {
  srv_error code;
  int64_t retry_ms; /* 0 unless the code retries */
  char text[256];
} hub_failure;

/* Fills a failure; returns -1 for the caller's return. */
int hub_fail(hub_failure *f, srv_error code, int64_t retry_ms, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A failure of the database: storage_failed with its retry, the text prefixed (e.g. "not saved"). */
int hub_fail_store(srv_hub *h, hub_failure *f, const char *prefix);

/* Sends a failure as an error to a client. */
void hub_send_failure(srv_hub *h, uint64_t client, const char *request, const hub_failure *f);

void hub_send_json(srv_hub *h, uint64_t client, json_t *msg);

/* Sends text to a client: through io.send to a client of this server, over the bus to one of
 * another (hub_bus_send). */
void hub_send_raw(srv_hub *h, uint64_t client, const char *text, size_t len);

#endif

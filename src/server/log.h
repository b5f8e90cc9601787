/* The server's log for operators: one line per event that changes what the server can do (a
 * table taken over or lost, a write refused by fencing, the bus or the database lost and back),
 * each with a UTC timestamp and the server's name, on standard error. */
#ifndef GOITA_SERVER_LOG_H
#define GOITA_SERVER_LOG_H

/* Sets the name every line carries ("" or NULL: "goita"). */
void srv_log_node(const char *node);
/* Writes one line: "2026-11-27T13:04:05.123Z NODE text". */
void srv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

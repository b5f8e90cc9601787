/* Wrong-password tries per client address (docs/SERVER.md "Claimed names"): a table of fixed
 * size, so that its memory is bounded however many addresses come, in which a crowd of new
 * addresses cannot push out an address that guessed a lot. Each address has some free tries;
 * after them each further try waits twice as long as the last, and one try is forgiven per
 * forgive_ms. When the table is full a newcomer takes the place of the entry that would be
 * forgiven first (the fewest tries, the quietest): to push out an address with n tries, a
 * crowd must first hold every place with more than n tries of its own, each of them counted
 * and throttled like any other. Single-threaded: the hub owns it. */
#ifndef GOITA_SERVER_THROTTLE_H
#define GOITA_SERVER_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An address as the throttle counts it: IPv4 addresses whole, IPv6 ones by their /64 network
 * (one subscriber usually has a whole /64), as 16 bytes (IPv4 mapped into IPv6). */
typedef struct srv_address {
  uint8_t bytes[16];
} srv_address;

/* Reads "203.0.113.7", "2001:db8::1" or "::ffff:203.0.113.7" (spaces around are ignored);
 * returns false for anything else. */
bool srv_address_parse(const char *text, srv_address *out);

typedef struct srv_throttle_rules {
  int free_tries;      /* tries an address may make before it must wait */
  int64_t forgive_ms;  /* one try forgiven per this long */
  int64_t wait_max_ms; /* the wait doubles from 1 s up to this */
  size_t capacity;     /* addresses remembered at once */
} srv_throttle_rules;

/* What the server uses: 20 free tries, one forgiven a minute, waits up to 5 minutes, 4096
 * addresses. */
void srv_throttle_rules_default(srv_throttle_rules *rules);

typedef struct srv_throttle srv_throttle;

/* Makes a throttle (all of its memory at once); returns 0, or -1 when out of memory or when
 * the rules make no sense (no capacity, no forgiveness). */
int srv_throttle_new(srv_throttle **throttle, const srv_throttle_rules *rules);
void srv_throttle_free(srv_throttle *throttle);

/* A try from an address at time now (ms): returns 0 and counts it, or how many ms the address
 * must still wait (nothing counted). Count before the check it guards, so that tries sent at
 * once are all seen. */
int64_t srv_throttle_try(srv_throttle *throttle, const srv_address *address, int64_t now);

/* Takes back one counted try of the address (a right password was not a guess). */
void srv_throttle_undo(srv_throttle *throttle, const srv_address *address, int64_t now);

/* The tries counted against an address and not forgiven yet (0 for one not in the table). */
int srv_throttle_tries(const srv_throttle *throttle, const srv_address *address, int64_t now);

#endif

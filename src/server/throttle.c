/* Wrong-password tries per client address (throttle.h). A plain array scanned in full: with
 * the default 4096 places a scan is a few microseconds, next to the argon2id check of about
 * 0.1 s that each counted try stands for. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "throttle.h"

#define THROTTLE_CAPACITY_MAX 65536

typedef struct throttle_entry {
  srv_address address;
  bool used;
  int tries;        /* counted and not forgiven */
  int64_t since_ms; /* forgiveness counts from here: one try per forgive_ms */
  int64_t until_ms; /* no try before this */
} throttle_entry;

struct srv_throttle {
  srv_throttle_rules rules;
  throttle_entry *entries;
};

bool srv_address_parse(const char *text, srv_address *out) {
  char copy[64];
  while (*text == ' ') text++;
  size_t n = strlen(text);
  while (n > 0 && text[n - 1] == ' ') n--;
  if (n == 0 || n >= sizeof copy) return false;
  memcpy(copy, text, n);
  copy[n] = '\0';
  memset(out, 0, sizeof *out);
  uint8_t v4[4];
  if (inet_pton(AF_INET, copy, v4) == 1) {
    out->bytes[10] = out->bytes[11] = 0xff;
    memcpy(out->bytes + 12, v4, 4);
    return true;
  }
  if (inet_pton(AF_INET6, copy, out->bytes) != 1) return false;
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (memcmp(out->bytes, mapped, sizeof mapped) != 0) memset(out->bytes + 8, 0, 8); /* its /64 */
  return true;
}

void srv_throttle_rules_default(srv_throttle_rules *r) {
  *r = (srv_throttle_rules){.free_tries = 20, .forgive_ms = 60000, .wait_max_ms = 300000, .capacity = 4096};
}

int srv_throttle_new(srv_throttle **out, const srv_throttle_rules *rules) {
  *out = NULL;
  if (rules->capacity < 1 || rules->capacity > THROTTLE_CAPACITY_MAX || rules->forgive_ms < 1 || rules->free_tries < 0)
    return -1;
  srv_throttle *t = calloc(1, sizeof *t);
  if (!t) return -1;
  t->rules = *rules;
  t->entries = calloc(rules->capacity, sizeof *t->entries);
  if (!t->entries) {
    free(t);
    return -1;
  }
  *out = t;
  return 0;
}

void srv_throttle_free(srv_throttle *t) {
  if (!t) return;
  free(t->entries);
  free(t);
}

/* Forgives what the time since the entry's last forgiveness earns; an entry with nothing left
 * to forgive and no wait is freed. */
static void forgive(const srv_throttle *t, throttle_entry *e, int64_t now) {
  if (!e->used) return;
  if (e->tries > 0 && now > e->since_ms) {
    const int64_t earned = (now - e->since_ms) / t->rules.forgive_ms;
    if (earned >= e->tries) {
      e->tries = 0;
    } else {
      e->tries -= (int)earned;
      e->since_ms += earned * t->rules.forgive_ms;
    }
  }
  if (e->tries == 0 && now >= e->until_ms) e->used = false;
}

/* When an entry will have nothing left against it: its last try forgiven and its wait over.
 * The entry for which this comes first is the one a newcomer may replace. */
static int64_t clear_at(const srv_throttle *t, const throttle_entry *e) {
  const int64_t forgiven = e->since_ms + (int64_t)e->tries * t->rules.forgive_ms;
  return forgiven > e->until_ms ? forgiven : e->until_ms;
}

static throttle_entry *find(const srv_throttle *t, const srv_address *a, int64_t now) {
  for (size_t i = 0; i < t->rules.capacity; i++) {
    throttle_entry *e = &t->entries[i];
    if (e->used && memcmp(&e->address, a, sizeof *a) == 0) {
      forgive(t, e, now);
      return e->used ? e : NULL;
    }
  }
  return NULL;
}

/* A place for a new address: a free one, else the one that would be clear first. */
static throttle_entry *place(srv_throttle *t, int64_t now) {
  throttle_entry *weakest = NULL;
  for (size_t i = 0; i < t->rules.capacity; i++) {
    throttle_entry *e = &t->entries[i];
    forgive(t, e, now);
    if (!e->used) return e;
    if (!weakest || clear_at(t, e) < clear_at(t, weakest)) weakest = e;
  }
  return weakest;
}

int64_t srv_throttle_try(srv_throttle *t, const srv_address *a, int64_t now) {
  throttle_entry *e = find(t, a, now);
  if (e && now < e->until_ms) return e->until_ms - now;
  if (!e) {
    e = place(t, now);
    *e = (throttle_entry){.address = *a, .used = true};
  }
  if (e->tries == 0) e->since_ms = now;
  e->tries++;
  const int over = e->tries - t->rules.free_tries;
  if (over >= 0) {
    const int64_t wait = INT64_C(1000) << (over < 20 ? over : 20);
    e->until_ms = now + (wait < t->rules.wait_max_ms ? wait : t->rules.wait_max_ms);
  }
  return 0;
}

void srv_throttle_undo(srv_throttle *t, const srv_address *a, int64_t now) {
  throttle_entry *e = find(t, a, now);
  if (!e || e->tries == 0) return;
  e->tries--;
  if (e->tries < t->rules.free_tries) e->until_ms = 0; /* the wait its last try earned is taken back too */
  forgive(t, e, now);
}

int srv_throttle_tries(const srv_throttle *t, const srv_address *a, int64_t now) {
  for (size_t i = 0; i < t->rules.capacity; i++) {
    throttle_entry e = t->entries[i];
    if (e.used && memcmp(&e.address, a, sizeof *a) == 0) {
      forgive(t, &e, now);
      return e.used ? e.tries : 0;
    }
  }
  return 0;
}

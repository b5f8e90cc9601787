/* The hub's indexes: a hash map from a 64-bit key (a table id, a client id, a player id, a
 * token's leading bits) to a 64-bit value, so that finding a table, a client or a seat costs the
 * same with 10 or 10,000 of them. Open addressing with linear probing; a deleted entry's
 * followers are shifted back, so there are no tombstones and lookups stay short. */
#include <stdlib.h>

#include "hub_map.h"

/* Mixes the key's bits (splitmix64's finaliser): table and client ids are small consecutive
 * numbers, which would otherwise crowd one end of the array. */
static size_t slot_of(const hub_map *m, uint64_t key) {
  key ^= key >> 30;
  key *= UINT64_C(0xbf58476d1ce4e5b9);
  key ^= key >> 27;
  key *= UINT64_C(0x94d049bb133111eb);
  key ^= key >> 31;
  return (size_t)key & (m->cap - 1);
}

void hub_map_free(hub_map *m) {
  free(m->entries);
  *m = (hub_map){0};
}

bool hub_map_get(const hub_map *m, uint64_t key, uint64_t *value) {
  if (!m->cap) return false;
  for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
    if (!m->entries[i].used) return false;
    if (m->entries[i].key == key) {
      if (value) *value = m->entries[i].value;
      return true;
    }
  }
}

/* Puts an entry into an array known to have room, replacing the key's old value. */
static void insert(hub_map *m, uint64_t key, uint64_t value) {
  size_t i = slot_of(m, key);
  while (m->entries[i].used && m->entries[i].key != key) i = (i + 1) & (m->cap - 1);
  if (!m->entries[i].used) m->count++;
  m->entries[i] = (hub_map_entry){.key = key, .value = value, .used = true};
}

int hub_map_put(hub_map *m, uint64_t key, uint64_t value) {
  if (2 * (m->count + 1) > m->cap) { /* kept at most half full */
    const size_t cap = m->cap ? 2 * m->cap : 64;
    hub_map_entry *grown = calloc(cap, sizeof *grown);
    if (!grown) return -1;
    hub_map old = *m;
    m->entries = grown;
    m->cap = cap;
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.entries[i].used) insert(m, old.entries[i].key, old.entries[i].value);
    free(old.entries);
  }
  insert(m, key, value);
  return 0;
}

void hub_map_del(hub_map *m, uint64_t key) {
  if (!m->cap) return;
  size_t i = slot_of(m, key);
  while (m->entries[i].used && m->entries[i].key != key) i = (i + 1) & (m->cap - 1);
  if (!m->entries[i].used) return;
  m->entries[i].used = false;
  m->count--;
  /* Backward shift: an entry after the hole that could live at the hole moves into it. */
  for (size_t j = (i + 1) & (m->cap - 1); m->entries[j].used; j = (j + 1) & (m->cap - 1)) {
    const size_t home = slot_of(m, m->entries[j].key);
    const bool between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (between) continue;
    m->entries[i] = m->entries[j];
    m->entries[j].used = false;
    i = j;
  }
}

/* A hash map from a 64-bit key to a 64-bit value (hub_map.c), for the hub's indexes. */
#ifndef GOITA_SERVER_HUB_MAP_H
#define GOITA_SERVER_HUB_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hub_map_entry {
  uint64_t key, value;
  bool used;
} hub_map_entry;

typedef struct hub_map {
  hub_map_entry *entries;
  size_t cap, count; /* cap is 0 or a power of two */
} hub_map;

bool hub_map_get(const hub_map *m, uint64_t key, uint64_t *value);

/* Returns 0, or -1 when out of memory (the map is unchanged). */
int hub_map_put(hub_map *m, uint64_t key, uint64_t value);

void hub_map_del(hub_map *m, uint64_t key);

void hub_map_free(hub_map *m);

#endif

/* Threads listing the computer players' levels at once, as the server's computer-player
 * threads do: built with ThreadSanitizer (tests/CMakeLists.txt), which fails the run on any
 * data race inside goita_player_levels or goita_player_describe. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "goita/goita.h"

enum { THREADS = 4, ROUNDS = 2000 };

static void *list_levels(void *arg) {
  size_t *total = arg;
  for (int r = 0; r < ROUNDS; r++)
    for (const char *const *level = goita_player_levels(); *level; level++)
      *total += strlen(*level) + (goita_player_describe(*level) != NULL);
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  size_t totals[THREADS] = {0};
  for (int i = 0; i < THREADS; i++)
    if (pthread_create(&threads[i], NULL, list_levels, &totals[i]) != 0) {
      fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
  for (int i = 1; i < THREADS; i++)
    if (totals[i] != totals[0] || totals[0] == 0) {
      fprintf(stderr, "the threads saw different level lists\n");
      return 1;
    }
  printf("%d threads listed the levels %d times each\n", THREADS, ROUNDS);
  return 0;
}

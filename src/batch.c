/* The batched environment (goita/batch.h): N games, each a goita_game with its own generators,
 * stepped in one call that writes the caller's arrays. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "goita/batch.h"
#include "internal.h"

/* The largest batch: far beyond any use, and small enough that sizes never overflow. */
#define BATCH_MAX_GAMES (1 << 24)

typedef struct batch_game {
  goita_game game;
  goita_rng seeds;  /* the seeds of the episodes after the first */
  goita_rng policy; /* goita_batch_step_random's choices */
  /* Rewards of rounds the deals decided before the episode's first move (game episodes):
   * they are paid with that move, as the episode's first step. */
  float pending[GOITA_MAX_SEATS];
  int nlegal;
  goita_move legal[GOITA_MAX_LEGAL]; /* the seat to move's legal moves, as the mask shows */
  /* Bit a % 64 of word a / 64: action a is legal. Checked instead of the caller's mask, which
   * the caller may have written over. */
  uint64_t legal_actions[2];
} batch_game;

struct goita_batch {
  goita_batch_options options;
  int sides;
  int side_of[GOITA_MAX_SEATS];
  int n;
  bool started;
  goita_batch_arrays arrays;
  batch_game *games;
};

void goita_batch_options_default(goita_batch_options *o) {
  memset(o, 0, sizeof *o);
  goita_rules_default(&o->rules);
  o->episode = GOITA_BATCH_ROUND;
  o->reward_scale = 0.1f;
}

int goita_batch_new(goita_batch **out, const goita_batch_options *o, int n, const goita_batch_arrays *a,
                    goita_error *err) {
  if (!out) return goita_error_set(err, GOITA_EINVAL, -1, "no place for the batch (out is NULL)");
  *out = NULL;
  if (!o) return goita_error_set(err, GOITA_EINVAL, -1, "no options");
  if (!a || !a->obs || !a->mask || !a->rewards || !a->terminated || !a->seat)
    return goita_error_set(err, GOITA_EINVAL, -1, "every array (obs, mask, rewards, terminated, seat) is required");
  if (n < 1 || n > BATCH_MAX_GAMES)
    return goita_error_set(err, GOITA_EINVAL, -1, "a batch holds 1 to %d games, not %d", BATCH_MAX_GAMES, n);
  if (o->episode != GOITA_BATCH_ROUND && o->episode != GOITA_BATCH_GAME)
    return goita_error_set(err, GOITA_EINVAL, -1, "episode must be GOITA_BATCH_ROUND or GOITA_BATCH_GAME");
  const int st = goita_rules_validate(&o->rules, err);
  if (st != GOITA_OK) return st;
  /* n is bounded, but sizeof(batch_game) * n can still exceed a 32-bit size_t. */
  const bool fits = (size_t)n <= SIZE_MAX / sizeof(batch_game);
  goita_batch *b = fits ? calloc(1, sizeof *b) : NULL;
  if (b) b->games = malloc((size_t)n * sizeof(batch_game));
  if (!b || !b->games) {
    free(b);
    return goita_error_set(err, GOITA_ENOMEM, -1, "out of memory for a batch of %d games", n);
  }
  b->options = *o;
  b->sides = goita_rules_sides(&o->rules);
  for (int s = 0; s < o->rules.players; s++) b->side_of[s] = goita_rules_side_of(&o->rules, s);
  b->n = n;
  b->arrays = *a;
  *out = b;
  return GOITA_OK;
}

void goita_batch_free(goita_batch *b) {
  if (!b) return;
  free(b->games);
  free(b);
}

int goita_batch_size(const goita_batch *b) { return b->n; }

const goita_game *goita_batch_game(const goita_batch *b, int i) {
  return i >= 0 && i < b->n && b->started ? &b->games[i].game : NULL;
}

/* Adds each seat's share of the round that just ended to rewards. */
static void add_round_rewards(const goita_batch *b, const goita_game *g, float *rewards) {
  int gained[GOITA_MAX_SEATS], total = 0;
  for (int side = 0; side < b->sides; side++) {
    gained[side] = g->score[side] - g->score_before[side];
    total += gained[side];
  }
  for (int s = 0; s < g->rules.players; s++) {
    const int own = gained[b->side_of[s]];
    rewards[s] += b->options.reward_scale * ((float)own - (float)(total - own) / (float)(b->sides - 1));
  }
}

/* After a move or a deal: pays every round that has ended into rewards and deals the next
 * one while the episode goes on. Returns whether the episode has ended. */
static bool settle(const goita_batch *b, goita_game *g, float *rewards) {
  while (goita_round_over(&g->round)) {
    add_round_rewards(b, g, rewards);
    if (b->options.episode == GOITA_BATCH_ROUND || g->over) return true;
    goita_game_next_round(g, NULL);
  }
  return false;
}

/* Starts game's next episode from seed, skipping deals that would end it before any move. */
static void start_episode(const goita_batch *b, batch_game *bg, uint64_t seed) {
  for (;;) {
    goita_game_start(&bg->game, &b->options.rules, seed, NULL);
    memset(bg->pending, 0, sizeof bg->pending);
    if (!settle(b, &bg->game, bg->pending)) return;
    seed = goita_rng_next(&bg->seeds);
  }
}

/* Writes game i's row of obs, mask and seat, from the view of its seat to move. */
static void write_row(goita_batch *b, int i) {
  batch_game *bg = &b->games[i];
  const int seat = bg->game.round.turn;
  goita_view view;
  goita_game_view(&bg->game, seat, &view);
  goita_view_observe(&view, b->arrays.obs + (size_t)i * GOITA_OBS_SIZE);
  bg->nlegal = goita_view_legal_moves(&view, bg->legal);
  uint8_t *mask = b->arrays.mask + (size_t)i * GOITA_NUM_ACTIONS;
  memset(mask, 0, GOITA_NUM_ACTIONS);
  bg->legal_actions[0] = bg->legal_actions[1] = 0;
  for (int k = 0; k < bg->nlegal; k++) {
    const int a = goita_move_action(bg->legal[k]);
    mask[a] = 1;
    bg->legal_actions[a >> 6] |= 1ull << (a & 63);
  }
  b->arrays.seat[i] = (int8_t)seat;
}

int goita_batch_reset(goita_batch *b, const uint64_t *seeds, goita_error *err) {
  if (!b || !seeds) return goita_error_set(err, GOITA_EINVAL, -1, "no batch or no seeds");
  for (int i = 0; i < b->n; i++) {
    batch_game *bg = &b->games[i];
    goita_rng_seed(&bg->seeds, goita_seed_mix(seeds[i]));
    goita_rng_seed(&bg->policy, goita_seed_mix(goita_seed_mix(seeds[i])));
    start_episode(b, bg, seeds[i]);
    memset(b->arrays.rewards + (size_t)i * GOITA_MAX_SEATS, 0, GOITA_MAX_SEATS * sizeof(float));
    b->arrays.terminated[i] = 0;
    write_row(b, i);
  }
  b->started = true;
  return GOITA_OK;
}

/* Makes move in game i and writes its row of every array. */
static void step_game(goita_batch *b, int i, goita_move move) {
  batch_game *bg = &b->games[i];
  float *rewards = b->arrays.rewards + (size_t)i * GOITA_MAX_SEATS;
  memcpy(rewards, bg->pending, sizeof bg->pending);
  memset(bg->pending, 0, sizeof bg->pending);
  goita_game_apply(&bg->game, move, NULL);
  const bool ended = settle(b, &bg->game, rewards);
  if (ended) start_episode(b, bg, goita_rng_next(&bg->seeds));
  b->arrays.terminated[i] = ended;
  write_row(b, i);
}

int goita_batch_step(goita_batch *b, const int32_t *actions, goita_error *err) {
  if (!b || !actions) return goita_error_set(err, GOITA_EINVAL, -1, "no batch or no actions");
  if (!b->started) return goita_error_set(err, GOITA_ESTATE, -1, "the batch has not been reset");
  for (int i = 0; i < b->n; i++) {
    const int32_t a = actions[i];
    if (a < 0 || a >= GOITA_NUM_ACTIONS || !(b->games[i].legal_actions[a >> 6] >> (a & 63) & 1))
      return goita_error_set(err, GOITA_EILLEGAL, i, "game %d: action %ld is not legal for seat %d now", i,
                             (long)a, b->games[i].game.round.turn + 1);
  }
  for (int i = 0; i < b->n; i++) {
    goita_move move;
    goita_action_move(actions[i], b->games[i].game.round.turn, &move);
    step_game(b, i, move);
  }
  return GOITA_OK;
}

int goita_batch_step_random(goita_batch *b, int32_t *actions) {
  if (!b) return GOITA_EINVAL;
  if (!b->started) return GOITA_ESTATE;
  for (int i = 0; i < b->n; i++) {
    batch_game *bg = &b->games[i];
    const goita_move move = bg->legal[goita_rng_below(&bg->policy, (uint32_t)bg->nlegal)];
    if (actions) actions[i] = goita_move_action(move);
    step_game(b, i, move);
  }
  return GOITA_OK;
}

/* Career statistics: what a finished game says about each of its players (docs/SERVER.md
 * "Career statistics"). The rounds and points come from the game's record; the points lost per
 * move from the exact solver (include/goita/solver.h) run over every position of every round
 * with all hands known, which takes up to seconds, so the hub hands the game to io.analyse and
 * gets the result back through srv_hub_game_analysed (net.c runs it on a thread of its own). */
#ifndef GOITA_SERVER_GAME_STATS_H
#define GOITA_SERVER_GAME_STATS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "goita/goita.h"

/* What one game says about one seat's player. Points are in tens, as the server's scores are
 * (docs/SERVER.md: a French table's 3 points are 30 here). */
typedef struct srv_seat_stats {
  int rounds;  /* rounds dealt in the game, each one the player sat through */
  int points;  /* what the player's side scored in them */
  int moves;   /* the player's choices: plays where two or more moves were legal, solved exactly */
  int lost;    /* the points those moves lost against the best move, all hands known */
} srv_seat_stats;

/* A finished game to analyse: who sat where, and its rounds as played (rounds is malloc'd and
 * goes with the job: whoever takes the job frees it with srv_game_job_free). */
typedef struct srv_game_job {
  int64_t game;
  bool listed; /* the table was in the lobby (not private): its game counts for everyone */
  int nplayers;
  int64_t players[GOITA_MAX_SEATS];
  goita_rules rules;
  int nrounds;
  goita_record_round *rounds;
} srv_game_job;

/* A game's statistics, one row per seat, as srv_store_game_stats_save keeps them. */
typedef struct srv_game_stats {
  int64_t game;
  bool listed;
  int nplayers;
  int64_t players[GOITA_MAX_SEATS];
  srv_seat_stats seats[GOITA_MAX_SEATS];
  int unsolved; /* positions the node budget left unsolved (not counted in moves or lost) */
} srv_game_stats;

/* Frees a job's rounds (a NULL job or rounds is allowed). */
void srv_game_job_free(srv_game_job *job);

/* Analyses a game: the rounds and points of each seat, and the loss of every choice it made,
 * each position solved with at most max_nodes nodes (0: no limit) on solver, which the caller
 * owns (one per thread). Fills out; returns 0, or -1 when a round cannot be replayed from its
 * deal or *stop (NULL: never) was set meanwhile (out is then incomplete). */
int srv_game_analyse(const srv_game_job *job, goita_solver *solver, uint64_t max_nodes, const atomic_bool *stop,
                     srv_game_stats *out);

#endif

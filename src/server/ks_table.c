/* The game at a Ko shogi table: seats, moves, clock, resignation and draws (ks_table.h). */
#include "ks_table.h"

#include <stdio.h>
#include <string.h>

int srv_ks_table_init(srv_ks_table *table, int64_t main_ms, int64_t byoyomi_ms, char *err, size_t errsize) {
  memset(table, 0, sizeof *table);
  table->draw_offer = -1;
  if (srv_ks_clock_init(&table->clock, main_ms, byoyomi_ms) != 0) {
    snprintf(err, errsize, "the main time and the byoyomi must not be negative");
    return -1;
  }
  if (ks_game_init(&table->game) != 0) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  return 0;
}

void srv_ks_table_free(srv_ks_table *table) { ks_game_free(&table->game); }

bool srv_ks_table_over(const srv_ks_table *table) { return table->end != SRV_KS_END_NONE; }

int srv_ks_table_side_of(const srv_ks_table *table, int64_t player) {
  if (player == 0) return -1;
  if (table->seats[KS_BLACK] == player) return KS_BLACK;
  if (table->seats[KS_WHITE] == player) return KS_WHITE;
  return -1;
}

srv_error srv_ks_table_sit(srv_ks_table *table, int side, int64_t player) {
  if (side != KS_BLACK && side != KS_WHITE) return SRV_ERR_SEAT_INVALID;
  if (table->started) return SRV_ERR_TABLE_STARTED;
  if (table->seats[side] != 0) return SRV_ERR_SEAT_TAKEN;
  if (srv_ks_table_side_of(table, player) >= 0) return SRV_ERR_ALREADY_SEATED;
  table->seats[side] = player;
  return SRV_ERROR_NONE;
}

srv_error srv_ks_table_start(srv_ks_table *table, int64_t now) {
  if (table->started) return SRV_ERR_TABLE_STARTED;
  if (table->seats[KS_BLACK] == 0 || table->seats[KS_WHITE] == 0) return SRV_ERR_SEATS_EMPTY;
  table->started = true;
  srv_ks_clock_start(&table->clock, table->game.pos.to_move, now);
  return SRV_ERROR_NONE;
}

/* Ends the game with a result and how it came, stopping the clock at now. */
static void finish(srv_ks_table *table, int result, srv_ks_end end, int64_t now) {
  table->result = result;
  table->end = (int)end;
  table->draw_offer = -1;
  srv_ks_clock_stop(&table->clock, now);
}

static int win_for(int side) { return side == KS_BLACK ? KS_BLACK_WINS : KS_WHITE_WINS; }

bool srv_ks_table_tick(srv_ks_table *table, int64_t now) {
  if (!table->started || srv_ks_table_over(table) || !srv_ks_clock_flagged(&table->clock, now)) return false;
  /* The flag falls at the deadline, not when the tick came: the loser is charged to there. */
  int loser = table->clock.running;
  finish(table, win_for(1 - loser), SRV_KS_END_TIME, srv_ks_clock_deadline(&table->clock));
  return true;
}

/* The player's side, or the refusal of a game action: a spectator, or no game in play (the
 * game ends on time first when the flag has fallen, so a late action finds it over). */
static srv_error playing_side(srv_ks_table *table, int64_t player, int64_t now, int *side) {
  *side = srv_ks_table_side_of(table, player);
  if (*side < 0) return SRV_ERR_NOT_SEATED;
  srv_ks_table_tick(table, now);
  if (!table->started || srv_ks_table_over(table)) return SRV_ERR_NOT_PLAYING;
  return SRV_ERROR_NONE;
}

srv_error srv_ks_table_move(srv_ks_table *table, int64_t player, const char *text, int64_t now, char *err,
                            size_t errsize) {
  int side;
  srv_error refused = playing_side(table, player, now, &side);
  if (refused != SRV_ERROR_NONE) return refused;
  if (side != table->game.pos.to_move) return SRV_ERR_WRONG_SEAT;
  ks_move move;
  const int parsed = ks_move_parse(&table->game.pos, text, &move, err, errsize);
  if (parsed != 0) return parsed == -2 ? SRV_ERR_SERVER_BUSY : SRV_ERR_ILLEGAL_MOVE;
  if (ks_game_play(&table->game, &move) != 0) {
    snprintf(err, errsize, "out of memory");
    return SRV_ERR_SERVER_BUSY;
  }
  if (table->draw_offer == 1 - side) table->draw_offer = -1; /* a move answers an offer: declined */
  if (table->game.result != KS_ONGOING) {
    finish(table, table->game.result, SRV_KS_END_RULES, now);
  } else {
    srv_ks_clock_press(&table->clock, now); /* cannot be late: playing_side found no flag fallen */
  }
  return SRV_ERROR_NONE;
}

srv_error srv_ks_table_resign(srv_ks_table *table, int64_t player, int64_t now) {
  int side;
  srv_error refused = playing_side(table, player, now, &side);
  if (refused != SRV_ERROR_NONE) return refused;
  finish(table, win_for(1 - side), SRV_KS_END_RESIGNATION, now);
  return SRV_ERROR_NONE;
}

srv_error srv_ks_table_offer_draw(srv_ks_table *table, int64_t player, int64_t now) {
  int side;
  srv_error refused = playing_side(table, player, now, &side);
  if (refused != SRV_ERROR_NONE) return refused;
  table->draw_offer = side;
  return SRV_ERROR_NONE;
}

srv_error srv_ks_table_answer_draw(srv_ks_table *table, int64_t player, bool accept, int64_t now) {
  int side;
  srv_error refused = playing_side(table, player, now, &side);
  if (refused != SRV_ERROR_NONE) return refused;
  if (table->draw_offer != 1 - side) return SRV_ERR_DRAW_NOT_OFFERED;
  if (accept) {
    finish(table, KS_NO_CONTEST, SRV_KS_END_AGREEMENT, now);
  } else {
    table->draw_offer = -1;
  }
  return SRV_ERROR_NONE;
}

int srv_ks_table_take_back(srv_ks_table *table, const srv_ks_clock *clock, int draw_offer) {
  ks_game before;
  if (ks_game_init(&before) != 0) return -1;
  for (int ply = 0; ply + 1 < table->game.nplies; ply++)
    if (ks_game_play(&before, &table->game.moves[ply]) != 0) {
      ks_game_free(&before);
      return -1;
    }
  ks_game_free(&table->game);
  table->game = before;
  table->clock = *clock;
  table->draw_offer = draw_offer;
  table->result = KS_ONGOING;
  table->end = SRV_KS_END_NONE;
  return 0;
}

srv_error srv_ks_table_replay(srv_ks_table *table, const char *text, char *err, size_t errsize) {
  ks_move move;
  if (table->game.result != KS_ONGOING) {
    snprintf(err, errsize, "the game was over before this move");
    return SRV_ERR_ILLEGAL_MOVE;
  }
  const int parsed = ks_move_parse(&table->game.pos, text, &move, err, errsize);
  if (parsed != 0) return parsed == -2 ? SRV_ERR_SERVER_BUSY : SRV_ERR_ILLEGAL_MOVE;
  if (ks_game_play(&table->game, &move) != 0) {
    snprintf(err, errsize, "out of memory");
    return SRV_ERR_SERVER_BUSY;
  }
  return SRV_ERROR_NONE;
}

void srv_ks_table_resume(srv_ks_table *table, const int64_t left_ms[2], int64_t now) {
  table->clock.left_ms[KS_BLACK] = left_ms[KS_BLACK];
  table->clock.left_ms[KS_WHITE] = left_ms[KS_WHITE];
  if (srv_ks_table_start(table, now) != SRV_ERROR_NONE) return;
  if (table->game.result != KS_ONGOING) finish(table, table->game.result, SRV_KS_END_RULES, now);
}

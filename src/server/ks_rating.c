/* Ko shogi ratings after a finished game (ks_rating.h). */
#include "ks_rating.h"

bool srv_ks_game_rated(const srv_ks_table *table) {
  return srv_ks_table_over(table) && table->game.nplies >= 2;
}

bool srv_ks_rate(const srv_ks_table *table, const srv_ks_rating before[2], srv_ks_rating after[2]) {
  after[0] = before[0];
  after[1] = before[1];
  if (!srv_ks_game_rated(table)) return false;
  srv_rating_seat seats[2];
  for (int side = KS_BLACK; side <= KS_WHITE; side++) {
    const bool won = table->result == (side == KS_BLACK ? KS_BLACK_WINS : KS_WHITE_WINS);
    const bool drawn = table->result == KS_NO_CONTEST;
    seats[side] = (srv_rating_seat){.entity = table->seats[side], .side = side, .rank = won || drawn ? 0 : 1,
                                    .rating = before[side].rating, .deviation = before[side].deviation};
  }
  srv_rating_result out[2];
  srv_ratings_update_spread(seats, 2, SRV_KS_RATING_BETA, out);
  for (int side = KS_BLACK; side <= KS_WHITE; side++)
    after[side] = (srv_ks_rating){.rating = out[side].rating, .deviation = out[side].deviation};
  return out[0].rated && out[1].rated;
}

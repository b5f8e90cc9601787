/* The Ko shogi table's message to everyone at it (ks_message.h). */
#include "ks_message.h"

#include <jansson.h>
#include <stdlib.h>

static json_t *side_name(int side) {
  return side == KS_BLACK ? json_string("black") : side == KS_WHITE ? json_string("white") : json_null();
}

const char *srv_ks_end_name(const srv_ks_table *table) {
  switch (table->end) {
  case SRV_KS_END_TIME: return "time";
  case SRV_KS_END_RESIGNATION: return "resignation";
  case SRV_KS_END_AGREEMENT: return "agreement";
  case SRV_KS_END_RULES: break;
  default: return NULL;
  }
  switch (table->game.reason) {
  case KS_BY_DEFEAT: return "defeat";
  case KS_BY_SELF_DEFEAT: return "self_defeat";
  case KS_BY_REPETITION: return "repetition";
  case KS_BY_PERPETUAL: return "perpetual_check";
  case KS_BY_NO_MOVES: return "no_moves";
  default: return NULL;
  }
}

/* The moves played, in notation, each written in the position it was played from. */
static json_t *moves_text(const ks_game *game) {
  json_t *moves = json_array();
  ks_position pos = game->start;
  for (int i = 0; moves && i < game->nplies; i++) {
    char text[KS_MOVE_TEXT];
    if (ks_move_format(&pos, &game->moves[i], text, sizeof text) < 0 || json_array_append_new(moves, json_string(text))) {
      json_decref(moves);
      return NULL;
    }
    ks_play(&pos, &game->moves[i]);
  }
  return moves;
}

static json_t *clock_json(const srv_ks_clock *clock, int64_t now) {
  json_t *out = json_pack("{s:I, s:I, s:o}", "main_ms", (json_int_t)clock->main_ms, "byoyomi_ms",
                          (json_int_t)clock->byoyomi_ms, "running", side_name(clock->running));
  for (int side = KS_BLACK; out && side <= KS_WHITE; side++) {
    int64_t main_left, byoyomi_left;
    srv_ks_clock_show(clock, side, now, &main_left, &byoyomi_left);
    json_object_set_new(out, side == KS_BLACK ? "black" : "white",
                        json_pack("{s:I, s:I}", "main_ms", (json_int_t)main_left, "byoyomi_ms", (json_int_t)byoyomi_left));
  }
  return out;
}

static json_t *result_name(const srv_ks_table *table) {
  if (!srv_ks_table_over(table)) return json_null();
  switch (table->result) {
  case KS_BLACK_WINS: return json_string("black");
  case KS_WHITE_WINS: return json_string("white");
  default: return json_string("draw");
  }
}

char *srv_ks_message_table(const srv_ks_table *table, int64_t id, int64_t now) {
  json_t *msg = srv_ks_message_json(table, id, now);
  char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  return text;
}

json_t *srv_ks_message_json(const srv_ks_table *table, int64_t id, int64_t now) {
  char position[KS_POSITION_TEXT];
  const int move_number = ks_game_ply_number(&table->game, table->game.nplies);
  if (ks_position_write(&table->game.pos, move_number, position, sizeof position) < 0) return NULL;
  const char *end = srv_ks_end_name(table);
  json_t *msg = json_pack("{s:s, s:I, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "type", "ks_table", "table",
                          (json_int_t)id, "position", position, "move_number", move_number, "to_move",
                          side_name(table->game.pos.to_move), "moves", moves_text(&table->game), "clock",
                          clock_json(&table->clock, now), "draw_offer", side_name(table->draw_offer), "result",
                          result_name(table), "end", end ? json_string(end) : json_null());
  return msg;
}

char *srv_ks_record(const srv_ks_table *table, const char *black, const char *white) {
  ks_game game = table->game; /* a view of the same moves, only its end set (ks_record_write reads) */
  static const int reasons[] = {[SRV_KS_END_RESIGNATION] = KS_BY_RESIGNATION, [SRV_KS_END_TIME] = KS_BY_TIME,
                                [SRV_KS_END_AGREEMENT] = KS_BY_AGREEMENT};
  if (table->end >= SRV_KS_END_RESIGNATION && table->end <= SRV_KS_END_AGREEMENT)
    ks_game_end(&game, table->result, reasons[table->end]);
  return ks_record_write(&game, black, white);
}

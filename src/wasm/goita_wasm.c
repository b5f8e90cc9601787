/* libgoita for the browser (goita_wasm.h): each call reads strings and answers JSON text. */
#include <emscripten/emscripten.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goita/goita.h"
#include "goita_wasm.h"

/* The solver's table: enough for a full deal within the browser's memory. */
#define GW_TABLE_BYTES ((size_t)32 << 20)

struct gw_context {
  goita_game game;
  bool started;
  goita_solver *solver;
  char *out; /* the last answer */
  size_t len, cap;
  bool oom;
};

/* Appends formatted text to the answer, growing it; a failed growth marks the answer lost. */
static void out(gw_context *c, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(c->out + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < c->cap - c->len) {
      c->len += (size_t)n;
      return;
    }
    char *bigger = realloc(c->out, c->cap * 2 + (size_t)n);
    if (!bigger) {
      c->oom = true;
      return;
    }
    c->out = bigger;
    c->cap = c->cap * 2 + (size_t)n;
  }
}

/* Starts a new answer. */
static void begin(gw_context *c) {
  c->len = 0;
  c->out[0] = '\0';
  c->oom = false;
}

/* Ends an answer and returns its text. */
static const char *answer(gw_context *c) {
  return c->oom ? "{\"error\":\"out of memory\"}" : c->out;
}

/* Answers {"error":message} with the message escaped as a JSON string. */
static const char *fail(gw_context *c, const char *message) {
  begin(c);
  out(c, "{\"error\":\"");
  for (const char *p = message; *p; p++) {
    if (*p == '"' || *p == '\\') out(c, "\\%c", *p);
    else if ((unsigned char)*p < 0x20) out(c, " ");
    else out(c, "%c", *p);
  }
  out(c, "\"}");
  return answer(c);
}

/* Answers {"ok":true}. */
static const char *ok(gw_context *c) {
  begin(c);
  out(c, "{\"ok\":true}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE gw_context *gw_new(void) {
  gw_context *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->cap = 4096;
  c->out = malloc(c->cap);
  if (!c->out || goita_solver_new(&c->solver, GW_TABLE_BYTES) != GOITA_OK) {
    gw_free(c);
    return NULL;
  }
  return c;
}

EMSCRIPTEN_KEEPALIVE void gw_free(gw_context *c) {
  if (!c) return;
  goita_solver_free(c->solver);
  free(c->out);
  free(c);
}

/* Reads a decimal seed; false for anything else. */
static bool read_seed(const char *text, uint64_t *seed) {
  char *end;
  if (!text || !*text || *text == '-') return false;
  *seed = strtoull(text, &end, 10);
  return *end == '\0';
}

EMSCRIPTEN_KEEPALIVE const char *gw_start(gw_context *c, const char *rules_text, const char *seed_text) {
  goita_rules rules;
  goita_error err;
  uint64_t seed;
  if (goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) return fail(c, err.message);
  if (!read_seed(seed_text, &seed)) return fail(c, "the seed must be a decimal number");
  if (goita_game_start(&c->game, &rules, seed, &err) != GOITA_OK) return fail(c, err.message);
  c->started = true;
  return ok(c);
}

/* Writes marks as a JSON string of digits, 0 for a piece the viewer cannot see. */
static void out_marks(gw_context *c, const uint8_t *row, int n) {
  out(c, "\"");
  for (int i = 0; i < n; i++) out(c, "%c", '0' + row[i]);
  out(c, "\"");
}

/* Writes the viewer's own hand as marks, kings as 王 (8) and 玉 (9) as held. */
static void out_hand(gw_context *c, const goita_view *v) {
  out(c, "\"");
  for (int kind = GOITA_PAWN; kind <= GOITA_KING; kind++)
    for (int i = 0; i < v->hand[kind]; i++)
      out(c, "%d", kind == GOITA_KING ? ((i == 0 && (v->kings & 1)) ? GOITA_MARK_OU : GOITA_MARK_GYOKU) : kind);
  out(c, "\"");
}

/* Writes a list of moves as JSON strings of tokens; a face-down block hidden from the viewer
 * is written x, as in history strings. */
static void out_moves(gw_context *c, const goita_move *moves, int n) {
  out(c, "[");
  for (int i = 0; i < n; i++) {
    char token[16];
    if (goita_move_format(moves[i], token, sizeof token) < 0) continue;
    if (moves[i].type == GOITA_MOVE_PLAY && moves[i].block == 0) token[1] = 'x';
    out(c, "%s\"%s\"", i ? "," : "", token);
  }
  out(c, "]");
}

static const char *end_name(int end) {
  static const char *const names[] = {"none", "finish", "teyaku", "double_goshi", "redeal"};
  return end >= 0 && end <= GOITA_END_REDEAL ? names[end] : "none";
}

static const char *phase_name(int phase) {
  return phase == GOITA_PHASE_DECIDE ? "decide" : phase == GOITA_PHASE_PLAY ? "play" : "over";
}

/* Writes each seat's rows: blocks, attacks and which blocks lie face-down. */
static void out_rows(gw_context *c, const goita_view *v) {
  out(c, ",\"sizes\":[");
  for (int s = 0; s < v->players; s++) out(c, "%s%d", s ? "," : "", v->size[s]);
  out(c, "],\"rows\":[");
  for (int s = 0; s < v->players; s++) {
    out(c, "%s{\"blocks\":", s ? "," : "");
    out_marks(c, v->block_row[s], v->plays[s]);
    out(c, ",\"attacks\":");
    out_marks(c, v->attack_row[s], v->plays[s]);
    out(c, ",\"face_down\":\"");
    for (int i = 0; i < v->plays[s]; i++) out(c, "%c", (v->face_down[s] >> i & 1) ? '1' : '0');
    out(c, "\"}");
  }
  out(c, "]");
}

/* Writes the round's result and any teyaku hand shown. */
static void out_result(gw_context *c, const goita_view *v) {
  out(c, ",\"result\":{\"end\":\"%s\",\"winner\":%d,\"points\":%d,\"doubled\":%s}", end_name((int)v->result.end),
      v->result.winner, v->result.points, v->result.doubled ? "true" : "false");
  int shown = 0;
  while (shown < GOITA_MAX_HAND && v->teyaku_hand[shown]) shown++;
  if (shown) {
    out(c, ",\"teyaku_hand\":");
    out_marks(c, v->teyaku_hand, shown);
  }
}

EMSCRIPTEN_KEEPALIVE const char *gw_state(gw_context *c, int seat) {
  goita_view v;
  if (!c->started) return fail(c, "no game: start one first");
  if (goita_game_view(&c->game, seat < 0 ? GOITA_OBSERVER : seat, &v) != GOITA_OK) return fail(c, "no such seat");
  begin(c);
  out(c, "{\"round\":%d,\"dealer\":%d,\"turn\":%d,\"phase\":\"%s\",\"attack\":%d,\"attacker\":%d,\"target\":%d,",
      v.round_index, v.dealer, v.turn, phase_name(v.phase), v.attack, v.attacker, v.rules.target);
  out(c, "\"scale\":\"%s\",\"over\":%s,\"winner_side\":%d,\"scores\":[", v.rules.scale == GOITA_SCALE_ONES ? "ones" : "tens",
      c->game.over ? "true" : "false", c->game.winner_side);
  for (int side = 0; side < goita_rules_sides(&v.rules); side++) out(c, "%s%d", side ? "," : "", v.score[side]);
  out(c, "]");
  if (v.seat >= 0) {
    out(c, ",\"hand\":");
    out_hand(c, &v);
  }
  out_rows(c, &v);
  out(c, ",\"goshi\":%d,\"deciders\":%d,\"log\":", v.goshi, v.deciders);
  out_moves(c, v.log, v.nlog);
  char history[1024];
  if (goita_history_format_view(&v, history, sizeof history) > 0) out(c, ",\"history\":\"%s\"", history);
  if (v.phase == GOITA_PHASE_OVER) out_result(c, &v);
  goita_move legal[GOITA_MAX_LEGAL];
  const int n = v.seat >= 0 && v.seat == v.turn && v.phase != GOITA_PHASE_OVER ? goita_view_legal_moves(&v, legal) : 0;
  out(c, ",\"legal\":");
  out_moves(c, legal, n);
  out(c, "}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *gw_round_history(gw_context *c) {
  char history[1024];
  if (!c->started) return fail(c, "no game: start one first");
  if (goita_history_format(&c->game.round, history, sizeof history) < 0) return fail(c, "the round is too long");
  begin(c);
  out(c, "{\"history\":\"%s\"}", history);
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *gw_play(gw_context *c, const char *token) {
  goita_move move;
  goita_error err;
  if (!c->started) return fail(c, "no game: start one first");
  if (goita_move_parse(token, strlen(token), &move) != GOITA_OK) return fail(c, "not a move token (like 113 or 2p)");
  if (goita_game_apply(&c->game, move, &err) != GOITA_OK) return fail(c, err.message);
  return ok(c);
}

EMSCRIPTEN_KEEPALIVE const char *gw_next_round(gw_context *c) {
  goita_error err;
  if (!c->started) return fail(c, "no game: start one first");
  if (goita_game_next_round(&c->game, &err) != GOITA_OK) return fail(c, err.message);
  return ok(c);
}

/* Runs a player of the given spec and seed on a view and answers its move and its values. */
static const char *choose_view(gw_context *c, const goita_view *v, const char *spec, const char *seed_text) {
  goita_player *player;
  goita_error err;
  uint64_t seed;
  if (!read_seed(seed_text, &seed)) return fail(c, "the seed must be a decimal number");
  if (goita_player_new(&player, spec, &err) != GOITA_OK) return fail(c, err.message);
  goita_player_seed(player, seed);
  goita_move move;
  goita_player_info info;
  memset(&info, 0, sizeof info);
  const int st = goita_player_choose(player, v, &move, &info);
  goita_player_free(player);
  if (st != GOITA_OK) return fail(c, goita_strerror(st));
  char token[16];
  goita_move_format(move, token, sizeof token);
  begin(c);
  out(c, "{\"move\":\"%s\",\"has_values\":%d,\"moves\":", token, info.has_values);
  out_moves(c, info.moves, info.has_values ? info.nmoves : 0);
  out(c, ",\"values\":[");
  for (int i = 0; info.has_values && i < info.nmoves; i++) out(c, "%s%.4f", i ? "," : "", info.value[i]);
  /* master and fast: the deals that valued each move, and those in which it was a best move */
  out(c, "],\"deals\":[");
  for (int i = 0; info.has_values && i < info.nmoves; i++) out(c, "%s%d", i ? "," : "", info.deals[i]);
  out(c, "],\"agree\":[");
  for (int i = 0; info.has_values && i < info.nmoves; i++) out(c, "%s%d", i ? "," : "", info.agree[i]);
  out(c, "],\"samples\":%d,\"nodes\":%llu,\"ms\":%.1f}", info.samples, (unsigned long long)info.nodes, info.ms);
  return answer(c);
}

/* Reads a position (a history string as the mover sees it, or a full one) as the mover's
 * view; NULL, or the failure answered. */
static const char *read_mover_view(gw_context *c, const char *rules_text, const char *history, goita_view *v) {
  goita_rules rules;
  goita_error err;
  if (goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) return fail(c, err.message);
  if (!strchr(history, 'x')) {
    goita_round r;
    if (goita_history_parse(&r, &rules, history, &err) != GOITA_OK) return fail(c, err.message);
    if (goita_round_over(&r)) return fail(c, "the round is over");
    goita_round_view(&r, r.turn, v);
  } else {
    if (goita_history_parse_view(v, &rules, history, GOITA_VIEWER_INFER, &err) != GOITA_OK) return fail(c, err.message);
    goita_view mover; /* a 5-pawn hand may be known in full too: read as the mover sees it */
    if (v->seat != v->turn && v->phase != GOITA_PHASE_OVER &&
        goita_history_parse_view(&mover, &rules, history, v->turn, NULL) == GOITA_OK)
      *v = mover;
  }
  return NULL;
}

EMSCRIPTEN_KEEPALIVE const char *gw_choose(gw_context *c, const char *rules_text, const char *history,
                                           const char *spec, const char *seed) {
  goita_view v;
  const char *failed = read_mover_view(c, rules_text, history, &v);
  return failed ? failed : choose_view(c, &v, spec, seed);
}

EMSCRIPTEN_KEEPALIVE const char *gw_choose_seat(gw_context *c, int seat, const char *spec, const char *seed) {
  goita_view v;
  if (!c->started) return fail(c, "no game: start one first");
  if (goita_game_view(&c->game, seat, &v) != GOITA_OK) return fail(c, "no such seat");
  return choose_view(c, &v, spec, seed);
}

EMSCRIPTEN_KEEPALIVE const char *gw_solve(gw_context *c, const char *rules_text, const char *history, double max_ms) {
  goita_rules rules;
  goita_error err;
  goita_round r;
  if (goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) return fail(c, err.message);
  if (goita_history_parse(&r, &rules, history, &err) != GOITA_OK) return fail(c, err.message);
  goita_solve_options options;
  goita_solve_options_default(&options);
  options.all_moves = 1;
  options.max_ms = max_ms > 0 ? max_ms : 0;
  goita_solve_result res;
  if (goita_solve(c->solver, &r, &options, &res) != GOITA_OK) return fail(c, "cannot solve this position");
  begin(c);
  out(c, "{\"value\":[%d,%d],\"complete\":%d,\"moves\":", res.value.lower, res.value.upper, res.complete);
  out_moves(c, res.moves, res.nmoves);
  out(c, ",\"values\":[");
  for (int i = 0; i < res.nmoves; i++)
    out(c, "%s[%d,%d]", i ? "," : "", res.move_value[i].lower, res.move_value[i].upper);
  out(c, "],\"best\":%d,\"nodes\":%llu,\"ms\":%.1f}", res.best, (unsigned long long)res.nodes, res.ms);
  return answer(c);
}

static const char *reason_name(int kind) {
  static const char *const names[] = {"finish", "pair_left", "safe_attack", "takes_lead",
                                      "partner_attack", "partner_answers", "keeps"};
  return kind >= 0 && kind <= GOITA_REASON_KEEPS ? names[kind] : "none";
}

/* Writes the unseen pieces of a view, per kind 1-8, as a JSON array. */
static void out_unseen(gw_context *c, const uint8_t unseen[GOITA_KIND_SLOTS]) {
  out(c, "[");
  for (int k = GOITA_PAWN; k <= GOITA_KING; k++) out(c, "%s%d", k > GOITA_PAWN ? "," : "", unseen[k]);
  out(c, "]");
}

EMSCRIPTEN_KEEPALIVE const char *gw_unseen(gw_context *c, const char *rules_text, const char *history) {
  goita_view v;
  const char *failed = read_mover_view(c, rules_text, history, &v);
  if (failed) return failed;
  uint8_t unseen[GOITA_KIND_SLOTS];
  goita_view_unseen(&v, unseen);
  begin(c);
  out(c, "{\"unseen\":");
  out_unseen(c, unseen);
  out(c, "}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *gw_hint(gw_context *c, const char *rules_text, const char *history, const char *spec,
                                         const char *seed_text) {
  goita_view v;
  goita_error err;
  uint64_t seed;
  if (!read_seed(seed_text, &seed)) return fail(c, "the seed must be a decimal number");
  const char *failed = read_mover_view(c, rules_text, history, &v);
  if (failed) return failed;
  goita_hint *h = malloc(sizeof *h);
  if (!h) return fail(c, "out of memory");
  if (goita_hint_make(&v, spec, seed, h, &err) != GOITA_OK) {
    free(h);
    return fail(c, err.message);
  }
  begin(c);
  out(c, "{\"moves\":[");
  for (int i = 0; i < h->nmoves; i++) {
    const goita_hint_move *m = &h->moves[i];
    char token[16];
    goita_move_format(m->move, token, sizeof token);
    out(c, "%s{\"move\":\"%s\",\"value\":%.1f,\"deals\":%d,\"agree\":%d,\"reasons\":[", i ? "," : "", token, m->value,
        m->deals, m->agree);
    for (int j = 0; j < m->nreasons; j++) {
      const goita_hint_reason *r = &m->reasons[j];
      out(c, "%s{\"kind\":\"%s\",\"piece\":%d,\"seat\":%d,\"count\":%d,\"chance\":%.2f}", j ? "," : "",
          reason_name(r->kind), r->piece, r->seat, r->count, r->chance);
    }
    out(c, "]}");
  }
  out(c, "],\"samples\":%d,\"held\":[", h->samples);
  for (int s = 0; s < v.players; s++) {
    out(c, "%s[", s ? "," : "");
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++) out(c, "%s%.2f", k > GOITA_PAWN ? "," : "", h->held[s][k]);
    out(c, "]");
  }
  out(c, "],\"unseen\":");
  out_unseen(c, h->unseen);
  out(c, "}");
  free(h);
  return answer(c);
}

/* Sets the context's game to a given position, a full history string under the rules: the
 * first round of a new game with those hands and dealer, and every move of the string applied
 * as a game would. For lessons on chosen positions. Answers {"ok":true} or what is wrong. */
EMSCRIPTEN_KEEPALIVE const char *gw_load(gw_context *c, const char *rules_text, const char *history) {
  goita_rules rules;
  goita_error err;
  goita_round r;
  if (goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) return fail(c, err.message);
  if (goita_history_parse(&r, &rules, history, &err) != GOITA_OK) return fail(c, err.message);
  c->started = false;
  if (goita_game_start(&c->game, &rules, 1, &err) != GOITA_OK ||
      goita_game_set_deal(&c->game, r.dealer, (const uint8_t(*)[GOITA_MAX_HAND])r.deal, &err) != GOITA_OK)
    return fail(c, err.message);
  for (int i = 0; i < r.nlog; i++)
    if (goita_game_apply(&c->game, r.log[i], &err) != GOITA_OK) return fail(c, err.message);
  c->started = true;
  return ok(c);
}

/* libkoshogi for the browser (koshogi_wasm.h): each call reads numbers and strings and answers
 * JSON text. Everything the page shows about the rules comes from here: the legal moves, their
 * notation, the help of a piece. */
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE /* a native build, for testing the glue without a browser */
#endif
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "koshogi/koshogi.h"
#include "koshogi_wasm.h"

struct ksw_context {
  ks_game game;
  char *text; /* the answer being written, and the last one */
  size_t len, cap;
  bool oom;
};

/* Appends formatted text to the answer, growing it; a failed growth marks the answer lost. */
static void put(ksw_context *c, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(c->text + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    if (n < 0 || c->oom) return;
    if ((size_t)n < c->cap - c->len) {
      c->len += (size_t)n;
      return;
    }
    const size_t cap = c->cap * 2 + (size_t)n;
    char *grown = realloc(c->text, cap);
    if (!grown) {
      c->oom = true;
      return;
    }
    c->text = grown;
    c->cap = cap;
  }
}

/* Appends a JSON string: quotes, backslashes and control characters escaped. */
static void put_string(ksw_context *c, const char *s) {
  put(c, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') put(c, "\\%c", *p);
    else if (*p == '\n') put(c, "\\n");
    else if (*p < 0x20) put(c, "\\u%04x", *p);
    else put(c, "%c", *p);
  }
  put(c, "\"");
}

/* Starts a new answer. */
static void begin(ksw_context *c) {
  c->len = 0;
  c->text[0] = '\0';
  c->oom = false;
}

/* The answer written, or an error when memory ran out while writing it. */
static const char *answer(ksw_context *c) { return c->oom ? "{\"error\":\"out of memory\"}" : c->text; }

/* Answers {"error": message}. */
static const char *fail(ksw_context *c, const char *message) {
  begin(c);
  put(c, "{\"error\":");
  put_string(c, message);
  put(c, "}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE ksw_context *ksw_new(void) {
  ksw_context *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->cap = 1 << 16;
  c->text = malloc(c->cap);
  if (!c->text || ks_game_init(&c->game) != 0) {
    free(c->text);
    free(c);
    return NULL;
  }
  c->text[0] = '\0';
  return c;
}

EMSCRIPTEN_KEEPALIVE void ksw_free(ksw_context *c) {
  if (!c) return;
  ks_game_free(&c->game);
  free(c->text);
  free(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_faces(ksw_context *c) {
  begin(c);
  put(c, "[");
  for (int f = KS_EMPTY + 1; f < KS_FACES; f++) {
    ks_face_about a;
    ks_face_describe((ks_face)f, &a);
    put(c, "%s{\"id\":\"%s\",\"kanji\":\"%s\",\"name\":", f > 1 ? "," : "", a.id, a.kanji);
    put_string(c, a.name);
    put(c, "}");
  }
  put(c, "]");
  return answer(c);
}

/* Writes a list of points as a JSON array. */
static void put_points(ksw_context *c, const uint16_t *points, int n) {
  put(c, "[");
  for (int i = 0; i < n; i++) put(c, "%s%d", i ? "," : "", points[i]);
  put(c, "]");
}

/* Writes a move as the page chooses it: the captures on the way in path order, the point where
 * it ends (unless it ended on its last capture), then its shots. */
static void put_move(ksw_context *c, const ks_move *m, const char *text) {
  put(c, "{\"from\":%d,\"steps\":[", m->from);
  for (int i = 0; i < m->ncap; i++) put(c, "%s[%d,\"x\"]", i ? "," : "", m->cap[i]);
  if (!m->ncap || m->cap[m->ncap - 1] != m->to) put(c, "%s[%d,\"m\"]", m->ncap ? "," : "", m->to);
  for (int i = 0; i < m->nshot; i++) put(c, ",[%d,\"*\"]", m->shot[i]);
  put(c, "],\"promote\":%d,\"text\":\"%s\"}", m->promote, text);
}

/* Writes the board: 361 IDs, lower case for White. */
static void put_board(ksw_context *c, const ks_position *pos) {
  put(c, "[");
  for (int p = 0; p < KS_POINTS; p++) {
    char id[8] = "";
    if (pos->board[p]) {
      snprintf(id, sizeof id, "%s", ks_face_id(ks_face_of(pos->board[p])));
      if (ks_color_of(pos->board[p]) == KS_WHITE)
        for (char *ch = id; *ch; ch++) *ch = (char)(*ch >= 'A' && *ch <= 'Z' ? *ch - 'A' + 'a' : *ch);
    }
    put(c, "%s\"%s\"", p ? "," : "", id);
  }
  put(c, "]");
}

/* Writes the legal moves of a position. */
static void put_legal(ksw_context *c, const ks_position *pos) {
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(pos, &moves);
  char(*texts)[KS_MOVE_TEXT] = n < 0 ? NULL : malloc((size_t)(n ? n : 1) * sizeof *texts);
  if (!texts || ks_moves_format(pos, moves, n, texts) != 0) c->oom = true;
  put(c, "[");
  for (int i = 0; i < n && !c->oom; i++) {
    if (i) put(c, ",");
    put_move(c, &moves[i], texts[i]);
  }
  put(c, "]");
  free(texts);
  free(moves);
}

/* Writes the game after `ply` plies, without its closing brace (the caller may add fields): the
 * game is replayed from its start, which gives every move's notation on the way. */
static void put_state(ksw_context *c, int ply) {
  const ks_game *g = &c->game;
  if (ply < 0 || ply > g->nplies) ply = g->nplies;
  ks_position pos = g->start, shown = g->start;
  put(c, "{\"moves\":[");
  for (int i = 0; i < g->nplies; i++) {
    char text[64];
    if (ks_move_format(&pos, &g->moves[i], text, sizeof text) < 0) snprintf(text, sizeof text, "?");
    put(c, "%s\"%s\"", i ? "," : "", text);
    ks_play(&pos, &g->moves[i]);
    if (i + 1 == ply) shown = pos;
  }
  char text[KS_POSITION_TEXT];
  ks_position_write(&shown, ks_game_ply_number(g, ply), text, sizeof text);
  put(c, "],\"position\":\"%s\",\"board\":", text);
  put_board(c, &shown);
  put(c, ",\"toMove\":%d,\"ply\":%d,\"plies\":%d,\"number\":%d,\"firstNumber\":%d,\"firstToMove\":%d,"
      "\"result\":%d,\"reason\":%d,\"last\":",
      shown.to_move, ply, g->nplies, ks_game_ply_number(g, ply), g->first_number, g->start.to_move, g->result,
      g->reason);
  if (ply > 0) {
    const ks_move *m = &g->moves[ply - 1];
    put(c, "{\"from\":%d,\"to\":%d,\"caps\":", m->from, m->to);
    put_points(c, m->cap, m->ncap);
    put(c, ",\"shots\":");
    put_points(c, m->shot, m->nshot);
    put(c, "}");
  } else {
    put(c, "null");
  }
  put(c, ",\"legal\":");
  if (ply == g->nplies && g->result == KS_ONGOING) put_legal(c, &shown);
  else put(c, "[]");
}

/* Answers the state of the game's current position. */
static const char *current(ksw_context *c) {
  begin(c);
  put_state(c, -1);
  put(c, "}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_state(ksw_context *c, int ply) {
  begin(c);
  put_state(c, ply);
  put(c, "}");
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_start(ksw_context *c, const char *position) {
  ks_position pos;
  int number = 1;
  char err[256];
  if (!*position) ks_start(&pos);
  else if (ks_position_parse(position, &pos, &number, err, sizeof err) != 0) return fail(c, err);
  ks_game fresh;
  if (ks_game_init_at(&fresh, &pos, number) != 0) return fail(c, "out of memory");
  ks_game_free(&c->game);
  c->game = fresh;
  return current(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_play(ksw_context *c, const char *text) {
  if (c->game.result != KS_ONGOING) return fail(c, "the game is over");
  ks_move m;
  char err[256];
  if (ks_move_parse(&c->game.pos, text, &m, err, sizeof err) != 0) return fail(c, err);
  if (ks_game_play(&c->game, &m) != 0) return fail(c, "out of memory");
  return current(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_think(ksw_context *c, int ms) {
  ks_game *g = &c->game;
  if (g->result != KS_ONGOING) return fail(c, "the game is over");
  if (ms < 1 || ms > 600000) return fail(c, "the time to think must be 1 to 600000 ms");
  ks_move m;
  ks_search_info info;
  if (ks_search(&g->pos, g->keys, g->nplies, ms, 0, &m, &info) != 0) return fail(c, "no legal move");
  char text[64];
  if (ks_move_format(&g->pos, &m, text, sizeof text) < 0) return fail(c, "the move could not be written");
  if (ks_game_play(g, &m) != 0) return fail(c, "out of memory");
  begin(c);
  put_state(c, -1);
  put(c, ",\"think\":{\"text\":\"%s\",\"depth\":%d,\"score\":%d,\"nodes\":%ld,\"ms\":%d}}", text, info.depth,
      info.score, info.nodes, info.ms);
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_resign(ksw_context *c) {
  if (c->game.result != KS_ONGOING) return fail(c, "the game is over");
  ks_game_resign(&c->game);
  return current(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_truncate(ksw_context *c, int ply) {
  ks_game *g = &c->game;
  if (ply < 0 || ply > g->nplies) return fail(c, "no such move in the game");
  ks_game kept;
  if (ks_game_init_at(&kept, &g->start, g->first_number) != 0) return fail(c, "out of memory");
  for (int i = 0; i < ply; i++)
    if (ks_game_play(&kept, &g->moves[i]) != 0) {
      ks_game_free(&kept);
      return fail(c, "out of memory");
    }
  ks_game_free(g);
  *g = kept;
  return current(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_record(ksw_context *c, const char *black, const char *white) {
  char *record = ks_record_write(&c->game, black, white);
  if (!record) return fail(c, "out of memory");
  begin(c);
  put(c, "{\"record\":");
  put_string(c, record);
  put(c, "}");
  free(record);
  return answer(c);
}

EMSCRIPTEN_KEEPALIVE const char *ksw_load(ksw_context *c, const char *record) {
  ks_game read;
  char black[64], white[64], err[256];
  if (ks_record_read(&read, record, black, white, err, sizeof err) != 0) {
    ks_game_free(&read);
    return fail(c, err);
  }
  ks_game_free(&c->game);
  c->game = read;
  begin(c);
  put_state(c, -1);
  put(c, ",\"black\":");
  put_string(c, black);
  put(c, ",\"white\":");
  put_string(c, white);
  put(c, "}");
  return answer(c);
}

/* Writes a face's ID, or null for none. */
static void put_face(ksw_context *c, ks_face face) {
  if (face == KS_EMPTY) put(c, "null");
  else put(c, "\"%s\"", ks_face_id(face));
}

EMSCRIPTEN_KEEPALIVE const char *ksw_help(ksw_context *c, const char *id, int color) {
  const ks_face face = ks_face_by_id(id);
  ks_face_about a;
  uint8_t reach[KS_POINTS];
  const int at = ks_point(10, 9); /* 10j, the centre */
  if (face == KS_EMPTY || ks_face_describe(face, &a) != 0) return fail(c, "no piece has that ID");
  if (ks_face_reach(face, color, at, reach) < 0) return fail(c, "the colour must be 0 (Black) or 1 (White)");
  begin(c);
  put(c, "{\"id\":\"%s\",\"kanji\":\"%s\",\"name\":", a.id, a.kanji);
  put_string(c, a.name);
  put(c, ",\"betza\":");
  put_string(c, a.betza);
  put(c, ",\"section\":\"%s\",\"entry\":", a.section);
  put_string(c, a.entry);
  put(c, ",\"entryJa\":");
  put_string(c, a.entry_ja);
  put(c, ",\"promotes\":");
  put_face(c, a.promotes);
  put(c, ",\"reverts\":");
  put_face(c, a.reverts);
  put(c, ",\"movesAs\":");
  put_face(c, a.moves_as);
  put(c, ",\"shots\":%d,\"shotRange\":%d,\"powers\":[", a.shots, a.shot_range);
  bool first = true;
  for (unsigned power = 1; power && power <= a.powers; power <<= 1) {
    const char *text, *text_ja, *section;
    if (!(a.powers & power) || ks_power_describe(power, &text, &text_ja, &section) != 0) continue;
    put(c, "%s{\"text\":", first ? "" : ",");
    put_string(c, text);
    put(c, ",\"ja\":");
    put_string(c, text_ja);
    put(c, ",\"section\":\"%s\"}", section);
    first = false;
  }
  ks_face_note notes[KS_MAX_FACE_NOTES]; /* the lines that name other faces, as the CLI prints them */
  const int nnotes = ks_face_notes(face, notes);
  for (int i = 0; i < nnotes; i++) {
    put(c, "%s{\"text\":", first ? "" : ",");
    put_string(c, notes[i].text);
    put(c, ",\"ja\":");
    put_string(c, notes[i].text_ja);
    put(c, ",\"section\":\"%s\"}", notes[i].section);
    first = false;
  }
  put(c, "],\"at\":%d,\"reach\":[", at);
  first = true;
  for (int p = 0; p < KS_POINTS; p++)
    if (reach[p]) {
      put(c, "%s[%d,%d]", first ? "" : ",", p, reach[p]);
      first = false;
    }
  put(c, "]}");
  return answer(c);
}

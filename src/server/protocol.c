/* Requests read and checked; state messages written from a view (protocol.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks_levels.h"
#include "protocol.h"

typedef enum field_kind {
  F_NAME,
  F_TOKEN,
  F_TEXT,
  F_SECONDS,
  F_TABLE,
  F_SEAT,
  F_LEVEL,
  F_MOVE,
  F_PASSWORD,
  F_PLAYER,
  F_PRIVATE,
  F_SIT,
  F_INVITE,
  F_WAIT,
  F_CHAT,
  F_CURSOR,
  F_LIMIT,
  F_BANK,
  F_ON_TIMEOUT,
  F_TAKE_OVER,
  F_OPPONENT,
  F_DEALS,
  F_MATCH,
  F_KS_MAIN,
  F_KS_BYOYOMI,
  F_KS_SIDE,
  F_KS_LEVEL,
  F_KS_MOVE,
  F_KS_DRAW
} field_kind;

typedef struct field_spec {
  const char *name;
  field_kind kind;
  bool required;
} field_spec;

/* The most fields a request has (create's). */
#define MAX_FIELDS 7

typedef struct request_spec {
  const char *type;
  field_spec fields[MAX_FIELDS];
} request_spec;

/* The fields column of the request table (requests.h), in the order of srv_request_type. */
/* clang-format off */
#define NO_FIELDS {0}
#define FIELDS(...) {__VA_ARGS__}
/* clang-format on */
#define REQUEST_SPEC(id, name, cost, player, enters, route, handler, fields) {name, FIELDS fields},
static const request_spec requests[SRV_REQUEST_COUNT] = {SRV_REQUESTS(REQUEST_SPEC)};
#undef REQUEST_SPEC

const char *srv_request_name(int type) { return type >= 0 && type < SRV_REQUEST_COUNT ? requests[type].type : NULL; }

static int bad(char *err, size_t size, const char *fmt, const char *field) {
  snprintf(err, size, fmt, field);
  return -1;
}

static bool is_token(const char *s) {
  if (strlen(s) != SRV_TOKEN_SIZE - 1) return false;
  for (; *s; s++)
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))) return false;
  return true;
}

/* Whether a character may not be in a chat line: the C0 and C1 controls and DEL (no line
 * breaks or escapes reach another screen), the line and paragraph separators, and the
 * bidirectional embeddings, overrides and isolates that would make a line read as something
 * else. */
static bool chat_refuses(uint32_t c) {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x2066 && c <= 0x2069);
}

/* Whether a character may not be in a name, beside those chat refuses: the ones that show
 * nothing, so that two names that look alike are not two people (zero-width spaces and joiners,
 * the soft hyphen, the word joiner and invisible operators, the Arabic letter mark, Hangul
 * fillers, variation selectors, the byte-order mark and the tag characters). */
static bool name_refuses(uint32_t c) {
  return chat_refuses(c) || c == 0xad || c == 0x34f || c == 0x61c || c == 0x115f || c == 0x1160 || c == 0x17b4 ||
         c == 0x17b5 || c == 0x180e || (c >= 0x200b && c <= 0x200f) || (c >= 0x2060 && c <= 0x206f) ||
         c == 0x3164 || (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff || c == 0xffa0 || (c >= 0xfff0 && c <= 0xfffb) ||
         (c >= 0x1d173 && c <= 0x1d17a) || (c >= 0xe0000 && c <= 0xe0fff);
}

/* Reads a display name: 1 to 39 bytes of UTF-8 (jansson has checked the encoding), not only
 * spaces, none that name_refuses. Returns 0, or -1 with the reason. */
static int read_name(const char *s, const char *field, char *out, char *err, size_t size) {
  const size_t len = strlen(s);
  if (len == 0 || len >= SRV_NAME_SIZE) return bad(err, size, "field \"%s\": expected 1 to 39 bytes", field);
  bool visible = false;
  int chars = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; chars++) {
    const int n = *p < 0x80 ? 1 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
    uint32_t c = n == 1 ? *p : (uint32_t)(*p & (0x7f >> n));
    for (int i = 1; i < n; i++) c = c << 6 | (p[i] & 0x3fu);
    if (name_refuses(c)) {
      snprintf(err, size, "field \"%s\": control and invisible characters are not allowed (U+%04X at character %d)",
               field, (unsigned)c, chars + 1);
      return -1;
    }
    visible |= c != ' ';
    p += n;
  }
  if (!visible) return bad(err, size, "field \"%s\": expected 1 to 39 bytes, not only spaces", field);
  snprintf(out, SRV_NAME_SIZE, "%s", s);
  return 0;
}

static bool is_level(const char *s) {
  for (const char *const *level = goita_player_levels(); *level; level++)
    if (strcmp(*level, s) == 0) return true;
  return false;
}

/* Reads a chat line: 1 to SRV_CHAT_CHARS characters (code points of the UTF-8 jansson has
 * already checked), not only spaces, none that chat_refuses. Returns 0, or -1 with the reason. */
static int read_chat(const char *s, const char *field, char *out, char *err, size_t size) {
  int chars = 0;
  bool visible = false;
  for (const unsigned char *p = (const unsigned char *)s; *p; chars++) {
    const int n = *p < 0x80 ? 1 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
    uint32_t c = n == 1 ? *p : (uint32_t)(*p & (0x7f >> n));
    for (int i = 1; i < n; i++) c = c << 6 | (p[i] & 0x3fu);
    if (chat_refuses(c)) {
      snprintf(err, size, "field \"%s\": control characters are not allowed (U+%04X at character %d)", field,
               (unsigned)c, chars + 1);
      return -1;
    }
    visible |= c != ' ';
    p += n;
  }
  if (!visible) return bad(err, size, "field \"%s\": empty", field);
  if (chars > SRV_CHAT_CHARS) {
    snprintf(err, size, "field \"%s\": at most %d characters (this has %d)", field, SRV_CHAT_CHARS, chars);
    return -1;
  }
  snprintf(out, SRV_CHAT_SIZE, "%s", s);
  return 0;
}

/* Reads a Ko shogi request's string field: a side, a level, a move (its legality is the
 * table's to judge; here only its size and characters) or a draw answer. */
static int read_ks_field(const field_spec *f, json_t *value, srv_request *req, char *err, size_t size) {
  const char *s = json_string_value(value);
  if (!s || strlen(s) != json_string_length(value)) return bad(err, size, "field \"%s\": expected a string", f->name);
  if (f->kind == F_KS_SIDE) {
    if (strcmp(s, "black") != 0 && strcmp(s, "white") != 0)
      return bad(err, size, "field \"%s\": expected \"black\" or \"white\"", f->name);
    req->ks.side = strcmp(s, "black") == 0 ? KS_BLACK : KS_WHITE;
  } else if (f->kind == F_KS_LEVEL) {
    if (!srv_ks_level_find(s)) {
      char levels[128] = "";
      int count;
      const srv_ks_level *all = srv_ks_levels(&count);
      for (int i = 0; i < count; i++)
        snprintf(levels + strlen(levels), sizeof levels - strlen(levels), "%s%s", i ? ", " : "", all[i].name);
      snprintf(err, size, "field \"%s\": not a Ko shogi level (%s)", f->name, levels);
      return -1;
    }
    snprintf(req->level, sizeof req->level, "%s", s);
  } else if (f->kind == F_KS_MOVE) {
    const size_t len = strlen(s);
    bool printable = len > 0 && len < sizeof req->ks.move;
    for (size_t i = 0; printable && i < len; i++) printable = s[i] > ' ' && s[i] < 0x7f;
    if (!printable)
      return bad(err, size, "field \"%s\": expected a move in notation: 1 to 63 printable ASCII characters", f->name);
    snprintf(req->ks.move, sizeof req->ks.move, "%s", s);
  } else {
    if (strcmp(s, "offer") == 0)
      req->ks.draw = SRV_KS_DRAW_OFFER;
    else if (strcmp(s, "accept") == 0)
      req->ks.draw = SRV_KS_DRAW_ACCEPT;
    else if (strcmp(s, "decline") == 0)
      req->ks.draw = SRV_KS_DRAW_DECLINE;
    else
      return bad(err, size, "field \"%s\": expected \"offer\", \"accept\" or \"decline\"", f->name);
  }
  return 0;
}

static int read_field(const field_spec *f, json_t *value, srv_request *req, char *err, size_t size) {
  switch (f->kind) {
  case F_PRIVATE:
    if (!json_is_boolean(value)) return bad(err, size, "field \"%s\": expected true or false", f->name);
    req->private_table = json_is_true(value);
    return 0;
  case F_SIT:
    if (!json_is_boolean(value)) return bad(err, size, "field \"%s\": expected true or false", f->name);
    req->sit_down = json_is_true(value);
    return 0;
  case F_TAKE_OVER:
    if (!json_is_boolean(value)) return bad(err, size, "field \"%s\": expected true or false", f->name);
    req->take_over = json_is_true(value);
    return 0;
  case F_ON_TIMEOUT: {
    const char *s = json_string_value(value);
    if (!s || (strcmp(s, "pass") != 0 && strcmp(s, "computer") != 0))
      return bad(err, size, "field \"%s\": expected \"pass\" (pass when allowed) or \"computer\" (the computer's move)",
                 f->name);
    req->on_timeout = strcmp(s, "pass") == 0 ? SRV_TIMEOUT_PASS : SRV_TIMEOUT_COMPUTER;
    return 0;
  }
  case F_KS_SIDE:
  case F_KS_LEVEL:
  case F_KS_MOVE:
  case F_KS_DRAW:
    return read_ks_field(f, value, req, err, size);
  case F_INVITE:
  case F_CHAT:
  case F_NAME:
  case F_TOKEN:
  case F_TEXT:
  case F_LEVEL:
  case F_MOVE:
  case F_PASSWORD: {
    if (!json_is_string(value)) return bad(err, size, "field \"%s\": expected a string", f->name);
    const char *s = json_string_value(value);
    if (strlen(s) != json_string_length(value)) return bad(err, size, "field \"%s\": contains a zero byte", f->name);
    if (f->kind == F_CHAT) return read_chat(s, f->name, req->text, err, size);
    if (f->kind == F_INVITE) {
      if (!is_token(s))
        return bad(err, size, "field \"%s\": expected an invite code of 32 lowercase hex digits", f->name);
      snprintf(req->invite, sizeof req->invite, "%s", s);
    } else if (f->kind == F_NAME) {
      if (read_name(s, f->name, req->name, err, size) != 0) return -1;
    } else if (f->kind == F_TOKEN) {
      if (!is_token(s)) return bad(err, size, "field \"%s\": expected 32 lowercase hex digits", f->name);
      snprintf(req->token, sizeof req->token, "%s", s);
    } else if (f->kind == F_TEXT) {
      if (strlen(s) >= sizeof req->rules) return bad(err, size, "field \"%s\": too long", f->name);
      snprintf(req->rules, sizeof req->rules, "%s", s);
    } else if (f->kind == F_PASSWORD) {
      if (strlen(s) < SRV_PASSWORD_MIN || strlen(s) > SRV_PASSWORD_MAX)
        return bad(err, size, "field \"%s\": expected 8 to 128 bytes", f->name);
      snprintf(req->password, sizeof req->password, "%s", s);
    } else if (f->kind == F_LEVEL) {
      if (!is_level(s)) {
        /* the list from the library's own, so that a new level is named here too */
        char levels[128] = "";
        for (const char *const *level = goita_player_levels(); *level; level++)
          snprintf(levels + strlen(levels), sizeof levels - strlen(levels), "%s%s", *levels ? ", " : "", *level);
        snprintf(err, size, "field \"%s\": not a level (%s)", f->name, levels);
        return -1;
      }
      snprintf(req->level, sizeof req->level, "%s", s);
    } else {
      if (strlen(s) >= sizeof req->move_text || goita_move_parse(s, strlen(s), &req->move) != GOITA_OK)
        return bad(err, size, "field \"%s\": not a move token such as \"113\" or \"2p\"", f->name);
      snprintf(req->move_text, sizeof req->move_text, "%s", s);
    }
    return 0;
  }
  default: {
    if (!json_is_integer(value)) return bad(err, size, "field \"%s\": expected an integer", f->name);
    const json_int_t v = json_integer_value(value);
    if (f->kind == F_SECONDS) {
      if (v < 0 || v > 3600) return bad(err, size, "field \"%s\": expected 0 (off) to 3600 seconds", f->name);
      req->turn_seconds = (int)v;
    } else if (f->kind == F_BANK) {
      if (v < 0 || v > 3600) return bad(err, size, "field \"%s\": expected 0 (no bank) to 3600 seconds", f->name);
      req->bank_seconds = (int)v;
    } else if (f->kind == F_CURSOR) {
      if (v < 0 || v > INT64_C(1) << 50) return bad(err, size, "field \"%s\": expected an id (0: from the start)", f->name);
      req->cursor = (int64_t)v;
    } else if (f->kind == F_LIMIT) {
      if (v < 1 || v > SRV_MAX_PAGE) return bad(err, size, "field \"%s\": expected 1 to 200 rows", f->name);
      req->limit = (int)v;
    } else if (f->kind == F_WAIT) {
      if (v < 0 || v > 300) return bad(err, size, "field \"%s\": expected 0 to 300 seconds", f->name);
      req->wait_seconds = (int)v;
    } else if (f->kind == F_TABLE) {
      if (v < 1 || v > INT64_C(1) << 50) return bad(err, size, "field \"%s\": expected a table number", f->name);
      req->table = (int64_t)v;
    } else if (f->kind == F_PLAYER) {
      if (v < 1 || v > INT64_C(1) << 50) return bad(err, size, "field \"%s\": expected a player number", f->name);
      req->player = (int64_t)v;
    } else if (f->kind == F_OPPONENT) {
      if (v < 1 || v > INT64_C(1) << 50) return bad(err, size, "field \"%s\": expected a player number", f->name);
      req->opponent = (int64_t)v;
    } else if (f->kind == F_DEALS) {
      if (v < 1 || v > SRV_MATCH_MAX_DEALS) return bad(err, size, "field \"%s\": expected 1 to 100 deals", f->name);
      req->deals = (int)v;
    } else if (f->kind == F_KS_MAIN) {
      if (v < 0 || v > SRV_KS_MAIN_MINUTES_MAX)
        return bad(err, size, "field \"%s\": expected 0 to 180 minutes", f->name);
      req->ks.main_minutes = (int)v;
    } else if (f->kind == F_KS_BYOYOMI) {
      if (v < 0 || v > SRV_KS_BYOYOMI_SECONDS_MAX)
        return bad(err, size, "field \"%s\": expected 0 to 300 seconds", f->name);
      req->ks.byoyomi_seconds = (int)v;
    } else if (f->kind == F_MATCH) {
      if (v < 1 || v > INT64_C(1) << 50) return bad(err, size, "field \"%s\": expected a match number", f->name);
      req->match = (int64_t)v;
    } else {
      if (v < 0 || v >= GOITA_MAX_SEATS) return bad(err, size, "field \"%s\": expected a seat from 0 to 3", f->name);
      req->seat = (int)v;
    }
    return 0;
  }
  }
}

static _Thread_local unsigned long json_failures;

static void *json_counted_malloc(size_t size) {
  void *p = malloc(size);
  if (!p) json_failures++;
  return p;
}

void srv_json_setup(void) { json_set_alloc_funcs(json_counted_malloc, free); }

unsigned long srv_json_failures(void) { return json_failures; }

char *srv_json_text(const json_t *msg, size_t flags) {
  const unsigned long failures = json_failures;
  char *text = msg ? json_dumps(msg, flags) : NULL;
  if (text && json_failures != failures) {
    free(text);
    return NULL;
  }
  return text;
}

int srv_request_parse(const char *text, size_t len, srv_request *req, char *err, size_t size) {
  memset(req, 0, sizeof *req);
  req->type = -1;
  req->wait_seconds = -1;
  req->ks.main_minutes = req->ks.byoyomi_seconds = req->ks.side = -1;
  if (len > SRV_MAX_REQUEST) {
    snprintf(err, size, "message too long: %zu bytes (at most %d)", len, SRV_MAX_REQUEST);
    return -1;
  }
  json_error_t jerr;
  const unsigned long failures = json_failures;
  json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (json_failures != failures) {
    json_decref(msg);
    snprintf(err, size, "out of memory");
    return SRV_PARSE_NOMEM;
  }
  if (!msg) {
    snprintf(err, size, "not JSON: %s at column %d", jerr.text, jerr.column);
    return -1;
  }
  int status = -1;
  const request_spec *spec = NULL;
  json_t *type = json_object_get(msg, "type");
  if (!json_is_object(msg)) {
    snprintf(err, size, "expected a JSON object");
    goto done;
  }
  if (!json_is_string(type)) {
    snprintf(err, size, "field \"type\": expected a string");
    goto done;
  }
  for (int i = 0; i < SRV_REQUEST_COUNT && !spec; i++)
    if (strcmp(requests[i].type, json_string_value(type)) == 0) {
      spec = &requests[i];
      req->type = i;
    }
  if (!spec) {
    snprintf(err, size, "unknown type \"%.40s\"", json_string_value(type));
    goto done;
  }
  const char *key;
  json_t *value;
  json_object_foreach(msg, key, value) {
    if (strcmp(key, "type") == 0) continue;
    const field_spec *f = NULL;
    for (int i = 0; i < MAX_FIELDS && spec->fields[i].name && !f; i++)
      if (strcmp(spec->fields[i].name, key) == 0) f = &spec->fields[i];
    if (!f) {
      snprintf(err, size, "%s: unknown field \"%.40s\"", spec->type, key);
      goto done;
    }
    if (read_field(f, value, req, err, size) != 0) goto done;
  }
  for (int i = 0; i < MAX_FIELDS && spec->fields[i].name; i++) {
    if (spec->fields[i].required && !json_object_get(msg, spec->fields[i].name)) {
      snprintf(err, size, "%s: missing field \"%s\"", spec->type, spec->fields[i].name);
      goto done;
    }
  }
  status = 0;
done:
  json_decref(msg);
  return status;
}

/* ---- messages out ---- */

/* The message as text, or NULL when any of jansson's allocations failed since `failures` (its
 * count when the message was begun): a json_object_set_new that failed left a field out. */
static char *dump(json_t *msg, unsigned long failures) {
  char *text = json_failures == failures ? srv_json_text(msg, JSON_COMPACT) : NULL;
  json_decref(msg);
  return text;
}

typedef struct error_spec {
  const char *code;
  bool retries;
  const char *meaning;
} error_spec;

#define ERROR_SPEC(id, code, retries, meaning) {code, retries, meaning},
static const error_spec errors[SRV_ERROR_COUNT] = {{NULL, false, NULL}, SRV_ERRORS(ERROR_SPEC)};
#undef ERROR_SPEC

const char *srv_error_code(int error) { return error > 0 && error < SRV_ERROR_COUNT ? errors[error].code : NULL; }

const char *srv_error_meaning(int error) { return error > 0 && error < SRV_ERROR_COUNT ? errors[error].meaning : NULL; }

bool srv_error_retries(int error) { return error > 0 && error < SRV_ERROR_COUNT && errors[error].retries; }

char *srv_message_error(const char *request, srv_error code, int64_t retry_ms, const char *text) {
  const unsigned long failures = json_failures;
  json_t *msg = json_pack("{s:s, s:s, s:s}", "type", "error", "code", srv_error_code((int)code) ? srv_error_code((int)code) : "",
                          "error", text);
  if (msg && request) json_object_set_new(msg, "request", json_string(request));
  if (msg && retry_ms > 0) json_object_set_new(msg, "retry_ms", json_integer(retry_ms));
  return dump(msg, failures);
}

static const char *status_name(int status) {
  return status == SRV_PLAYING ? "playing" : status == SRV_OVER ? "over" : "waiting";
}

/* Marks as a string of digits, 0 for a piece the viewer cannot see. */
static json_t *marks(const uint8_t *row, int n) {
  char text[GOITA_MAX_HAND + 1];
  if (n > GOITA_MAX_HAND) n = GOITA_MAX_HAND;
  for (int i = 0; i < n; i++) text[i] = (char)('0' + row[i]);
  text[n] = '\0';
  return json_string(text);
}

/* The viewer's own hand as marks, kings as 王 (8) and 玉 (9) as held. */
static json_t *hand_marks(const goita_view *v) {
  char text[GOITA_MAX_HAND + 1];
  int n = 0;
  for (int kind = GOITA_PAWN; kind <= GOITA_KING && n < GOITA_MAX_HAND; kind++) {
    for (int c = 0; c < v->hand[kind] && n < GOITA_MAX_HAND; c++) {
      int mark = kind;
      if (kind == GOITA_KING) mark = (c == 0 && (v->kings & 1)) ? GOITA_MARK_OU : GOITA_MARK_GYOKU;
      text[n++] = (char)('0' + mark);
    }
  }
  text[n] = '\0';
  return json_string(text);
}

static const char *end_name(int end) {
  switch (end) {
  case GOITA_END_FINISH:
    return "finish";
  case GOITA_END_TEYAKU:
    return "teyaku";
  case GOITA_END_DOUBLE_GOSHI:
    return "double_goshi";
  case GOITA_END_REDEAL:
    return "redeal";
  default:
    return "none";
  }
}

static json_t *game_json(const goita_view *v) {
  const int players = v->players;
  json_t *g = json_object();
  json_object_set_new(g, "round", json_integer(v->round_index));
  json_object_set_new(g, "dealer", json_integer(v->dealer));
  json_object_set_new(g, "turn", json_integer(v->turn));
  json_object_set_new(g, "phase", json_string(v->phase == GOITA_PHASE_DECIDE  ? "decide"
                                               : v->phase == GOITA_PHASE_PLAY ? "play"
                                                                              : "over"));
  json_object_set_new(g, "attack", json_integer(v->attack));
  json_object_set_new(g, "attacker", json_integer(v->attacker));
  json_object_set_new(g, "target", json_integer(v->rules.target));
  json_object_set_new(g, "scale", json_string(v->rules.scale == GOITA_SCALE_ONES ? "ones" : "tens"));
  json_t *scores = json_array();
  for (int side = 0; side < goita_rules_sides(&v->rules); side++) json_array_append_new(scores, json_integer(v->score[side]));
  json_object_set_new(g, "scores", scores);
  if (v->seat >= 0) json_object_set_new(g, "hand", hand_marks(v));
  json_t *sizes = json_array(), *rows = json_array();
  for (int s = 0; s < players; s++) {
    json_array_append_new(sizes, json_integer(v->size[s]));
    json_t *row = json_object();
    json_object_set_new(row, "blocks", marks(v->block_row[s], v->plays[s]));
    json_object_set_new(row, "attacks", marks(v->attack_row[s], v->plays[s]));
    char down[GOITA_MAX_PLAYS + 1];
    for (int i = 0; i < v->plays[s]; i++) down[i] = (v->face_down[s] >> i & 1) ? '1' : '0';
    down[v->plays[s]] = '\0';
    json_object_set_new(row, "face_down", json_string(down));
    json_array_append_new(rows, row);
  }
  json_object_set_new(g, "sizes", sizes);
  json_object_set_new(g, "rows", rows);
  json_object_set_new(g, "goshi", json_integer(v->goshi));
  json_object_set_new(g, "deciders", json_integer(v->deciders));
  char history[1024];
  if (goita_history_format_view(v, history, sizeof history) > 0) json_object_set_new(g, "history", json_string(history));
  json_t *log = json_array();
  for (int i = 0; i < v->nlog; i++) {
    char token[16];
    if (goita_move_format(v->log[i], token, sizeof token) > 0) {
      /* a face-down block the viewer cannot see is written x, as in history strings */
      if (v->log[i].type == GOITA_MOVE_PLAY && v->log[i].block == 0) token[1] = 'x';
      json_array_append_new(log, json_string(token));
    }
  }
  json_object_set_new(g, "log", log);
  if (v->phase == GOITA_PHASE_OVER) {
    json_object_set_new(g, "result", json_pack("{s:s, s:i, s:i, s:b}", "end", end_name((int)v->result.end), "winner",
                                               v->result.winner, "points", v->result.points, "doubled",
                                               v->result.doubled));
    int shown = 0;
    while (shown < GOITA_MAX_HAND && v->teyaku_hand[shown]) shown++;
    if (shown) json_object_set_new(g, "teyaku_hand", marks(v->teyaku_hand, shown));
  }
  json_t *legal = json_array();
  if (v->seat >= 0 && v->seat == v->turn && v->phase != GOITA_PHASE_OVER) {
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_view_legal_moves(v, moves);
    for (int i = 0; i < n; i++) {
      char token[16];
      if (goita_move_format(moves[i], token, sizeof token) > 0) json_array_append_new(legal, json_string(token));
    }
  }
  json_object_set_new(g, "legal", legal);
  return g;
}

char *srv_message_state(const srv_table_info *t, int seat, const goita_view *v) {
  const unsigned long failures = json_failures;
  json_t *msg = json_object();
  json_object_set_new(msg, "type", json_string("state"));
  json_object_set_new(msg, "table", json_integer(t->id));
  json_object_set_new(msg, "seat", json_integer(seat));
  json_object_set_new(msg, "status", json_string(status_name(t->status)));
  json_object_set_new(msg, "rules", json_string(t->rules));
  json_object_set_new(msg, "turn_seconds", json_integer(t->turn_seconds));
  if (t->seconds_left >= 0) json_object_set_new(msg, "seconds_left", json_integer(t->seconds_left));
  if (t->bank_seconds > 0) json_object_set_new(msg, "bank_seconds", json_integer(t->bank_seconds));
  if (t->on_timeout == SRV_TIMEOUT_PASS) json_object_set_new(msg, "on_timeout", json_string("pass"));
  if (t->take_over) json_object_set_new(msg, "take_over", json_true());
  json_t *seats = json_array();
  for (int s = 0; s < t->players; s++) {
    if (!t->seats[s].name) {
      json_array_append_new(seats, json_null());
      continue;
    }
    json_array_append_new(seats, json_pack("{s:s, s:s, s:i, s:b}", "name", t->seats[s].name, "bot", t->seats[s].bot,
                                           "rating", (int)(t->seats[s].rating + 0.5), "connected",
                                           t->seats[s].connected));
    if (t->seats[s].stand_in) json_object_set_new(json_array_get(seats, (size_t)s), "stand_in", json_true());
    if (t->bank_seconds > 0)
      json_object_set_new(json_array_get(seats, (size_t)s), "bank_left", json_integer(t->seats[s].bank_left));
    if (t->seats[s].bot_account) json_object_set_new(json_array_get(seats, (size_t)s), "bot_account", json_true());
  }
  json_object_set_new(msg, "seats", seats);
  if (v) json_object_set_new(msg, "game", game_json(v));
  if (t->game_id > 0) json_object_set_new(msg, "game_id", json_integer(t->game_id));
  if (t->previous_round) json_object_set_new(msg, "previous_round", json_string(t->previous_round));
  if (t->invite) json_object_set_new(msg, "invite", json_string(t->invite));
  if (t->rematch.seconds_left >= 0 || t->rematch.table) {
    json_t *asked = json_array();
    for (int s = 0; s < t->players; s++) json_array_append_new(asked, json_boolean(t->rematch.asked[s]));
    json_t *rematch = json_pack("{s:o}", "asked", asked);
    if (t->rematch.seconds_left >= 0) json_object_set_new(rematch, "seconds_left", json_integer(t->rematch.seconds_left));
    if (t->rematch.table) json_object_set_new(rematch, "table", json_integer(t->rematch.table));
    json_object_set_new(msg, "rematch", rematch);
  }
  return dump(msg, failures);
}

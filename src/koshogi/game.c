/* A game of Ko shogi: its moves, and its end (KOSHOGI-RULES.md 6): defeat, repetition, perpetual
 * check, no legal move, resignation; game records. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

uint64_t ks_key(const ks_position *pos) {
  uint64_t key = pos->to_move ? UINT64_C(0x5bd1e9955bd1e995) : 0;
  for (int sq = 0; sq < KS_POINTS; sq++)
    if (pos->board[sq]) key ^= mix((uint64_t)sq << 8 | pos->board[sq]);
  return key;
}

/* What stands in the way of defeat (KOSHOGI-RULES.md 6.1), by the roles of ks__defeat_role:
 * the commanding pieces (G, GV), and the pair of an unpromoted MA and a banner (BN or FW). Counts
 * each and notes where the last of each stands. */
typedef struct holdings {
  int commanders, ma, banners;
  int at_commander, at_ma, at_banner;
} holdings;

static holdings holdings_of(const ks_position *pos, int color) {
  holdings h = {0, 0, 0, -1, -1, -1};
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) != color) continue;
    switch (ks__defeat_role(ks_face_of(p))) {
    case ROLE_COMMANDS:
      h.commanders++, h.at_commander = sq;
      break;
    case ROLE_PAIR_MA:
      h.ma++, h.at_ma = sq;
      break;
    case ROLE_PAIR_BANNER:
      h.banners++, h.at_banner = sq;
      break;
    default:
      break;
    }
  }
  return h;
}

bool ks_defeated(const ks_position *pos, int color) {
  const holdings h = holdings_of(pos, color);
  return !h.commanders && !(h.ma && h.banners);
}

int ks_sole_objective(const ks_position *pos, int color) {
  /* A piece is critical when the player would be defeated without it (6.1). */
  const holdings h = holdings_of(pos, color);
  const bool pair = h.ma && h.banners;
  if (!h.commanders && !pair) return -1; /* already defeated */
  int critical = -1, count = 0;
  if (h.commanders == 1 && !pair) critical = h.at_commander, count++;
  if (h.ma == 1 && h.banners && !h.commanders) critical = h.at_ma, count++;
  if (h.banners == 1 && h.ma && !h.commanders) critical = h.at_banner, count++;
  return count == 1 ? critical : -1;
}

/* Whether the player who just moved now threatens the opponent's sole objective piece: one of
 * its moves (as if it were its turn) would capture, shoot or burn it (KOSHOGI-RULES.md 6.3). */
static bool is_check(const ks_position *pos) {
  const int mover = pos->to_move ^ 1;
  const int target = ks_sole_objective(pos, pos->to_move);
  if (target < 0) return false;
  ks_position as_mover = *pos;
  as_mover.to_move = (uint8_t)mover;
  ks_move *moves = NULL;
  const int n = ks_legal_moves_alloc(&as_mover, &moves);
  bool check = false;
  for (int i = 0; i < n && !check; i++) {
    const ks_move *m = &moves[i];
    for (int c = 0; c < m->ncap; c++) check |= m->cap[c] == target;
    for (int s = 0; s < m->nshot; s++) check |= m->shot[s] == target;
    if (ks_face_of(pos->board[m->from]) == KS_PF) { /* burning around its destination */
      const int dr = abs(m->to / KS_SIZE - target / KS_SIZE), dc = abs(m->to % KS_SIZE - target % KS_SIZE);
      check |= dr <= 1 && dc <= 1 && m->to != target;
    }
  }
  free(moves);
  return check;
}

static void win(ks_game *g, int color, int reason) {
  g->result = color == KS_BLACK ? KS_BLACK_WINS : KS_WHITE_WINS;
  g->reason = reason;
}

/* A set-up position may be over before its first move: it is judged as if the side not to move
 * had just moved into it (KOSHOGI-RULES.md 6.2, then 6.6), so that a side with none of G, GV or
 * the pair MA and banner has lost, by defeat, whoever is to move. */
static void judge_start(ks_game *g) {
  const int to_move = g->pos.to_move, moved = to_move ^ 1;
  if (ks_defeated(&g->pos, to_move)) {
    win(g, moved, KS_BY_DEFEAT);
  } else if (ks_defeated(&g->pos, moved)) {
    win(g, to_move, KS_BY_DEFEAT);
  } else {
    ks_move *moves = NULL;
    if (ks_legal_moves_alloc(&g->pos, &moves) == 0) win(g, moved, KS_BY_NO_MOVES);
    free(moves);
  }
}

static int grow(ks_game *g) {
  if (g->nplies + 1 < g->capacity) return 0;
  const int cap = g->capacity ? 2 * g->capacity : 256;
  ks_move *moves = realloc(g->moves, (size_t)cap * sizeof *moves);
  if (!moves) return -1;
  g->moves = moves;
  uint64_t *keys = realloc(g->keys, (size_t)(cap + 1) * sizeof *keys);
  if (!keys) return -1;
  g->keys = keys;
  uint8_t *checking = realloc(g->checking, (size_t)cap);
  if (!checking) return -1;
  g->checking = checking;
  g->capacity = cap;
  return 0;
}

int ks_game_init(ks_game *g) {
  ks_position start;
  ks_start(&start);
  return ks_game_init_at(g, &start, 1);
}

/* A game whose start is pos: the keys begin with pos's. */
int ks_game_init_at(ks_game *g, const ks_position *pos, int move_number) {
  memset(g, 0, sizeof *g);
  g->pos = g->start = *pos;
  g->first_number = move_number;
  if (grow(g) != 0) return -1;
  g->keys[0] = ks_key(&g->pos);
  judge_start(g);
  return 0;
}

/* Sides alternate from the start's side to move. */
int ks_game_ply_side(const ks_game *g, int ply) { return (g->start.to_move + ply) % 2; }

/* A number covers Black's move and White's reply, so a game begun by White starts half a pair in. */
int ks_game_ply_number(const ks_game *g, int ply) { return g->first_number + (g->start.to_move + ply) / 2; }

void ks_game_free(ks_game *g) {
  free(g->moves);
  free(g->keys);
  free(g->checking);
  memset(g, 0, sizeof *g);
}


int ks_game_play(ks_game *g, const ks_move *move) {
  if (g->result != KS_ONGOING || grow(g) != 0) return -1;
  const int mover = g->pos.to_move;
  if (g->nplies == 0) g->start = g->pos; /* rule options may have been read into pos since init */
  ks_play(&g->pos, move);
  g->moves[g->nplies] = *move;
  g->checking[g->nplies] = (uint8_t)is_check(&g->pos);
  g->nplies++;
  const uint64_t key = ks_key(&g->pos);
  g->keys[g->nplies] = key;
  /* 6.2: the opponent defeated, then the mover alone */
  if (ks_defeated(&g->pos, mover ^ 1)) {
    win(g, mover, KS_BY_DEFEAT);
    return 0;
  }
  if (ks_defeated(&g->pos, mover)) {
    win(g, mover ^ 1, KS_BY_SELF_DEFEAT);
    return 0;
  }
  /* 6.4 and 6.5: the fourth occurrence of the position */
  int occurrences = 0, first = -1;
  for (int i = 0; i <= g->nplies; i++)
    if (g->keys[i] == key) {
      if (first < 0) first = i;
      occurrences++;
    }
  if (occurrences >= 4) {
    bool perpetual[2] = {true, true}, moved[2] = {false, false};
    for (int ply = first; ply < g->nplies; ply++) { /* the moves after the first occurrence */
      const int side = ks_game_ply_side(g, ply);
      moved[side] = true;
      perpetual[side] &= g->checking[ply] != 0;
    }
    const bool black = moved[0] && perpetual[0], white = moved[1] && perpetual[1];
    if (black != white)
      win(g, black ? KS_WHITE : KS_BLACK, KS_BY_PERPETUAL);
    else
      g->result = KS_NO_CONTEST, g->reason = KS_BY_REPETITION;
    return 0;
  }
  /* 6.6: no legal move for the player to move */
  ks_move *moves = NULL;
  if (ks_legal_moves_alloc(&g->pos, &moves) == 0) win(g, mover, KS_BY_NO_MOVES);
  free(moves);
  return 0;
}

void ks_game_resign(ks_game *g) {
  if (g->result == KS_ONGOING) win(g, g->pos.to_move ^ 1, KS_BY_RESIGNATION);
}

int ks_game_end(ks_game *g, int result, int reason) {
  const bool decisive = result == KS_BLACK_WINS || result == KS_WHITE_WINS;
  const bool fits = reason == KS_BY_AGREEMENT ? result == KS_NO_CONTEST
                                              : decisive && (reason == KS_BY_RESIGNATION || reason == KS_BY_TIME);
  if (g->result != KS_ONGOING || !fits) return -1;
  g->result = result;
  g->reason = reason;
  return 0;
}

/* ---- records ---- */

static const char *result_text(int result) {
  switch (result) {
  case KS_BLACK_WINS:
    return "1-0";
  case KS_WHITE_WINS:
    return "0-1";
  case KS_NO_CONTEST:
    return "1/2-1/2";
  default:
    return "*";
  }
}

char *ks_record_write(const ks_game *g, const char *black, const char *white) {
  size_t cap = 512 + KS_POSITION_TEXT + (size_t)g->nplies * 40, len = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  static const char *const reasons[] = {"", "defeat", "defeat by own burning", "repetition",
                                        "perpetual check", "no legal move", "resignation", "time", "agreement"};
  len += (size_t)snprintf(out + len, cap - len, "[Game \"Ko shogi\"]\n[Black \"%s\"]\n[White \"%s\"]\n[Result \"%s\"]\n",
                          black ? black : "", white ? white : "", result_text(g->result));
  if (g->result != KS_ONGOING)
    len += (size_t)snprintf(out + len, cap - len, "[Termination \"%s\"]\n", reasons[g->reason]);
  char rules[64];
  ks_rules_format(&g->pos, rules, sizeof rules);
  if (rules[0]) len += (size_t)snprintf(out + len, cap - len, "[Rules \"%s\"]\n", rules);
  const ks_position *first = g->nplies ? &g->start : &g->pos;
  ks_position start;
  ks_start(&start);
  start.burn = first->burn;
  if (memcmp(&start, first, sizeof start) != 0 || g->first_number != 1) { /* a set-up position */
    char text[KS_POSITION_TEXT];
    ks_position_write(first, g->first_number, text, sizeof text);
    len += (size_t)snprintf(out + len, cap - len, "[Position \"%s\"]\n", text);
  }
  len += (size_t)snprintf(out + len, cap - len, "\n");
  ks_position pos = g->start;
  for (int i = 0; i < g->nplies; i++) {
    char text[64];
    if (ks_move_format(&pos, &g->moves[i], text, sizeof text) < 0) snprintf(text, sizeof text, "?");
    const char *gap = i == 0 ? "" : i % 16 == 0 ? "\n" : " "; /* eight moves of each side a line */
    if (ks_game_ply_side(g, i) == KS_BLACK)
      len += (size_t)snprintf(out + len, cap - len, "%s%d. %s", gap, ks_game_ply_number(g, i), text);
    else if (i == 0) /* a set-up position with White to move */
      len += (size_t)snprintf(out + len, cap - len, "%d... %s", ks_game_ply_number(g, i), text);
    else
      len += (size_t)snprintf(out + len, cap - len, "%s%s", i % 16 == 0 ? "\n" : " ", text);
    ks_play(&pos, &g->moves[i]);
  }
  snprintf(out + len, cap - len, "%s%s\n", g->nplies ? " " : "", result_text(g->result));
  return out;
}

/* Copies the value of the tag line [name "value"] into out (size bytes) when line is that tag. */
static bool read_tag(const char *line, const char *name, char *out, size_t size) {
  char pattern[32];
  snprintf(pattern, sizeof pattern, "[%s \"", name);
  if (!out || strncmp(line, pattern, strlen(pattern)) != 0) return false;
  const char *v = line + strlen(pattern), *end = strchr(v, '"');
  const char *eol = strchr(v, '\n');
  if (!end || (eol && eol < end)) return false;
  snprintf(out, size, "%.*s", (int)(end - v), v);
  return true;
}

/* The tags a record is read with besides the rules and the position. */
typedef struct tags {
  char *black, *white; /* the caller's, 64 bytes each, or NULL */
  char result[16], termination[32];
} tags;

/* Reads a tag line: the players' names, the result and how the game ended, and the rules and
 * position, which must come before the moves. Returns 0, or -1 with the error naming the line. */
static int read_tag_line(ks_game *g, const char *p, int line, tags *t, char *err, size_t size) {
  read_tag(p, "Black", t->black, 64);
  read_tag(p, "White", t->white, 64);
  read_tag(p, "Result", t->result, sizeof t->result);
  read_tag(p, "Termination", t->termination, sizeof t->termination);
  char value[KS_POSITION_TEXT], why[256];
  const bool rules = read_tag(p, "Rules", value, sizeof value);
  const bool position = !rules && read_tag(p, "Position", value, sizeof value);
  if (!rules && !position) return 0;
  if (g->nplies > 0) {
    snprintf(err, size, "line %d: the [%s] tag must come before the moves", line, rules ? "Rules" : "Position");
    return -1;
  }
  ks_position pos = g->pos;
  int number = g->first_number;
  const int st = rules ? ks_rules_parse(value, &pos, why, sizeof why)
                       : ks_position_parse(value, &pos, &number, why, sizeof why);
  if (st != 0) {
    snprintf(err, size, "line %d: %s%s", line, rules ? "" : "[Position] ", why);
    return -1;
  }
  ks_game_free(g);
  if (ks_game_init_at(g, &pos, number) != 0) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  return 0;
}

/* After the moves: a game that ended off the board ends so again: by resignation or time with
 * the [Result] naming the winner (either side may resign, on either turn, as online), or by a
 * draw agreed with 1/2-1/2. */
static int read_end_off_board(ks_game *g, const tags *t, char *err, size_t size) {
  const int reason = strcmp(t->termination, "resignation") == 0 ? KS_BY_RESIGNATION
                     : strcmp(t->termination, "time") == 0      ? KS_BY_TIME
                     : strcmp(t->termination, "agreement") == 0 ? KS_BY_AGREEMENT
                                                                : KS_BY_NONE;
  if (reason == KS_BY_NONE || g->result != KS_ONGOING) return 0;
  const int result = strcmp(t->result, "1-0") == 0       ? KS_BLACK_WINS
                     : strcmp(t->result, "0-1") == 0     ? KS_WHITE_WINS
                     : strcmp(t->result, "1/2-1/2") == 0 ? KS_NO_CONTEST
                                                         : KS_ONGOING;
  if (ks_game_end(g, result, reason) != 0) {
    snprintf(err, size, "[Termination \"%s\"] with [Result \"%s\"]: %s", t->termination, t->result,
             reason == KS_BY_AGREEMENT ? "a draw agreed is 1/2-1/2" : "the result must name the winner, 1-0 or 0-1");
    return -1;
  }
  return 0;
}

int ks_record_read(ks_game *g, const char *text, char *black, char *white, char *err, size_t size) {
  if (ks_game_init(g) != 0) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  if (black) black[0] = '\0';
  if (white) white[0] = '\0';
  tags t = {black, white, "", ""};
  const char *p = text;
  int line = 1;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') line += *p++ == '\n';
    if (!*p) break;
    if (*p == '[') { /* a tag line */
      if (read_tag_line(g, p, line, &t, err, size) != 0) return -1;
      while (*p && *p != '\n') p++;
      continue;
    }
    if (*p == '{') { /* a comment */
      while (*p && *p != '}') line += *p++ == '\n';
      if (*p) p++;
      continue;
    }
    char word[96];
    int n = 0;
    while (*p && !isspace((unsigned char)*p) && n < 95) word[n++] = *p++;
    word[n] = '\0';
    if (strcmp(word, "1-0") == 0 || strcmp(word, "0-1") == 0 || strcmp(word, "1/2-1/2") == 0 || strcmp(word, "*") == 0)
      continue;
    const size_t digits = strspn(word, "0123456789");
    if (digits > 0 && digits < (size_t)n && strspn(word + digits, ".") == (size_t)n - digits) continue; /* "12." */
    const int number = ks_game_ply_number(g, g->nplies);
    const char *side = ks_game_ply_side(g, g->nplies) ? "White" : "Black";
    if (g->result != KS_ONGOING) {
      snprintf(err, size, "line %d, move %d (%s) \"%s\": the game is already over", line, number, side, word);
      return -1;
    }
    ks_move move;
    char why[160];
    if (ks_move_parse(&g->pos, word, &move, why, sizeof why) != 0) {
      snprintf(err, size, "line %d, move %d (%s) %s", line, number, side, why);
      return -1;
    }
    if (ks_game_play(g, &move) != 0) {
      snprintf(err, size, "out of memory");
      return -1;
    }
  }
  return read_end_off_board(g, &t, err, size);
}

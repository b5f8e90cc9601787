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

/* What stands in the way of defeat: G, GV, and the pair MA + banner (BN or FW). */
static void commanders(const ks_position *pos, int color, int *g, int *gv, int *ma, int *bn) {
  *g = *gv = *ma = *bn = 0;
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) != color) continue;
    const ks_face f = ks_face_of(p);
    *g += f == KS_G;
    *gv += f == KS_GV;
    *ma += f == KS_MA;
    *bn += f == KS_BN || f == KS_FW;
  }
}

bool ks_defeated(const ks_position *pos, int color) {
  int g, gv, ma, bn;
  commanders(pos, color, &g, &gv, &ma, &bn);
  return !g && !gv && !(ma && bn);
}

int ks_sole_objective(const ks_position *pos, int color) {
  /* One scan: which of G, GV, MA and the banner a player holds, and where. A piece is critical
   * when the player would be defeated without it (6.1). */
  int g = 0, gv = 0, ma = 0, bn = 0, at_g = -1, at_gv = -1, at_ma = -1, at_bn = -1;
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) != color) continue;
    const ks_face f = ks_face_of(p);
    if (f == KS_G) g++, at_g = sq;
    else if (f == KS_GV) gv++, at_gv = sq;
    else if (f == KS_MA) ma++, at_ma = sq;
    else if (f == KS_BN || f == KS_FW) bn++, at_bn = sq;
  }
  const bool pair = ma && bn;
  if (!g && !gv && !pair) return -1; /* already defeated */
  int critical = -1, count = 0;
  if (g == 1 && !gv && !pair) critical = at_g, count++;
  if (gv == 1 && !g && !pair) critical = at_gv, count++;
  if (ma == 1 && bn && !g && !gv) critical = at_ma, count++;
  if (bn == 1 && ma && !g && !gv) critical = at_bn, count++;
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
  memset(g, 0, sizeof *g);
  ks_start(&g->pos);
  if (grow(g) != 0) return -1;
  g->keys[0] = ks_key(&g->pos);
  return 0;
}

void ks_game_free(ks_game *g) {
  free(g->moves);
  free(g->keys);
  free(g->checking);
  memset(g, 0, sizeof *g);
}

static void win(ks_game *g, int color, int reason) {
  g->result = color == KS_BLACK ? KS_BLACK_WINS : KS_WHITE_WINS;
  g->reason = reason;
}

int ks_game_play(ks_game *g, const ks_move *move) {
  if (g->result != KS_ONGOING || grow(g) != 0) return -1;
  const int mover = g->pos.to_move;
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
      const int side = ply % 2; /* Black makes the even plies */
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
  size_t cap = 512 + (size_t)g->nplies * 40, len = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  static const char *const reasons[] = {"", "defeat", "defeat by own burning", "repetition",
                                        "perpetual check", "no legal move", "resignation"};
  len += (size_t)snprintf(out + len, cap - len, "[Game \"Ko shogi\"]\n[Black \"%s\"]\n[White \"%s\"]\n[Result \"%s\"]\n",
                          black ? black : "", white ? white : "", result_text(g->result));
  if (g->result != KS_ONGOING)
    len += (size_t)snprintf(out + len, cap - len, "[Termination \"%s\"]\n", reasons[g->reason]);
  char rules[64];
  ks_rules_format(&g->pos, rules, sizeof rules);
  if (rules[0]) len += (size_t)snprintf(out + len, cap - len, "[Rules \"%s\"]\n", rules);
  len += (size_t)snprintf(out + len, cap - len, "\n");
  ks_position pos;
  ks_start(&pos);
  pos.burn = g->pos.burn;
  for (int i = 0; i < g->nplies; i++) {
    char text[64];
    if (ks_move_format(&pos, &g->moves[i], text, sizeof text) < 0) snprintf(text, sizeof text, "?");
    const char *gap = i == 0 ? "" : i % 16 == 0 ? "\n" : " "; /* eight moves of each side a line */
    if (i % 2 == 0)
      len += (size_t)snprintf(out + len, cap - len, "%s%d. %s", gap, i / 2 + 1, text);
    else
      len += (size_t)snprintf(out + len, cap - len, " %s", text);
    ks_play(&pos, &g->moves[i]);
  }
  snprintf(out + len, cap - len, "%s%s\n", g->nplies ? " " : "", result_text(g->result));
  return out;
}

static void read_tag(const char *line, const char *name, char *out) {
  char pattern[32];
  snprintf(pattern, sizeof pattern, "[%s \"", name);
  if (out && strncmp(line, pattern, strlen(pattern)) == 0) {
    const char *v = line + strlen(pattern), *end = strchr(v, '"');
    if (end) snprintf(out, 64, "%.*s", (int)(end - v), v);
  }
}

int ks_record_read(ks_game *g, const char *text, char *black, char *white, char *err, size_t size) {
  if (ks_game_init(g) != 0) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  if (black) black[0] = '\0';
  if (white) white[0] = '\0';
  const char *p = text;
  int line = 1;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') line += *p++ == '\n';
    if (!*p) break;
    if (*p == '[') { /* a tag line */
      read_tag(p, "Black", black);
      read_tag(p, "White", white);
      char rules[64] = "";
      read_tag(p, "Rules", rules);
      if (strncmp(p, "[Rules ", 7) == 0) {
        char why[128];
        if (g->nplies > 0) {
          snprintf(err, size, "line %d: the [Rules] tag must come before the moves", line);
          return -1;
        }
        if (ks_rules_parse(rules, &g->pos, why, sizeof why) != 0) {
          snprintf(err, size, "line %d: %s", line, why);
          return -1;
        }
      }
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
    if (n > 1 && word[n - 1] == '.' && strspn(word, "0123456789") == (size_t)(n - 1)) continue; /* a move number */
    const int number = g->nplies / 2 + 1;
    const char *side = g->nplies % 2 ? "White" : "Black";
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
  return 0;
}

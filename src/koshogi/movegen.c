/* Legal moves of Ko shogi (KOSHOGI-RULES.md 4): every piece's movement on a scratch board, moves
 * collected as identities (4.5), then the promotion choices (5.1-5.3). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A piece's moves are gathered in a list that starts in the generator's own storage and moves to
 * the heap when a piece has more (a light among enemies has thousands): none is ever dropped. */
#define RAW_INLINE 1024

typedef struct raw_move {
  ks_move m;
  bool zone; /* some leg landed in the promotion zone */
} raw_move;

typedef struct gen {
  ks_piece board[KS_POINTS]; /* scratch: the moving piece lifted, captures removed as made */
  int color;
  int from;
  ks_face face;
  const ks_face_info *fi;
  bool pawn_forward;
  raw_move inline_raw[RAW_INLINE];
  raw_move *raw;  /* inline_raw, or a heap array of `capacity` once a piece outgrew it */
  int nraw, capacity;
  bool out_of_memory;
  bool captures_only; /* keep only moves that capture or shoot (the quiescence search's) */
} gen;

static int type_of(ks_piece p) { return ks__faces[ks_face_of(p)].type; }

static bool is_priest_type(int type) { return type == KS_TP || type == KS_SM || type == KS_FG || type == KS_IL; }

static bool in_zone(int color, int sq) {
  const int row = ks_rank(sq);
  return color == KS_BLACK ? row <= 5 : row >= 13;
}

/* The point at (dx, df) from sq for color's forward, or -1 off the board. */
static int step_to(int sq, int color, int dx, int df) {
  const int row = sq / KS_SIZE + (color == KS_BLACK ? -df : df), col = sq % KS_SIZE + dx;
  if (row < 0 || row >= KS_SIZE || col < 0 || col >= KS_SIZE) return -1;
  return row * KS_SIZE + col;
}

/* Whether the mover may land on (capture by displacement) this enemy piece (KOSHOGI-RULES.md 4.7). */
static bool can_displace(const gen *g, ks_piece target) {
  const int mover = g->fi->type, t = type_of(target);
  if (is_priest_type(mover)) return is_priest_type(t);
  if ((mover == KS_CH || mover == KS_CU || mover == KS_GC || mover == KS_CG) && t == KS_HF) return false;
  return true;
}

static bool enemy(const gen *g, int sq) { return g->board[sq] && ks_color_of(g->board[sq]) != g->color; }

static int sorted_points(const uint16_t *in, int n, uint16_t *out) {
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0 && out[j - 1] > in[i]) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = in[i];
  }
  return n;
}

/* Doubles the room for a piece's moves, moving them to the heap; false (and the generator marked
 * out of memory) when there is none. */
static bool grow_raw(gen *g) {
  const int capacity = 2 * g->capacity;
  raw_move *bigger = g->raw == g->inline_raw ? malloc((size_t)capacity * sizeof *bigger)
                                             : realloc(g->raw, (size_t)capacity * sizeof *bigger);
  if (!bigger) {
    g->out_of_memory = true;
    return false;
  }
  if (g->raw == g->inline_raw) memcpy(bigger, g->inline_raw, sizeof g->inline_raw);
  g->raw = bigger;
  g->capacity = capacity;
  return true;
}

/* Adds a move to the piece's list unless the same identity is there (then only its zone
 * eligibility is merged). */
static void add(gen *g, int to, const uint16_t *cap, int ncap, const uint16_t *shot, int nshot, bool zone,
                const ks_move *ways) {
  if (g->captures_only && !ncap && !nshot) return;
  uint16_t c[KS_MAX_CAPTURES], s[KS_MAX_SHOTS];
  sorted_points(cap, ncap, c);
  sorted_points(shot, nshot, s);
  for (int i = 0; i < g->nraw; i++) {
    const ks_move *m = &g->raw[i].m;
    if (m->to != to || m->ncap != ncap || m->nshot != nshot) continue;
    uint16_t c2[KS_MAX_CAPTURES], s2[KS_MAX_SHOTS];
    sorted_points(m->cap, ncap, c2);
    sorted_points(m->shot, nshot, s2);
    if (memcmp(c, c2, (size_t)ncap * sizeof *c) == 0 && memcmp(s, s2, (size_t)nshot * sizeof *s) == 0) {
      g->raw[i].zone |= zone;
      return;
    }
  }
  if (g->nraw == g->capacity && !grow_raw(g)) return;
  raw_move *r = &g->raw[g->nraw++];
  memset(r, 0, sizeof *r);
  r->m.from = (uint16_t)g->from;
  r->m.to = (uint16_t)to;
  r->m.ncap = (uint8_t)ncap;
  r->m.nshot = (uint8_t)nshot;
  if (ncap) memcpy(r->m.cap, cap, (size_t)ncap * sizeof *cap); /* cap may be NULL when empty */
  if (nshot) memcpy(r->m.shot, shot, (size_t)nshot * sizeof *shot);
  if (ways) {
    r->m.nway = ways->nway;
    memcpy(r->m.way, ways->way, sizeof r->m.way);
    memcpy(r->m.way_capture, ways->way_capture, sizeof r->m.way_capture);
    memcpy(r->m.shot_way, ways->shot_way, sizeof r->m.shot_way);
  }
  r->zone = zone;
}

/* Appends a waypoint to a path description. */
static void way_add(ks_move *w, int point, bool capture) {
  if (w->nway && w->way[w->nway - 1] == point && !capture && !w->way_capture[w->nway - 1]) return;
  if (w->nway == KS_MAX_WAYS) return;
  w->way[w->nway] = (uint16_t)point;
  w->way_capture[w->nway++] = capture;
}

/* The enemy pieces a shooter standing on `at` may shoot now: for each of the 8 lines, the first
 * piece (line of sight) or every piece within range (cannons shoot over pieces). */
static int shot_targets(const gen *g, int at, uint16_t *targets) {
  int n = 0;
  const int shooter = g->fi->shooter, range = g->fi->shot_range;
  for (int d = 0; d < 8; d++) {
    int sq = at;
    for (int k = 1; k <= range; k++) {
      sq = step_to(sq, g->color, ks__dir_dx[d], ks__dir_df[d]);
      if (sq < 0) break;
      if (!g->board[sq]) continue;
      if (enemy(g, sq) && ks__can_shoot(shooter, ks_face_of(g->board[sq]), k)) targets[n++] = (uint16_t)sq;
      if (shooter != S_CANNON) break; /* the first piece met stops the line */
    }
  }
  return n;
}

/* A shooter has arrived on `to` (empty) without capturing: the move itself, then each shot or
 * (Frankish guns) pair of shots (KOSHOGI-RULES.md 4.6). The scratch board has the piece on `to`. */
static void add_with_shots(gen *g, int to, bool zone) {
  add(g, to, NULL, 0, NULL, 0, zone, NULL);
  ks_move ways;
  memset(&ways, 0, sizeof ways);
  way_add(&ways, to, false);
  uint16_t first[64];
  const int n = shot_targets(g, to, first);
  for (int i = 0; i < n; i++) {
    uint16_t shots[2] = {first[i], 0};
    add(g, to, NULL, 0, shots, 1, zone, &ways);
    if (g->fi->shots < 2) continue;
    const ks_piece removed = g->board[first[i]];
    g->board[first[i]] = 0; /* the second shot is judged after the first */
    uint16_t second[64];
    const int m = shot_targets(g, to, second);
    for (int j = 0; j < m; j++) {
      shots[1] = second[j];
      add(g, to, NULL, 0, shots, 2, zone, &ways);
    }
    g->board[first[i]] = removed;
  }
}

/* One single-leg arrival: an empty point, or an enemy to displace. */
static void arrive(gen *g, int to) {
  const bool zone = in_zone(g->color, to);
  if (!g->board[to]) {
    if (g->fi->shooter == S_BOW || g->fi->shooter == S_CANNON || g->fi->shooter == S_FRANKISH) {
      g->board[to] = ks_make(g->color, g->face);
      add_with_shots(g, to, zone);
      g->board[to] = 0;
    } else {
      add(g, to, NULL, 0, NULL, 0, zone, NULL);
    }
  } else if (enemy(g, to) && can_displace(g, g->board[to])) {
    const uint16_t cap = (uint16_t)to;
    ks_move ways;
    memset(&ways, 0, sizeof ways);
    way_add(&ways, to, true);
    add(g, to, &cap, 1, NULL, 0, zone, &ways);
  }
}

static void gen_steps(gen *g) {
  for (int d = 0; d < 8; d++) {
    if (!(g->fi->step & (1 << d))) continue;
    if (g->face == KS_P && (1 << d) == D_F && !g->pawn_forward) continue; /* the drum is gone (4.10) */
    const int to = step_to(g->from, g->color, ks__dir_dx[d], ks__dir_df[d]);
    if (to >= 0) arrive(g, to);
  }
}

static void gen_ranges(gen *g) {
  for (int d = 0; d < 8; d++) {
    const bool unlimited = g->fi->range & (1 << d), limited = g->fi->range5 & (1 << d);
    if (!unlimited && !limited) continue;
    int sq = g->from;
    for (int k = 1; !limited || k <= 5; k++) {
      sq = step_to(sq, g->color, ks__dir_dx[d], ks__dir_df[d]);
      if (sq < 0) break;
      const bool occupied = g->board[sq] != 0;
      arrive(g, sq);
      if (occupied) break;
    }
  }
}

static const int8_t knight[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};
static const int8_t orth2[4][2] = {{0, 2}, {0, -2}, {2, 0}, {-2, 0}};
static const int8_t diag2[4][2] = {{2, 2}, {-2, 2}, {2, -2}, {-2, -2}};

static void gen_jumps(gen *g) {
  if (g->fi->jumps & J_D)
    for (int i = 0; i < 4; i++) {
      const int to = step_to(g->from, g->color, orth2[i][0], orth2[i][1]);
      if (to >= 0) arrive(g, to);
    }
  if (g->fi->jumps & J_A)
    for (int i = 0; i < 4; i++) {
      const int to = step_to(g->from, g->color, diag2[i][0], diag2[i][1]);
      if (to >= 0) arrive(g, to);
    }
  if (g->fi->jumps & J_N)
    for (int i = 0; i < 8; i++) {
      const int to = step_to(g->from, g->color, knight[i][0], knight[i][1]);
      if (to >= 0) arrive(g, to);
    }
}

/* ---- multi-leg moves (KOSHOGI-RULES.md 4.5) ---- */

typedef struct path {
  uint16_t cap[KS_MAX_CAPTURES];
  uint16_t shot[KS_MAX_SHOTS];
  int ncap, nshot;
  bool zone;
  int first_dx, first_df; /* the first leg's vector */
  ks_move ways;           /* the waypoints so far (only the way fields are used) */
} path;

/* The leg vectors of a kind, as (dx, df). */
static int leg_vectors(int legs, int8_t out[16][2]) {
  int n = 0;
  const bool king = legs == L_K2, diag = legs == L_F2 || legs == L_FD2 || king,
             orth = legs == L_W2 || legs == L_WA2 || legs == L_W5 || legs == L_W5_LINE || king;
  if (orth)
    for (int d = 0; d < 4; d++) out[n][0] = ks__dir_dx[d], out[n][1] = ks__dir_df[d], n++;
  if (diag)
    for (int d = 4; d < 8; d++) out[n][0] = ks__dir_dx[d], out[n][1] = ks__dir_df[d], n++;
  if (legs == L_FD2)
    for (int i = 0; i < 4; i++) out[n][0] = orth2[i][0], out[n][1] = orth2[i][1], n++;
  if (legs == L_WA2 || legs == L_PRIEST2 || legs == L_PRIEST)
    for (int i = 0; i < 4; i++) out[n][0] = diag2[i][0], out[n][1] = diag2[i][1], n++;
  if (legs == L_PRIEST2 || legs == L_PRIEST)
    for (int i = 0; i < 4; i++) out[n][0] = orth2[i][0], out[n][1] = orth2[i][1], n++;
  if (legs == L_N2 || legs == L_N2_CLASS)
    for (int i = 0; i < 8; i++) out[n][0] = knight[i][0], out[n][1] = knight[i][1], n++;
  return n;
}

static int max_legs(int legs) {
  switch (legs) {
  case L_W5:
  case L_W5_LINE:
    return 5;
  case L_PRIEST:
    return 1;
  default:
    return 2;
  }
}

/* Whether a later leg (dx, df) may follow the path's first leg. */
static bool leg_allowed(int legs, const path *p, int dx, int df) {
  if (legs == L_W5_LINE) return p->first_dx == 0 ? dx == 0 : df == 0; /* on the first leg's line */
  if (legs == L_N2_CLASS) {
    if (dx == -p->first_dx && df == -p->first_df) return true; /* straight back */
    /* the same orthogonal class: the same long component */
    if (abs(p->first_df) == 2) return df == p->first_df;
    return dx == p->first_dx;
  }
  return true;
}

static void legs_from(gen *g, int at, int done, path *p);

/* After landing on an empty point, a priest may shoot one adjacent enemy (and go on). */
static void priest_shots(gen *g, int at, int done, path *p) {
  if (p->nshot >= KS_MAX_SHOTS) return;
  for (int d = 0; d < 8; d++) {
    const int sq = step_to(at, g->color, ks__dir_dx[d], ks__dir_df[d]);
    if (sq < 0 || !enemy(g, sq)) continue;
    const ks_piece shot = g->board[sq];
    g->board[sq] = 0;
    const ks_move saved_ways = p->ways;
    way_add(&p->ways, at, false);
    p->ways.shot_way[p->nshot] = (uint8_t)(p->ways.nway - 1);
    p->shot[p->nshot++] = (uint16_t)sq;
    add(g, at, p->cap, p->ncap, p->shot, p->nshot, p->zone, &p->ways);
    if (done < max_legs(g->fi->legs)) legs_from(g, at, done, p);
    p->nshot--;
    p->ways = saved_ways;
    g->board[sq] = shot;
  }
}

static void legs_from(gen *g, int at, int done, path *p) {
  int8_t vec[16][2];
  const int n = leg_vectors(g->fi->legs, vec);
  for (int i = 0; i < n; i++) {
    const int dx = vec[i][0], df = vec[i][1];
    if (done > 0 && !leg_allowed(g->fi->legs, p, dx, df)) continue;
    const int to = step_to(at, g->color, dx, df);
    if (to < 0) continue;
    const ks_piece there = g->board[to];
    const bool capture = there && to != g->from;
    if (capture && (!enemy(g, to) || !can_displace(g, there))) continue;
    if (capture && p->ncap >= KS_MAX_CAPTURES) continue;
    const path saved = *p;
    if (done == 0) p->first_dx = dx, p->first_df = df;
    if (capture) {
      g->board[to] = 0;
      p->cap[p->ncap++] = (uint16_t)to;
      way_add(&p->ways, to, true);
    }
    p->zone |= in_zone(g->color, to);
    add(g, to, p->cap, p->ncap, p->shot, p->nshot, p->zone, &p->ways);
    const bool priest = g->fi->legs == L_PRIEST || g->fi->legs == L_PRIEST2;
    if (priest && !capture) priest_shots(g, to, done + 1, p);
    if (done + 1 < max_legs(g->fi->legs)) legs_from(g, to, done + 1, p);
    if (capture) g->board[to] = there;
    *p = saved;
  }
}

/* ---- the whole position ---- */

/* The points of the side to move's pieces that an enemy net immobilizes (KOSHOGI-RULES.md 4.9). */
static void immobilized(const ks_position *pos, int color, bool out[KS_POINTS]) {
  memset(out, 0, KS_POINTS * sizeof *out);
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (!p || ks_color_of(p) == color || !ks__faces[ks_face_of(p)].nets) continue;
    const int net_color = ks_color_of(p), dirs = ks__faces[ks_face_of(p)].nets;
    for (int d = 0; d < 8; d++) {
      if (!(dirs & (1 << d))) continue;
      int at = sq;
      while ((at = step_to(at, net_color, ks__dir_dx[d], ks__dir_df[d])) >= 0 && !pos->board[at]) {
      }
      if (at >= 0 && ks_color_of(pos->board[at]) == color) out[at] = true;
    }
  }
}

static bool has_face(const ks_position *pos, int color, ks_face a, ks_face b) {
  for (int sq = 0; sq < KS_POINTS; sq++) {
    const ks_piece p = pos->board[sq];
    if (p && ks_color_of(p) == color && (ks_face_of(p) == a || ks_face_of(p) == b)) return true;
  }
  return false;
}

/* Writes a move into the caller's list when there is room; every move is counted either way. */
static void emit(ks_move *moves, int capacity, int *n, const ks_move *m) {
  if (*n < capacity) moves[*n] = *m;
  (*n)++;
}

/* Writes one piece's moves (in g->raw) with their promotion choices (KOSHOGI-RULES.md 5.1-5.3): by
 * capture compulsory, by the zone optional (both versions listed). */
static void emit_piece(const gen *g, const ks_position *pos, bool priest_present, ks_move *moves, int capacity,
                       int *n) {
  const bool can_promote =
      g->fi->promotes != KS_EMPTY && (!ks__promotion_needs_priest(g->face) || priest_present);
  for (int i = 0; i < g->nraw; i++) {
    ks_move m = g->raw[i].m;
    bool forced = false;
    for (int c = 0; c < m.ncap; c++) forced |= ks__forces_promotion(g->face, ks_face_of(pos->board[m.cap[c]]));
    for (int s = 0; s < m.nshot; s++) forced |= ks__forces_promotion(g->face, ks_face_of(pos->board[m.shot[s]]));
    const bool zone = in_zone(g->color, g->from) || g->raw[i].zone;
    if (can_promote && forced) {
      m.promote = 1;
    } else if (can_promote && zone) {
      m.optional = 1;
      emit(moves, capacity, n, &m);
      m.promote = 1;
    }
    emit(moves, capacity, n, &m);
  }
}

/* Generates the moves of the piece on `from` into g->raw, on the scratch board with it lifted. */
static void gen_piece(gen *g, int from, ks_piece piece, bool drum_present) {
  g->from = from;
  g->face = ks_face_of(piece);
  g->fi = &ks__faces[g->face];
  g->pawn_forward = g->face == KS_P && drum_present;
  g->nraw = 0;
  g->board[from] = 0; /* lifted: its point is empty for the move */
  gen_steps(g);
  gen_ranges(g);
  gen_jumps(g);
  if (g->fi->legs) {
    path p;
    memset(&p, 0, sizeof p);
    legs_from(g, from, 0, &p);
  }
  g->board[from] = piece;
}

/* Which pieces' moves generate() lists: every piece, or only those with one face, one point left
 * out (what the notation needs to know whether a move needs its origin written). */
typedef struct piece_filter {
  ks_face face; /* KS_EMPTY for every face */
  int except;   /* a point left out, or -1 */
} piece_filter;

static const piece_filter every_piece = {KS_EMPTY, -1};

/* Generates the moves of every piece the filter keeps in turn (or only those that capture or
 * shoot), counting them all and writing as many as fit. */
static int generate(const ks_position *pos, ks_move *moves, int capacity, bool captures_only, piece_filter filter) {
  static _Thread_local gen g; /* large: kept off the stack */
  g.captures_only = captures_only;
  const int color = pos->to_move;
  bool frozen[KS_POINTS];
  immobilized(pos, color, frozen);
  const bool priest_present = ks__priest_present(pos, color);
  const bool drum_present = has_face(pos, color, KS_DR, KS_TC);
  /* one scratch copy for all pieces: every generator puts back what it changes */
  memcpy(g.board, pos->board, sizeof g.board);
  g.color = color;
  g.raw = g.inline_raw;
  g.capacity = RAW_INLINE;
  g.out_of_memory = false;
  int n = 0;
  for (int from = 0; from < KS_POINTS && !g.out_of_memory; from++) {
    const ks_piece piece = pos->board[from];
    if (!piece || ks_color_of(piece) != color || frozen[from]) continue;
    if (from == filter.except || (filter.face != KS_EMPTY && ks_face_of(piece) != filter.face)) continue;
    gen_piece(&g, from, piece, drum_present);
    emit_piece(&g, pos, priest_present, moves, capacity, &n);
  }
  if (g.raw != g.inline_raw) free(g.raw);
  g.raw = g.inline_raw;
  return g.out_of_memory ? -1 : n;
}

int ks_legal_moves(const ks_position *pos, ks_move *moves, int capacity) {
  return generate(pos, moves, capacity, false, every_piece);
}

int ks__capture_moves(const ks_position *pos, ks_move *moves, int capacity) {
  return generate(pos, moves, capacity, true, every_piece);
}

int ks__face_moves(const ks_position *pos, ks_face face, int except, ks_move *moves, int capacity) {
  const piece_filter filter = {face, except};
  return generate(pos, moves, capacity, false, filter);
}

/* Generates into a list of KS_MAX_MOVES, and again into one of the right size when that was short. */
int ks_legal_moves_alloc(const ks_position *pos, ks_move **out) {
  int capacity = KS_MAX_MOVES;
  ks_move *moves = malloc((size_t)capacity * sizeof *moves);
  while (moves) {
    const int n = ks_legal_moves(pos, moves, capacity);
    if (n < 0) break;
    if (n <= capacity) {
      *out = moves;
      return n;
    }
    capacity = n;
    ks_move *bigger = realloc(moves, (size_t)capacity * sizeof *bigger);
    if (!bigger) break;
    moves = bigger;
  }
  free(moves);
  *out = NULL;
  return -1;
}

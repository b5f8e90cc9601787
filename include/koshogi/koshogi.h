/* Ko shogi (広将棋), the 19x19 shogi variant, as docs/KOSHOGI-RULES.md settles it: the board, the
 * 64 faces of the pieces, legal moves (steps, ranges, jumps, multi-leg moves, shots), making a
 * move with its side effects (burning, promotion, the clerk's effect, reversions) and perft.
 * Separate from libgoita: it shares the project's conventions, not its rules code. */
#ifndef KOSHOGI_H
#define KOSHOGI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KS_SIZE 19
#define KS_POINTS 361
#define KS_NONE 0xffff

/* A point: row * 19 + col, row 0 = rank a (top), col 0 = file 19 (left, Black's view). */
static inline int ks_point(int file, int rank_index) { return rank_index * KS_SIZE + (KS_SIZE - file); }
static inline int ks_file(int point) { return KS_SIZE - point % KS_SIZE; }
static inline int ks_rank(int point) { return point / KS_SIZE; } /* 0 = a ... 18 = s */

typedef enum ks_color { KS_BLACK = 0, KS_WHITE = 1 } ks_color;

/* The faces (KOSHOGI-RULES.md 3.2 and 3.3). The 34 starting types first, then the 23 promoted-only
 * types, then the 7 promoted faces that move as a starting type. 0 is no piece. The commissar
 * has two faces, one per origin, because the notation writes it +PU or +VG. */
typedef enum ks_face {
  KS_EMPTY = 0,
  KS_G, KS_CL, KS_SO, KS_AC, KS_WR, KS_AI, KS_ST, KS_CS, KS_EN, KS_TP, KS_SM, KS_AG, KS_MA, KS_DR, KS_BN,
  KS_SN, KS_MI, KS_QM, KS_CE, KS_RG, KS_FC, KS_EL, KS_LB, KS_XB, KS_CN, KS_CM, KS_CV, KS_P, KS_PU, KS_SH,
  KS_SU, KS_CH, KS_CU, KS_VG,
  KS_MR, KS_BD, KS_TB, KS_VB, KS_VC, KS_PF, KS_FG, KS_IL, KS_SK, KS_GV, KS_TC, KS_FW, KS_DA, KS_TW, KS_WH,
  KS_EW, KS_CG, KS_LC, KS_XC, KS_GC, KS_WG, KS_CO, KS_HF,
  KS_PAC, KS_PSN, KS_PCM, KS_PP, KS_PSH, KS_PCH, KS_PCU, /* +AC +SN +CM +P +SH +CH +CU */
  KS_COV, /* the commissar promoted from the vanguard: it moves as KS_CO but is written +VG */
  KS_FACES
} ks_face;

/* A piece on a point: 0 empty, else face | (color << 7). */
typedef uint8_t ks_piece;
static inline ks_piece ks_make(int color, ks_face f) { return (ks_piece)((unsigned)f | ((unsigned)color << 7)); }
static inline ks_face ks_face_of(ks_piece p) { return (ks_face)(p & 0x7f); }
static inline int ks_color_of(ks_piece p) { return p >> 7; } /* ks_color */

/* The rule option of D20: whom a poison flame burns. */
typedef enum ks_burn { KS_BURN_BOTH = 0, KS_BURN_ENEMY = 1 } ks_burn;

typedef struct ks_position {
  ks_piece board[KS_POINTS];
  uint8_t to_move; /* ks_color */
  uint8_t burn;    /* ks_burn: burn=both (the default, D20) or burn=enemy; fixed for a game */
} ks_position;

/* Reads rule options into pos: a comma-separated list of name=value, today only
 * "burn=both" or "burn=enemy"; "" keeps the defaults. Returns 0, or -1 with the reason in err
 * (pos is then unchanged). */
int ks_rules_parse(const char *text, ks_position *pos, char *err, size_t errsize);
/* Writes pos's rule options that differ from the defaults ("burn=enemy", or ""). */
void ks_rules_format(const ks_position *pos, char *buf, size_t size);

/* A move as an identity (KOSHOGI-RULES.md 4.5): where the piece starts and ends, what it captured by
 * displacement (in path order) and by shots (in firing order), and whether it promotes. */
#define KS_MAX_CAPTURES 5
#define KS_MAX_SHOTS 2
#define KS_MAX_WAYS (KS_MAX_CAPTURES + KS_MAX_SHOTS)
typedef struct ks_move {
  uint16_t from, to;
  uint8_t ncap, nshot;
  uint16_t cap[KS_MAX_CAPTURES];
  uint16_t shot[KS_MAX_SHOTS];
  uint8_t promote;   /* 1: the piece promotes at the end of the move */
  uint8_t optional;  /* 1: a zone promotion it could have declined (or took), for notation */
  /* One path realising the move, for notation (KOSHOGI-RULES.md 7.4): the waypoints where it captured
   * (way_capture 1) or from which it shot (0), in path order; shot_way[i] is the waypoint shot i
   * was fired from. */
  uint8_t nway;
  uint16_t way[KS_MAX_WAYS];
  uint8_t way_capture[KS_MAX_WAYS];
  uint8_t shot_way[KS_MAX_SHOTS];
} ks_move;

/* A list size that holds the legal moves of every position of real play (the start has 226).
 * It is no bound: a set-up position can have more (a light among enemy pawns has 3,585 alone),
 * so callers check what ks_legal_moves returns, or use ks_legal_moves_alloc. */
#define KS_MAX_MOVES 4096

/* Short ID ("CH", "+CH" for promoted faces written with the unpromoted ID) and kanji. */
const char *ks_face_id(ks_face face);
const char *ks_face_kanji(ks_face face);

/* ---- what a piece does, for help (docs/KOSHOGI.md, "Help for every piece") ---- */

/* The powers a face has beyond moving, each with the section of KOSHOGI-RULES.md that gives it.
 * Each is read from the same tables the engine plays by (src/koshogi/internal.h). */
enum ks_power {
  KS_POWER_COMMANDS = 1u << 0,     /* a commanding piece, G or GV (6.1) */
  KS_POWER_JUMPS = 1u << 1,        /* jumps: what stands between does not matter (4.4) */
  KS_POWER_MULTI_LEG = 1u << 2,    /* moves in several legs, may capture on each and pass (4.5) */
  KS_POWER_SHOOTS = 1u << 3,       /* a bow or gun: after a move that captures nothing, shoots (4.6) */
  KS_POWER_SHOOTS_OVER = 1u << 4,  /* its shot goes over pieces (a cannon, 4.6) */
  KS_POWER_TWO_SHOTS = 1u << 5,    /* fires twice, the second judged after the first (4.6) */
  KS_POWER_PRIEST = 1u << 6,       /* lands only on empty points or enemy priests (4.7) */
  KS_POWER_BURNS = 1u << 7,        /* burns the 8 points around where it ends (4.8) */
  KS_POWER_NETS = 1u << 8,         /* freezes the first enemy on each of its net lines (4.9) */
  KS_POWER_NEEDS_DRUM = 1u << 9,   /* steps forward only while its drum is on the board (4.10) */
  KS_POWER_NEEDS_PRIEST = 1u << 10, /* promotes only while its Taoist priest is on the board (5.1, 5.5) */
  KS_POWER_STEP_MOVER = 1u << 11,  /* a step mover: capturing WR, DA, FW or TC promotes it (5.3) */
  KS_POWER_REVERTS_WITHOUT_PRIEST = 1u << 12, /* turns back once its Taoist priest is gone (5.5) */
  KS_POWER_CLERK = 1u << 13,       /* its promotion promotes its guards and kills enemy flames (5.4) */
  KS_POWER_FORTRESS = 1u << 14,    /* chariot-like pieces cannot take it (4.7) */
  KS_POWER_REVERTS_NEAR_LIGHT = 1u << 15, /* turns back near an immaculate light (5.5) */
  KS_POWER_PAIRS_WITH_BANNER = 1u << 16,  /* MA: with a banner, keeps its side alive (6.1) */
  KS_POWER_PAIRS_WITH_MA = 1u << 17,      /* BN, FW: with an unpromoted MA, keeps its side alive (6.1) */
  KS_POWER_PRIEST_SHOTS = 1u << 18,       /* after each jump onto an empty point, shoots a neighbour (4.6) */
  KS_POWER_KEEPS_DRUM_BANNER = 1u << 19,  /* the Taoist priest: its side's DR and BN need it (5.5) */
  KS_POWER_TURNS_FOGS_BACK = 1u << 20,    /* IL: fogs near it turn back into priests (5.5) */
  KS_POWER_LAST = KS_POWER_TURNS_FOGS_BACK
};

/* A face as the help shows it. */
typedef struct ks_face_about {
  ks_face face;
  const char *id, *kanji, *name; /* "+SM", "聖燈", "Immaculate light" */
  const char *betza;             /* the reminder of KOSHOGI-RULES.md 3.2 or 3.3 */
  ks_face promotes;              /* the face it promotes to, KS_EMPTY if none */
  ks_face reverts;               /* the face it may revert to, KS_EMPTY if none */
  ks_face moves_as;              /* the type it counts as (itself, or the type a reused face moves as) */
  unsigned powers;               /* enum ks_power */
  int shot_range, shots;         /* 0 for a face that does not shoot */
  const char *section, *entry;   /* where KOSHOGI-RULES.md gives its rule: "3.4", "Horses" */
  const char *entry_ja;          /* the entry in Japanese: "馬" */
} ks_face_about;

/* Fills out for a face; -1 when there is no such face. */
int ks_face_describe(ks_face face, ks_face_about *out);
/* One power (a single enum ks_power bit) in a line of English, the same line in Japanese, and the
 * section of KOSHOGI-RULES.md that gives it. Returns 0, or -1 for no such power. */
int ks_power_describe(unsigned power, const char **text, const char **text_ja, const char **section);
/* A line of help that names other faces, composed from the engine's tables: which captures force
 * the face's promotion (5.3), which shooters cannot shoot it, which pieces its shots cannot take
 * (4.6). The CLI and the page print these as they print the powers. */
typedef struct ks_face_note {
  char text[320];
  char text_ja[400]; /* the same line in Japanese */
  const char *section; /* "5.3", "4.6" */
} ks_face_note;
#define KS_MAX_FACE_NOTES 4
/* Writes the face's notes into notes (room for KS_MAX_FACE_NOTES); returns how many, -1 for no
 * such face. */
int ks_face_notes(ks_face face, ks_face_note notes[KS_MAX_FACE_NOTES]);

/* The face with this ID ("SM", "+sm": case does not matter), KS_EMPTY when none. */
ks_face ks_face_by_id(const char *id);

/* What ks_face_reach marks on a point. */
enum { KS_REACH_MOVE = 1, KS_REACH_PASS = 2, KS_REACH_PROMOTES = 4 };
/* The points a face reaches in one move from `point`, standing alone on an empty board with
 * `color` to move, found by the move generator: reach[p] is a set of KS_REACH_ flags (PASS on its
 * own point when a multi-leg move may come back to it; PROMOTES where the move may promote).
 * Returns the number of points marked, or -1 for a bad face, colour or point. */
int ks_face_reach(ks_face face, int color, int point, uint8_t reach[KS_POINTS]);

/* Sets up the starting position (KOSHOGI-RULES.md 2), Black to move. */
void ks_start(ks_position *pos);

/* Writes the legal moves of the side to move into moves, at most `capacity` of them, and returns
 * how many there are in all, as snprintf does: a result above capacity means the list holds only
 * the first `capacity` and a larger one is needed. Returns -1 when out of memory. */
int ks_legal_moves(const ks_position *pos, ks_move *moves, int capacity);
/* Every legal move of the side to move, in a new array (*moves, free it). Returns their number, or
 * -1 when out of memory (*moves is then NULL). */
int ks_legal_moves_alloc(const ks_position *pos, ks_move **moves);

/* Plays a legal move with every side effect, in the order of KOSHOGI-RULES.md 5.6. */
void ks_play(ks_position *pos, const ks_move *move);

/* What ks_make_move changed, so that ks_unmake_move can put it back: every point written, with
 * what stood there before, in order. 64 entries exceed what any move can change (the mover,
 * five captures, two shots, eight burned points, the clerk's effect and the reversions). */
#define KS_UNDO_MAX 64
typedef struct ks_undo {
  int n;
  uint16_t point[KS_UNDO_MAX];
  ks_piece before[KS_UNDO_MAX];
  uint8_t to_move;
} ks_undo;

/* ks_play, remembering in undo what it changed. */
void ks_make_move(ks_position *pos, const ks_move *move, ks_undo *undo);
/* Takes back the move ks_make_move recorded in undo: pos is again exactly as before it. */
void ks_unmake_move(ks_position *pos, const ks_undo *undo);

/* ---- positions as text (docs/KOSHOGI.md, "Positions") ---- */

/* Room for any position's text with its terminating NUL: 361 three-character IDs, 18 slashes and
 * the other fields. */
#define KS_POSITION_TEXT 1200

/* Reads a position: "RANKS SIDE NUMBER [RULES]", the ranks a to s separated by '/', each from
 * file 19 to 1 as piece IDs (Black upper case, White lower case, "+" for promoted faces) and
 * counts of empty points; SIDE b or w; NUMBER the number of the move about to be played (1 at the
 * start, counted as in records: one number for Black's move and White's reply); RULES the rule
 * options (ks_rules_parse; omitted or "-" for the defaults). Returns 0 with pos and *move_number
 * (may be NULL) set, or -1 with an error naming the field and the character where it went wrong
 * ("ranks: rank c, at character 57: \"QQ\" starts no piece ID"); pos is then unchanged. */
int ks_position_parse(const char *text, ks_position *pos, int *move_number, char *err, size_t errsize);
/* Writes pos in that form with the move number given; returns the length, or -1 when buf is too
 * small (KS_POSITION_TEXT always suffices). */
int ks_position_write(const ks_position *pos, int move_number, char *buf, size_t size);

/* Writes a point as in KOSHOGI-RULES.md 7.1 ("10s"); returns its length. buf holds at least 4 bytes. */
int ks_point_format(int point, char *buf);

/* Writes a legal move in the canonical notation of KOSHOGI-RULES.md 7.4 ("CM9p-7o", "WR!12n",
 * "LB-6h*6e", "MAx7c="), with the origin only when 7.5 needs it (and always when there is no
 * memory to find out: the text is then longer, never ambiguous). Returns the length, or -1 when
 * the buffer (64 bytes always suffice) is too small. */
int ks_move_format(const ks_position *pos, const ks_move *move, char *buf, size_t size);
/* The room a move's text needs (ks_move_format's "64 bytes"). */
#define KS_MOVE_TEXT 64
/* Writes each of `moves`, which must be every legal move of pos (as ks_legal_moves lists them),
 * into texts[i] exactly as ks_move_format would, in time that grows with n log n: what lists a
 * position's moves uses it. Returns 0, or -1 when out of memory. */
int ks_moves_format(const ks_position *pos, const ks_move *moves, int n, char (*texts)[KS_MOVE_TEXT]);

/* Reads a move of the side to move (KOSHOGI-RULES.md 7.6). Returns 0; -1 with the reason in err
 * (malformed text, no such legal move, or more than one); or -2 when out of memory (err says so),
 * which says nothing of the move. */
int ks_move_parse(const ks_position *pos, const char *text, ks_move *move, char *err, size_t errsize);

/* Counts the move sequences of the given depth (moves counted as identities, promotion and
 * non-promotion separately, passes included). */
uint64_t ks_perft(const ks_position *pos, int depth);

/* ---- games (KOSHOGI-RULES.md 6) ---- */

typedef enum ks_result { KS_ONGOING = 0, KS_BLACK_WINS, KS_WHITE_WINS, KS_NO_CONTEST } ks_result;

typedef enum ks_reason {
  KS_BY_NONE = 0,
  KS_BY_DEFEAT,      /* the loser has no general, no governor, not both middle troop and banner */
  KS_BY_SELF_DEFEAT, /* the mover's own poison flame burned its last commanding pieces */
  KS_BY_REPETITION,  /* the fourth occurrence of a position: no contest */
  KS_BY_PERPETUAL,   /* the fourth occurrence after one side's continuous checks: it loses */
  KS_BY_NO_MOVES,    /* the player to move has no legal move: it loses */
  KS_BY_RESIGNATION,
  KS_BY_TIME,        /* a game with a clock: the loser's flag fell */
  KS_BY_AGREEMENT    /* the players agreed to a draw: no contest */
} ks_reason;

typedef struct ks_game {
  ks_position pos;
  ks_position start;    /* the position before the first move (pos until a move is played, so that
                           rule options read into pos before it count) */
  int first_number;     /* the number of the first move (1, or a set-up position's move number) */
  int nplies;
  int capacity;
  ks_move *moves;       /* the moves played */
  uint64_t *keys;       /* keys[i]: the position after i plies (keys[0] the start) */
  uint8_t *checking;    /* checking[i]: ply i (from 0) was a checking move */
  int result;           /* ks_result */
  int reason;           /* ks_reason */
} ks_game;

/* Starts a game from the starting position, under the default rules. Returns 0, -1 when out of
 * memory. To play under other rule options, ks_rules_parse into game->pos before any move. */
int ks_game_init(ks_game *game);
/* Starts a game from a set-up position (its rules included) whose next move has this number.
 * A position that is over already is decided at once, as if the side not to move had just moved
 * into it (KOSHOGI-RULES.md 6.2, 6.6): game->result is then set. Returns 0, -1 when out of memory. */
int ks_game_init_at(ks_game *game, const ks_position *pos, int move_number);
/* The side that made ply i of the game (from 0), and that move's number as records write it. */
int ks_game_ply_side(const ks_game *game, int ply);
int ks_game_ply_number(const ks_game *game, int ply);
void ks_game_free(ks_game *game);
/* Plays a legal move and decides the game after it (KOSHOGI-RULES.md 6.2-6.6). Returns 0, -1 when
 * the game is over or memory runs out. */
int ks_game_play(ks_game *game, const ks_move *move);
/* The side to move resigns. */
void ks_game_resign(ks_game *game);
/* Ends a game still going for what the board does not decide, as a game played online ends:
 * a side resigns on either side's turn (KS_BY_RESIGNATION), its flag falls (KS_BY_TIME), both
 * with result the opponent's win, or a draw is agreed (KS_BY_AGREEMENT, result KS_NO_CONTEST).
 * Returns 0, or -1 (nothing changes) for a game over already or a result that does not go with
 * the reason. */
int ks_game_end(ks_game *game, int result, int reason);

/* Whether a player is defeated on this board (KOSHOGI-RULES.md 6.1). */
bool ks_defeated(const ks_position *pos, int color);
/* The point of a player's sole objective piece (6.1), or -1 when it has none. */
int ks_sole_objective(const ks_position *pos, int color);
/* The position's key for repetition: the placement and the side to move. */
uint64_t ks_key(const ks_position *pos);

/* A game record (docs/KOSHOGI.md): tag lines [Name "value"] ([Position "..."] for a game from a
 * set-up position), then the numbered moves and the result. Writes into a new string (free it). */
char *ks_record_write(const ks_game *game, const char *black, const char *white);
/* Reads and replays a record. On error returns -1 with the move number, side and reason in
 * err (e.g. "move 12 (White) \"CMx7o\": no legal move of the side to move matches"); game
 * then holds the moves before it. Names are copied into black/white (64 bytes each) when given. */
int ks_record_read(ks_game *game, const char *text, char *black, char *white, char *err, size_t errsize);

/* ---- the computer player ---- */

/* What a search found: the deepest iteration finished, the score for the side to move in
 * hundredths of a pawn (mate, when not 0, says the game ends in that many plies: positive for
 * a win, negative for a loss), the best line, and the work done. */
#define KS_MAX_PV 32
typedef struct ks_search_info {
  int depth;
  int seldepth; /* the deepest ply reached, the capture search included */
  int score;
  int mate;
  long nodes;
  int ms;
  int npv;
  ks_move pv[KS_MAX_PV];
} ks_search_info;

/* Evaluates a position for the side to move: material, the safety of the commanding pieces,
 * mobility. */
int ks_evaluate(const ks_position *pos);

/* Chooses a move by iterative-deepening alpha-beta within about `ms` milliseconds (and at most
 * max_depth plies; 0 for no limit). history (may be NULL) holds the keys of the game's earlier
 * positions: going back to one counts as a draw, so a player ahead avoids repetition. Returns
 * 0, or -1 when there is no legal move or no memory. */
int ks_search(const ks_position *pos, const uint64_t *history, int nhistory, int ms, int max_depth, ks_move *best,
              ks_search_info *info);

/* A searcher keeps its transposition table from one search to the next (an engine's, for a
 * game). One thread runs ks_searcher_run; another may call ks_searcher_set_stop and
 * ks_searcher_set_deadline meanwhile (the others only between searches). */
typedef struct ks_searcher ks_searcher;
#define KS_HASH_MAX_MIB 65536

/* A searcher with a table of hash_mib MiB (1 to KS_HASH_MAX_MIB), no deadline and not
 * stopped; NULL when out of memory or the size is out of range. */
ks_searcher *ks_searcher_new(size_t hash_mib);
void ks_searcher_free(ks_searcher *s);
/* A new, empty table of hash_mib MiB. Returns 0, or -1 (size out of range, out of memory)
 * with the old table kept. */
int ks_searcher_resize(ks_searcher *s, size_t hash_mib);
/* Forgets what earlier searches learned (a new game). */
void ks_searcher_clear(ks_searcher *s);
/* true: the running search (or the next one) ends as soon as it can; false: it may run. */
void ks_searcher_set_stop(ks_searcher *s, bool stop);
/* From now, no new iteration starts after soft_ms, and the search ends at hard_ms; -1 for
 * no limit. Takes effect at once on a running search. */
void ks_searcher_set_deadline(ks_searcher *s, int soft_ms, int hard_ms);

/* Limits besides the clock: the depth in plies and the nodes (0: none). */
typedef struct ks_limits {
  int depth;
  long nodes;
} ks_limits;

/* Called by the searching thread after each finished iteration. */
typedef void (*ks_report_fn)(void *ctx, const ks_search_info *info);

/* Searches pos until a limit, the deadline or a stop, and returns in best the best move found
 * (even when stopped at once: then the first move it tried). history as for ks_search.
 * Returns 0, or -1 when there is no legal move. */
int ks_searcher_run(ks_searcher *s, const ks_position *pos, const uint64_t *history, int nhistory,
                    const ks_limits *limits, ks_report_fn report, void *ctx, ks_move *best, ks_search_info *info);

#ifdef __cplusplus
}
#endif
#endif

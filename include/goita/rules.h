/* Rule options (docs/RULES.md 12): every option has a stable name and can be read from and written
 * to text such as "king_face_down=allowed,target=150". */
#ifndef GOITA_RULES_H
#define GOITA_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* king_attack (RULES.md 4): when a king may be played as an attack. (a) a king is face-up on
 * the table, (b) the player holds both kings, (c) it is the player's last piece. */
typedef enum goita_king_attack {
  GOITA_KING_ATTACK_ANY_OF_ABC = 0, /* default, seed 000 */
  GOITA_KING_ATTACK_A_OR_LAST,      /* French edition */
  GOITA_KING_ATTACK_A_OR_B          /* no last-piece exception */
} goita_king_attack;

/* king_face_down (RULES.md 4). */
typedef enum goita_king_face_down {
  GOITA_KING_FACE_DOWN_FORBIDDEN = 0, /* default; only a king-king last pair may lead a king face-down */
  GOITA_KING_FACE_DOWN_ALLOWED
} goita_king_face_down;

/* double_goshi (RULES.md 3.2): both partners of one team hold 5 pawns. */
typedef enum goita_double_goshi {
  GOITA_DOUBLE_GOSHI_WIN = 0, /* default: that team wins the game at once */
  GOITA_DOUBLE_GOSHI_POINTS,  /* "points:N": the team scores N and play goes on */
  GOITA_DOUBLE_GOSHI_DECIDE   /* "redeal_or_play" (seed 002): the team decides as for one 5-pawn
                                 hand; a redeal needs both partners */
} goita_double_goshi;

/* goshi_both_teams (RULES.md 3.4): one 5-pawn player on each team. */
typedef enum goita_goshi_both_teams {
  GOITA_GOSHI_REDEAL_IF_BOTH = 0, /* default: redeal only if both partners choose redeal */
  GOITA_GOSHI_PLAY_IF_BOTH        /* Tokyo house rule: redeal unless both choose play */
} goita_goshi_both_teams;

/* next_dealer (RULES.md 5). */
typedef enum goita_next_dealer {
  GOITA_NEXT_DEALER_WINNER = 0, /* default: the round's winner deals */
  GOITA_NEXT_DEALER_ROTATE      /* French edition: the next seat in turn order */
} goita_next_dealer;

/* king_b (RULES.md 4): how rule (b) of the king attack reads "both kings". */
typedef enum goita_king_b {
  GOITA_KING_B_HOLDS = 0, /* default, seed 000: the player holds both kings at that moment */
  GOITA_KING_B_DEALT      /* seed 001: the player was dealt both kings */
} goita_king_b;

/* goshi_decision (RULES.md 3.3): who decides a 5-pawn redeal with 4 players. */
typedef enum goita_goshi_decision {
  GOITA_GOSHI_DECISION_PARTNER = 0,      /* default, seeds 000 and 001: the partner alone */
  GOITA_GOSHI_DECISION_HOLDER_AND_PARTNER /* seed 002: the holder proposes, the partner agrees */
} goita_goshi_decision;

/* three_player_set_aside (RULES.md 8): what the 3-player game leaves out of the 32. */
typedef enum goita_set_aside {
  GOITA_SET_ASIDE_PAWNS = 0, /* default: two pawns are removed (a 30-piece set) */
  GOITA_SET_ASIDE_RANDOM     /* seed 002's note: two random pieces set aside face-down, unseen */
} goita_set_aside;

/* scale (RULES.md 10): how points are shown. The game is the same. */
typedef enum goita_scale {
  GOITA_SCALE_TENS = 0, /* as on the Japanese pieces: 10-50, target 150 */
  GOITA_SCALE_ONES      /* as on the French edition's cards: 1-5, target 15 */
} goita_scale;

/* draw (RULES.md 7): how the first dealer (and, for B and C, the teams) are chosen. */
typedef enum goita_draw_method {
  GOITA_DRAW_RANDOM = 0, /* default: a seeded random first dealer */
  GOITA_DRAW_A1,         /* each draws one of the 32; highest rank deals; ties draw again */
  GOITA_DRAW_A2,         /* pawns and one other piece; the non-pawn deals */
  GOITA_DRAW_B,          /* two pawns and two of another kind: teams; lower seat of the pair deals */
  GOITA_DRAW_C           /* two pawns, 王 and 玉: same kind are partners, 王 deals */
} goita_draw_method;

typedef struct goita_rules {
  int players;                             /* players: 4 (default), 3 or 2 (RULES.md 8) */
  bool teyaku;                             /* teyaku: on (default for 4) / off */
  bool goshi;                              /* goshi: the 5-pawn rule on (default for 4) / off */
  goita_goshi_decision goshi_decision;     /* goshi_decision: partner / holder_and_partner */
  goita_double_goshi double_goshi;         /* double_goshi: win / points:N / redeal_or_play */
  int double_goshi_points;                 /* N of points:N */
  goita_goshi_both_teams goshi_both_teams; /* goshi_both_teams */
  goita_king_attack king_attack;           /* king_attack */
  goita_king_b king_b;                     /* king_b: holds / dealt */
  goita_king_face_down king_face_down;     /* king_face_down */
  goita_next_dealer next_dealer;           /* next_dealer */
  int target;                              /* target: 150 by default (always in tens here) */
  goita_draw_method draw;                  /* draw: random / A1 / A2 / B / C */
  goita_set_aside three_player_set_aside;  /* three_player_set_aside: pawns / random */
  goita_scale scale;                       /* scale: tens / ones (how points are shown) */
} goita_rules;

/* Room for any text goita_rules_format writes. */
#define GOITA_RULES_TEXT_SIZE 512

/* Upper bounds for the sizes that depend on the number of players. */
#define GOITA_MAX_SEATS 4
#define GOITA_MAX_HAND 12
#define GOITA_MAX_PLAYS (GOITA_MAX_HAND / 2)

/* Sets every option to its default (4 players, seed 000 readings). */
GOITA_API void goita_rules_default(goita_rules *rules);

/* Reads option text ("name=value,name=value", spaces allowed around names and values) over
 * the defaults. Returns GOITA_OK, or GOITA_EOPTION / GOITA_EVALUE with err naming the option
 * or value (err->position is the option's index). An empty or NULL text gives the defaults.
 * "preset=NAME", when given, comes first and sets the options of a named rule set
 * (RULES.md 11); the options after it override it. For 3 and 2 players teyaku and goshi
 * default to off. With scale=ones the numbers of target and double_goshi=points:N are read
 * in that scale (target=15 is 150 points). */
GOITA_API int goita_rules_parse(goita_rules *rules, const char *text, goita_error *err);

/* Writes every option as text that goita_rules_parse reads back to the same rules.
 * Returns the length written (like snprintf), or GOITA_ENOSPACE when size is too small. */
GOITA_API int goita_rules_format(const goita_rules *rules, char *buf, size_t size);

/* Checks that the values are in range and consistent. Returns GOITA_OK or GOITA_EVALUE. */
GOITA_API int goita_rules_validate(const goita_rules *rules, goita_error *err);

/* Returns the name of the preset (RULES.md 11) these rules are exactly, or NULL. */
GOITA_API const char *goita_rules_preset(const goita_rules *rules);

/* What an option's value is (goita_rule_option.kind). */
typedef enum goita_rule_option_kind {
  GOITA_RULE_OPTION_CHOICE = 0,     /* one of values */
  GOITA_RULE_OPTION_NUMBER,         /* a whole number from min to max */
  GOITA_RULE_OPTION_CHOICE_OR_POINTS /* one of values, or "points:N" with N from min to max */
} goita_rule_option_kind;

/* One rule option as docs/RULES.md 12 lists it. The parser, the writer, the checks and the
 * comparison of rules are made from the same table, so a program (the browser client, the
 * Python package, a --help text) that lists options from here never drifts from the library. */
typedef struct goita_rule_option {
  const char *name;            /* as written in option text: "king_attack" */
  goita_rule_option_kind kind;
  const char *const *values;   /* the value names, NULL-terminated; NULL for a NUMBER */
  int min, max;                /* a number's range (NUMBER, points:N), in points on the tens scale */
  bool scaled;                 /* the number is written on the rules' scale: max / 10 with scale=ones */
  const char *default_value;   /* as written with 4 players on the tens scale: "150", "any_of_abc" */
  const char *section;         /* the sections of docs/RULES.md: "3.1, 8" */
  const char *seeds;           /* which seed each reading comes from: "holds: 000; dealt: 001" */
  const char *help;            /* one line saying what the option does, for --help texts */
} goita_rule_option;

/* Returns the rule options, in the order goita_rules_format writes them, preset first (which
 * format never writes: it names other options); *count (when not NULL) gets their number.
 * The table is static and lives as long as the library. */
GOITA_API const goita_rule_option *goita_rules_options(size_t *count);

/* Returns the names of the presets, NULL-terminated. */
GOITA_API const char *const *goita_rules_preset_names(void);

/* Returns points as the rules' scale shows them (150 reads 15 with scale=ones). */
GOITA_API int goita_rules_shown_points(const goita_rules *rules, int points);

/* Returns how many pieces are set aside unseen each round: 8 with 2 players, 2 with 3 players
 * and three_player_set_aside=random, else 0. */
GOITA_API int goita_rules_set_aside(const goita_rules *rules);

/* Returns how many pieces each player holds (8, 10 or 12). */
GOITA_API int goita_rules_hand_size(const goita_rules *rules);

/* Returns the number of scoring sides: 2 teams with 4 players, else one side per player. */
GOITA_API int goita_rules_sides(const goita_rules *rules);

/* Returns the scoring side of a seat: seat % 2 with 4 players, else the seat itself. */
GOITA_API int goita_rules_side_of(const goita_rules *rules, int seat);

/* Returns the number of pieces of a kind in the set these rules deal from
 * (the 3-player game removes two pawns unless it sets aside two random pieces). */
GOITA_API int goita_rules_kind_total(const goita_rules *rules, int kind);

#ifdef __cplusplus
}
#endif
#endif

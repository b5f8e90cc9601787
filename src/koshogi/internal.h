/* What the Ko shogi code knows of each face: how it moves (KOSHOGI-RULES.md 3), what it promotes to,
 * and the classes the rules name (step movers, priests, shooters, immunities). */
#ifndef KOSHOGI_INTERNAL_H
#define KOSHOGI_INTERNAL_H

#include "koshogi/koshogi.h"

/* The 8 directions relative to the owner: (dx, df) with df > 0 forward. */
enum {
  D_F = 1 << 0, D_B = 1 << 1, D_L = 1 << 2, D_R = 1 << 3,
  D_FL = 1 << 4, D_FR = 1 << 5, D_BL = 1 << 6, D_BR = 1 << 7
};
#define DW (D_F | D_B | D_L | D_R)
#define DF (D_FL | D_FR | D_BL | D_BR)
#define DK (DW | DF)
#define DS (D_L | D_R)
#define DV (D_F | D_B)
#define DFF (D_FL | D_FR)
#define DBF (D_BL | D_BR)

extern const int8_t ks__dir_dx[8], ks__dir_df[8];

/* Jumps. */
enum { J_D = 1, J_A = 2, J_N = 4 };

/* Multi-leg movements (KOSHOGI-RULES.md 4.5). */
typedef enum ks_legs {
  L_NONE = 0,
  L_K2,       /* WR, DA's step part: two king steps */
  L_F2,       /* TW's step part */
  L_W2,       /* WH's step part */
  L_FD2,      /* MR: F step or D jump, twice */
  L_WA2,      /* BD: W step or A jump, twice */
  L_N2_CLASS, /* CV, +CM: a knight jump, then one of its class or straight back */
  L_N2,       /* WG */
  L_W5,       /* TC: up to five orthogonal steps */
  L_W5_LINE,  /* FW: up to five orthogonal steps on one line */
  L_PRIEST,   /* TP, SM: one priest jump (and a shot) */
  L_PRIEST2   /* FG, IL: two priest jumps, a shot after each */
} ks_legs;

/* Shooters (KOSHOGI-RULES.md 4.6). */
typedef enum ks_shooter { S_NONE = 0, S_BOW, S_CANNON, S_FRANKISH, S_PRIEST } ks_shooter;

typedef struct ks_face_info {
  const char *id;    /* as written: "CH", "+CH" */
  const char *kanji;
  uint8_t promotes;  /* the promoted face, KS_EMPTY if none */
  uint8_t reverts;   /* the face it reverts to (FG, TC, FW), KS_EMPTY if none */
  uint8_t type;      /* the type rules see: a reused face counts as the type it moves as */
  uint8_t step;      /* directions of single steps */
  uint8_t range;     /* directions of unlimited ranging */
  uint8_t range5;    /* directions of ranging up to 5 points */
  uint8_t jumps;
  uint8_t legs;      /* ks_legs */
  uint8_t shooter;   /* ks_shooter */
  uint8_t shot_range, shots;
  uint8_t step_mover; /* an unpromoted step mover (KOSHOGI-RULES.md 5.3) */
  uint8_t nets;      /* immobilizing directions (SK, EW) */
} ks_face_info;

extern const ks_face_info ks__faces[KS_FACES];

/* The rules that name faces, as tables that both the engine plays by and the help reads
 * (about.c), so that what the help says cannot drift from what the engine does. */

/* What a face is to the defeat condition (KOSHOGI-RULES.md 6.1). */
typedef enum ks_defeat_role {
  ROLE_NONE = 0,
  ROLE_COMMANDS,   /* G, GV: a commanding piece */
  ROLE_PAIR_MA,    /* MA: with a banner, keeps its side alive */
  ROLE_PAIR_BANNER /* BN or FW: with an unpromoted MA, keeps its side alive */
} ks_defeat_role;
ks_defeat_role ks__defeat_role(ks_face face);

/* Why a face turns back to its unpromoted face (KOSHOGI-RULES.md 5.5). */
typedef enum ks_revert_reason {
  REVERT_NEVER = 0,
  REVERT_NO_PRIEST, /* TC, FW: its side has lost its Taoist priest */
  REVERT_NEAR_LIGHT /* FG: within 5 points of an immaculate light on a line */
} ks_revert_reason;
ks_revert_reason ks__revert_reason(ks_face face);

/* Whether the face is its side's Taoist priest, whose presence lets the drum and banner promote
 * and keeps TC and FW promoted (KOSHOGI-RULES.md 5.1, 5.5). */
bool ks__is_taoist_priest(ks_face face);
/* Whether the face promotes only while its side's Taoist priest is present: DR, BN (5.1). */
bool ks__promotion_needs_priest(ks_face face);
/* Whether color has its Taoist priest on the board, in either face. */
bool ks__priest_present(const ks_position *pos, int color);
/* Whether the face is an immaculate light, which turns fogs back (KOSHOGI-RULES.md 5.5). */
bool ks__turns_fogs_back(ks_face face);

/* Whether a mover with this face must promote on capturing that face (KOSHOGI-RULES.md 5.3; the
 * faces are literal), provided it can promote at all (5.1). */
bool ks__forces_promotion(ks_face mover, ks_face captured);

/* Whether a shooter of this class may shoot a piece of this face at this distance (the immunity
 * table of KOSHOGI-RULES.md 4.6); range and line of sight are the generator's. */
bool ks__can_shoot(int shooter, ks_face target, int distance);

/* The legal moves that capture by displacement or shoot, in the order ks_legal_moves lists
 * them (the same moves, with the others left out, found without sorting through the quiet
 * ones): what the quiescence search tries. Writes at most capacity, returns the full count
 * (-1 when out of memory), as ks_legal_moves does. */
int ks__capture_moves(const ks_position *pos, ks_move *moves, int capacity);

/* The legal moves of the side to move's pieces with this face, but for the piece on `except`
 * (-1 for none), in the order ks_legal_moves lists them; the same counting as ks_legal_moves. */
int ks__face_moves(const ks_position *pos, ks_face face, int except, ks_move *moves, int capacity);

/* The evaluation is a sum of features times weights (search.c), each feature a count for the
 * side to move less the same count for the other side: the material of each face, closing in
 * on the enemy's commanding pieces (weighted one way, or another when pressing home with the
 * bigger army), mobility, the safety of a sole commanding piece, and a few more. The fitter
 * (tools/koshogi_fit.py) reads the features through koshogi features and writes the weights
 * back, so that what it fits is what the search plays by. */
enum {
  KS_F_MATERIAL = 0,                 /* + face - 1: how many of the face */
  KS_F_CLOSING = KS_FACES - 1,       /* closing in: sum of 19 - the distance to the nearest enemy commander */
  KS_F_PRESSING,                     /* the same, for a side with half as much army again as the other */
  KS_F_MOBILITY,                     /* empty points along ranging lines, up to 6 each */
  KS_F_GUARD_NEAR,                   /* friends next to a sole commanding piece */
  KS_F_GUARD_FAR,                    /* friends two points from it */
  KS_F_ATTACKER_NEAR,                /* enemies next to it */
  KS_F_ATTACKER_FAR,                 /* enemies two points from it */
  KS_F_ADVANCE,                      /* ranks a step mover has advanced from its side's edge */
  KS_F_BESIEGERS,                    /* pieces within two points of an enemy commanding piece */
  KS_F_TEMPO,                        /* 1: the side to move */
  KS_EVAL_FEATURES
};
extern const int ks__eval_weights[KS_EVAL_FEATURES];

/* The features of a position for the side to move into features[] (ks_evaluate(pos) is their
 * dot product with ks__eval_weights), or, for a side defeated on the board, all zero. Returns
 * 0, or ks_evaluate's win or loss score for a defeated side. */
int ks__eval_features(const ks_position *pos, int features[KS_EVAL_FEATURES]);

/* The feature's name, as the fitter writes it beside its weight: "material CH", "mobility". */
void ks__eval_feature_name(int feature, char *buf, size_t size);

#endif

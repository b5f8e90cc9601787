/* Pieces: kinds as used in play, marks as written in the community notation. */
#ifndef GOITA_PIECE_H
#define GOITA_PIECE_H

#include "goita/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of piece in play. The numbers are the digits of the notation, so a kind is
 * also a mark; the two kings are one kind (8) in play. */
typedef enum goita_kind {
  GOITA_NONE = 0,
  GOITA_PAWN = 1,   /* し */
  GOITA_LANCE = 2,  /* 香 */
  GOITA_KNIGHT = 3, /* 馬 */
  GOITA_SILVER = 4, /* 銀 */
  GOITA_GOLD = 5,   /* 金 */
  GOITA_BISHOP = 6, /* 角 */
  GOITA_ROOK = 7,   /* 飛 */
  GOITA_KING = 8    /* 王 or 玉 */
} goita_kind;

/* Arrays of counts per kind are indexed by kind; index 0 is unused. */
#define GOITA_KIND_SLOTS 9
/* Marks name physical pieces: 1-8 as the kinds, with 8 = 王 (White King) and 9 = 玉 (Black King). */
#define GOITA_MARK_OU 8
#define GOITA_MARK_GYOKU 9
#define GOITA_PIECES 32

/* Returns the kind of a mark (9 -> king), or GOITA_NONE for anything but 1-9. */
GOITA_API int goita_mark_kind(int mark);

/* Returns the score value of a kind (king 50 ... pawn 10), 0 for GOITA_NONE. */
GOITA_API int goita_kind_value(int kind);

/* Returns how many pieces of a kind the full 32-piece set holds (king 2 ... pawn 10). */
GOITA_API int goita_kind_total(int kind);

/* Returns the dealer-draw rank of a mark (王 1, 玉 2, 飛 3 ... し 9; lower is higher), 0 if invalid. */
GOITA_API int goita_mark_draw_rank(int mark);

/* Returns the kanji of a mark as UTF-8 ("王", "玉", "飛" ... "し"), or "?" for an invalid mark. */
GOITA_API const char *goita_mark_kanji(int mark);

/* Returns the English name of a mark ("king", "rook" ... "pawn"; 9 is also "king"). */
GOITA_API const char *goita_mark_english(int mark);

/* Returns a one-letter ASCII symbol for a mark (K, k for 玉, R, B, G, S, N, L, P). */
GOITA_API char goita_mark_ascii(int mark);

#ifdef __cplusplus
}
#endif
#endif

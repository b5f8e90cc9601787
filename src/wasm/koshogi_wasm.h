/* libkoshogi for the browser's Ko shogi page (web/koshogi.js, through web/koshogi-worker.js):
 * one game per context; every call takes numbers and strings and answers JSON text, valid until
 * the next call on the same context, {"error":"..."} when something is wrong.
 *
 * A state (ksw_start, ksw_state, ksw_play, ksw_think, ksw_resign, ksw_load) is
 *   {"position": the position's text (docs/KOSHOGI.md, "Positions"), "board": 361 IDs from
 *    rank a, file 19 ("" empty, upper case Black, lower case White), "toMove": 0 Black or 1
 *    White, "ply": the plies shown, "plies": the plies played, "number": the next move's number,
 *    "firstNumber", "firstToMove": the first move's number and side (to number the moves),
 *    "result": ks_result, "reason": ks_reason, "moves": every move played in the notation,
 *    "last": {"from","to","caps":[],"shots":[]} or null,
 *    "legal": the legal moves when the view is the game's current position and it is not over,
 *    each {"from", "steps": [[point, "x" a capture on the way | "m" where it ends | "*" a shot]],
 *    "promote": 0 or 1, "text": its notation}}; points are row * 19 + column as in koshogi.h. */
#ifndef KOSHOGI_WASM_H
#define KOSHOGI_WASM_H

typedef struct ksw_context ksw_context;

/* A new context with a game from the starting position; NULL when out of memory. */
ksw_context *ksw_new(void);
/* Frees a context and its game. */
void ksw_free(ksw_context *c);
/* Every face: [{"id","kanji","name"}] in enum ks_face order. */
const char *ksw_faces(ksw_context *c);
/* A new game from a position's text, or from the starting position when text is "". */
const char *ksw_start(ksw_context *c, const char *position);
/* The game after `ply` plies (-1 or beyond the end: its current position). */
const char *ksw_state(ksw_context *c, int ply);
/* Plays a legal move written in the notation (KOSHOGI-RULES.md 7.6). */
const char *ksw_play(ksw_context *c, const char *move);
/* The computer's move within about ms milliseconds, played; the state has "think":
 * {"text","depth","score","nodes","ms"}. */
const char *ksw_think(ksw_context *c, int ms);
/* The side to move resigns. */
const char *ksw_resign(ksw_context *c);
/* Keeps the first `ply` plies of the game and drops the rest (play on from a replayed move). */
const char *ksw_truncate(ksw_context *c, int ply);
/* The game's record (docs/KOSHOGI.md, "Records"): {"record": text}. */
const char *ksw_record(ksw_context *c, const char *black, const char *white);
/* Reads a record into a new game: its state with "black" and "white" names. */
const char *ksw_load(ksw_context *c, const char *record);
/* Help for a face (an ID such as "SM" or "+sm"): ks_face_describe and where it goes alone on an
 * empty board from 10j (ks_face_reach) for `color`: {"id","kanji","name","betza","section",
 * "entry","entryJa","promotes","reverts","movesAs","shots","shotRange","powers":[{"text","ja",
 * "section"}] (the powers, then the notes of ks_face_notes), "at","reach":[[point, KS_REACH_ flags]]}. */
const char *ksw_help(ksw_context *c, const char *id, int color);

#endif

/* The JavaScript face of libgoita in the browser (web/worker.js), compiled to WebAssembly by
 * scripts/wasm.sh. Strings in and JSON text out, so the page needs no knowledge of the C
 * structs: a context holds one game, a solver and the text of the last answer, which stays
 * valid until the next call on that context. Every answer is a JSON object; a failure is
 * {"error":"..."} naming what was wrong. Moves are history-string tokens ("113", "2p", "3r"). */
#ifndef GOITA_WASM_H
#define GOITA_WASM_H

typedef struct gw_context gw_context;

/* Creates a context (NULL when memory runs out). */
gw_context *gw_new(void);

/* Frees a context (NULL is allowed). */
void gw_free(gw_context *c);

/* Starts a game under rule option text (docs/RULES.md 12) with a decimal seed: {"ok":true}. */
const char *gw_start(gw_context *c, const char *rules, const char *seed);

/* The game as seat (or -1, an observer) may see it, in the shape of the "game" object of the
 * server's state message (docs/SERVER.md), plus "over", "winner_side" and "view" (the round as
 * that seat sees it, a history string). Never more than the seat may know. */
const char *gw_state(gw_context *c, int seat);

/* The current round with every hand, as a history string: {"history":"..."}. For analysis
 * after the round is over; a page must not call it for a round in play. */
const char *gw_round_history(gw_context *c);

/* Applies one move of the seat to move: {"ok":true}, or the reason it is not legal. */
const char *gw_play(gw_context *c, const char *token);

/* Deals the next round once the current one is over: {"ok":true}. */
const char *gw_next_round(gw_context *c);

/* What a computer player (level spec, docs/PLAYERS.md) chooses for the seat to move of a
 * position (a history string as that seat sees it, or a full one, read as the mover's view):
 * {"move":"113","has_values":1,"moves":[...],"values":[...],"samples":N,"nodes":N,"ms":T}.
 * The same spec, seed and position give the same move as goita engine's "go seed". */
const char *gw_choose(gw_context *c, const char *rules, const char *history, const char *spec,
                      const char *seed);

/* The computer player's choice for seat in the context's game (its own view, with scores). */
const char *gw_choose_seat(gw_context *c, int seat, const char *spec, const char *seed);

/* The exact value of a full position and of each legal move (docs/SOLVER.md), in points for
 * the side of the seat to move: {"value":V,"complete":1,"moves":[...],"values":[[lo,hi],...],
 * "best":I,"nodes":N,"ms":T}. max_ms > 0 bounds the search (then values may be bounds). */
const char *gw_solve(gw_context *c, const char *rules, const char *history, double max_ms);

/* The pieces the mover of a position (read as gw_choose reads it) has not seen, per kind 1-8:
 * {"unseen":[10,4,...]}. Public facts only. */
const char *gw_unseen(gw_context *c, const char *rules, const char *history);

/* A hint for the mover of a position (read as gw_choose reads it: give the seat's own view,
 * the "history" of its state) from that view only (include/goita/hint.h): the best
 * moves of a computer player of spec with their values and reasons, what each other seat
 * likely holds, and the unseen count: {"moves":[{"move":"113","value":V,"deals":N,"agree":N,
 * "reasons":[{"kind":"finish","piece":5,"seat":-1,"count":50,"chance":1}]}],"samples":N,
 * "held":[[p1..p8],...],"unseen":[...]}. */
const char *gw_hint(gw_context *c, const char *rules, const char *history, const char *spec, const char *seed);
/* Makes the context's game the position of a full history string under the rules (a new game
 * whose first round has those hands and dealer, with the string's moves applied): {"ok":true}. */
const char *gw_load(gw_context *c, const char *rules, const char *history);

#endif

/* libgoita: the rules of the Japanese team game Goita, as settled in docs/RULES.md.
 *
 * Thread safety (docs/ABI.md lists every function): the library has no global mutable state.
 * Functions on constant data (names, tables, versions) may be called from any thread; the
 * others may run at once on different objects, and on one object only when every call takes
 * it by const pointer; a goita_solver or goita_player is used by one thread at a time. */
#ifndef GOITA_H
#define GOITA_H

#define GOITA_VERSION_MAJOR 0
#define GOITA_VERSION_MINOR 1
#define GOITA_VERSION_PATCH 0
#define GOITA_VERSION_STRING "0.1.0"
/* The ABI version (docs/ABI.md): raised whenever a public struct's layout, an enum's values or
 * a function's signature or meaning changes in a way that breaks programs built before. */
#define GOITA_ABI_VERSION 1

#include "goita/status.h"
#include "goita/piece.h"
#include "goita/rng.h"
#include "goita/rules.h"
#include "goita/round.h"
#include "goita/view.h"
#include "goita/draw.h"
#include "goita/game.h"
#include "goita/solo.h"
#include "goita/notation.h"
#include "goita/record.h"
#include "goita/solver.h"
#include "goita/sample.h"
#include "goita/player.h"
#include "goita/puzzle.h"
#include "goita/hint.h"
#include "goita/observation.h"
#include "goita/batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the library's version string, which may differ from the header's when linked
 * against another build. */
GOITA_API const char *goita_version(void);

/* Returns the library's GOITA_ABI_VERSION, which may differ from the header's when linked
 * against another build: a program or binding built for another value must not call it. */
GOITA_API int goita_abi_version(void);

/* Returns sizeof the public struct named (without "struct": "goita_round", "goita_view", ...)
 * in this build, or 0 for a name that is not one: lets bindings that mirror the structs
 * (python/goita/_lib.py) check them against the library they loaded. */
GOITA_API size_t goita_struct_size(const char *name);

#ifdef __cplusplus
}
#endif
#endif

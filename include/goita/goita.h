/* libgoita: the rules of the Japanese team game Goita, as settled in docs/RULES.md. */
#ifndef GOITA_H
#define GOITA_H

#define GOITA_VERSION_MAJOR 0
#define GOITA_VERSION_MINOR 1
#define GOITA_VERSION_PATCH 0
#define GOITA_VERSION_STRING "0.1.0"

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
#include "goita/observation.h"
#include "goita/batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the library's version string, which may differ from the header's when linked
 * against another build. */
GOITA_API const char *goita_version(void);

#ifdef __cplusplus
}
#endif
#endif
